"""Restore a backup file into a scratch database and audit every event in it; exit status 1 on any violation."""

import json
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from ops.backups import BackupFailed, audit_every_event, restore_check


class Command(BaseCommand):
    help = "Restore a backup into a scratch database, run the event audit on every event, print the counts."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?")
        parser.add_argument("--audit-this-database", action="store_true", help="(inside the scratch database)")

    def handle(self, *args, file=None, audit_this_database=False, **options):
        if audit_this_database:  # in the scratch database: its schema brought up to this release, then the audit
            call_command("migrate", "--noinput", verbosity=0)
            self.stdout.write(json.dumps(audit_every_event()))
            return
        if not file:
            raise CommandError("missing_file: name the backup file to check")
        try:
            report = restore_check(Path(file))
        except BackupFailed as exc:
            raise CommandError(f"restore_failed: {exc}") from exc
        for slug, count in report.by_event.items():
            self.stdout.write(f"{slug}: {count} violations")
        self.stdout.write(
            f"{report.events} events, {report.tables} tables, {report.hands} hand versions, "
            f"{report.violations} violations"
        )
        if not report.ok:
            raise CommandError(f"{report.violations} violations in {file}", returncode=1)
