"""Read an event archive (``export.json``) into this database as a new event (``tournament.archive.load``)."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament.archive.load import event_import


class Command(BaseCommand):
    help = "Import an event archive (export.json): a new event, its players, rounds, hands and results."

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the archive file (JSON, archive_version 1)")

    def handle(self, *args, archive, **options):
        try:
            with open(archive, encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"archive_unreadable: {exc}") from exc
        try:
            event = event_import(archive=data)
        except TaikaiError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(self.style.SUCCESS(_("Imported %(slug)s") % {"slug": event.slug}))
