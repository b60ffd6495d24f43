"""Seeded generator of valid winning-hand requests (hand-format.md), for the differential test and the
benchmark.

Hands are built from four groups and a pair, either at random or from templates that make the rare
yaku and yakuman appear (seven pairs, thirteen orphans, nine gates, all honors, kans, ...). Then some
groups become called melds or kans, a winning tile is chosen among the concealed tiles, and the flags
are drawn so that they are consistent with each other.
"""

from __future__ import annotations

import random

SUIT_LETTERS = "mpsz"
GREEN = (19, 20, 21, 23, 25, 32)  # 23468s and Green dragon
TERMINALS_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WIND_LETTERS = "ESWN"


def tile_text(index: int, red: bool = False) -> str:
    return f"{0 if red else index % 9 + 1}{SUIT_LETTERS[index // 9]}"


def tiles_text(indices: list[int], red_kinds: set[int] | None = None) -> str:
    """MPSZ text; one five of each kind in ``red_kinds`` is written as a red ``0`` (and removed from
    the set, so a red five is written once)."""
    parts = []
    for index in sorted(indices):
        red = red_kinds is not None and index in red_kinds
        if red:
            red_kinds.discard(index)
        parts.append(tile_text(index, red))
    return "".join(parts)


class _Pool:
    """Tile copies left (four of each kind)."""

    def __init__(self) -> None:
        self.left = [4] * 34

    def take(self, tiles: list[int]) -> bool:
        need: dict[int, int] = {}
        for tile in tiles:
            need[tile] = need.get(tile, 0) + 1
        if any(self.left[tile] < count for tile, count in need.items()):
            return False
        for tile, count in need.items():
            self.left[tile] -= count
        return True


def _sequence(start: int) -> list[int]:
    return [start, start + 1, start + 2]


def _random_group(rng: random.Random, tiles: tuple[int, ...] | None = None, sequence_weight: float = 0.6):
    """("seq", start) or ("trip", tile)."""
    if tiles is None and rng.random() < sequence_weight:
        suit = rng.randrange(3)
        return ("seq", suit * 9 + rng.randrange(7))
    pool = tiles if tiles is not None else tuple(range(34))
    return ("trip", rng.choice(pool))


def _group_tiles(group) -> list[int]:
    kind, tile = group
    return _sequence(tile) if kind == "seq" else [tile] * 3


def _standard_template(rng: random.Random, name: str):
    """Groups and pair for a template, or None to fall back to random."""
    suit = rng.randrange(3) * 9
    if name == "random":
        return [_random_group(rng) for _ in range(4)], rng.randrange(34)
    if name == "simples":
        groups = []
        for _ in range(4):
            if rng.random() < 0.75:
                groups.append(("seq", rng.randrange(3) * 9 + rng.randrange(1, 6)))
            else:
                groups.append(("trip", rng.randrange(3) * 9 + rng.randrange(1, 8)))
        return groups, rng.randrange(3) * 9 + rng.randrange(1, 8)
    if name == "pinfu":
        return [("seq", rng.randrange(3) * 9 + rng.randrange(7)) for _ in range(4)], rng.randrange(27)
    if name == "one_suit":
        tiles = tuple(range(suit, suit + 9))
        groups = [
            ("seq", suit + rng.randrange(7)) if rng.random() < 0.6 else ("trip", rng.choice(tiles)) for _ in range(4)
        ]
        honors = rng.random() < 0.5
        if honors:
            groups[rng.randrange(4)] = ("trip", rng.randrange(27, 34))
        pair = rng.randrange(27, 34) if honors and rng.random() < 0.4 else rng.choice(tiles)
        return groups, pair
    if name == "peikou":
        start = rng.randrange(3) * 9 + rng.randrange(7)
        groups = [("seq", start), ("seq", start)]
        if rng.random() < 0.4:
            other = rng.randrange(3) * 9 + rng.randrange(7)
            groups += [("seq", other), ("seq", other)]
        else:
            groups += [_random_group(rng) for _ in range(2)]
        return groups, rng.randrange(34)
    if name == "sanshoku":
        start = rng.randrange(7)
        return [("seq", start), ("seq", start + 9), ("seq", start + 18), _random_group(rng)], rng.randrange(34)
    if name == "ittsu":
        return [("seq", suit), ("seq", suit + 3), ("seq", suit + 6), _random_group(rng)], rng.randrange(34)
    if name == "doukou":
        rank = rng.randrange(9)
        return [("trip", rank), ("trip", rank + 9), ("trip", rank + 18), _random_group(rng)], rng.randrange(34)
    if name == "outside":  # chanta / junchan / honroutou
        groups = []
        for _ in range(4):
            if rng.random() < 0.5:
                groups.append(("seq", rng.randrange(3) * 9 + rng.choice((0, 6))))
            else:
                groups.append(("trip", rng.choice(TERMINALS_HONORS)))
        return groups, rng.choice(TERMINALS_HONORS)
    if name == "triplets":
        return [("trip", rng.randrange(34)) for _ in range(4)], rng.randrange(34)
    if name == "terminal_triplets":  # honroutou / chinroutou
        kinds = TERMINALS_HONORS[:6] if rng.random() < 0.4 else TERMINALS_HONORS  # 清老頭 or 混老頭
        return [("trip", rng.choice(kinds)) for _ in range(4)], rng.choice(kinds)
    if name == "dragons":  # shousangen / daisangen
        dragons = [31, 32, 33]
        rng.shuffle(dragons)
        if rng.random() < 0.5:
            return [
                ("trip", dragons[0]),
                ("trip", dragons[1]),
                ("trip", dragons[2]),
                _random_group(rng),
            ], rng.randrange(34)
        return [("trip", dragons[0]), ("trip", dragons[1]), _random_group(rng), _random_group(rng)], dragons[2]
    if name == "winds":  # shousuushii / daisuushii
        winds = [27, 28, 29, 30]
        rng.shuffle(winds)
        if rng.random() < 0.5:
            return [("trip", wind) for wind in winds], rng.randrange(34)
        return [("trip", winds[0]), ("trip", winds[1]), ("trip", winds[2]), _random_group(rng)], winds[3]
    if name == "honors":  # tsuuiisou
        honors = list(range(27, 34))
        rng.shuffle(honors)
        return [("trip", tile) for tile in honors[:4]], honors[4]
    if name == "green":  # ryuuiisou
        groups = [("seq", 19) if rng.random() < 0.3 else ("trip", rng.choice(GREEN)) for _ in range(4)]
        return groups, rng.choice(GREEN)
    if name == "value":  # yakuhai triplets and value pairs
        return [
            ("trip", rng.randrange(27, 34)),
            _random_group(rng),
            _random_group(rng),
            _random_group(rng),
        ], rng.randrange(27, 34)
    return None


TEMPLATES = (
    ("random", 30),
    ("simples", 10),
    ("pinfu", 10),
    ("one_suit", 8),
    ("peikou", 5),
    ("sanshoku", 4),
    ("ittsu", 4),
    ("doukou", 2),
    ("outside", 6),
    ("triplets", 5),
    ("terminal_triplets", 2),
    ("dragons", 3),
    ("winds", 2),
    ("honors", 1),
    ("green", 2),
    ("value", 6),
    ("chiitoitsu", 5),
    ("kokushi", 1),
    ("chuuren", 1),
)
_TEMPLATE_NAMES = [name for name, _ in TEMPLATES]
_TEMPLATE_WEIGHTS = [weight for _, weight in TEMPLATES]


def _special_concealed(rng: random.Random, name: str) -> list[int] | None:
    if name == "chiitoitsu":
        if rng.random() < 0.3:
            base = rng.choice((range(0, 9), range(9, 18), range(18, 27), range(27, 34), TERMINALS_HONORS))
            kinds = rng.sample(list(base), 7) if len(base) >= 7 else None
        else:
            kinds = rng.sample(range(34), 7)
        return None if kinds is None else [tile for kind in kinds for tile in (kind, kind)]
    if name == "kokushi":
        return [*TERMINALS_HONORS, rng.choice(TERMINALS_HONORS)]
    if name == "chuuren":
        suit = rng.randrange(3) * 9
        return [
            suit,
            suit,
            suit,
            *range(suit + 1, suit + 8),
            suit + 8,
            suit + 8,
            suit + 8,
            suit + rng.randrange(9),
        ]
    return None


def generate_request(rng: random.Random, number: int) -> dict | None:
    """One random valid winning-hand request, or None when a draw is not possible (retry)."""
    name = rng.choices(_TEMPLATE_NAMES, _TEMPLATE_WEIGHTS)[0]
    pool = _Pool()
    melds: list[dict] = []
    special = _special_concealed(rng, name)
    if special is not None:
        concealed = special
        if not pool.take(concealed):
            return None
    else:
        template = _standard_template(rng, name)
        if template is None:
            return None
        groups, pair = template
        if not pool.take([pair, pair]):
            return None
        concealed = [pair, pair]
        open_chance = rng.choice((0.0, 0.0, 0.15, 0.35))
        kan_chance = rng.choice((0.0, 0.0, 0.1, 0.3, 0.6))
        for group in groups:
            tiles = _group_tiles(group)
            if not pool.take(tiles):
                return None
            kind, tile = group
            if kind == "trip" and rng.random() < kan_chance and pool.take([tile]):
                meld_type = rng.choice(("kan_open", "kan_closed", "kan_added"))
                melds.append((meld_type, [tile] * 4))
            elif rng.random() < open_chance:
                melds.append(("chi" if kind == "seq" else "pon", tiles))
            else:
                concealed.extend(tiles)
    closed = all(meld_type == "kan_closed" for meld_type, _ in melds)
    has_kan = any(meld_type.startswith("kan") for meld_type, _ in melds)
    win_tile = rng.choice(concealed)
    tsumo = rng.random() < 0.45
    seat = rng.choice(WIND_LETTERS)
    riichi = closed and rng.random() < 0.5
    double_riichi = riichi and rng.random() < 0.1
    ippatsu = riichi and rng.random() < 0.15
    last_tile = rng.random() < 0.05
    haitei = tsumo and last_tile
    houtei = not tsumo and last_tile
    rinshan = tsumo and has_kan and not haitei and rng.random() < 0.3
    chankan = not tsumo and not houtei and rng.random() < 0.03
    first_draw = tsumo and not melds and not riichi and not haitei and rng.random() < 0.02
    aka = rng.random() < 0.3
    # a red-five set has one red five per suit: a hand holding all four fives of a suit holds it
    held = list(concealed) + [tile for _, tiles in melds for tile in tiles]
    red_kinds: set[int] = set()
    if aka:
        for five in (4, 13, 22):
            copies = held.count(five)
            if copies == 4 or (copies and rng.random() < 0.5):
                red_kinds.add(five)
    dora_count = rng.choice((1, 1, 1, 2, 3))
    hand: dict = {
        "tiles": tiles_text(concealed, red_kinds),
        "melds": [{"type": meld_type, "tiles": tiles_text(tiles, red_kinds)} for meld_type, tiles in melds],
        "win_tile": tile_text(win_tile),
        "tsumo": tsumo,
        "riichi": riichi,
        "double_riichi": double_riichi,
        "ippatsu": ippatsu,
        "haitei": haitei,
        "houtei": houtei,
        "rinshan": rinshan,
        "chankan": chankan,
        "tenhou": first_draw and seat == "E",
        "chiihou": first_draw and seat != "E",
        "seat_wind": seat,
        "round_wind": rng.choice("EESSWN"),
        "dealer": seat == "E",
        "dora_indicators": [tile_text(rng.randrange(34)) for _ in range(dora_count)],
        "ura_dora_indicators": [tile_text(rng.randrange(34)) for _ in range(dora_count)] if riichi else [],
        "honba": rng.choice((0, 0, 0, 1, 2, 5)),
        "riichi_sticks": rng.choice((0, 0, 0, 1, 2)),
    }
    return {"id": f"gen-{number}", "rules": {"aka_dora": aka}, "hand": hand, "template": name}


def generate_requests(count: int, seed: int = 20240601) -> list[dict]:
    """``count`` requests (hand-format.md plus a ``template`` key naming where each came from; drop it
    before evaluating). Every hand is a complete shape; some have no yaku (the evaluators must say so)."""
    rng = random.Random(seed)
    requests: list[dict] = []
    while len(requests) < count:
        request = generate_request(rng, len(requests))
        if request is not None:
            requests.append(request)
    return requests
