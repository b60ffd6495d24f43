"""Helpers for the engine tests: build a hand-format request and evaluate it."""

from __future__ import annotations

import pytest

from scoring.engine import evaluate


def score(tiles: str, win_tile: str, *, rules=None, melds=None, line_rules=None, **flags) -> dict:
    """Evaluate a hand (hand-format.md); returns the ``result`` or the ``error`` object."""
    hand = {"tiles": tiles, "win_tile": win_tile, **flags}
    if melds:
        hand["melds"] = [{"type": kind, "tiles": text} for kind, text in melds]
    request = {"id": "t", "hand": hand}
    if line_rules is not None:
        request["rules"] = line_rules
    answer = evaluate(request, rules)
    return answer.get("result") or answer["error"]


@pytest.fixture
def scored():
    return score
