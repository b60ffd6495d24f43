"""A winning hand's readings (seed 002): each decomposition of its concealed tiles, with each group the
winning tile may have completed, and the melds' part every reading shares.

The pieces are kept per suit and tile counts (``_SUIT_READINGS``) and per set of melds (``_MELDS_PARTS``), never
per hand: a suit holds one of a few thousand count vectors. ``evaluate`` scores the readings and builds the groups
of the best one only (``_with_groups``).
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .fu import TRIPLET_DETAILS
from .hand import MELD_TYPES, Hand
from .shapes import SEQUENCE, TRIPLET, is_thirteen_orphans, suit_splits
from .tiles import IS_TERMINAL_OR_HONOR, TILE_CLASSES, tile_classes
from .yaku import NINE_GATES, SHANPON, TANKI, Group, Reading, WinContext, wait_of_sequence

# Concealed groups are the same few objects in every hand: build them once.
_CONCEALED_GROUPS = {
    (kind, tile): Group(kind, tile, True, False, False) for kind in (SEQUENCE, TRIPLET) for tile in range(34)
}
_RON_TRIPLETS = {tile: Group(TRIPLET, tile, False, False, False) for tile in range(34)}
# a triplet's line of the fu breakdown: concealed (暗刻), or completed by ron (明刻)
_CONCEALED_TRIPLET_FU = tuple(TRIPLET_DETAILS[True, False, IS_TERMINAL_OR_HONOR[tile]] for tile in range(34))
_RON_TRIPLET_FU = tuple(TRIPLET_DETAILS[False, False, IS_TERMINAL_OR_HONOR[tile]] for tile in range(34))


class _MeldPart(NamedTuple):
    """What the called melds and kans add to every reading of the hand."""

    groups: tuple[Group, ...]
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]
    concealed_triplets: int  # closed kans (暗槓)
    kans: int
    triplet_fu: tuple[tuple[str, int], ...]
    classes: int  # the melds' tile classes (``tiles.TILE_CLASSES`` or-ed)
    opened: int  # the melds that open the hand: all but closed kans (暗槓)


def _meld_part(kind: str, tile: int) -> _MeldPart:
    group = Group(
        SEQUENCE if kind == "chi" else TRIPLET,
        tile,
        kind == "kan_closed",
        kind.startswith("kan"),
        kind != "kan_closed",
    )
    if group.kind == SEQUENCE:
        chi_tiles = range(tile, min(tile + 3, 34))  # a chi of 8m or beyond is never read
        return _MeldPart((group,), (tile,), (), 0, 0, (), tile_classes(chi_tiles), 1)
    detail = TRIPLET_DETAILS[group.concealed, group.is_kan, IS_TERMINAL_OR_HONOR[tile]]
    concealed = int(group.concealed)
    return _MeldPart((group,), (), (tile,), concealed, int(group.is_kan), (detail,), TILE_CLASSES[tile], 1 - concealed)


_MELD_PARTS = {(kind, tile): _meld_part(kind, tile) for kind in MELD_TYPES for tile in range(34)}
_NO_MELDS = _MeldPart((), (), (), 0, 0, (), 0, 0)


# A hand's melds (``Hand.melds``) -> their ``_MeldPart``: a hand holds one of a few thousand sets of melds.
_MELDS_PARTS: dict[tuple, _MeldPart] = {}


def _melds_part(melds: tuple) -> _MeldPart:
    """The parts of every meld of the hand, joined in the melds' order, kept per melds."""
    try:
        return _MELDS_PARTS[melds]
    except KeyError:
        part = _joined_meld_parts(melds)
    if len(_MELDS_PARTS) < 16384:
        _MELDS_PARTS[melds] = part
    return part


def _joined_meld_parts(melds: tuple) -> _MeldPart:
    groups = sequences = triplets = triplet_fu = ()
    concealed_triplets = kans = classes = opened = 0
    for meld in melds:
        part = _MELD_PARTS[meld.kind, meld.first]
        groups += part.groups
        sequences += part.sequences
        triplets += part.triplets
        concealed_triplets += part.concealed_triplets
        kans += part.kans
        triplet_fu += part.triplet_fu
        classes |= part.classes
        opened += part.opened
    return _MeldPart(groups, sequences, triplets, concealed_triplets, kans, triplet_fu, classes, opened)


class _Split(NamedTuple):
    """A decomposition of one suit's concealed tiles, with its groups sorted."""

    pair: int  # -1 when these tiles hold none
    groups: tuple[Group, ...]  # sequences first, then triplets
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]
    triplet_fu: tuple[tuple[str, int], ...]  # each (concealed) triplet's fu line
    # per rank of the suit: the waits (待ち) of the sequences a winning tile of that rank completes, one
    # per sequence start, lowest first: a hand's sequences of other suits never hold its winning tile
    sequence_waits: tuple[tuple[str, ...], ...]


def _split_of(suit: int, pair: int, melds: tuple) -> _Split:
    sequences = tuple(tile for kind, tile in melds if kind == SEQUENCE)
    triplets = tuple(tile for kind, tile in melds if kind == TRIPLET)
    starts = sorted(set(sequences))
    waits = tuple(
        tuple(wait_of_sequence(start, win) for start in starts if start <= win <= start + 2)
        for win in range(suit * 9, suit * 9 + 9)
    )
    return _Split(
        pair,
        tuple(_CONCEALED_GROUPS[meld] for meld in melds),
        sequences,
        triplets,
        tuple(_CONCEALED_TRIPLET_FU[tile] for tile in triplets),
        waits,
    )


# Per suit: the suit's tile counts -> (tiles mod 3 or 3 when it cannot split, its decompositions as
# ``_Split``, its tile classes, how many decompositions: 1 for no tiles, how many tiles it holds twice).
_SUIT_READINGS: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})
_MAN_READINGS, _PIN_READINGS, _SOU_READINGS, _HONOR_READINGS = _SUIT_READINGS
_NO_TILES = (_Split(-1, (), (), (), (), ((),) * 9),)


def _suit_readings(suit: int, suit_counts: tuple[int, ...]) -> tuple[int, tuple]:
    """``shapes.suit_decompositions`` as ``_Split``, kept per suit and tile counts."""
    held = sum(suit_counts)
    options = (
        _NO_TILES if not held else tuple(_split_of(suit, pair, melds) for pair, melds in suit_splits(suit, suit_counts))
    )
    # tiles mod 3, or 3 when the suit cannot split: four suits' sum is 2 exactly when the hand can
    entry = (held % 3 if options else 3, options, _suit_classes(suit, suit_counts), len(options), suit_counts.count(2))
    table = _SUIT_READINGS[suit]
    if len(table) < 65536:
        table[suit_counts] = entry
    return entry


def _suit_classes(suit: int, suit_counts: tuple[int, ...]) -> int:
    """The suit's tile classes, and ``NINE_GATES`` when it holds 九蓮宝燈's shape."""
    base = suit * 9
    classes = tile_classes(base + rank for rank, count in enumerate(suit_counts) if count)
    if suit < 3 and all(suit_counts) and suit_counts[0] >= 3 and suit_counts[8] >= 3:
        classes |= NINE_GATES
    return classes


# ``Reading(*fields)`` without the named tuple's Python-level ``__new__``: readings are built by the thousand
_reading = tuple.__new__


def readings(hand: Hand, context: WinContext) -> list[Reading]:
    """Every reading of the hand: each decomposition × each group that may hold the winning tile.

    A standard reading's ``groups`` is its decomposition's split per suit (``_Split``) here: the
    groups themselves are built for the best reading only (``_with_groups``). Only groups of the
    winning tile's suit can hold it, and a suit's groups come sequences first, so the readings come in
    the order of the groups. Two sequences of one start are one reading."""
    win = hand.win_tile
    win_suit = win // 9
    win_rank = win % 9
    melds = context.melds
    found: list[Reading] = []
    man, pin, sou, honors = context.suits
    # the decompositions, one split per suit (``_Split``), in the order of ``shapes.decompositions``: a
    # suit that cannot split has none; then exactly one suit holds the pair (3n+2 tiles)
    if man[0] + pin[0] + sou[0] + honors[0] != 2:
        decompositions = ()
    elif man[3] * pin[3] * sou[3] * honors[3] == 1:  # most hands: each suit splits one way (no tiles: one way)
        decompositions = ((man[1][0], pin[1][0], sou[1][0], honors[1][0]),)
    else:
        decompositions = product(man[1], pin[1], sou[1], honors[1])
    # 七対子 (``shapes.is_seven_pairs``): of 14 tiles without melds, seven held twice are seven pairs
    seven_pairs = man[4] + pin[4] + sou[4] + honors[4] == 7 and not hand.melds and len(hand.concealed) == 14
    for splits in decompositions:
        man, pin, sou, honors = splits
        # (pair, groups, sequences, triplets, triplet_fu, waits): a suit without tiles has pair -1
        pair = max(man[0], pin[0], sou[0], honors[0])
        sequences = man[2] + pin[2] + sou[2] + honors[2]
        triplets = man[3] + pin[3] + sou[3] + honors[3]
        triplet_fu = man[4] + pin[4] + sou[4] + honors[4]
        # what every reading of this decomposition shares after its wait: sorted for the yaku and fu
        if melds is _NO_MELDS:
            shared = (sequences, triplets, len(triplets), 0, triplet_fu)
        else:
            shared = (
                sequences + melds.sequences,
                triplets + melds.triplets,
                len(triplets) + melds.concealed_triplets,
                melds.kans,
                triplet_fu + melds.triplet_fu,
            )
        if pair == win:
            found.append(_reading(Reading, ("standard", splits, pair, TANKI, *shared)))
        for wait in splits[win_suit][5][win_rank]:
            found.append(_reading(Reading, ("standard", splits, pair, wait, *shared)))
        if win in triplets:
            if hand.tsumo:
                found.append(_reading(Reading, ("standard", splits, pair, SHANPON, *shared)))
            else:
                # a triplet completed on a discard counts as an open triplet (明刻) for fu and 暗刻
                found.append(_ron_triplet_reading(splits, triplets, win, pair, melds, shared))
    if seven_pairs:
        found.append(_CHIITOITSU)
    elif not found and not hand.melds and is_thirteen_orphans(context.concealed_counts):  # never also standard
        found.append(_KOKUSHI)
    return found


def _ron_triplet_reading(splits, triplets, win, pair, melds, shared) -> Reading:
    """The reading whose triplet of ``win`` was completed on a discard (明刻: open for fu and 暗刻)."""
    index = triplets.index(win)
    fu_lines = tuple(
        _RON_TRIPLET_FU[tile] if number == index else _CONCEALED_TRIPLET_FU[tile]
        for number, tile in enumerate(triplets)
    )
    all_sequences, all_triplets, concealed, kans, _fu = shared
    return Reading(
        "standard", splits, pair, SHANPON, all_sequences, all_triplets, concealed - 1, kans, fu_lines + melds.triplet_fu
    )


def _with_groups(reading: Reading, hand: Hand, context: WinContext) -> Reading:
    """A reading of ``readings`` with its groups: each suit's concealed groups in suit order (the
    triplet a discard completed open, 明刻), then the melds'."""
    if reading.form != "standard":
        return reading
    man, pin, sou, honors = reading.groups
    groups = man.groups + pin.groups + sou.groups + honors.groups
    if reading.wait == SHANPON and not hand.tsumo:
        position = groups.index(_CONCEALED_GROUPS[TRIPLET, hand.win_tile])
        groups = (*groups[:position], _RON_TRIPLETS[hand.win_tile], *groups[position + 1 :])
    return reading._replace(groups=groups + context.melds.groups)


_CHIITOITSU = Reading("chiitoitsu", (), -1, TANKI)
_KOKUSHI = Reading("kokushi", (), -1, TANKI)
