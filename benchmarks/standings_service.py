"""Standings of a 10,000-player event end to end: the recompute from the database into the snapshot,
and the public standings page (queries and time). Uses the configured database (DATABASE_URL).

Run: ``python benchmarks/standings_service.py [players] [rounds]`` (default 10000 10). It creates an
event named ``bench-standings`` (dropped first if it exists) with bulk-written rounds, tables, seats
and table results, then prints the figures. Budget: a full recompute in at most 2 s.
"""

from __future__ import annotations

import os
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from players.models import Player  # noqa: E402
from scoring.models import Ruleset  # noqa: E402
from scoring.presets import install_presets  # noqa: E402
from tournament.models import Entry, Event, Round, Seat, SeatResult, Table  # noqa: E402
from tournament.services.standings import standings_recompute  # noqa: E402

SLUG = "bench-standings"
UMA = (Fraction(20), Fraction(10), Fraction(-10), Fraction(-20))


def drop() -> None:
    """Remove an earlier run's event (results and seats first: they protect the entries)."""
    SeatResult.objects.filter(table__round__event__slug=SLUG).delete()
    Round.objects.filter(event__slug=SLUG).delete()
    Event.objects.filter(slug=SLUG).delete()
    Player.objects.filter(club="Benchmark").delete()


def build(players: int, rounds: int) -> Event:
    rng = random.Random(10_000)
    install_presets(Ruleset)
    drop()
    with transaction.atomic():
        event = Event.objects.create(
            name="Standings benchmark",
            slug=SLUG,
            ruleset=Ruleset.objects.get(slug="standard"),
            planned_rounds=rounds,
            status="running",
        )
        people = Player.objects.bulk_create(
            Player(display_name=f"Player {i:05d}", club="Benchmark") for i in range(players)
        )
        entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
        ids = [e.id for e in entries]
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(event=event, number=number, status="completed")
            rng.shuffle(ids)
            groups = [ids[i : i + 4] for i in range(0, len(ids), 4)]
            tables = Table.objects.bulk_create(
                Table(round=round_, number=n, status="finished", result_version=1) for n in range(1, len(groups) + 1)
            )
            seats = Seat.objects.bulk_create(
                Seat(table=t, round=round_, entry_id=e, position=p)
                for t, g in zip(tables, groups, strict=True)
                for p, e in enumerate(g)
            )
            results = []
            for seat in seats:
                place = seat.position  # any permutation will do for timing
                final = 25000 + rng.randrange(-200, 201) * 100
                point_score = Fraction(final - 30000, 1000)
                results.append(
                    SeatResult(
                        table_id=seat.table_id,
                        seat=seat,
                        entry_id=seat.entry_id,
                        version=1,
                        final_points=final,
                        placement=place + 1,
                        point_score=point_score,
                        placement_points=UMA[place],
                        oka=Fraction(20) if place == 0 else Fraction(0),
                        game_points=point_score + UMA[place] + (20 if place == 0 else 0),
                        advanced=place == 0,
                    )
                )
            SeatResult.objects.bulk_create(results, batch_size=5000)
    return event


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    started = time.perf_counter()
    event = build(players, rounds)
    print(f"built {players} players × {rounds} rounds on {connection.vendor} in {time.perf_counter() - started:.1f} s")
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        standings_recompute(event_id=event.id)
        timings.append(time.perf_counter() - started)
    best = min(timings)
    print(
        f"standings recompute (database → snapshot): best {best:.2f} s of {', '.join(f'{t:.2f}' for t in timings)}"
        f" — budget 2 s: {'met' if best <= 2 else 'NOT met'}"
    )
    client = Client()
    for page in (None, 2):
        url = f"/events/{SLUG}/standings/" + (f"?page={page}" if page else "")
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, HTTP_HOST="127.0.0.1")
            elapsed = time.perf_counter() - started
        print(
            f"GET {url}: HTTP {response.status_code}, {len(queries)} queries, {elapsed * 1000:.0f} ms, "
            f"{len(response.content) // 1024} KiB"
        )
    drop()


if __name__ == "__main__":
    main()
