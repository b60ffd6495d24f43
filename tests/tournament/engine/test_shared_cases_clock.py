"""The art. 38 clock cases the device's clock_rules.js runs too (tests/cases/clock_rules.json, by
``node --test tests/js/``), against the engine's clock (tournament/engine/clock.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament.engine import clock
from tournament.engine.errors import TournamentError

CASES = json.loads((Path(__file__).parents[2] / "cases" / "clock_rules.json").read_text(encoding="utf-8"))


def _step(state: clock.ClockState | None, step: dict, settings: dict) -> clock.ClockTransition:
    at = step["at"]
    match step["do"]:
        case "start":
            values = settings | step.get("settings", {})
            made = clock.ClockSettings(
                bank_ms=values["bank_ms"],
                increment_ms=values["increment_ms"],
                players=values["players"],
                absent=frozenset(values["absent"]),
            )
            return clock.ClockTransition(clock.start_hand(made, step["opener"], at))
        case "press":
            return clock.press(
                state, seat=step["seat"], turn_number=step["turn"], now_ms=at, claim_by=step.get("claim_by")
            )
        case "observe":
            return clock.observe(state, at)
        case "pause":
            return clock.pause(state, at)
        case "resume":
            return clock.ClockTransition(clock.resume(state, at))
        case "end":
            return clock.end_hand(state, at)
    raise AssertionError(f"unknown step {step['do']}")


def _seen(transition: clock.ClockTransition, key: str):
    if key == "events":
        return [[event.seat, event.turn_number, event.at_ms] for event in transition.events]
    value = clock.state_to_dict(transition.state)[key]
    return [list(claim) for claim in value] if key == "claims" else value


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_the_clock_gives_each_shared_case(case):
    settings = CASES["settings"] | case.get("settings", {})
    state = None
    for number, step in enumerate(case["steps"]):
        where = f"step {number} ({step['do']})"
        if step["do"] == "remaining":
            assert clock.remaining_ms(state, step["seat"], step["at"]) == step["ms"], where
        elif "error" in step:
            with pytest.raises(TournamentError) as refused:
                _step(state, step, settings)
            assert refused.value.code == step["error"], where
        else:
            transition = _step(state, step, settings)
            for key, value in step.get("expect", {}).items():
                assert _seen(transition, key) == value, f"{where}: {key}"
            state = transition.state
