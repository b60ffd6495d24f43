"""Backups that are checked: ``backup_make`` (pg_dump's custom format, or SQLite's backup API on the
embedded default) into a folder, keeping the last N; ``restore_check`` restores a file into a scratch
database and runs the event audit on every event in it. ``/healthz`` and ``/metrics`` say when the last good
backup was made."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from ops.models import Backup
from tournament.audit import event_audit
from tournament.models import Event, HandVersion, Table

PREFIX = "taikai-"
SUFFIXES = {"postgresql": ".dump", "sqlite": ".sqlite3"}


class BackupFailed(Exception):
    pass


def _pg_env(db: dict) -> tuple[list[str], dict]:
    arguments = []
    if db.get("HOST"):
        arguments += ["-h", str(db["HOST"])]
    if db.get("PORT"):
        arguments += ["-p", str(db["PORT"])]
    if db.get("USER"):
        arguments += ["-U", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return arguments, env


def _run(command: list[str], env: dict | None = None) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupFailed(f"{command[0]}: {done.stderr.strip()[:500]}")


def backup_make(*, folder: Path, keep: int) -> Backup:
    """A backup of the database into ``folder``, checked, recorded; the oldest beyond ``keep`` removed."""
    folder.mkdir(parents=True, exist_ok=True)
    vendor = connection.vendor
    if vendor not in SUFFIXES:
        raise BackupFailed(f"no backup for {vendor}")
    started = time.monotonic()
    name = f"{PREFIX}{timezone.now().strftime('%Y%m%dT%H%M%S%fZ')}{SUFFIXES[vendor]}"
    final = folder / name
    partial = folder / f".{name}.partial"
    db = connection.settings_dict
    try:
        if vendor == "postgresql":
            arguments, env = _pg_env(db)
            _run(["pg_dump", "-Fc", "-f", str(partial), *arguments, db["NAME"]], env)
            _run(["pg_restore", "--list", str(partial)], env)  # the file reads back whole
        else:
            source = sqlite3.connect(str(db["NAME"]))
            target = sqlite3.connect(str(partial))
            try:
                source.backup(target)
                if target.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    raise BackupFailed("the copy failed its integrity check")
            finally:
                target.close()
                source.close()
        partial.rename(final)
    finally:
        partial.unlink(missing_ok=True)
    backup = Backup.objects.create(
        file=str(final),
        vendor=vendor,
        seconds=round(time.monotonic() - started, 3),
        size=final.stat().st_size,
        good=True,
    )
    backups_prune(folder=folder, keep=keep)
    return backup


def backups_prune(*, folder: Path, keep: int) -> list[Path]:
    files = sorted(p for p in folder.glob(f"{PREFIX}*") if p.suffix in SUFFIXES.values())
    removed = files[: max(0, len(files) - keep)]
    for path in removed:
        path.unlink(missing_ok=True)
    if removed:
        Backup.objects.filter(file__in=[str(p) for p in removed]).update(good=False)
    return removed


def last_good_backup() -> dict | None:
    """The last good backup: when, how old, its file, and its restore check (``None``: never)."""
    try:
        backup = Backup.objects.filter(good=True).order_by("-made_at").first()
    except DatabaseError:
        raise
    if backup is None:
        return None
    return {
        "made_at": backup.made_at.isoformat(),
        "age_seconds": round((timezone.now() - backup.made_at).total_seconds()),
        "file": Path(backup.file).name,
        "restore_ok": backup.restore_ok,
    }


@dataclass
class RestoreReport:
    file: str
    database: str
    events: int
    tables: int
    hands: int
    violations: int
    by_event: dict

    @property
    def ok(self) -> bool:
        return self.violations == 0

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "database": self.database,
            "events": self.events,
            "tables": self.tables,
            "hands": self.hands,
            "violations": self.violations,
            "by_event": self.by_event,
            "ok": self.ok,
        }


def audit_every_event() -> dict:
    """The audit of every event of this database, with its counts (run inside the scratch database)."""
    by_event = {}
    for event in Event.objects.select_related("ruleset").order_by("pk"):
        by_event[event.slug] = len(event_audit(event))
    return {
        "events": len(by_event),
        "tables": Table.objects.count(),
        "hands": HandVersion.objects.count(),
        "violations": sum(by_event.values()),
        "by_event": by_event,
    }


def _audit_in(database_url: str) -> dict:
    """Migrates and audits the database at ``database_url`` in a process of its own (its own settings)."""
    env = dict(os.environ, DATABASE_URL=database_url)
    for name in ("PROMETHEUS_MULTIPROC_DIR", "SENTRY_DSN"):
        env.pop(name, None)
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    done = subprocess.run(
        [sys.executable, manage, "restore_check", "--audit-this-database"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BackupFailed(f"audit: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def restore_check(path: Path) -> RestoreReport:
    """Restores ``path`` into a scratch database, audits every event there, drops the scratch database."""
    if not path.is_file():
        raise BackupFailed(f"no such file: {path}")
    scratch_dir = Path(tempfile.mkdtemp(prefix="taikai-restore-"))
    try:
        if path.suffix == SUFFIXES["sqlite"]:
            copy = scratch_dir / "restored.sqlite3"
            shutil.copyfile(path, copy)
            database = f"sqlite:///{copy}"
            counts = _audit_in(database)
        else:
            counts, database = _restore_check_postgres(path)
    finally:
        shutil.rmtree(scratch_dir, ignore_errors=True)
    report = RestoreReport(file=str(path), database=database.split("@")[-1], **counts)
    Backup.objects.filter(file=str(path)).update(
        restore_checked_at=timezone.now(), restore_ok=report.ok, restore_report=report.as_dict()
    )
    return report


def _restore_check_postgres(path: Path) -> tuple[dict, str]:
    import psycopg

    db = connection.settings_dict
    scratch = f"taikai_restore_check_{os.getpid()}_{int(time.time())}"
    arguments, env = _pg_env(db)
    auth = f"{db.get('USER') or ''}{':' + db['PASSWORD'] if db.get('PASSWORD') else ''}"
    server = f"{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}"
    admin_url = f"postgresql://{server}/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{scratch}"')
    try:
        _run(["pg_restore", "--no-owner", "--exit-on-error", "-d", scratch, *arguments, str(path)], env)
        counts = _audit_in(f"postgres://{server}/{scratch}")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    return counts, f"postgres://{server}/{scratch}"
