"""Seating figures: no-repeat random schedules, Swiss quality over simulated events, and speed.

Run: ``python benchmarks/seating.py [random|swiss|speed ...]`` (all three by default). Every round goes
through ``seat_round`` one at a time, the history fed back as an event would.

* random: 0 repeated pairs and seat counts within ±1 for 16 × 5, 32 × 10, 64 × 12, 256 × 8;
* swiss: 8 rounds with random results between rounds; 32/48/64 players: no pair meets more than
  twice; 256 players and more: no pair meets twice and the mean rank spread at most 1.35 × that of
  strict top-down grouping (3 at tables of four);
* speed: one Swiss round (8th, with history) and one first round for 100, 1,000 and 10,000
  players, budget 5 s.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.engine.pairing import seat_round

SWISS_SPREAD_FACTOR = 1.35
STRICT_SPREAD = 3
SPEED_BUDGET_S = 5.0
PLACEMENT_POINTS = (45, 5, -15, -35)  # a placement bonus (順位点) plus noise makes the standings move


def run_random(players: int, rounds: int, seed: int = 7, time_limit_s: float = 5.0) -> dict:
    ids = list(range(1, players + 1))
    history: list = []
    started = time.perf_counter()
    response = {}
    for round_number in range(1, rounds + 1):
        response = seat_round(
            {
                "players": ids,
                "history": history,
                "mode": "random",
                "round": round_number,
                "total_rounds": rounds,
                "seed": seed,
                "time_limit_s": time_limit_s,
            }
        )
        history.append(response["tables"])
    report = response["report"]
    report["seconds"] = time.perf_counter() - started
    return report


def simulate_results(tables: list, scores: dict, rng: random.Random) -> None:
    for table in tables:
        placements = list(PLACEMENT_POINTS[: len(table)])
        rng.shuffle(placements)
        for player, bonus in zip(table, placements, strict=False):
            scores[player] += bonus + rng.randrange(-20, 21)


def run_swiss(players: int, rounds: int = 8, seed: int = 11, time_limit_s: float = 5.0) -> dict:
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    scores = dict.fromkeys(ids, 0)
    history: list = []
    spreads = []
    started = time.perf_counter()
    response = {}
    for round_number in range(1, rounds + 1):
        standings = sorted(ids, key=lambda player: (-scores[player], player)) if history else []
        request = {
            "players": ids,
            "history": history,
            "standings": standings,
            "mode": "swiss",
            "round": round_number,
            "total_rounds": rounds,
            "seed": seed,
            "time_limit_s": time_limit_s,
        }
        response = seat_round(request)
        if standings:
            spreads.append(response["report"]["rank_spread_mean"])
        history.append(response["tables"])
        simulate_results(response["tables"], scores, rng)
    report = response["report"]
    report["spread_mean_rounds_2_on"] = sum(spreads) / len(spreads)
    report["seconds"] = time.perf_counter() - started
    return report


def time_one_round(players: int, with_history: bool) -> float:
    rng = random.Random(players)
    ids = list(range(1, players + 1))
    history = []
    if with_history:
        for _ in range(7):
            shuffled = ids[:]
            rng.shuffle(shuffled)
            history.append([shuffled[i : i + 4] for i in range(0, players, 4)])
    standings = ids[:]
    rng.shuffle(standings)
    request = {"players": ids, "history": history, "standings": standings, "seed": 1, "time_limit_s": 4.0}
    started = time.perf_counter()
    response = seat_round(request)
    elapsed = time.perf_counter() - started
    assert "tables" in response, response
    return elapsed


def main(parts: list[str]) -> None:
    if "random" in parts:
        for players, rounds in ((16, 5), (32, 10), (64, 12), (256, 8)):
            report = run_random(players, rounds)
            ok = report["repeat_pairs"] == 0 and report["seat_imbalance_max"] <= 1
            print(
                f"random {players:>4} x {rounds:>2}: repeat_pairs={report['repeat_pairs']} "
                f"max_meetings={report['max_meetings']} seat_imbalance_max={report['seat_imbalance_max']} "
                f"same_table={report['same_table_as_last_round']} ({report['seconds']:.2f} s) "
                f"{'MET' if ok else 'NOT MET'}"
            )
    if "swiss" in parts:
        for players in (32, 48, 64, 256, 1024):
            report = run_swiss(players)
            if players < 256:
                ok = report["max_meetings"] <= 2
            else:
                ok = (
                    report["max_meetings"] <= 1
                    and report["spread_mean_rounds_2_on"] <= SWISS_SPREAD_FACTOR * STRICT_SPREAD
                )
            print(
                f"swiss {players:>5} x 8: max_meetings={report['max_meetings']} "
                f"repeat_pairs={report['repeat_pairs']} "
                f"rank_spread_mean(rounds 2-8)={report['spread_mean_rounds_2_on']:.3f} "
                f"(limit {SWISS_SPREAD_FACTOR * STRICT_SPREAD:.2f}) "
                f"seat_imbalance_max={report['seat_imbalance_max']} ({report['seconds']:.2f} s) "
                f"{'MET' if ok else 'NOT MET'}"
            )
    if "speed" in parts:
        for players in (100, 1_000, 10_000):
            first = time_one_round(players, with_history=False)
            eighth = time_one_round(players, with_history=True)
            verdict = "within" if max(first, eighth) <= SPEED_BUDGET_S else "OVER"
            print(
                f"speed {players:>6} players: round 1 {first:.3f} s, round 8 (7 rounds of history) "
                f"{eighth:.3f} s; {verdict} the {SPEED_BUDGET_S:.0f} s budget"
            )


if __name__ == "__main__":
    main(sys.argv[1:] or ["random", "swiss", "speed"])
