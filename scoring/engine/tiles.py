"""Tiles in MPSZ notation and the 34-index representation.

Index 0-8 are characters 1m-9m (萬子), 9-17 circles 1p-9p (筒子), 18-26 bamboo 1s-9s (索子), 27-33 the
honors (字牌) East, South, West, North (風牌) and White, Green, Red (三元牌). ``0m``/``0p``/``0s`` is a red
five (赤ドラ): it has the index of the five and is counted separately.
"""

from __future__ import annotations

import re
from itertools import chain

from taikai.i18n import _

from .errors import ScoringError

SUITS = "mpsz"
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30  # 東 南 西 北
HAKU, HATSU, CHUN = 31, 32, 33  # 白 發 中
WINDS = (EAST, SOUTH, WEST, NORTH)  # 風牌
DRAGONS = (HAKU, HATSU, CHUN)  # 三元牌
WIND_LETTERS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}

# 么九牌 terminals and honors
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
TERMINALS_AND_HONORS = TERMINALS | frozenset(range(27, 34))
# 緑一色 green tiles: 2, 3, 4, 6, 8 bamboo and Green dragon
GREEN_TILES = frozenset((19, 20, 21, 23, 25, HATSU))

IS_TERMINAL_OR_HONOR = tuple(index in TERMINALS_AND_HONORS for index in range(34))

# What the yaku of the whole hand ask of its tiles (断么, 混一色, 清一色, 混老頭, 字一色, 清老頭, 緑一色), as bits:
# a hand's classes are its tiles' classes or-ed together, and a suit's are kept with its decompositions.
SIMPLE, TERMINAL, HONOR, NOT_GREEN = 1, 2, 4, 8  # 中張牌, 老頭牌, 字牌, not a 緑一色 tile
MAN, PIN, SOU = 16, 32, 64  # the number suit present (萬子, 筒子, 索子)
NUMBER_SUITS = MAN | PIN | SOU
TILE_CLASSES = tuple(
    (HONOR if index >= 27 else (MAN, PIN, SOU)[index // 9] | (TERMINAL if index in TERMINALS else SIMPLE))
    | (0 if index in GREEN_TILES else NOT_GREEN)
    for index in range(34)
)
# the number of number suits a hand's classes hold, by ``(classes & NUMBER_SUITS) >> 4``
SUITS_HELD = tuple(bin(bits).count("1") for bits in range(8))


def tile_classes(indices) -> int:
    """The classes of these tiles together (``TILE_CLASSES`` or-ed)."""
    classes = 0
    for index in indices:
        classes |= TILE_CLASSES[index]
    return classes


def tile_name(index: int) -> str:
    """``0`` -> ``"1m"``, ``33`` -> ``"7z"``."""
    return f"{index % 9 + 1}{SUITS[index // 9]}"


_DIGITS = {str(digit): digit for digit in range(10)}
_SUIT_BASES = {"m": 0, "p": 9, "s": 18, "z": 27}


_WELL_FORMED = re.compile(r"(?:[0-9]+[mps]|[1-7]+z)*")
_RUN = re.compile(r"[0-9]+[mpsz]")
_RUN_CACHE: dict[str, tuple[int, ...]] = {}


def parse_tiles(text: object, *, field: str = "tiles") -> tuple[list[int], int]:
    """Read an MPSZ string into 34-indices (in reading order) and the number of red fives.

    A well-formed string is read run by run (``345m``), each run's tiles cached; in it every ``0`` is a
    red five (``0z`` is not well-formed). Anything else goes through ``read_tiles``, which names the
    tile it cannot read.
    """
    if type(text) is str and not len(text) & 1 and len(text) <= _MOST_PAIRS:
        # one digit and its suit letter per tile (``3m4m4m``, as logs and tools often write hands)
        try:
            return list(map(_SINGLE_INDEX.__getitem__, map(text.__getitem__, _PAIR_SLICES[len(text)]))), text.count("0")
        except KeyError:  # written some other way (``344m``), or not a tile: read run by run below
            pass
    if type(text) is str and _WELL_FORMED.fullmatch(text):
        runs = _RUN.findall(text)
        try:
            indices = list(chain.from_iterable(map(_RUN_CACHE.__getitem__, runs)))
        except KeyError:
            indices = []
            for run in runs:
                parsed = _RUN_CACHE.get(run)
                if parsed is None:
                    parsed = tuple(read_tiles(run, field=field)[0])
                    if len(_RUN_CACHE) < 4096:
                        _RUN_CACHE[run] = parsed
                indices.extend(parsed)
        return indices, text.count("0")
    return read_tiles(text, field=field)


# A suit's part of a hand's text, written as a run (``345m``) or tile by tile (``3m4m5m``); ``0z`` is no tile.
_SUIT_PART = re.compile(r"(?:[0-9]m)+|(?:[0-9]p)+|(?:[0-9]s)+|(?:[1-7]z)+|[0-9]+[mps]|[1-7]+z")
_NO_SUIT_TILES = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)
# a suit's part -> (suit, its tiles' 34-indices sorted, the suit's tile counts, red fives)
_SUIT_PART_CACHE: dict[str, tuple[int, tuple[int, ...], tuple[int, ...], int]] = {}


def _suit_part(part: str) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """A suit's part of a hand's text read (``_SUIT_PART`` matched it: every tile in it is valid)."""
    indices, red = read_tiles(part)
    suit = _SUIT_BASES[part[-1]] // 9
    base = suit * 9
    counts = [0] * len(_NO_SUIT_TILES[suit])
    for index in indices:
        counts[index - base] += 1
    # more than four of a tile: the part is marked with suit -1, and ``suit_counts`` leaves such a text
    # to ``parse_tiles`` (the hand's reader then names the tile, after the errors it reports first)
    entry = (suit if max(counts) <= 4 else -1, tuple(sorted(indices)), tuple(counts), red)
    if len(_SUIT_PART_CACHE) < 16384:
        _SUIT_PART_CACHE[part] = entry
    return entry


def suit_counts(text: object) -> tuple[tuple, tuple[int, ...], tuple[int, ...], int] | None:
    """A hand's concealed tiles read suit by suit: (each suit's tile counts, every tile's count per
    34-index, the 34-indices sorted, red fives), or None when the text is not each suit's tiles
    written together, suits in order, or holds a tile more than four times (then ``parse_tiles``
    reads it, and names what it cannot read).

    A hand's text is a few suits' parts, each one of a few thousand: reading each part once and
    joining the counts costs less than counting a hand's tiles one by one."""
    if type(text) is not str:
        return None
    parts = _SUIT_PART.findall(text)
    if len("".join(parts)) != len(text):
        return None  # characters no part holds
    try:
        entries = list(map(_SUIT_PART_CACHE.__getitem__, parts))
    except KeyError:
        entries = [_SUIT_PART_CACHE.get(part) or _suit_part(part) for part in parts]
    per_suit = list(_NO_SUIT_TILES)
    indices = ()
    red = 0
    last = -1
    for suit, part_indices, counts, part_red in entries:
        if suit <= last:
            return None  # a suit written twice, or out of order, or a tile more than four times
        last = suit
        per_suit[suit] = counts
        indices += part_indices
        red += part_red
    return per_suit, per_suit[0] + per_suit[1] + per_suit[2] + per_suit[3], indices, red


def read_tiles(text: object, *, field: str = "tiles") -> tuple[list[int], int]:
    """Read an MPSZ string character by character, from its end, so that each digit meets its suit
    letter first. Raises ``ScoringError("invalid_tiles")`` naming a tile it cannot read."""
    if not isinstance(text, str):
        raise ScoringError(
            "invalid_tiles",
            # Translators: field is the request key of the tiles (tiles, win_tile, melds[0].tiles, ...).
            _("%(field)s must be a string of tiles in MPSZ notation") % {"field": field},
            field=field,
        )
    indices: list[int] = []
    red = 0
    base = -1  # suit of the digits being read; -1 before any suit letter
    digits_seen = True
    for char in reversed(text):
        digit = _DIGITS.get(char)
        if digit is None:
            if not digits_seen:
                raise ScoringError(
                    "invalid_tiles",
                    _("%(field)s: suit letter without digits in %(text)s") % {"field": field, "text": repr(text)},
                    field=field,
                )
            base = _SUIT_BASES.get(char, -2)
            if base == -2:
                raise ScoringError(
                    "invalid_tiles",
                    _("%(field)s: unknown tile character %(char)s") % {"field": field, "char": repr(char)},
                    field=field,
                )
            digits_seen = False
            continue
        digits_seen = True
        if base < 0:
            raise ScoringError(
                "invalid_tiles",
                _("%(field)s: digits without a suit letter in %(text)s") % {"field": field, "text": repr(text)},
                field=field,
            )
        if digit == 0:
            if base == 27:
                raise ScoringError(
                    "invalid_tiles",
                    _("%(field)s: unknown tile %(tile)s") % {"field": field, "tile": "0z"},
                    field=field,
                )
            red += 1
            digit = 5
        elif base == 27 and digit > 7:
            raise ScoringError(
                "invalid_tiles",
                _("%(field)s: unknown tile %(tile)s") % {"field": field, "tile": f"{digit}z"},
                field=field,
            )
        indices.append(base + digit - 1)
    if not digits_seen:
        raise ScoringError(
            "invalid_tiles",
            _("%(field)s: suit letter without digits in %(text)s") % {"field": field, "text": repr(text)},
            field=field,
        )
    indices.reverse()
    return indices, red


# Every single tile's text ("1m" .. "7z", and the red "0m"/"0p"/"0s") -> (index, is_red).
SINGLE_TILES = {
    **{
        f"{rank}{suit}": (base + rank - 1, False)
        for suit, base in _SUIT_BASES.items()
        for rank in range(1, 10 if base < 27 else 8)
    },
    **{f"0{suit}": (base + 4, True) for suit, base in _SUIT_BASES.items() if base < 27},
}


_SINGLE_INDEX = {text: index for text, (index, _red) in SINGLE_TILES.items()}
_MOST_PAIRS = 2 * 18  # a hand's 14 tiles, or a few more (a kan's)
# per even length of text: the slices of its two-character tiles
_PAIR_SLICES = {length: tuple(slice(start, start + 2) for start in range(0, length, 2)) for length in range(0, 37, 2)}


def parse_tile(text: object, *, field: str) -> tuple[int, bool]:
    """Read exactly one tile; returns (index, is_red)."""
    parsed = SINGLE_TILES.get(text) if isinstance(text, str) else None
    if parsed is None:
        parse_tiles(text, field=field)  # raises the precise error for an unreadable tile
        raise ScoringError(
            "invalid_tiles",
            _("%(field)s must be exactly one tile, got %(text)s") % {"field": field, "text": repr(text)},
            field=field,
        )
    return parsed


def counts_of(indices: list[int] | tuple[int, ...]) -> list[int]:
    """Tile counts per 34-index."""
    counts = [0] * 34
    for index in indices:
        counts[index] += 1
    return counts


def to_mpsz(indices: list[int] | tuple[int, ...] | None = None, *, counts: list[int] | None = None) -> str:
    """Write tiles as a compact MPSZ string, grouped by suit (``123m55z``)."""
    if counts is None:
        counts = counts_of(indices or ())
    parts = []
    for suit in range(4):
        digits = "".join(str(rank + 1) * counts[suit * 9 + rank] for rank in range(7 if suit == 3 else 9))
        if digits:
            parts.append(digits + SUITS[suit])
    return "".join(parts)


def dora_from_indicator(indicator: int) -> int:
    """The dora (ドラ) a revealed indicator (ドラ表示牌) points to: the next tile of its kind, wrapping
    9 -> 1, North -> East, Red -> White."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator <= NORTH:
        return EAST + (indicator - EAST + 1) % 4
    return HAKU + (indicator - HAKU + 1) % 3
