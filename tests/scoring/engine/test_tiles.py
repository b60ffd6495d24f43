"""Tiles: MPSZ in and out, 34-index, dora indicators; hand validation error codes (hand-format.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import ScoringError
from scoring.engine.hand import FLAG_KEYS, FLAGS, Hand, hand_from_dict
from scoring.engine.tiles import counts_of, dora_from_indicator, parse_tiles, suit_counts, tile_name, to_mpsz
from scoring.engine.yaku import WinContext


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


@given(
    st.lists(st.integers(0, 33), min_size=0, max_size=18),
    st.sampled_from(("runs", "tile by tile", "shuffled")),
    st.integers(0, 3),
)
@settings(max_examples=300)
def test_suit_counts_reads_as_parse_tiles_does(indices, written, reds):
    """``suit_counts`` (a hand's tiles read suit by suit, each suit's part kept) gives what reading the
    text tile by tile gives, or leaves the text to it (None)."""
    # given a hand's tiles written as runs (123m), tile by tile (1m2m3m) or out of order, some fives red
    red_kinds = {index for index in (4, 13, 22) if index in indices}
    reds_left = reds
    texts = []
    for index in sorted(indices):
        red = index in red_kinds and reds_left > 0
        if red:
            reds_left -= 1
            red_kinds.discard(index)
        texts.append(("0" if red else str(index % 9 + 1)) + "mpsz"[index // 9])
    if written == "runs":
        text = to_mpsz(indices)
    elif written == "tile by tile":
        text = "".join(texts)
    else:
        text = "".join(reversed(texts))
    # when it is read suit by suit
    read = suit_counts(text)
    # then it is read as parse_tiles reads it, or left to it (a tile more than four times, suits out of order)
    parsed, red = parse_tiles(text)
    counts = tuple(counts_of(parsed))
    if read is None:
        assert max(counts, default=0) > 4 or written == "shuffled"
        return
    per_suit, all_counts, sorted_indices, read_red = read
    assert all_counts == counts
    assert tuple(per_suit) == (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    assert sorted_indices == tuple(sorted(parsed))
    assert read_red == red


def test_hand_and_win_context_list_the_flags_in_one_order():
    """The win's context takes a hand's flags as one slice (``FLAGS``): both list them as FLAG_KEYS."""
    assert Hand._fields[FLAGS] == FLAG_KEYS
    assert WinContext._fields[4:14] == FLAG_KEYS


def test_a_tile_more_than_four_times_is_named_after_the_tile_count():
    """A concealed part holding a tile five times is left to the full reader: its errors come in order."""
    with pytest.raises(ScoringError) as caught:
        hand_from_dict(_hand(tiles="11111m456p789s22z"))
    assert caught.value.code == "wrong_tile_count"
    with pytest.raises(ScoringError) as caught:
        hand_from_dict(_hand(tiles="1m1m1m1m1m4p5p6p7s8s9s2z2z2z"))
    assert caught.value.code == "too_many_copies"
