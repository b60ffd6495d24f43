"""Tenhou's tile ids and bit-packed calls.

A tile id is 0-135: four copies of each of the 34 tiles in the order 1m-9m, 1p-9p, 1s-9s, then the
honours east, south, west, north, white, green, red (``id // 4``). With red fives on, the first copy of
each five (ids 16, 52, 88) is the red one (赤ドラ).
"""

from __future__ import annotations

from .record import Meld

RED_FIVES = frozenset({16, 52, 88})
SUITS = "mps"


def tile_kind(tile_id: int) -> int:
    """0-33: which of the 34 tiles."""
    return tile_id // 4


def tile_name(tile_id: int, *, aka_dora: bool) -> str:
    """The tile in MPSZ notation (``5m``, ``0p`` for a red five, ``7z`` for red dragon)."""
    kind = tile_kind(tile_id)
    if kind >= 27:
        return f"{kind - 26}z"
    if aka_dora and tile_id in RED_FIVES:
        return f"0{SUITS[kind // 9]}"
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tiles_text(tile_ids, *, aka_dora: bool) -> str:
    """Tiles in MPSZ notation, grouped by suit (``345m888p11z``), sorted."""
    by_suit: dict[str, list[str]] = {suit: [] for suit in "mpsz"}
    for tile_id in sorted(tile_ids):
        name = tile_name(tile_id, aka_dora=aka_dora)
        by_suit[name[1]].append(name[0])
    return "".join("".join(digits) + suit for suit, digits in by_suit.items() if digits)


def decode_call(code: int, caller: int, players: int = 4) -> Meld:
    """A call of the log's ``N`` element (its ``m`` attribute) as a ``Meld``.

    The low two bits name the seat the tile came from, counted from the caller (1 the next seat, 2 across,
    3 the previous; 0 the caller: a closed kan). Then: bit 2 a chi (順子), bit 3 a pon (刻子), bit 4 an
    added kan (加槓), bit 5 a north taken out in a three-player game (抜きドラ); none of them, a kan from
    the hand (暗槓) or from a discard (大明槓).
    """
    offset = code & 3
    taken_from = (caller + offset) % players if offset else None
    if code & 0x4:  # chi
        base = (code & 0xFC00) >> 10
        base //= 3
        kind = (base // 7) * 9 + base % 7
        copies = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
        return Meld("chi", tuple(4 * (kind + step) + copies[step] for step in range(3)), taken_from)
    if code & 0x18:  # pon or added kan
        base = (code & 0xFE00) >> 9
        kind = base // 3
        unused = (code >> 5) & 3
        if code & 0x8:
            return Meld("pon", tuple(4 * kind + copy for copy in range(4) if copy != unused), taken_from)
        return Meld("kan_added", tuple(4 * kind + copy for copy in range(4)), taken_from)
    if code & 0x20:  # nuki
        return Meld("nuki", ((code & 0xFF00) >> 8,), None)
    kind = ((code & 0xFF00) >> 8) // 4
    tiles = tuple(4 * kind + copy for copy in range(4))
    return Meld("kan_open" if offset else "kan_closed", tiles, taken_from)
