"""Throughput of our ``evaluate`` against the PyPI ``mahjong`` package on the same generated hands.

Both run end to end from the hand-format.md request dict (for the package, converting the dict into
its inputs is included). Run: ``python -m benchmarks.hands [--hands N] [--seed S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.hand_generator import generate_requests
from benchmarks.mahjong_reference import package_evaluate
from scoring.engine import evaluate, shapes
from scoring.engine.evaluate import clear_payment_cache


def _clear_caches() -> None:
    shapes.suit_decompositions.cache_clear()
    shapes._suit_partials.cache_clear()
    clear_payment_cache()


def _time(function, requests: list[dict]) -> float:
    start = time.perf_counter()
    for request in requests:
        function(request)
    return time.perf_counter() - start


def run(hands: int, seed: int, repeat: int) -> dict:
    requests = generate_requests(hands, seed=seed)
    for request in requests:
        request.pop("template")
    ours = []
    theirs = []
    for _ in range(repeat):
        _clear_caches()  # every round starts cold: the caches' warm-up is part of the cost
        ours.append(_time(evaluate, requests))
        theirs.append(_time(package_evaluate, requests))
    ours_rate = hands / min(ours)
    theirs_rate = hands / min(theirs)
    return {"hands": hands, "ours": ours_rate, "mahjong": theirs_rate, "ratio": ours_rate / theirs_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    figures = run(arguments.hands, arguments.seed, arguments.repeat)
    print(f"hands: {figures['hands']} (best of {arguments.repeat} runs)")
    print(f"taikai evaluate: {figures['ours']:10.0f} hands/s")
    print(f"mahjong 2.1.0:   {figures['mahjong']:10.0f} hands/s")
    print(f"ratio:           {figures['ratio']:10.2f}x")


if __name__ == "__main__":
    main()
