"""Throughput of our ``evaluate`` against the PyPI ``mahjong`` package on the same hands.

The corpus: generated hands (``benchmarks.hand_generator``), the differential test's own corpus (its
10,000 and 500 hands), and every win of the real Tenhou logs (the tests' logs and ``../shared/logs``;
a log found in both places counts once). Both sides run end to end from the hand-format.md request
dict (for the package, converting the dict into its inputs is included). The two are timed in
alternating chunks of hands, so that both see the same machine load, with process CPU time.

Two figures: **cold**, the first pass of a fresh process (our per-suit tables, decomposition and
payment caches are built inside the timing), and **warm**, the best of the following passes for each
side (the steady state of a server or of a long ``score_hands`` batch). Every cache of the engine is
bounded well below the corpus: a warm pass cannot be answered from a cache of whole hands.

Run: ``python -m benchmarks.hands [--hands N] [--seed S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import time
from pathlib import Path

from benchmarks.hand_generator import generate_requests
from benchmarks.mahjong_reference import package_evaluate
from gamelogs.engine import read_tenhou_xml, win_request
from scoring.engine import evaluate
from scoring.engine.evaluate import clear_caches

ROOT = Path(__file__).resolve().parent.parent
TENHOU_LOGS = (ROOT / "tests" / "gamelogs" / "logs" / "tenhou", ROOT.parent / "shared" / "logs" / "tenhou")
# (hands, seed) of each corpus of tests/scoring/engine/test_differential_mahjong.py
DIFFERENTIAL_CORPUS = ((10_000, 10_000), (500, 500))


def real_requests() -> list[dict]:
    """Every win of the real Tenhou logs as a hand-format request, each distinct log once."""
    requests = []
    seen: set[str] = set()
    for folder in TENHOU_LOGS:
        for path in sorted(folder.glob("*.xml")):
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            game = read_tenhou_xml(data)
            for hand in game.hands:
                if isinstance(hand.outcome, tuple):
                    requests.extend(win_request(game, hand, win) for win in hand.outcome)
    return requests


def corpus(hands: int, seed: int) -> tuple[list[dict], dict[str, int]]:
    """The hands to time, and how many come from where."""
    parts = {
        f"generated (seed {seed})": generate_requests(hands, seed=seed),
        **{f"differential test (seed {s})": generate_requests(n, seed=s) for n, s in DIFFERENTIAL_CORPUS},
        "real Tenhou wins": real_requests(),
    }
    requests = []
    for part in parts.values():
        for request in part:
            request.pop("template", None)
            requests.append(request)
    return requests, {name: len(part) for name, part in parts.items()}


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
    requests, composition = corpus(hands, seed)
    total = len(requests)
    chunks = [requests[start : start + chunk] for start in range(0, total, chunk)]
    clear_caches()
    gc.collect()  # the garbage of building the corpus is not either side's to collect
    cold_ours, cold_theirs = timed_pass(chunks)
    warm = [timed_pass(chunks) for _ in range(repeat)]
    warm_ours = min(ours for ours, _ in warm)
    warm_theirs = min(theirs for _, theirs in warm)
    return {
        "hands": total,
        "composition": composition,
        "cold": {"ours": total / cold_ours, "mahjong": total / cold_theirs, "ratio": cold_theirs / cold_ours},
        "warm": {"ours": total / warm_ours, "mahjong": total / warm_theirs, "ratio": warm_theirs / warm_ours},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000, help="generated hands besides the fixed corpora")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeat", type=int, default=3, help="warm passes; each side's best is kept")
    arguments = parser.parse_args()
    load_before = os.getloadavg()
    figures = run(arguments.hands, arguments.seed, arguments.repeat)
    load_after = os.getloadavg()
    print(f"hands: {figures['hands']}")
    for name, count in figures["composition"].items():
        print(f"  {count:6d} {name}")
    for name in ("cold", "warm"):
        row = figures[name]
        print(
            f"{name}: taikai evaluate {row['ours']:8.0f} hands/s   mahjong 2.1.0 {row['mahjong']:8.0f} hands/s"
            f"   ratio {row['ratio']:.2f}x"
        )
    print(f"load average (1, 5, 15 min): before {_load(load_before)}, after {_load(load_after)}")


def _load(values: tuple[float, float, float]) -> str:
    return " ".join(f"{value:.2f}" for value in values)


if __name__ == "__main__":
    main()
