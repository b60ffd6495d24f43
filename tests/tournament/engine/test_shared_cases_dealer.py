"""The next-dealer cases the device's dealer.js runs too (tests/cases/next_dealer.json, by ``node --test tests/js/``),
against the engine's ``next_dealer_position``, ``prevailing_wind`` and ``regular_game_stand``."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from tournament.engine.dealer import next_dealer_position, prevailing_wind, regular_game_stand
from tournament.engine.errors import TournamentError

CASES = json.loads((Path(__file__).parents[2] / "cases" / "next_dealer.json").read_text(encoding="utf-8"))


def _deal(given: dict):
    return next_dealer_position(
        playing=given["playing"],
        playing_next=given.get("playing_next"),
        dealer=given["dealer"],
        honba=given["honba"],
        outcome=given["outcome"],
        winners=tuple(given.get("winners", ())),
        tenpai=tuple(given.get("tenpai", ())),
    )


@pytest.mark.parametrize("case", CASES["next_dealer"], ids=[c["name"] for c in CASES["next_dealer"]])
def test_next_dealer_gives_each_shared_case(case):
    if "error" in case:
        with pytest.raises(TournamentError) as refused:
            _deal(case["given"])
        assert (refused.value.code, refused.value.field) == (case["error"]["code"], case["error"]["field"])
    else:
        assert asdict(_deal(case["given"])) == case["next"]


@pytest.mark.parametrize("case", CASES["prevailing_wind"], ids=[c["name"] for c in CASES["prevailing_wind"]])
def test_prevailing_wind_gives_each_shared_case(case):
    assert prevailing_wind(case["dealers"]) == case["wind"]


@pytest.mark.parametrize("case", CASES["game_stand"], ids=[c["name"] for c in CASES["game_stand"]])
def test_game_stand_gives_each_shared_case(case):
    given = case["given"]
    playing_next = given.get("playing_next", given["playing"])
    deal = _deal({**given, "dealer": given["dealers"][-1], "playing_next": playing_next})
    assert asdict(deal) == case["next"]
    stand = regular_game_stand(
        dealers=given["dealers"],
        playing=given["playing"],
        honba=given["honba"],
        next_deal=deal,
        playing_next=playing_next,
    )
    assert {key: value for key, value in asdict(stand).items() if key != "winds"} == case["stand"]
