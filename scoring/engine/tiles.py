"""Tiles in MPSZ notation and the 34-index representation.

Index 0-8 are characters 1m-9m (萬子), 9-17 circles 1p-9p (筒子), 18-26 bamboo 1s-9s (索子), 27-33 the
honors (字牌) East, South, West, North (風牌) and White, Green, Red (三元牌). ``0m``/``0p``/``0s`` is a red
five (赤ドラ): it has the index of the five and is counted separately.
"""

from __future__ import annotations

from functools import lru_cache

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

IS_HONOR = tuple(index >= 27 for index in range(34))
IS_TERMINAL_OR_HONOR = tuple(index in TERMINALS_AND_HONORS for index in range(34))


def tile_name(index: int) -> str:
    """``0`` -> ``"1m"``, ``33`` -> ``"7z"``."""
    return f"{index % 9 + 1}{SUITS[index // 9]}"


def suit_of(index: int) -> int:
    """0 characters, 1 circles, 2 bamboo, 3 honors."""
    return index // 9


def rank_of(index: int) -> int:
    """1-9 for number tiles, 1-7 for honors."""
    return index % 9 + 1


# digit -> (rank offset, is red) for the number suits
_NUMBER_DIGITS = {str(digit): (4 if digit == 0 else digit - 1, digit == 0) for digit in range(10)}
_HONOR_DIGITS = {str(digit): (digit - 1, False) for digit in range(1, 8)}
_SUIT_DIGITS = {"m": (0, _NUMBER_DIGITS), "p": (9, _NUMBER_DIGITS), "s": (18, _NUMBER_DIGITS), "z": (27, _HONOR_DIGITS)}


def parse_tiles(text: object, *, field: str = "tiles") -> tuple[list[int], int]:
    """Read an MPSZ string into 34-indices (in reading order) and the number of red fives.

    Raises ``ScoringError("invalid_tiles")`` naming the first tile it cannot read.
    """
    if not isinstance(text, str):
        raise ScoringError("invalid_tiles", f"{field} must be a string of tiles in MPSZ notation", field=field)
    indices: list[int] = []
    red = 0
    start = 0  # first pending digit
    for position, char in enumerate(text):
        if char in "0123456789":
            continue
        suit = _SUIT_DIGITS.get(char)
        if suit is None:
            raise ScoringError("invalid_tiles", f"{field}: unknown tile character {char!r}", field=field)
        if position == start:
            raise ScoringError("invalid_tiles", f"{field}: suit letter {char!r} without digits", field=field)
        base, digits = suit
        for digit in text[start:position]:
            entry = digits.get(digit)
            if entry is None:
                raise ScoringError("invalid_tiles", f"{field}: unknown tile {digit}{char}", field=field)
            indices.append(base + entry[0])
            red += entry[1]
        start = position + 1
    if start < len(text):
        raise ScoringError(
            "invalid_tiles", f"{field}: digits {text[start:]!r} without a suit letter", field=field
        )
    return indices, red


@lru_cache(maxsize=256)
def _parse_one(text: str) -> tuple[int, bool] | None:
    try:
        indices, red = parse_tiles(text)
    except ScoringError:
        return None
    return (indices[0], bool(red)) if len(indices) == 1 else None


def parse_tile(text: object, *, field: str) -> tuple[int, bool]:
    """Read exactly one tile; returns (index, is_red)."""
    parsed = _parse_one(text) if isinstance(text, str) else None
    if parsed is None:
        parse_tiles(text, field=field)  # raises the precise error for an unreadable tile
        raise ScoringError("invalid_tiles", f"{field} must be exactly one tile, got {text!r}", field=field)
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
