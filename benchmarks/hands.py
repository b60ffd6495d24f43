"""Throughput of our ``evaluate`` against the PyPI ``mahjong`` package on the same generated hands.

Both run end to end from the hand-format.md request dict (for the package, converting the dict into
its inputs is included). The two are timed in alternating chunks of hands, so that both see the same
machine load, with process CPU time.

Two figures: **cold**, the first pass of a fresh process (our per-suit tables, decomposition and
payment caches are built inside the timing), and **warm**, the best of the following passes (the
steady state of a server or of a long ``score_hands`` batch).

Run: ``python -m benchmarks.hands [--hands N] [--seed S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import gc
import time

from benchmarks.hand_generator import generate_requests
from benchmarks.mahjong_reference import package_evaluate
from scoring.engine import evaluate
from scoring.engine.evaluate import clear_caches


def _time(function, requests: list[dict]) -> float:
    start = time.process_time()
    for request in requests:
        function(request)
    return time.process_time() - start


def timed_pass(chunks: list[list[dict]]) -> tuple[float, float]:
    ours = theirs = 0.0
    for part in chunks:
        ours += _time(evaluate, part)
        theirs += _time(package_evaluate, part)
    return ours, theirs


def run(hands: int, seed: int, repeat: int, chunk: int = 250) -> dict:
    requests = generate_requests(hands, seed=seed)
    for request in requests:
        request.pop("template")
    chunks = [requests[start : start + chunk] for start in range(0, hands, chunk)]
    clear_caches()
    gc.collect()  # the garbage of generating the hands is not either side's to collect
    cold_ours, cold_theirs = timed_pass(chunks)
    warm = [timed_pass(chunks) for _ in range(repeat)]
    warm_ours = min(ours for ours, _ in warm)
    warm_theirs = min(theirs for _, theirs in warm)
    return {
        "hands": hands,
        "cold": {"ours": hands / cold_ours, "mahjong": hands / cold_theirs, "ratio": cold_theirs / cold_ours},
        "warm": {"ours": hands / warm_ours, "mahjong": hands / warm_theirs, "ratio": warm_theirs / warm_ours},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    figures = run(arguments.hands, arguments.seed, arguments.repeat)
    print(f"hands: {figures['hands']}")
    for name in ("cold", "warm"):
        row = figures[name]
        print(
            f"{name}: taikai evaluate {row['ours']:8.0f} hands/s   mahjong 2.1.0 {row['mahjong']:8.0f} hands/s"
            f"   ratio {row['ratio']:.2f}x"
        )


if __name__ == "__main__":
    main()
