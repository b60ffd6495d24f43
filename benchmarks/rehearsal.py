"""An organizer's rehearsal: ``manage.py simulate_event`` for 64 players × 6 rounds (by default), timed, its
queries counted, then the event audited.

    python benchmarks/rehearsal.py [--players 64] [--rounds 6] [--seed 1] [--incidents] [--seating shuffle]
        [--profile FILE]

On a scratch SQLite database (the embedded default, migrated first, not timed) unless ``--database-url`` names
another (an empty database of your own: the event is left in it). Prints the command's wall and CPU time,
its queries (in all, per hand), the audit's violations and a fingerprint of what was recorded (every hand
version's outcome, label and changes, every result, the standings): a change that makes the rehearsal faster
must leave the fingerprint as it was for the same seed. The pairing engine's search stops at a deadline, so
after round 2 its seating (and the fingerprint) can change with the machine's load: compare fingerprints
with ``--seating shuffle``. ``--profile FILE`` writes cProfile's statistics.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(database_url: str) -> None:
    if not database_url:
        database_url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'rehearsal.sqlite3'}"
    os.environ["DATABASE_URL"] = database_url
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "TAIKAI_PRODUCTION"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fingerprint(event) -> str:
    """A digest of what the simulation recorded: hands (every version), results and standings, in order."""
    from tournament.models import HandVersion, SeatResult, StandingsRow

    digest = hashlib.sha256()
    hands = (
        HandVersion.objects.filter(hand__table__round__event=event)
        .order_by("hand__table__round__number", "hand__table__number", "hand__number", "version")
        .values_list(
            "hand__table__round__number",
            "hand__table__number",
            "hand__number",
            "version",
            "is_current",
            "label",
            "outcome",
            "dealer_position",
            "honba",
            "deposits_in",
            "wins",
            "deltas",
            "deposits_out",
        )
    )
    results = (
        SeatResult.objects.filter(table__round__event=event)
        .order_by("table__round__number", "table__number", "seat__position", "version")
        .values_list("version", "final_points", "placement", "game_points", "entry__player__display_name")
    )
    standings = (
        StandingsRow.objects.filter(event=event)
        .order_by("position")
        .values_list("rank", "name", "total_points", "games", "penalty_points")
    )
    for rows in (hands, results, standings):
        for row in rows:
            digest.update(repr(row).encode())
    return digest.hexdigest()[:16]


def main(options) -> None:
    setup(options.database_url)
    from django.core.management import call_command
    from django.db import connection

    from tournament.audit import event_audit
    from tournament.models import Event, HandVersion

    slug = f"rehearsal-{options.players}x{options.rounds}-s{options.seed}"
    arguments = ["--players", str(options.players), "--rounds", str(options.rounds), "--seed", str(options.seed)]
    arguments += ["--slug", slug, "--seating", options.seating]
    if options.incidents:
        arguments += ["--penalties", "--absences"]
    queries = [0]

    def counted(execute, sql, params, many, context):
        queries[0] += 1
        return execute(sql, params, many, context)

    call_command("simulate_event", "--players", "4", "--rounds", "1", "--slug", "warm-up", stdout=io.StringIO())
    profile = cProfile.Profile() if options.profile else None
    wall, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(counted):
        if profile:
            profile.enable()
        call_command("simulate_event", *arguments, stdout=io.StringIO())
        if profile:
            profile.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if profile:
        profile.dump_stats(options.profile)
    event = Event.objects.get(slug=slug)
    hands = HandVersion.objects.filter(hand__table__round__event=event).count()
    started = time.perf_counter()
    violations = event_audit(event)
    audit_s = time.perf_counter() - started
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"rehearsal: simulate_event {' '.join(arguments)} on {connection.vendor} (load average {load})")
    print(f"  time:    {wall:7.2f} s wall, {cpu:.2f} s CPU")
    print(f"  queries: {queries[0]} ({queries[0] / max(hands, 1):.1f} per hand version, {hands} versions)")
    print(f"  audit:   {len(violations)} violations ({audit_s:.2f} s)")
    print(f"  fingerprint of what was recorded: {fingerprint(event)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seating", default="auto", choices=("auto", "engine", "shuffle"))
    parser.add_argument("--incidents", action="store_true", help="with --penalties --absences")
    parser.add_argument("--database-url", default="", help="default: a scratch SQLite database")
    parser.add_argument("--profile", default="", help="write cProfile's statistics to this file")
    main(parser.parse_args())
