"""The squashed migrations against the chains they replace: a fresh database migrated with the squashed
migrations (what ``migrate`` does) and one migrated with the old chains only (the squashed files hidden from
the loader) must end with the same schema and the same rows (content types, permissions, groups, presets...);
and the CPU ``migrate`` costs each way.

    python benchmarks/squashed_migrations.py                      # SQLite files in a temporary folder
    python benchmarks/squashed_migrations.py --database-url postgres://postgres@127.0.0.1:5432/taikai_squash
    python benchmarks/squashed_migrations.py --from tournament 0020_standings_hidden_from_round

``--from APP MIGRATION``: both databases are first migrated by the old chain up to that migration (a database
part-way through it), then one goes on with the old chain and the other with today's code.
With ``--database-url``, two databases named after it (``_old``, ``_new``) are created and dropped.

SQLite: ``sqlite_master`` (whitespace normalised) and every table's rows; ``sqlite_sequence`` counters at 0 (a
table rebuilt while empty) count as none. PostgreSQL: ``pg_dump --schema-only`` and every table's rows. The rows
of ``django_migrations`` are compared by (app, name), the squashed migrations' own names left out.
Exits 1 when the two differ, printing the difference.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent

# Runs manage.py with the squashed migrations hidden from the loader: the old chains only.
OLD_CHAIN = """
import sys
from django.db.migrations import loader
load_disk = loader.MigrationLoader.load_disk
def old_chain_only(self):
    load_disk(self)
    for key, migration in list(self.disk_migrations.items()):
        if migration.replaces:
            del self.disk_migrations[key]
loader.MigrationLoader.load_disk = old_chain_only
from django.core.management import execute_from_command_line
execute_from_command_line(["manage.py", *sys.argv[1:]])
"""


def manage(url: str, *args: str, old_chain: bool = False) -> float:
    """Run a management command on the database at ``url``; the CPU it cost (user + system, in seconds)."""
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    command = [sys.executable, "-c", OLD_CHAIN, *args] if old_chain else [sys.executable, "manage.py", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sqlite_dump(path: str) -> list[str]:
    db = sqlite3.connect(path)
    out = []
    for type_, name, table, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY 1, 2"):
        sql = re.sub(r"\s+", " ", sql or "").replace("( ", "(").replace(" )", ")")
        out.append(f"{type_} {name} on {table}: {sql}")
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        if table == "django_migrations":
            query = "SELECT app, name FROM django_migrations WHERE name NOT LIKE '%squashed%' ORDER BY 1, 2"
        elif table == "sqlite_sequence":
            query = "SELECT * FROM sqlite_sequence WHERE seq > 0 AND name <> 'django_migrations' ORDER BY 1"
        else:
            query = f'SELECT * FROM "{table}" ORDER BY 1'
        rows = db.execute(query).fetchall()
        out.append(f"-- {table}: {len(rows)} rows")
        out.extend(repr(row) for row in rows)
    db.close()
    return out


def psql(url: str, query: str) -> list[str]:
    return subprocess.run(
        ["psql", "-X", "-At", "-c", query, url], check=True, capture_output=True, text=True
    ).stdout.splitlines()


def postgres_dump(url: str) -> list[str]:
    schema = subprocess.run(
        ["pg_dump", "--schema-only", "--no-owner", url], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    out = [line for line in schema if line and not line.startswith("--") and not line.startswith("\\")]
    for table in psql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"):
        if table == "django_migrations":
            query = "SELECT app, name FROM django_migrations WHERE name NOT LIKE '%squashed%' ORDER BY 1, 2"
        else:
            query = f'SELECT * FROM "{table}" ORDER BY 1'
        rows = psql(url, query)
        out.append(f"-- {table}: {len(rows)} rows")
        out.extend(rows)
    for sequence in psql(
        url,
        "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' "
        "AND sequencename <> 'django_migrations_id_seq' ORDER BY 1",
    ):
        value = psql(url, f'SELECT last_value, is_called FROM "{sequence}"')
        out.append(f"-- sequence {sequence}: {value}")
    return out


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="a PostgreSQL URL: its database name is the prefix of the two made")
    parser.add_argument("--from", dest="start", nargs=2, metavar=("APP", "MIGRATION"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        if args.database_url:
            base = urlsplit(args.database_url).path.lstrip("/")
            old, new = (with_database(args.database_url, f"{base}_{side}") for side in ("old", "new"))
            admin = with_database(args.database_url, "postgres")
            for url in (old, new):
                name = urlsplit(url).path.lstrip("/")
                psql(admin, f'DROP DATABASE IF EXISTS "{name}"')
                psql(admin, f'CREATE DATABASE "{name}"')
            dump = postgres_dump
        else:
            old, new = (f"sqlite:///{folder}/{side}.sqlite3" for side in ("old", "new"))
            dump = sqlite_dump
        try:
            if args.start:
                for url in (old, new):
                    manage(url, "migrate", "-v0", *args.start, old_chain=True)
            old_cpu = manage(old, "migrate", "-v0", old_chain=True)
            new_cpu = manage(new, "migrate", "-v0")
            manage(new, "migrate", "--check", "-v0")  # nothing left to apply
            where = (lambda url: url) if args.database_url else (lambda url: url.removeprefix("sqlite:///"))
            old_dump, new_dump = dump(where(old)), dump(where(new))
        finally:
            if args.database_url:
                for url in (old, new):
                    psql(admin, f'DROP DATABASE IF EXISTS "{urlsplit(url).path.lstrip("/")}"')
    print(f"migrate CPU: old chain {old_cpu:.2f} s, squashed {new_cpu:.2f} s")
    difference = list(difflib.unified_diff(old_dump, new_dump, "old chain", "squashed", lineterm="", n=1))
    if difference:
        print("\n".join(difference))
        return 1
    print(f"same schema and rows ({len(old_dump)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
