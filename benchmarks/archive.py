"""The event archive's round trip: a simulated event (64 players × 6 rounds by default, with penalties and
absences) exported (``archive.export``), written as JSON, read back and imported as a new event
(``archive.load``), then audited. Uses the configured database (DATABASE_URL); everything runs in
a transaction rolled back at the end, so the database is left as it was.

Run: ``python benchmarks/archive.py [--players 64] [--rounds 6] [--seed 7]``. Prints the time to export, the
file's size, the time to import (the standings recompute included), the queries of each, and the audit.

``--event SLUG`` exports an event already in the database instead of simulating one, e.g. the 10,000-player
bench event: ``python manage.py build_bench_event --players 10000 --rounds 10 --slug bench`` first. The
imported copy's standings are then compared with the original's, row by row (by name).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402

from archive.export import archive_build  # noqa: E402
from archive.load import event_import  # noqa: E402
from scoring.models import Ruleset  # noqa: E402
from tournament.audit import event_audit  # noqa: E402
from tournament.models import Event, StandingsRow  # noqa: E402
from tournament.simulation import Incidents, event_create, event_simulate, simulated_players  # noqa: E402


def counting(queries: list):
    """A database wrapper that appends each query's SQL to ``queries``."""
    return lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)


def peak_kb() -> int:
    """The process's peak resident memory so far, in KB (Linux's ``ru_maxrss``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def standings_of(event) -> list[tuple]:
    """The event's standings as (name, rank, total points, games, penalty points), best first (the copy's
    players are new ones when the originals have no external id)."""
    return list(
        StandingsRow.objects.filter(event=event)
        .order_by("position")
        .values_list("name", "rank", "total_points", "games", "penalty_points")
    )


def main(players: int, rounds: int, seed: int, slug: str = "") -> None:
    with transaction.atomic():
        started = time.perf_counter()
        if slug:
            event = Event.objects.get(slug=slug)
            players, rounds = event.entries.count(), event.rounds.count()
        else:
            event = event_create(
                slug="bench-archive",
                name="Archive bench",
                players=simulated_players(players),
                ruleset=Ruleset.objects.get(slug="standard"),
                planned_rounds=rounds,
                clock_bank_seconds=60,
            )
            event_simulate(event, rounds=rounds, seed=seed, incidents=Incidents(penalties=True, absences=True))
        simulated = time.perf_counter() - started
        started, cpu = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(counting(exported := [])):
            text = json.dumps(archive_build(event, staff=True), ensure_ascii=False, separators=(",", ":"))
        export_s, export_cpu = time.perf_counter() - started, time.process_time() - cpu
        export_peak = peak_kb()
        started, cpu = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(counting(imported := [])):
            copy = event_import(archive=json.loads(text))
        import_s, import_cpu = time.perf_counter() - started, time.process_time() - cpu
        import_peak = peak_kb()
        violations = event_audit(copy)
        original, imported_rows = standings_of(event), standings_of(copy)
        transaction.set_rollback(True)  # the database is left as it was
    size = len(text.encode())
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(
        f"archive round trip: {players} players x {rounds} rounds, database {connection.vendor} "
        f"(simulated in {simulated:.1f} s; load average {load})"
    )
    print(
        f"  export:  {export_s:7.2f} s ({export_cpu:.2f} s CPU)  {len(exported):6d} queries  "
        f"peak memory {export_peak / 1024:7.0f} MB"
    )
    print(f"  file:    {size / 1e6:7.2f} MB ({size} bytes)")
    print(
        f"  import:  {import_s:7.2f} s ({import_cpu:.2f} s CPU)  {len(imported):6d} queries  "
        f"peak memory {import_peak / 1024:7.0f} MB "
        "(standings recompute included)"
    )
    print(f"  audit of the imported event: {len(violations)} violations")
    same = "equal" if original == imported_rows else "DIFFERENT"
    print(f"  standings: {len(imported_rows)} rows, {same} to the original's (name, rank, points, games, penalties)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--event", default="", help="the slug of an event in the database, exported as it is")
    options = parser.parse_args()
    main(options.players, options.rounds, options.seed, options.event)
