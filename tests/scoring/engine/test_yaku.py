"""Yaku of seed 001 (役集合): the table as data, and one hand per yaku and yakuman.

Expected yaku and han are worked out by hand from the seed's table (closed han, open han).
"""

from __future__ import annotations

import pytest

from scoring.engine.errors import ScoringError
from scoring.engine.rules import Rules
from scoring.engine.yaku import YAKU_TABLE

from .conftest import score

# seed 001, 定義 0.8 役集合, transcribed: (Japanese name, closed han, open han)
SEED001_YAKU_SET = {
    "立直": (1, 0),
    "門前清模和": (1, 0),
    "一発": (1, 0),
    "海底摸月": (1, 1),
    "河底撈魚": (1, 1),
    "嶺上開花": (1, 1),
    "槍槓": (1, 1),
    "翻牌": (1, 1),
    "断么": (1, 1),
    "平和": (1, 0),
    "一盃口": (1, 0),
    "ダブル立直": (2, 0),
    "三色同順": (2, 1),
    "一気通貫": (2, 1),
    "全帯么": (2, 1),
    "七対子": (2, 0),
    "対々和": (2, 2),
    "三暗刻": (2, 2),
    "混老頭": (2, 2),
    "三槓子": (2, 2),
    "三色同刻": (2, 2),
    "混一色": (3, 2),
    "純全帯么": (3, 2),
    "二盃口": (3, 0),
    "小三元": (2, 2),
    "清一色": (6, 5),
    "天和": (13, 0),
    "地和": (13, 0),
    "字一色": (13, 13),
    "四暗刻": (13, 0),
    "緑一色": (13, 13),
    "小四喜和": (13, 13),
    "大四喜和": (13, 13),
    "大三元": (13, 13),
    "九蓮宝燈": (13, 0),
    "清老頭": (13, 13),
    "国士無双": (13, 0),
    "四槓子": (13, 13),
}
HAND_FORMAT_KEYS = [
    "riichi",
    "double_riichi",
    "ippatsu",
    "menzen_tsumo",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "pinfu",
    "tanyao",
    "iipeikou",
    "ryanpeikou",
    "yakuhai_haku",
    "yakuhai_hatsu",
    "yakuhai_chun",
    "seat_wind",
    "round_wind",
    "sanshoku",
    "ittsu",
    "chanta",
    "junchan",
    "chiitoitsu",
    "toitoi",
    "sanankou",
    "honroutou",
    "sankantsu",
    "sanshoku_doukou",
    "shousangen",
    "honitsu",
    "chinitsu",
    "tenhou",
    "chiihou",
    "tsuuiisou",
    "suuankou",
    "ryuuiisou",
    "shousuushii",
    "daisuushii",
    "daisangen",
    "chuuren",
    "chinroutou",
    "kokushi",
    "suukantsu",
]

# 123m 456p 789s 234s + 55p: no yaku of its own; a win on 7s is a penchan (89s waiting on 7s) (辺張)
PLAIN = "123m456p55p234s789s"
PLAIN_OPEN = "456p55p234s789s"  # with a chi of 123m


def test_seed001_yaku_table_matches_the_seed():
    table = {
        definition.japanese.split(" ")[0]: (definition.closed_han, definition.open_han) for definition in YAKU_TABLE
    }
    for name, han in SEED001_YAKU_SET.items():
        assert table[name] == han, name
    yakumans = {definition.japanese for definition in YAKU_TABLE if definition.yakuman}
    assert len(yakumans) == 12


def test_hand_format_yaku_keys_are_exactly_the_table_keys():
    assert [definition.key for definition in YAKU_TABLE] and set(HAND_FORMAT_KEYS) == {
        definition.key for definition in YAKU_TABLE
    }


CHI_123M = [("chi", "123m")]

YAKU_CASES = {
    "riichi": (dict(tiles=PLAIN, win_tile="7s", riichi=True), {"riichi": 1}),
    "double_riichi_only": (
        dict(tiles=PLAIN, win_tile="7s", riichi=True, double_riichi=True),
        {"double_riichi": 2},
    ),
    "ippatsu": (dict(tiles=PLAIN, win_tile="7s", riichi=True, ippatsu=True), {"riichi": 1, "ippatsu": 1}),
    "menzen_tsumo": (dict(tiles=PLAIN, win_tile="7s", tsumo=True), {"menzen_tsumo": 1}),
    "haitei_open": (
        dict(tiles=PLAIN_OPEN, melds=CHI_123M, win_tile="7s", tsumo=True, haitei=True),
        {"haitei": 1},
    ),
    "houtei_open": (dict(tiles=PLAIN_OPEN, melds=CHI_123M, win_tile="7s", houtei=True), {"houtei": 1}),
    "rinshan_open": (
        dict(tiles=PLAIN_OPEN, melds=[("kan_open", "9999m")], win_tile="7s", tsumo=True, rinshan=True),
        {"rinshan": 1},
    ),
    "chankan_open": (dict(tiles=PLAIN_OPEN, melds=CHI_123M, win_tile="7s", chankan=True), {"chankan": 1}),
    "yakuhai_chun": (dict(tiles="123m456p55p789s777z", win_tile="1m"), {"yakuhai_chun": 1}),
    "yakuhai_haku": (dict(tiles="123m456p55p789s555z", win_tile="1m"), {"yakuhai_haku": 1}),
    "yakuhai_hatsu": (dict(tiles="123m456p55p789s666z", win_tile="1m"), {"yakuhai_hatsu": 1}),
    "seat_wind": (
        dict(tiles="123m456p55p789s222z", win_tile="1m", seat_wind="S", round_wind="E"),
        {"seat_wind": 1},
    ),
    "round_wind": (
        dict(tiles="123m456p55p789s222z", win_tile="1m", seat_wind="W", round_wind="S"),
        {"round_wind": 1},
    ),
    "double_wind_triplet": (
        dict(tiles="123m456p55p789s222z", win_tile="1m", seat_wind="S", round_wind="S"),
        {"seat_wind": 1, "round_wind": 1},
    ),
    "non_value_wind_triplet": (
        dict(tiles="123m456p55p789s444z", win_tile="1m", seat_wind="S", round_wind="E", riichi=True),
        {"riichi": 1},
    ),
    "tanyao_open": (dict(tiles="234m456p678s55s", melds=[("chi", "345p")], win_tile="8s"), {"tanyao": 1}),
    "tanyao_pinfu": (dict(tiles="234m345p456p678s55s", win_tile="8s"), {"tanyao": 1, "pinfu": 1}),
    "pinfu": (dict(tiles="123m456p789s234s55p", win_tile="4s"), {"pinfu": 1}),
    "iipeikou": (dict(tiles="112233m456p789s55p", win_tile="6p"), {"pinfu": 1, "iipeikou": 1}),
    "sanshoku": (dict(tiles="123m123p123s456m55s", win_tile="6m"), {"pinfu": 1, "sanshoku": 2}),
    "sanshoku_open": (dict(tiles="123m123s456m55s", melds=[("chi", "123p")], win_tile="6m"), {"sanshoku": 1}),
    "ittsu": (dict(tiles="123456789m234p55s", win_tile="9m"), {"pinfu": 1, "ittsu": 2}),
    "ittsu_open": (dict(tiles="123456m234p55s", melds=[("chi", "789m")], win_tile="6m"), {"ittsu": 1}),
    "chanta": (
        dict(tiles="123m789p123s111z99m", win_tile="3s", seat_wind="S", round_wind="S"),
        {"chanta": 2},
    ),
    "chanta_open": (
        dict(tiles="789p123s111z99m", melds=CHI_123M, win_tile="3s", seat_wind="S", round_wind="S"),
        {"chanta": 1},
    ),
    "junchan": (dict(tiles="123m789p123s999m11p", win_tile="3s"), {"junchan": 3}),
    "junchan_open": (dict(tiles="789p123s999m11p", melds=CHI_123M, win_tile="3s"), {"junchan": 2}),
    "chiitoitsu": (dict(tiles="1133m5577p22s4466z", win_tile="6z"), {"chiitoitsu": 2}),
    "toitoi": (
        dict(tiles="888s666s99m", melds=[("pon", "222m"), ("pon", "555p")], win_tile="9m"),
        {"toitoi": 2},
    ),
    "sanankou": (dict(tiles="222m555p888s345s99m", win_tile="5s"), {"sanankou": 2}),
    "suuankou_shanpon_ron_is_sanankou": (
        dict(tiles="111m99m333p555s777s", win_tile="1m"),
        {"toitoi": 2, "sanankou": 2},
    ),
    "honroutou": (
        dict(
            tiles="111z999s22z",
            melds=[("pon", "111m"), ("pon", "999p")],
            win_tile="2z",
            seat_wind="W",
            round_wind="N",
        ),
        {"toitoi": 2, "honroutou": 2},
    ),
    "sankantsu": (
        dict(
            tiles="345s99m",
            melds=[("kan_open", "2222m"), ("kan_open", "5555p"), ("kan_closed", "8888s")],
            win_tile="5s",
        ),
        {"sankantsu": 2},
    ),
    "sanshoku_doukou": (
        dict(tiles="222s345m99s", melds=[("pon", "222m"), ("pon", "222p")], win_tile="3m"),
        {"sanshoku_doukou": 2},
    ),
    "honitsu": (
        dict(tiles="234m567m999m555z11z", win_tile="7m", seat_wind="S", round_wind="S"),
        {"honitsu": 3, "yakuhai_haku": 1},
    ),
    "honitsu_open": (
        dict(
            tiles="234m567m11z",
            melds=[("pon", "555z"), ("chi", "789m")],
            win_tile="7m",
            seat_wind="S",
            round_wind="S",
        ),
        {"honitsu": 2, "yakuhai_haku": 1},
    ),
    "chinitsu": (dict(tiles="22334455m567789m", win_tile="9m"), {"chinitsu": 6, "pinfu": 1, "iipeikou": 1}),
    "chinitsu_open": (dict(tiles="22334455m567m", melds=[("chi", "789m")], win_tile="7m"), {"chinitsu": 5}),
    "ryanpeikou_beats_chiitoitsu": (
        dict(tiles="223344m556677p88s", win_tile="7p"),
        {"ryanpeikou": 3, "pinfu": 1, "tanyao": 1},
    ),
    "shousangen": (
        dict(tiles="123m456p555666z77z", win_tile="3m"),
        {"shousangen": 2, "yakuhai_haku": 1, "yakuhai_hatsu": 1},
    ),
}


@pytest.mark.parametrize(("hand", "expected"), YAKU_CASES.values(), ids=[f"seed001_{name}" for name in YAKU_CASES])
def test_seed001_yaku(hand, expected):
    result = score(**hand)
    assert dict(map(tuple, result["yaku"])) == expected
    assert result["han"] == sum(expected.values())


YAKUMAN_CASES = {
    "tenhou": (dict(tiles=PLAIN, win_tile="7s", tsumo=True, tenhou=True), ["tenhou"]),
    "chiihou": (dict(tiles=PLAIN, win_tile="7s", tsumo=True, chiihou=True, seat_wind="S"), ["chiihou"]),
    "tsuuiisou": (dict(tiles="11122233366z", melds=[("pon", "555z")], win_tile="6z"), ["tsuuiisou"]),
    "suuankou_tsumo": (dict(tiles="111m99m333p555s777s", win_tile="1m", tsumo=True), ["suuankou"]),
    "suuankou_tanki_ron": (dict(tiles="111m99m333p555s777s", win_tile="9m"), ["suuankou"]),
    "ryuuiisou": (dict(tiles="22234666888s666z", win_tile="3s"), ["ryuuiisou"]),
    "shousuushii": (dict(tiles="123m11122233344z", win_tile="4z"), ["shousuushii"]),
    "daisuushii_with_suuankou": (dict(tiles="55m111222333444z", win_tile="5m"), ["daisuushii", "suuankou"]),
    "daisangen": (dict(tiles="555666777z123m11p", win_tile="3m"), ["daisangen"]),
    "chuuren": (dict(tiles="11123455678999m", win_tile="5m"), ["chuuren"]),
    "chinroutou": (dict(tiles="999m111p999p11s", melds=[("pon", "111m")], win_tile="1s"), ["chinroutou"]),
    "kokushi": (dict(tiles="119m19p19s1234567z", win_tile="1m"), ["kokushi"]),
    "suukantsu": (
        dict(
            tiles="55m",
            melds=[
                ("kan_open", "2222m"),
                ("kan_open", "3333p"),
                ("kan_added", "4444s"),
                ("kan_closed", "6666s"),
            ],
            win_tile="5m",
        ),
        ["suukantsu"],
    ),
}


@pytest.mark.parametrize(
    ("hand", "expected"), YAKUMAN_CASES.values(), ids=[f"seed001_{name}" for name in YAKUMAN_CASES]
)
def test_seed001_yakuman_lists_only_yakuman(hand, expected):
    result = score(**hand)
    assert sorted(key for key, _ in result["yaku"]) == sorted(expected)
    assert all(han == 13 for _, han in result["yaku"])
    assert result["limit"] == "yakuman"


def test_yakuman_never_stack_by_default():
    # daisuushii + suuankou: one yakuman, 32000 for a non-dealer ron
    result = score(tiles="55m111222333444z", win_tile="5m", seat_wind="S")
    assert result["payments"] == {"ron": 32000}


def test_seed001_closed_only_yakuman_need_a_closed_hand():
    # 九蓮宝燈 shape with a called chi is only chinitsu
    result = score(tiles="11123455999m", melds=[("chi", "678m")], win_tile="5m")
    assert dict(map(tuple, result["yaku"])) == {"chinitsu": 5}
    assert "chuuren" not in dict(map(tuple, result["yaku"]))


@pytest.mark.parametrize(
    ("hand", "dora", "aka", "ura"),
    [
        (dict(dora_indicators=["1m"]), 1, 0, 0),
        (dict(dora_indicators=["4p"]), 3, 0, 0),  # 5p: one in 456p and the pair 55p
        (dict(dora_indicators=["4p", "4p"]), 6, 0, 0),  # each indicator counts
        (dict(ura_dora_indicators=["4p"]), 0, 0, 3),
        (dict(riichi=False, tsumo=True, ura_dora_indicators=["4p"]), 0, 0, 0),  # ura only with riichi
        (dict(tiles="123m406p55p234s789s", line_rules={"aka_dora": True}), 0, 1, 0),
        (dict(tiles="123m406p55p234s789s"), 0, 0, 0),  # red fives count only with aka_dora
    ],
)
def test_dora_aka_ura_entries(hand, dora, aka, ura):
    request = dict(tiles=PLAIN, win_tile="7s", riichi=True) | hand
    result = score(**request)
    yaku = dict(map(tuple, result["yaku"]))
    assert (yaku.get("dora", 0), yaku.get("aka_dora", 0), yaku.get("ura_dora", 0)) == (dora, aka, ura)
    assert "dora" in yaku or not dora  # an entry only when non-zero
    assert result["han"] == 1 + dora + aka + ura


def test_dora_alone_is_no_yaku():
    assert score(tiles=PLAIN, win_tile="7s", dora_indicators=["1m"])["code"] == "no_yaku"


def test_open_tanyao_option():
    hand = dict(tiles="234m456p678s55s", melds=[("chi", "345p")], win_tile="8s")
    assert score(**hand, rules=Rules(open_tanyao=False))["code"] == "no_yaku"
    assert dict(map(tuple, score(**hand)["yaku"])) == {"tanyao": 1}


def test_rules_override_yaku_han():
    rules = Rules(yaku_han={"pinfu": (2, 0)})
    result = score(tiles="123m456p789s234s55p", win_tile="4s", rules=rules)
    assert dict(map(tuple, result["yaku"])) == {"pinfu": 2}


@pytest.mark.parametrize("overrides", [{"pinfuu": (1, 0)}, {"kokushi": (26, 0)}, {"pinfu": (1,)}, {"pinfu": (-1, 0)}])
def test_rules_reject_invalid_yaku_overrides(overrides):
    with pytest.raises(ScoringError) as caught:
        Rules(yaku_han=overrides)
    assert caught.value.code == "invalid_parameter"
