"""Shapes: decompositions, waits, shanten, and seed 003's tile models (面子認識アルゴリズム)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from mahjong.shanten import Shanten

from scoring.engine.shapes import (
    USEFUL_TWO_TILE,
    classify_three,
    classify_two,
    closed_variant,
    decompositions,
    is_complete,
    model_splits,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
    shape_report,
    shape_report_text,
    waits,
)
from scoring.engine.tiles import counts_of, parse_tiles, tile_name

# seed 003's two-tile table, row by row (①① 対子, ①② 辺塔, ①③ 嵌塔A, ...)
SEED003_TWO_TILE_TABLE = {
    (1, 1): "pair",
    (1, 2): "edge",
    (1, 3): "closed",
    (1, 4): "suji",
    (1, 5): "double_closed",
    (2, 2): "pair",
    (2, 3): "open",
    (2, 4): "closed",
    (2, 5): "suji",
    (2, 6): "double_closed",
    (3, 3): "pair",
    (3, 4): "open",
    (3, 5): "closed",
    (3, 6): "suji",
    (3, 7): "double_closed",
    (4, 4): "pair",
    (4, 5): "open",
    (4, 6): "closed",
    (4, 7): "suji",
    (4, 8): "double_closed",
    (5, 5): "pair",
    (5, 6): "open",
    (5, 7): "closed",
    (5, 8): "suji",
    (5, 9): "double_closed",
    (6, 6): "pair",
    (6, 7): "open",
    (6, 8): "closed",
    (6, 9): "suji",
    (7, 7): "pair",
    (7, 8): "open",
    (7, 9): "closed",
    (8, 8): "pair",
    (8, 9): "edge",
    (9, 9): "pair",
}
SEED003_CLOSED_VARIANTS = {
    (1, 3): "A",
    (2, 4): "A",
    (3, 5): "B",
    (4, 6): "B",
    (5, 7): "B",
    (6, 8): "A",
    (7, 9): "A",
}


def counts(text: str) -> list[int]:
    return counts_of(parse_tiles(text)[0])


def test_seed003_two_tile_table():
    for low, high in combinations_with_replacement(range(1, 10), 2):
        expected = SEED003_TWO_TILE_TABLE.get((low, high), "isolated")
        assert classify_two(low, high) == expected, (low, high)
        assert classify_two(high, low) == expected


def test_seed003_two_tile_counts_45_pairs_10_isolated_6_suji_29_useful():
    models = Counter(classify_two(low, high) for low, high in combinations_with_replacement(range(1, 10), 2))
    assert sum(models.values()) == 45
    assert models["isolated"] == 10
    assert models["suji"] == 6
    assert sum(models[kind] for kind in USEFUL_TWO_TILE) == 29
    assert models["open"] == 6  # 両塔: the best model, 6 of 45 (about 13%)


def test_seed003_closed_wait_variants_a_and_b():
    for (low, high), variant in SEED003_CLOSED_VARIANTS.items():
        assert closed_variant(low, high) == variant


def test_seed003_three_tile_counts_165_16_35_104_10():
    kinds = Counter(classify_three(*model)["kind"] for model in combinations_with_replacement(range(1, 10), 3))
    assert sum(kinds.values()) == 165
    assert kinds == {"complete": 16, "useful": 35, "near_useful": 104, "useless": 10}


def test_seed003_complete_melds_are_7_sequences_and_9_triplets():
    complete = [
        model
        for model in combinations_with_replacement(range(1, 10), 3)
        if classify_three(*model)["kind"] == "complete"
    ]
    assert Counter(classify_three(*model)["meld"] for model in complete) == {"sequence": 7, "triplet": 9}


def test_seed003_useless_models_are_the_ten_listed():
    useless = {
        model for model in combinations_with_replacement(range(1, 10), 3) if classify_three(*model)["kind"] == "useless"
    }
    assert useless == {
        (1, 4, 7),
        (1, 4, 8),
        (1, 4, 9),
        (1, 5, 8),
        (1, 5, 9),
        (1, 6, 9),
        (2, 5, 8),
        (2, 5, 9),
        (2, 6, 9),
        (3, 6, 9),
    }


def test_seed003_near_useful_models_per_lowest_tile_32_26_20_14_8_4():
    per_rank = Counter(
        model[0]
        for model in combinations_with_replacement(range(1, 10), 3)
        if classify_three(*model)["kind"] == "near_useful"
    )
    assert [per_rank[rank] for rank in range(1, 7)] == [32, 26, 20, 14, 8, 4]


def test_seed003_useful_models_of_rank_one():
    # ①①① ①①② ①①③ ①②② ①②③ ①③③ ①③⑤: the two melds (111, 123) are complete, the other five useful
    useful = {
        model
        for model in combinations_with_replacement(range(1, 10), 3)
        if model[0] == 1 and classify_three(*model)["kind"] == "useful"
    }
    assert useful == {(1, 1, 2), (1, 1, 3), (1, 2, 2), (1, 3, 3), (1, 3, 5)}


@pytest.mark.parametrize(
    ("model", "keep", "spare"),
    [
        ((1, 1, 5), (1, 1), 5),  # 対子+浮き牌: R を切る
        ((1, 2, 4), (2, 4), 1),  # P切り
        ((1, 2, 6), (1, 2), 6),  # 辺塔+浮き牌
        ((1, 3, 4), (3, 4), 1),  # P切り
        ((1, 3, 6), (1, 3), 6),  # 嵌塔+浮き牌
        ((1, 4, 5), (4, 5), 1),  # Q(x+3~): 1+2
        ((2, 3, 5), (2, 3), 5),  # ②③ と ③⑤ を比較し、②③ を残す
        ((2, 4, 5), (4, 5), 2),  # ②④ と ④⑤ を比較し、④⑤ を残す
    ],
)
def test_seed003_near_useful_split_rules(model, keep, spare):
    entry = classify_three(*model)
    assert entry["kind"] == "near_useful"
    assert (entry["keep"], entry["spare"]) == (keep, spare)


def test_seed003_3456_splits_into_lower_models():
    splits = model_splits([3, 4, 5, 6])
    assert len(splits) == 7  # 3+1, 2+2, 1+3, 1+1+2, 1+2+1, 2+1+1, 1+1+1+1
    for expected in ([(3, 4, 5), (6,)], [(3, 4), (5, 6)], [(3,), (4, 5, 6)], [(3,), (4,), (5,), (6,)]):
        assert expected in splits


@pytest.mark.parametrize(
    ("tiles", "count"),
    [
        ("111222333m456p11s", 2),  # three triplets or three sequences
        ("123456789m11122z", 1),
        ("11223344556677z", 0),  # seven pairs of honors: no standard decomposition
        ("223344m556677p99s", 1),
        ("123m123m123m123m11z", 2),  # four 123m, or 111m 222m 333m + 123m
    ],
)
def test_decompositions_count(tiles, count):
    assert len(decompositions(counts(tiles))) == count


@pytest.mark.parametrize(
    ("tiles", "expected"),
    [
        ("1112345678999m", "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # 九蓮宝燈 nine-sided wait
        ("19m19p19s1234567z", "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"),  # 国士無双 thirteen-sided
        ("23456s123m456p11z", "1s 4s 7s"),  # seed 003's multi-sided 23456s
        ("1122334455667z", "7z"),  # 七対子 tanki
        ("123m456p789s1122z", "1z 2z"),  # シャボ
        ("123m456p789s1234z", ""),  # not tenpai
    ],
)
def test_waits(tiles, expected):
    assert " ".join(tile_name(index) for index in waits(counts(tiles))) == expected


def test_a_tile_held_four_times_is_not_a_wait():
    assert waits(counts("1111m234p567s789s")) == []  # waiting only on a fifth 1m


def test_complete_shapes():
    assert is_complete(counts("123m456p789s11122z"))
    assert is_complete(counts("11223344556677z"))
    assert is_complete(counts("19m19p19s12345677z"))
    assert not is_complete(counts("123m456p789s11123z"))


@pytest.mark.parametrize(
    ("tiles", "standard", "pairs", "orphans"),
    [
        ("123m456p789s11122z", -1, 4, 8),
        ("123m456p789s1122z", 0, 4, 8),
        ("1122334455667z", 3, 0, 5),  # 7 honor kinds, one paired: 13 − 7 − 1
        ("19m19p19s1234567z", 8, 6, 0),
        ("13579m13579p135s", 4, 6, 8),  # five kanchan partials, four count
    ],
)
def test_shanten_forms(tiles, standard, pairs, orphans):
    hand = counts(tiles)
    assert shanten_standard(hand) == standard
    assert shanten_seven_pairs(hand) == pairs
    assert shanten_thirteen_orphans(hand) == orphans
    assert shanten(hand) == min(standard, pairs, orphans)


def test_shanten_agrees_with_mahjong_package_on_random_hands():
    """Independent reference: the ``mahjong`` package's Shanten on 400 random 13- and 14-tile hands."""
    rng = random.Random(3)
    reference = Shanten()
    for _ in range(400):
        wall = [kind for kind in range(34) for _ in range(4)]
        hand = counts_of(rng.sample(wall, rng.choice((13, 14))))
        assert shanten(hand) == reference.calculate_shanten(hand), hand


def test_shanten_with_open_melds():
    # two called melds leave 8 concealed tiles: 123m 456p + 11z pair = complete (−1); 45m partial = 0
    assert shanten_standard(counts("123m456p11z"), open_melds=2) == -1
    assert shanten_standard(counts("45m456p11z"), open_melds=2) == 0


def test_shape_report_thirteen_tiles():
    report = shape_report("23456s123m456p11z")
    assert report["tenpai"] and report["waits"] == ["1s", "4s", "7s"]
    assert report["shanten"]["minimum"] == 0
    assert {"tiles": "123m", "kind": "complete", "meld": "sequence"} in report["models"]
    text = shape_report_text("23456s123m456p11z")
    assert "waits 1s 4s 7s" in text


def test_shape_report_fourteen_tiles_lists_decompositions():
    report = shape_report("111222333m456p11s")
    assert report["complete"] and len(report["decompositions"]) == 2
    assert report["shanten"]["minimum"] == -1


def test_seed003_near_useful_model_yields_to_its_two_tile_model_in_report():
    # 近似有効モデル: 235m gives its usefulness to the kept 23m (open), 5m stays apart
    report = shape_report("235m")
    assert report["models"] == [
        {"tiles": "23m", "model": "open", "japanese": "両塔"},
        {"tiles": "5m", "model": "isolated", "japanese": "単独浮き牌"},
    ]
