"""Back the database up into BACKUP_DIR (or --dir), checked, keeping the last BACKUP_KEEP (or --keep)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ops.backups import BackupFailed, backup_make


class Command(BaseCommand):
    help = "Back the database up (pg_dump custom format, or SQLite's backup API), checked, keeping the last N."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=None, help="the backups' folder (default: BACKUP_DIR)")
        parser.add_argument("--keep", type=int, default=None, help="how many backups to keep (default: BACKUP_KEEP)")

    def handle(self, *args, dir=None, keep=None, **options):
        folder = Path(dir or settings.BACKUP_DIR)
        keep = settings.BACKUP_KEEP if keep is None else keep
        if keep < 1:
            raise CommandError("invalid_keep: --keep must be 1 or more")
        try:
            backup = backup_make(folder=folder, keep=keep)
        except BackupFailed as exc:
            raise CommandError(f"backup_failed: {exc}") from exc
        self.stdout.write(f"{backup.file} {backup.size} bytes in {backup.seconds} s, checked")
