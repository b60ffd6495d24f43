"""Read an event archive (``export.json``) into this database as a new event (``archive.load``)."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.load import archive_lookalikes, event_import
from archive.schema import archive_check
from taikai.errors import TaikaiError


class Command(BaseCommand):
    help = "Import an event archive (export.json): a new private event, its players, rounds, hands and results."

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the archive file (JSON, archive_version 1)")
        parser.add_argument(
            "--link-players",
            action="store_true",
            help="players with the external id of a stored player are that player (default: new players)",
        )

    def handle(self, *args, archive, link_players=False, **options):
        try:
            with open(archive, encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"archive_unreadable: {exc}") from exc
        except RecursionError as exc:  # nested deeper than the reader goes: refused as any file not JSON
            raise CommandError(
                "archive_unreadable: " + _("the file nests lists or objects too deeply to be an archive")
            ) from exc
        try:
            archive_check(data)
            lookalikes = archive_lookalikes(data)
            link = {lookalike.archive_id for lookalike in lookalikes} if link_players else set()
            event = event_import(archive=data, link=link)
        except TaikaiError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if lookalikes:
            said = (
                _("%(count)s players with the external id of a stored player are that player.")
                if link_players
                else _(
                    "%(count)s players with the external id of a stored player were created as new players "
                    "(--link-players makes them the stored ones)."
                )
            )
            self.stdout.write(said % {"count": len(lookalikes)})
        self.stdout.write(self.style.SUCCESS(_("Imported %(slug)s (private, marked imported)") % {"slug": event.slug}))
