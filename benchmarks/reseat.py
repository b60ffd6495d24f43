"""What re-seating a table costs: the time and the database queries of one re-seat (every hand in force written
again under the real seats, priced again, the clock moved, one ruling), for games of a few hands to a long one.

    python benchmarks/reseat.py [--games 5] [--seed 7]

On a scratch SQLite database: for each game, a four-player table of a new event plays a random legal game
(the simulation's hands, up to 16) through the services, then its players are re-seated in reverse; printed per
game: its hands, the re-seat's queries, wall and process CPU milliseconds, and the per-hand figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> None:
    database = Path(tempfile.mkdtemp()) / "reseat.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "TAIKAI_PRODUCTION"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def game_played(number: int, seed: int):
    """A table of a new event with a random legal game recorded; the table and its players' ids."""
    from players.models import Player
    from scoring.models import Ruleset
    from tournament.models import Entry, Event
    from tournament.services.hands import hand_record
    from tournament.services.rounds import round_create
    from tournament.simulation.game import GameState, game_advance, hand_draw

    ruleset = Ruleset.objects.get(slug="standard")
    event = Event.objects.create(name=f"Re-seat {number}", slug=f"reseat-{number}", ruleset=ruleset)
    players = Player.objects.bulk_create(Player(display_name=f"Player {number}-{i}") for i in range(4))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = round_create(event=event, tables=[ids]).tables.get()
    rng = random.Random(seed)
    state = GameState(players=4, start_points=ruleset.start_points, riichi_stick=ruleset.riichi_stick)
    hands = 0
    while not state.over:
        hands += 1
        hand = hand_draw(rng, state)
        version = hand_record(table=table, number=hands, expected_version=0, data=hand)
        game_advance(state, hand, version.deltas, version.deposits_out)
    return table, [p.pk for p in players], hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.services.reseat import table_reseat

    print(f"{'hands':>5} {'queries':>8} {'wall ms':>8} {'cpu ms':>7} {'queries/hand':>12} {'wall ms/hand':>12}")
    for number in range(args.games):
        table, players, hands = game_played(number, args.seed + number)
        with CaptureQueriesContext(connection) as queries:
            wall, cpu = time.perf_counter(), time.process_time()
            table_reseat(table=table, players=players[::-1])
            wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
        count = len(queries.captured_queries)
        print(f"{hands:>5} {count:>8} {wall:>8.1f} {cpu:>7.1f} {count / hands:>12.1f} {wall / hands:>12.2f}")


if __name__ == "__main__":
    main()
