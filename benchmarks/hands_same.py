"""The scoring engine's results on the hand benchmark's whole corpus, compared with another checkout's.

A change made for speed must not change a single result. This runs every hand of ``benchmarks.hands``'s
corpus under four rulesets (the standard one; Tenhou's, with red fives and stacked yakuman; simple
doubling without open tanyao, a double-wind pair of 2 fu and a changed pinfu; three players on equal
split, without counted yakuman and with kiriage mangan), through ``evaluate`` and, under the standard
rules, ``evaluate_hand`` as well (its yakuman units and the reading it chose). Each result is written
as its ``repr`` (an int and a Fraction of the same value differ); the other checkout's engine runs the
same corpus in a child process, and the two lists are compared line by line.

Run: ``python -m benchmarks.hands_same --against /path/to/other/checkout [--hands N] [--seed S]``. It
prints the evaluations compared and the first differences, and exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve()


def rulesets() -> dict:
    """The four rulesets the corpus is run under, by name."""
    from scoring.engine import Rules
    from scoring.engine.params import SCHEME_PRESETS, LimitOptions

    return {
        "standard": Rules(),
        "tenhou": Rules(aka_dora=True, limits=LimitOptions(yakuman_stack=True)),
        "simple_doubling": Rules(
            scheme=SCHEME_PRESETS["simple_doubling"],
            open_tanyao=False,
            double_wind_pair_fu=2,
            yaku_han={"pinfu": (2, 0), "chanta": (2, 2)},
        ),
        "three_player": Rules(
            scheme=SCHEME_PRESETS["three_player_equal_split"],
            limits=LimitOptions(kiriage_mangan=True, kazoe_yakuman=False),
            aka_dora=True,
        ),
    }


def result_lines(hands: int, seed: int) -> list[str]:
    """One line per evaluation: the ruleset, the request's position and the result's ``repr``."""
    from benchmarks.hands import corpus
    from scoring.engine import evaluate, evaluate_hand, hand_from_dict
    from scoring.engine.errors import ScoringError

    requests, _composition = corpus(hands, seed)
    lines = []
    for name, rules in rulesets().items():
        for position, request in enumerate(requests):
            lines.append(f"{name} {position} {evaluate(request, rules)!r}")
    for position, request in enumerate(requests):
        try:
            result = evaluate_hand(hand_from_dict(request["hand"]))
            shown = (result.as_dict(), result.yakuman, tuple(result.reading))
        except ScoringError as error:
            shown = error.as_dict()
        lines.append(f"evaluate_hand {position} {shown!r}")
    return lines


def other_lines(checkout: Path, hands: int, seed: int) -> list[str]:
    """``result_lines`` of the engine of ``checkout``, run in a child process."""
    output = subprocess.run(
        [sys.executable, str(SCRIPT), "--emit", "--hands", str(hands), "--seed", str(seed)],
        cwd=checkout,
        env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return output.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, help="the other checkout (its root folder)")
    parser.add_argument("--hands", type=int, default=20_000, help="generated hands besides the fixed corpora")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--emit", action="store_true", help="print this engine's result lines")
    arguments = parser.parse_args()
    if arguments.emit:
        sys.stdout.write("\n".join(result_lines(arguments.hands, arguments.seed)) + "\n")
        return
    if arguments.against is None:
        parser.error("--against is required (or --emit)")
    ours = result_lines(arguments.hands, arguments.seed)
    theirs = other_lines(arguments.against.resolve(), arguments.hands, arguments.seed)
    differences = [(mine, other) for mine, other in zip(ours, theirs, strict=False) if mine != other]
    print(f"evaluations compared: {len(ours)} here, {len(theirs)} in {arguments.against}")
    for mine, other in differences[:10]:
        print(f"  here:  {mine}\n  there: {other}")
    if differences or len(ours) != len(theirs):
        print(f"different: {len(differences)}")
        sys.exit(1)
    print("identical")


if __name__ == "__main__":
    main()
