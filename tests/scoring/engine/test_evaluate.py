"""evaluate(): hand-format.md's request/result contract, seed 001/002 point tables, best reading."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.hand_generator import generate_request
from scoring.engine import Rules, evaluate, evaluate_hand, hand_from_dict
from scoring.engine.params import LimitOptions

from .conftest import score

HAND_FORMAT_EXAMPLE = {
    "id": "any-string",
    "rules": {"aka_dora": False},
    "hand": {
        "tiles": "345m888p11567s222z",
        "melds": [],
        "win_tile": "5s",
        "tsumo": True,
        "riichi": True,
        "double_riichi": False,
        "ippatsu": False,
        "haitei": False,
        "houtei": False,
        "rinshan": False,
        "chankan": False,
        "tenhou": False,
        "chiihou": False,
        "seat_wind": "E",
        "round_wind": "S",
        "dealer": True,
        "dora_indicators": ["8m"],
        "ura_dora_indicators": ["4p"],
        "honba": 0,
        "riichi_sticks": 0,
    },
}


def test_hand_format_example_result():
    answer = evaluate(HAND_FORMAT_EXAMPLE)
    assert answer["id"] == "any-string"
    result = answer["result"]
    assert sorted(map(tuple, result["yaku"])) == sorted([("menzen_tsumo", 1), ("riichi", 1), ("round_wind", 1)])
    assert (result["han"], result["fu"], result["limit"]) == (3, 40, None)
    # dealer tsumo, 40 fu 3 han: Γ = 40 × 2^5 = 1280, each pays ceil_100(2 × 1280) = 2600
    assert result["payments"] == {"non_dealer": 2600}
    assert result["total"] == 7800
    assert sorted(map(tuple, result["fu_details"])) == sorted(
        [("base", 20), ("closed_triplet", 8), ("closed_triplet", 4), ("tsumo", 2)]
    )
    assert set(result) == {"yaku", "han", "fu", "limit", "payments", "total", "fu_details"}


PLAIN = "123m456p55p234s789s"  # no yaku of its own; win on 7s = penchan, 40 fu closed ron


@pytest.mark.parametrize(
    ("han", "non_dealer", "dealer"),
    [
        # 1-4 han: min(8000, ceiling(fu × 2^(han+2) × 4, 100)), dealer × 6 (seed 001 定義 0.20/0.21), 40 fu
        (1, 1300, 2000),
        (2, 2600, 3900),
        (3, 5200, 7700),
        (4, 8000, 12000),
        (5, 8000, 12000),
        (6, 12000, 18000),
        (7, 12000, 18000),
        (8, 16000, 24000),
        (10, 16000, 24000),
        (11, 24000, 36000),
        (12, 24000, 36000),
        (13, 32000, 48000),
        (16, 32000, 48000),
    ],
)
def test_seed001_ron_points_by_han(han, non_dealer, dealer):
    # riichi (1 han) + one dora per "1m" indicator (the hand holds one 2m)
    hand = dict(tiles=PLAIN, win_tile="7s", riichi=True, dora_indicators=["1m"] * (han - 1))
    assert score(**hand, seat_wind="S")["payments"] == {"ron": non_dealer}
    assert score(**hand, seat_wind="E")["payments"] == {"ron": dealer}
    assert score(**hand, seat_wind="S")["han"] == han


def test_seed002_worked_example_40_fu_2_han_non_dealer():
    # riichi + menzen tsumo, penchan: 20 + 2 + 2 = 24 -> 30 fu... use a 40-fu shape instead:
    # closed triplet of 888p (4) + penchan (2) + tsumo (2) + 20 = 28 -> 30; so take ron for the 2600
    ron = score(tiles=PLAIN, win_tile="7s", riichi=True, seat_wind="S", dora_indicators=["1m"])
    assert (ron["fu"], ron["han"], ron["payments"]) == (40, 2, {"ron": 2600})
    # tsumo at 40 fu 2 han: 700 / 1300 (Γ = 640)
    tsumo = score(
        tiles="123m456p55p789s111z", win_tile="7s", tsumo=True, seat_wind="S", round_wind="S", dora_indicators=["1m"]
    )
    assert (tsumo["fu"], tsumo["han"]) == (40, 2)
    assert tsumo["payments"] == {"dealer": 1300, "non_dealer": 700}
    assert tsumo["total"] == 2700


def test_honba_and_riichi_sticks():
    result = score(tiles=PLAIN, win_tile="7s", riichi=True, seat_wind="S", honba=2, riichi_sticks=3)
    assert result["payments"] == {"ron": 1300 + 600}  # 300 per honba on a ron
    assert result["total"] == 1900 + 3000
    result = score(tiles=PLAIN, win_tile="7s", riichi=True, tsumo=True, seat_wind="S", honba=1)
    # 30 fu 2 han tsumo: Γ = 480 -> 500 / 1000, +100 each per honba
    assert result["payments"] == {"dealer": 1100, "non_dealer": 600}
    assert result["total"] == 1100 + 2 * 600


def test_seed002_kazoe_yakuman_and_its_option():
    hand = dict(
        tiles="22334455m567789m", win_tile="9m", riichi=True, tsumo=True, seat_wind="S", dora_indicators=["1m", "4m"]
    )
    result = score(**hand)
    # chinitsu 6 + pinfu 1 + iipeikou 1 + riichi 1 + tsumo 1 + dora 2 (2m) + 3 (5m) = 15
    assert (result["han"], result["limit"]) == (15, "yakuman")
    assert result["payments"] == {"dealer": 16000, "non_dealer": 8000}
    no_kazoe = Rules(limits=LimitOptions(kazoe_yakuman=False))
    result = score(**hand, rules=no_kazoe)
    assert (result["han"], result["limit"]) == (15, "sanbaiman")
    assert result["payments"] == {"dealer": 12000, "non_dealer": 6000}


def test_seed002_kiriage_mangan_option():
    # 30 fu 4 han (riichi + pinfu + two dora): 1920 basic points -> 7700 ron normally
    hand = dict(tiles="123m456p789s234s55p", win_tile="4s", riichi=True, seat_wind="S", dora_indicators=["9m", "1m"])
    result = score(**hand)
    assert (result["han"], result["fu"], result["payments"]) == (4, 30, {"ron": 7700})
    result = score(**hand, rules=Rules(limits=LimitOptions(kiriage_mangan=True)))
    assert (result["limit"], result["payments"]) == ("mangan", {"ron": 8000})


def test_best_reading_prefers_the_higher_payment():
    # ryanpeikou (3+1+1 = 5 han, mangan) beats chiitoitsu (2+1 = 3 han, 25 fu)
    result = score(tiles="223344m556677p88s", win_tile="7p")
    assert "ryanpeikou" in dict(map(tuple, result["yaku"]))
    assert result["limit"] == "mangan"


def test_per_line_aka_dora_override():
    tiles = "123m406p55p234s789s"
    assert score(tiles=tiles, win_tile="7s", riichi=True, line_rules={"aka_dora": True})["han"] == 2
    assert score(tiles=tiles, win_tile="7s", riichi=True, rules=Rules(aka_dora=True))["han"] == 2
    assert (
        score(
            tiles=tiles,
            win_tile="7s",
            riichi=True,
            rules=Rules(aka_dora=True),
            line_rules={"aka_dora": False},
        )["han"]
        == 1
    )


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ("not an object", "invalid_request"),
        ({"id": 1}, "invalid_request"),
        ({"id": 1, "hand": {"tiles": "123m"}}, "invalid_request"),
        ({"id": 1, "hand": {"tiles": "123m456p789s12344z", "win_tile": "1z"}}, "not_a_winning_hand"),
        ({"id": 1, "hand": {"tiles": PLAIN, "win_tile": "7s"}}, "no_yaku"),
        (
            {"id": 1, "hand": {"tiles": PLAIN, "win_tile": "7s"}, "rules": {"kiriage": True}},
            "invalid_parameter",
        ),
        ({"id": 1, "hand": {"tiles": "12345678z", "win_tile": "1z"}}, "invalid_tiles"),
        ({"id": 1, "hand": {"tiles": PLAIN, "win_tile": "7s", "ippatsu": True}}, "inconsistent_flags"),
    ],
)
def test_invalid_requests_give_error_objects(request_, code):
    answer = evaluate(request_)
    assert answer["error"]["code"] == code
    assert answer["error"]["message"]
    assert set(answer) == {"id", "error"}


def test_evaluate_hand_dataclass_api():
    result = evaluate_hand(hand_from_dict({"tiles": PLAIN, "win_tile": "7s", "riichi": True}), Rules())
    assert (result.han, result.fu, result.total, result.yakuman) == (1, 40, 2000, 0)
    assert dict(result.yaku) == {"riichi": 1}


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=300, deadline=None)
def test_property_total_is_what_the_payers_pay_plus_sticks(seed):
    request = generate_request(random.Random(seed), 0)
    if request is None:
        return
    request.pop("template")
    answer = evaluate(request)
    if "error" in answer:
        assert answer["error"]["code"] == "no_yaku"
        return
    result = answer["result"]
    hand = request["hand"]
    payments = result["payments"]
    if not hand["tsumo"]:
        paid = payments["ron"]
    elif hand["seat_wind"] == "E":
        paid = 3 * payments["non_dealer"]
    else:
        paid = payments["dealer"] + 2 * payments["non_dealer"]
    assert result["total"] == paid + 1000 * hand["riichi_sticks"]
    assert all(isinstance(value, int) and value > 0 for value in payments.values())
    assert all(value % 100 == 0 for value in payments.values())  # φ = 100, honba in units of 100
    assert result["han"] >= 1
    if result["limit"] is None:
        assert result["fu"] % 10 == 0 or result["fu"] == 25


@pytest.mark.parametrize("bad_wind", [[], {}, 1, None, "X"])
def test_a_wind_that_is_not_a_wind_letter_is_an_invalid_request(bad_wind):
    from scoring.engine import evaluate

    result = evaluate({"id": "w", "hand": {"tiles": "345m888p11567s222z", "win_tile": "5s", "round_wind": bad_wind}})
    assert result["error"]["code"] == "invalid_request"
