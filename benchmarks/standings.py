"""Measure a full standings recompute (art. 41): 10,000 players × 10 rounds, budget 2 s.

Run: ``python benchmarks/standings.py [players] [rounds]``. Prints the best of three runs.
Game points are drawn like real table results: thousandths of points, and now and then a third or a
half from placement points shared under the ``split`` tie rule; a quarter of the games advance.
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.engine.standings import GameRecord, PenaltyDeduction, compute_standings

BUDGET_SECONDS = 2.0


def build_field(players: int, rounds: int, seed: int = 41):
    rng = random.Random(seed)
    player_ids = [f"p{i:05d}" for i in range(players)]
    games = []
    for round_number in range(1, rounds + 1):
        for player_id in player_ids:
            points = Fraction(rng.randrange(-60000, 60001, 100), 1000)
            if rng.random() < 0.02:
                points += Fraction(rng.choice((1, 2)), rng.choice((2, 3)))
            games.append(GameRecord(player_id, round_number, points, rng.random() < 0.25))
    deductions = [PenaltyDeduction(rng.choice(player_ids), 400, 1) for _ in range(players // 100)]
    disqualified = frozenset(rng.sample(player_ids, players // 500))
    return player_ids, games, deductions, disqualified


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    player_ids, games, deductions, disqualified = build_field(players, rounds)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        rows = compute_standings(player_ids, games, deductions, disqualified)
        timings.append(time.perf_counter() - started)
    best = min(timings)
    assert len(rows) == players
    verdict = "within" if best <= BUDGET_SECONDS else "OVER"
    print(
        f"standings recompute: {players} players x {rounds} rounds ({len(games)} games): "
        f"best {best:.3f} s of 3 (runs: {', '.join(f'{t:.3f}' for t in timings)}); "
        f"{verdict} the {BUDGET_SECONDS:.0f} s budget"
    )


if __name__ == "__main__":
    main()
