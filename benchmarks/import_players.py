"""Importing a 20,000-player CSV: checking every row, then writing them all (or none), with the number of
queries. Uses the configured database (DATABASE_URL); the import runs in a transaction that is rolled
back at the end, so the database is left as it was.

Run: ``python benchmarks/import_players.py [rows]`` (default 20000). Budget: well under gunicorn's 30 s
timeout for the admin's upload; above ``PLAYER_IMPORT_INLINE_ROWS`` the admin hands the file to a worker.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402

from players.csv_import import parse_players_csv, players_import_csv  # noqa: E402

COUNTRIES = ("JP", "PL", "FR", "DE", "US", "CN", "KR", "NL", "DK", "AT")


def csv_of(rows: int) -> bytes:
    lines = ["display_name,family_name,given_name,reading,club,country,external_id"]
    for i in range(rows):
        lines.append(
            f"Player {i:05d},Family{i},Given{i},ぷれいやー {i},Club {i % 300},{COUNTRIES[i % 10]},BENCH{i:06d}"
        )
    return ("\n".join(lines) + "\n").encode()


class Rollback(Exception):
    pass


class QueryCount:
    def __init__(self):
        self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        self.queries += 1
        return execute(sql, params, many, context)


def main(rows: int) -> None:
    data = csv_of(rows)
    checked, imported = QueryCount(), QueryCount()
    started = time.perf_counter()
    with connection.execute_wrapper(checked):
        parse_players_csv(data)
    check_s = time.perf_counter() - started
    started = time.perf_counter()
    try:
        with transaction.atomic(), connection.execute_wrapper(imported):
            created = players_import_csv(data=data)
            raise Rollback
    except Rollback:
        pass
    import_s = time.perf_counter() - started
    print(f"{rows} rows, {len(data) / 1e6:.1f} MB, database {connection.vendor}")
    print(f"  check only:       {check_s:7.2f} s  {checked.queries:6d} queries")
    print(f"  check and write:  {import_s:7.2f} s  {imported.queries:6d} queries  ({len(created)} players)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
