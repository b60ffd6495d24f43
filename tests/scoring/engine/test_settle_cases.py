"""The settlement cases the device's settle.js runs too (tests/cases/settle_hand.json), against settle_hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.engine.schemes import WinPayment
from scoring.engine.settle import HandOutcome, SettleOptions, Win, settle_hand

CASES = json.loads((Path(__file__).parents[2] / "cases" / "settle_hand.json").read_text(encoding="utf-8"))


def outcome_of(raw: dict) -> HandOutcome:
    wins = tuple(
        Win(
            winner=w["winner"],
            discarder=w["discarder"],
            payment=WinPayment(limit=None, basic=Fraction(0), **w["payment"]),
        )
        for w in raw["wins"]
    )
    return HandOutcome(
        seats=raw["seats"],
        dealer_seat=raw["dealer_seat"],
        kind=raw["kind"],
        deposits_in=raw["deposits_in"],
        riichi_seats=tuple(raw["riichi_seats"]),
        wins=wins,
        tenpai_seats=tuple(raw["tenpai_seats"]),
    )


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_settle_hand_gives_each_shared_case(case):
    options = SettleOptions(**(CASES["options"] | case.get("options", {})))
    settled = settle_hand(outcome_of(case["outcome"]), options)
    assert list(settled.deltas) == case["deltas"]
    assert settled.deposits_out == case["deposits_out"]
    assert list(settled.winners) == case["winners"]
    assert settled.deposits_to == case["deposits_to"]
