"""The tile classes (tiles.TILE_CLASSES): the yaku of the whole hand read from bits agree with the tiles.

Each rule is written here once more from the tile kinds themselves (the seed's definitions), and the
bits are checked against it on random sets of kinds, so that a wrong bit cannot hide behind the hands
the other tests happen to use.
"""

from __future__ import annotations

import random

from scoring.engine.hand_readings import _suit_classes
from scoring.engine.tiles import GREEN_TILES, TERMINALS, TERMINALS_AND_HONORS, tile_classes
from scoring.engine.yaku import TILES_YAKUMAN, hand_yakuman


def yakuman_of_kinds(kinds: set[int], counts: dict[int, int], *, has_melds: bool) -> tuple[str, ...]:
    """字一色, 清老頭, 緑一色 and 九蓮宝燈 from the tile kinds and counts, as the seed defines them."""
    found = []
    if all(kind >= 27 for kind in kinds):
        found.append("tsuuiisou")  # 字一色
    if kinds <= TERMINALS:
        found.append("chinroutou")  # 清老頭
    if kinds <= GREEN_TILES:
        found.append("ryuuiisou")  # 緑一色
    suit_starts = {kind - kind % 9 for kind in kinds}
    if not has_melds and len(suit_starts) == 1 and all(kind < 27 for kind in kinds):
        start = suit_starts.pop()
        if kinds == set(range(start, start + 9)) and counts[start] >= 3 and counts[start + 8] >= 3:
            found.append("chuuren")  # 九蓮宝燈
    return tuple(found)


def classes_of(counts: dict[int, int]) -> int:
    """The hand's classes as the engine builds them: each suit's kinds, and 九蓮宝燈's shape per suit."""
    classes = 0
    for suit in range(4):
        base = suit * 9
        size = 7 if suit == 3 else 9
        classes |= _suit_classes(suit, tuple(counts.get(base + rank, 0) for rank in range(size)))
    return classes


def random_counts(rng: random.Random) -> dict[int, int]:
    """A random set of tile kinds, often within one suit, the terminals, the greens or the honors."""
    pool = rng.choice(
        [
            range(34),
            range(9),
            range(9, 18),
            range(18, 27),
            range(27, 34),
            sorted(TERMINALS_AND_HONORS),
            sorted(TERMINALS),
            sorted(GREEN_TILES),
        ]
    )
    kinds = rng.sample(list(pool), rng.randint(1, len(pool)))
    return {kind: rng.randint(1, 4) for kind in kinds}


def test_the_tiles_yakuman_read_from_the_classes_agree_with_the_kinds():
    # given random sets of tile kinds, and every 九蓮宝燈 shape of the first suit
    rng = random.Random(41)
    hands = [random_counts(rng) for _ in range(20_000)]
    hands += [
        {rank: 1 for rank in range(9)} | {0: 3, 8: 3, extra: 2 if extra not in (0, 8) else 4} for extra in range(9)
    ]
    for counts in hands:
        for has_melds in (False, True):
            # when
            classes = classes_of(counts)
            # then
            expected = yakuman_of_kinds(set(counts), counts, has_melds=has_melds)
            assert TILES_YAKUMAN[has_melds][classes] == expected, (counts, has_melds)
            assert hand_yakuman(classes, tenhou=False, chiihou=False, has_melds=has_melds) == expected


def test_the_tile_classes_tell_simples_terminals_honors_and_suits():
    # given / when / then
    assert tile_classes([1, 2, 3]) == tile_classes([4]) | tile_classes([6])  # simples of the characters
    assert tile_classes([0]) != tile_classes([1])  # a terminal is not a simple
    assert tile_classes([27]) & tile_classes([31]) == tile_classes([27])  # honors: one class, not green
    assert tile_classes([32]) != tile_classes([31])  # the green dragon is a 緑一色 tile
    assert len({tile_classes([base + 4]) for base in (0, 9, 18)}) == 3  # each number suit its own bit
