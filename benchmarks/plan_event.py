"""Plan the whole event now: the time to plan every round of an event and the plan's repeats.

Run: ``python benchmarks/plan_event.py``. Each event is planned as ``tournament.services.planning``
plans it (the random mode, a time limit per round of 30 s shared over the rounds, at most 4 s), then
checked by ``schedule_checked``: seconds, repeated meetings, the most times a pair meets, problems.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.engine.pairing.schedule import event_planned, schedule_checked

EVENTS = ((16, 5), (32, 10), (64, 8), (120, 8), (18, 6), (1000, 8))


def main() -> None:
    for players, rounds in EVENTS:
        ids = list(range(1, players + 1))
        request = {
            "players": ids,
            "table_size": 4,
            "mode": "random",
            "remainder": "three",
            "seed": 1,
            "time_limit_s": min(4.0, max(0.2, 30.0 / rounds)),
        }
        started = time.perf_counter()
        plan = event_planned(request, rounds)
        took = time.perf_counter() - started
        report = schedule_checked(plan, ids, ids, [3, 4])
        print(
            f"{players:>5} players x {rounds:>2} rounds: {took:5.1f} s, repeats {report.repeat_pairs}, "
            f"most meetings {report.max_meetings}, problems {len(report.problems)}"
        )


if __name__ == "__main__":
    main()
