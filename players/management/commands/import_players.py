from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import ngettext

from players.csv_import import CsvImportError, players_import_csv


class Command(BaseCommand):
    help = "Import players from a UTF-8 CSV file; nothing is written if any row has a problem."

    def add_arguments(self, parser):
        parser.add_argument("file", help="CSV file with a header row (display_name required)")

    def handle(self, *args, file, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"csv_file_not_found: {file}")
        try:
            created = players_import_csv(data=path.read_bytes())
        except CsvImportError as exc:
            for problem in exc.problems:
                self.stderr.write(f"csv_invalid: {problem}")
            count = len(exc.problems)
            message = ngettext(
                "%(count)s problem; no player was imported",
                "%(count)s problems; no player was imported",
                count,
            ) % {"count": count}
            raise CommandError(f"csv_invalid: {message}") from exc
        count = len(created)
        message = ngettext("Imported %(count)s player.", "Imported %(count)s players.", count) % {"count": count}
        self.stdout.write(self.style.SUCCESS(message))
