"""Fu of seed 001 (定義 0.14-0.18), with the breakdown of hand-format.md."""

from __future__ import annotations

import pytest

from scoring.engine.fu import meld_fu, pair_fu
from scoring.engine.rules import Rules
from scoring.engine.tiles import CHUN, EAST, SOUTH, WEST

from .conftest import score


@pytest.mark.parametrize(
    ("concealed", "kan", "terminal", "fu"),
    [
        (False, False, False, 2),  # 数牌の明刻
        (False, False, True, 4),  # 老頭牌の明刻
        (False, True, False, 8),  # 数牌の明槓
        (False, True, True, 16),  # 老頭牌の明槓
        (True, False, False, 4),  # 数牌の暗刻
        (True, False, True, 8),  # 老頭牌の暗刻
        (True, True, False, 16),  # 数牌の暗槓
        (True, True, True, 32),  # 老頭牌の暗槓
    ],
)
def test_seed001_meld_fu_table(concealed, kan, terminal, fu):
    assert meld_fu(concealed, kan, terminal) == fu


@pytest.mark.parametrize(
    ("pair", "seat", "round_", "fu"),
    [
        (0, SOUTH, EAST, 0),  # 数牌
        (CHUN, SOUTH, EAST, 2),  # 三元牌
        (EAST, SOUTH, EAST, 2),  # 場風牌
        (SOUTH, SOUTH, EAST, 2),  # 自風牌
        (EAST, EAST, EAST, 4),  # 連風牌
        (WEST, SOUTH, EAST, 0),  # オタ風牌
    ],
)
def test_seed001_pair_fu_table(pair, seat, round_, fu):
    assert pair_fu(pair, seat, round_, 4) == fu


def test_double_wind_pair_option_two_fu():
    assert pair_fu(EAST, EAST, EAST, 2) == 2
    # East pair for an East seat in an East round, pon of 999m (4), kanchan 2p (2), tsumo (2):
    # 20 + 4 + 4 + 2 + 2 = 32 -> 40; with the 2-fu option 20 + 4 + 2 + 2 + 2 = 30
    hand = dict(tiles="123m123p789s11z", melds=[("pon", "999m")], win_tile="2p", tsumo=True, haitei=True)
    assert score(**hand)["fu"] == 40
    assert ["double_wind_pair", 4] in score(**hand)["fu_details"]
    assert score(**hand, rules=Rules(double_wind_pair_fu=2))["fu"] == 30


@pytest.mark.parametrize(
    ("hand", "fu", "details"),
    [
        # 七対子 25, fixed
        (dict(tiles="1133m5577p22s4466z", win_tile="6z"), 25, [["chiitoitsu", 25]]),
        # 喰い平和 shape: open, no fu at all -> 30
        (
            dict(tiles="123m123s456m55s", melds=[("chi", "123p")], win_tile="6m"),
            30,
            [["base", 20], ["open_pinfu", 10]],
        ),
        # 平和自摸 20: no tsumo fu
        (dict(tiles="123m456p789s234s55p", win_tile="4s", tsumo=True), 20, [["base", 20]]),
        # pinfu ron: 20 + 門前加符 10
        (dict(tiles="123m456p789s234s55p", win_tile="4s"), 30, [["base", 20], ["closed_ron", 10]]),
        # penchan 2 + closed ron 10 = 32 -> 40
        (
            dict(tiles="123m456p55p234s789s", win_tile="7s", riichi=True),
            40,
            [["base", 20], ["penchan", 2], ["closed_ron", 10]],
        ),
        # kanchan, tsumo: 20 + 2 + 2 = 24 -> 30
        (
            dict(tiles="123m456p55p234s789s", win_tile="3s", tsumo=True),
            30,
            [["base", 20], ["kanchan", 2], ["tsumo", 2]],
        ),
        # closed triplets 888p (4) and 222z (8), tsumo 2: 34 -> 40 (hand-format.md's example)
        (
            dict(
                tiles="345m888p11567s222z",
                win_tile="5s",
                tsumo=True,
                riichi=True,
                seat_wind="E",
                round_wind="S",
            ),
            40,
            [["base", 20], ["closed_triplet", 4], ["closed_triplet", 8], ["tsumo", 2]],
        ),
        # shanpon ron: the triplet completed on a discard counts as open (明刻): 999m 4, 777z 8: 42 -> 50
        (
            dict(tiles="123m456p999m777z99s", win_tile="9m"),
            50,
            [["base", 20], ["open_triplet", 4], ["closed_triplet", 8], ["closed_ron", 10]],
        ),
        # kans: open kan of simples 8, closed kan of terminals 32, open hand tsumo 2, tanki 2: 64 -> 70
        (
            dict(
                tiles="234m55z",
                melds=[("kan_open", "6666p"), ("kan_closed", "1111s"), ("chi", "678s")],
                win_tile="5z",
                tsumo=True,
                rinshan=True,
            ),
            70,
            None,
        ),
    ],
)
def test_seed001_fu(hand, fu, details):
    result = score(**hand)
    assert result["fu"] == fu
    if details and len(details) > 1:
        assert sorted(result["fu_details"]) == sorted(details)


def test_seed001_fu_rounds_up_to_ten_seed002_34_becomes_40():
    result = score(tiles="345m888p11567s222z", win_tile="5s", tsumo=True, riichi=True, round_wind="S")
    assert sum(value for _, value in result["fu_details"]) == 34
    assert result["fu"] == 40


def test_ambiguous_wait_takes_the_reading_that_pays_most():
    # 234m + 44m: the 4m completes 23m (ryanmen, 0 fu) or the pair (tanki, 2 fu).
    # 111s closed triplet 8, tsumo 2: 30 fu as ryanmen, 32 -> 40 fu as tanki.
    result = score(tiles="234m44m111s567s678p", win_tile="4m", tsumo=True)
    assert result["fu"] == 40
    assert ["tanki", 2] in result["fu_details"]


def test_kokushi_fu_not_applicable():
    result = score(tiles="119m19p19s1234567z", win_tile="1m")
    assert result["fu_details"] == []
