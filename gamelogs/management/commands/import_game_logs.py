"""Import a folder of online game logs into an event, each through the same service as the API."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from gamelogs.services import game_log_import
from taikai.errors import TaikaiError
from tournament.models import Event


class Command(BaseCommand):
    help = "Import online game logs (Tenhou XML or tenhou.net/6 JSON, plain or gzip) into an event's tables."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="the log files")
        parser.add_argument("--event", required=True, help="the event's slug")

    def handle(self, *args, files, event, **options):
        found = Event.objects.filter(slug=event).first()
        if found is None:
            raise CommandError(f"unknown_event: {event}")
        refused = 0
        for name in files:
            try:
                data = Path(name).read_bytes()
            except OSError as exc:
                raise CommandError(f"log_unreadable: {name}: {exc}") from exc
            try:
                record = game_log_import(event=found, data=data)
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
            raise CommandError(f"{refused} of {len(files)} logs refused")
