"""Tiles: MPSZ in and out, 34-index, dora indicators; hand validation error codes (hand-format.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import ScoringError
from scoring.engine.hand import hand_from_dict
from scoring.engine.tiles import dora_from_indicator, parse_tiles, tile_name, to_mpsz


@pytest.mark.parametrize(
    ("text", "indices", "red"),
    [
        ("123m", [0, 1, 2], 0),
        ("9p", [17], 0),
        ("1s9s", [18, 26], 0),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33], 0),
        ("0m0p0s", [4, 13, 22], 3),  # red fives are fives
        ("5m0m", [4, 4], 1),
        ("", [], 0),
    ],
)
def test_mpsz_reads_digits_then_suit_letter(text, indices, red):
    assert parse_tiles(text) == (indices, red)


@pytest.mark.parametrize(
    ("text", "named"),
    [("8z", "8z"), ("0z", "0z"), ("12x", "'x'"), ("123", "123"), ("m1m", "suit letter")],
)
def test_unknown_tile_is_invalid_tiles_naming_it(text, named):
    with pytest.raises(ScoringError) as caught:
        parse_tiles(text)
    assert caught.value.code == "invalid_tiles"
    assert named in caught.value.message


@given(st.lists(st.integers(0, 33), max_size=14))
@settings(max_examples=200)
def test_mpsz_round_trip(indices):
    assert sorted(parse_tiles(to_mpsz(indices))[0]) == sorted(indices)


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("4z", "1z"),
        ("1z", "2z"),
        ("5z", "6z"),
        ("7z", "5z"),
    ],
)
def test_hand_format_dora_is_next_tile_wrapping(indicator, dora):
    assert tile_name(dora_from_indicator(parse_tiles(indicator)[0][0])) == dora


def _hand(**changes):
    hand = {"tiles": "123m456p789s11122z", "win_tile": "2z"}
    hand.update(changes)
    return hand


@pytest.mark.parametrize(
    ("changes", "code", "named"),
    [
        ({"tiles": "123m456p789s1112z"}, "wrong_tile_count", "13"),
        ({"tiles": "11111m456p789s222z", "win_tile": "2z"}, "too_many_copies", "1m"),
        (
            {"tiles": "123m456p11222z", "melds": [{"type": "pon", "tiles": "222z"}], "win_tile": "1z"},
            "too_many_copies",
            "2z",
        ),
        ({"win_tile": "3z"}, "win_tile_missing", "3z"),
        ({"tiles": "123m456p789s111x2z"}, "invalid_tiles", "x"),
        ({"win_tile": "22z"}, "invalid_tiles", "one tile"),
        ({"melds": [{"type": "chi", "tiles": "135m"}]}, "invalid_meld", "chi"),
        ({"melds": [{"type": "pong", "tiles": "111m"}]}, "invalid_meld", "pong"),
        ({"seat_wind": "X"}, "invalid_request", "seat_wind"),
        ({"honba": -1}, "invalid_request", "honba"),
        ({"tsumo": "yes"}, "invalid_request", "tsumo"),
        ({"colour": "red"}, "invalid_request", "colour"),
    ],
)
def test_hand_validation_codes(changes, code, named):
    with pytest.raises(ScoringError) as caught:
        hand_from_dict(_hand(**changes))
    assert caught.value.code == code
    assert named in caught.value.message


KAN = [{"type": "kan_closed", "tiles": "9999p"}]


@pytest.mark.parametrize(
    "changes",
    [
        {"double_riichi": True},  # double riichi without riichi
        {"ippatsu": True},  # ippatsu without riichi
        {"tsumo": True, "houtei": True},
        {"haitei": True},  # haitei is a tsumo
        {"rinshan": True, "tsumo": True},  # rinshan without a kan
        {"rinshan": True, "tiles": "123m456p11122z", "melds": KAN},  # rinshan on a ron
        {"chankan": True, "tsumo": True},
        {"tenhou": True, "tsumo": True, "seat_wind": "S"},  # tenhou not dealer
        {"tenhou": True},  # tenhou by ron
        {"chiihou": True, "tsumo": True},  # chiihou for the dealer
        {"riichi": True, "tiles": "123m456p11122z", "melds": [{"type": "pon", "tiles": "999p"}]},
        {"dealer": True, "seat_wind": "W"},
        {"haitei": True, "rinshan": True, "tsumo": True, "tiles": "123m456p11122z", "melds": KAN},
        {"houtei": True, "chankan": True},
    ],
)
def test_inconsistent_flags(changes):
    with pytest.raises(ScoringError) as caught:
        hand_from_dict(_hand(**changes))
    assert caught.value.code == "inconsistent_flags"


def test_hand_defaults_are_false_empty_zero_east():
    hand = hand_from_dict(_hand())
    assert (hand.tsumo, hand.riichi, hand.melds, hand.honba, hand.riichi_sticks) == (False, False, (), 0, 0)
    assert hand.seat_wind == hand.round_wind == 27 and hand.dealer


def test_closed_kan_keeps_the_hand_closed():
    hand = hand_from_dict(_hand(tiles="123m456p11122z", melds=KAN))
    assert hand.is_closed
    hand = hand_from_dict(_hand(tiles="123m456p11122z", melds=[{"type": "kan_open", "tiles": "9999p"}]))
    assert not hand.is_closed
