"""Import a folder of online game logs into an event, each through the same service as the API; ``--create``
first makes the event (a free online league under a ruleset preset) when it does not exist."""

import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from gamelogs.services import game_log_import, online_league_create
from taikai.errors import TaikaiError
from tournament.models import Event

TENHOU_LOG_ID = re.compile(r"^\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}$")


class Command(BaseCommand):
    help = "Import online game logs (Tenhou XML or tenhou.net/6 JSON, plain or gzip) into an event's tables."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="*", help="the log files (a Tenhou log named by its id keeps the id)")
        parser.add_argument("--event", required=True, help="the event's slug")
        parser.add_argument(
            "--create",
            action="store_true",
            help="make the event first when it does not exist: a free online league, public, with that slug",
        )
        parser.add_argument("--ruleset", help="with --create: the ruleset preset's slug (e.g. tenhou, mahjong-soul)")

    def handle(self, *args, files, event, create=False, ruleset=None, **options):
        if ruleset and not create:
            raise CommandError("ruleset_without_create: --ruleset only says the ruleset of an event --create makes")
        found = Event.objects.filter(slug=event).first()
        if found is None and create:
            try:
                found = online_league_create(slug=event, ruleset_slug=ruleset or "")
            except TaikaiError as exc:
                raise CommandError(f"{exc.code}: {exc.message}") from None
            self.stdout.write(_("%(event)s: a free online league, created") % {"event": found.slug})
        if found is None:
            raise CommandError(f"unknown_event: {event}")
        refused = 0
        for name in files:
            try:
                data = Path(name).read_bytes()
            except OSError as exc:
                raise CommandError(f"log_unreadable: {name}: {exc.strerror or exc}") from None
            stem = Path(name).name.split(".")[0]
            try:
                record = game_log_import(event=found, data=data, log_id=stem if TENHOU_LOG_ID.match(stem) else "")
            except TaikaiError as exc:
                refused += 1
                self.stderr.write(f"{name}: {exc.code}: {exc.message}")
                continue
            self.stdout.write(
                _("%(file)s: round %(round)s, table %(table)s, %(hands)s hands, %(open)s disagreements")
                % {
                    "file": name,
                    "round": record.table.round.number,
                    "table": record.table.number,
                    "hands": record.hands,
                    "open": record.disagreements.count(),
                }
            )
        if refused:
            raise CommandError(f"logs_refused: {refused} of {len(files)} logs refused")
