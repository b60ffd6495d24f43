"""Shape analysis (seed 003, 面子認識): decompositions, waits, tenpai, shanten and the tile models.

A complete hand is 4 melds (面子) + a pair (雀頭), or seven pairs (七対子), or the thirteen orphans
(国士無双). Decompositions are found suit by suit and cached by the suit's tile-count tuple, since a
suit's melds never depend on the other suits.

Seed 003 splits the number tiles of one suit into 1-, 2- and 3-tile models (1枚/2枚/3枚モデル); the
classification functions below follow its tables, and ``shape_report`` shows them to a person.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from taikai.i18n import _

from .tiles import TERMINALS_AND_HONORS, counts_of, parse_tiles, tile_name, to_mpsz

SEQUENCE, TRIPLET = 0, 1  # 順子, 刻子
KOKUSHI_TILES = tuple(sorted(TERMINALS_AND_HONORS))

Group = tuple[int, int]  # (SEQUENCE or TRIPLET, lowest tile's 34-index)
Decomposition = tuple[int, tuple[Group, ...]]  # (pair tile, concealed melds)


# --- decompositions ------------------------------------------------------------------------------------


MAX_MELDS = 4  # a hand holds four melds (面子) at most


def suit_splits(suit: int, counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """``suit_decompositions``, not cached (for callers that keep their own tables).

    A search rank by rank: the lowest tile left is the pair (when the suit holds 3n+2 tiles), or
    starts a triplet or sequences (as many as its copies, or as many as its copies beyond a
    triplet), so every split is met once. Each split lists its melds sequences first, then
    triplets, by tile; the splits come sorted by pair, then melds: a fixed order, so that readings
    that pay the same are always met in the same order.
    """
    held = sum(counts)
    remainder = held % 3
    if remainder == 1 or held > 3 * MAX_MELDS + 2:
        return ()
    # more than four of a tile: only the pair may take the excess
    crowded = [rank for rank, count in enumerate(counts) if count > 4]
    if crowded and (remainder == 0 or len(crowded) > 1 or counts[crowded[0]] > 6):
        return ()
    pair_rank = crowded[0] if crowded else -1  # the only rank the pair may sit on, -1 any
    work = list(counts)
    size = len(work)
    base = suit * 9
    with_sequences = size == 9  # honors form no sequences
    found: list[Decomposition] = []
    sequences: list[Group] = []
    triplets: list[Group] = []

    def search(rank: int, pair: int) -> None:
        while rank < size and not work[rank]:
            rank += 1
        if rank == size:
            found.append((pair, (*sequences, *triplets)))
            return
        copies = work[rank]
        if pair < 0 and remainder == 2 and copies >= 2 and pair_rank in (-1, rank):  # the pair (雀頭) here
            work[rank] = copies - 2
            search(rank, base + rank)
            work[rank] = copies
        if copies > 4:
            return
        for triplet in (1, 0):
            runs = copies - 3 * triplet  # sequences starting here
            if runs < 0 or (
                runs and (not with_sequences or rank > 6 or work[rank + 1] < runs or work[rank + 2] < runs)
            ):
                continue
            work[rank] = 0
            if runs:
                work[rank + 1] -= runs
                work[rank + 2] -= runs
                sequences.extend([(SEQUENCE, base + rank)] * runs)
            if triplet:
                triplets.append((TRIPLET, base + rank))
            search(rank + 1, pair)
            if triplet:
                triplets.pop()
            if runs:
                del sequences[len(sequences) - runs :]
                work[rank + 1] += runs
                work[rank + 2] += runs
            work[rank] = copies

    search(0, -1)
    search = None  # the nested function refers to itself: break the cycle, free it now
    found.sort()
    return tuple(found)


@lru_cache(maxsize=65536)
def suit_decompositions(suit: int, counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """Every way to split one suit's tiles into melds and at most one pair.

    ``counts`` is the suit's tile-count tuple (9 entries, 7 for honors); the pair is -1 when the suit
    holds none. Honors (suit 3) form triplets only, never sequences.
    """
    return suit_splits(suit, counts)


@lru_cache(maxsize=65536)
def _suit_options(suit: int, counts: tuple[int, ...], with_pair: bool) -> tuple[Decomposition, ...]:
    """The suit's decompositions with exactly one pair (``with_pair``) or none."""
    return tuple(option for option in suit_decompositions(suit, counts) if (option[0] >= 0) == with_pair)


_SUIT_SLICES = ((0, 0, 9), (1, 9, 18), (2, 18, 27), (3, 27, 34))


def decompositions(counts: list[int] | tuple[int, ...]) -> list[Decomposition]:
    """All splits of the concealed tiles (3n+2 of them) into n melds and one pair."""
    per_suit = []
    pair_suits = 0
    for suit, start, stop in _SUIT_SLICES:
        suit_counts = tuple(counts[start:stop])
        tiles = sum(suit_counts)
        if tiles == 0:
            continue
        remainder = tiles % 3
        if remainder == 1:
            return []
        if remainder == 2:
            pair_suits += 1
            if pair_suits > 1:
                return []
        options = _suit_options(suit, suit_counts, remainder == 2)
        if not options:
            return []
        per_suit.append(options)
    if pair_suits != 1:
        return []
    return combine_suit_options(per_suit)


def combine_suit_options(per_suit: list) -> list:
    """Every whole-hand reading from one option per suit: ``(pair, melds)``, the melds in suit order."""
    if len(per_suit) == 1:
        return list(per_suit[0])
    result = []
    for combination in product(*per_suit):
        pair = -1
        melds: list[Group] = []
        for suit_pair, suit_melds in combination:
            if suit_pair >= 0:
                pair = suit_pair
            melds.extend(suit_melds)
        result.append((pair, tuple(melds)))
    return result


def is_seven_pairs(counts: list[int] | tuple[int, ...]) -> bool:
    """七対子: seven different pairs (four of a kind is not two pairs)."""
    return counts.count(2) == 7 and sum(counts) == 14


def is_thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    """国士無双: one of each terminal and honor, one of them twice."""
    return (
        counts.count(0) == 21  # thirteen kinds present: a quick refusal of every other hand
        and sum(counts) == 14
        and all(counts[index] >= 1 for index in KOKUSHI_TILES)
        and all(counts[index] == 0 for index in range(34) if index not in TERMINALS_AND_HONORS)
    )


def is_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """A winning shape (和了形) for the concealed tiles: standard, seven pairs, or thirteen orphans."""
    total = sum(counts)
    if total % 3 != 2:
        return False
    if decompositions(counts):
        return True
    return total == 14 and (is_seven_pairs(counts) or is_thirteen_orphans(counts))


# --- waits and shanten ---------------------------------------------------------------------------------


def waits(counts: list[int] | tuple[int, ...], used: list[int] | tuple[int, ...] | None = None) -> list[int]:
    """Tiles that complete a 3n+1-tile concealed part (待ち). A tile all four of which are already in
    ``used`` (concealed + melds; defaults to ``counts``) cannot arrive and is not a wait."""
    used = used if used is not None else counts
    work = list(counts)
    result = []
    for index in range(34):
        if used[index] >= 4:
            continue
        work[index] += 1
        if is_complete(work):
            result.append(index)
        work[index] -= 1
    return result


@lru_cache(maxsize=65536)
def _suit_partials(suit: int, counts: tuple[int, ...]) -> frozenset[tuple[int, int, int]]:
    """Every (melds, partial sets, pair) count reachable in one suit (partial = 塔子 or a spare pair)."""
    size = len(counts)
    allow_sequences = suit < 3
    work = list(counts)
    found: set[tuple[int, int, int]] = set()

    def search(position: int, melds: int, partials: int, pair: int) -> None:
        while position < size and work[position] == 0:
            position += 1
        if position == size:
            found.add((melds, partials, pair))
            return
        if work[position] >= 3:
            work[position] -= 3
            search(position, melds + 1, partials, pair)
            work[position] += 3
        if allow_sequences and position + 2 < size and work[position + 1] and work[position + 2]:
            for offset in (0, 1, 2):
                work[position + offset] -= 1
            search(position, melds + 1, partials, pair)
            for offset in (0, 1, 2):
                work[position + offset] += 1
        if work[position] >= 2:
            work[position] -= 2
            if not pair:
                search(position, melds, partials, 1)
            search(position, melds, partials + 1, pair)
            work[position] += 2
        if allow_sequences:
            for gap in (1, 2):  # 両面/辺張 and 嵌張 partial sets
                if position + gap < size and work[position + gap]:
                    work[position] -= 1
                    work[position + gap] -= 1
                    search(position, melds, partials + 1, pair)
                    work[position] += 1
                    work[position + gap] += 1
        work[position] -= 1  # leave the tile isolated (浮き牌)
        search(position, melds, partials, pair)
        work[position] += 1

    search(0, 0, 0, 0)
    return frozenset(found)


def shanten_standard(counts: list[int] | tuple[int, ...], open_melds: int = 0) -> int:
    """向聴数 for 4 melds + a pair: ``8 - 2·melds - partials - pair`` with melds + partials ≤ 4."""
    options = {(open_melds, 0, 0)}
    for suit in range(4):
        start = suit * 9
        suit_counts = tuple(counts[start : start + (7 if suit == 3 else 9)])
        if not any(suit_counts):
            continue
        partials = _suit_partials(suit, suit_counts)
        options = {
            (melds + more_melds, parts + more_parts, min(1, pair + more_pair))
            for melds, parts, pair in options
            for more_melds, more_parts, more_pair in partials
        }
    best = 8
    for melds, parts, pair in options:
        melds = min(melds, 4)
        best = min(best, 8 - 2 * melds - min(parts, 4 - melds) - pair)
    return best


def shanten_seven_pairs(counts: list[int] | tuple[int, ...]) -> int:
    """七対子 shanten: 6 − pairs, plus the kinds still missing to reach seven different tiles."""
    pairs = sum(1 for count in counts if count >= 2)
    kinds = sum(1 for count in counts if count >= 1)
    return 6 - pairs + max(0, 7 - kinds)


def shanten_thirteen_orphans(counts: list[int] | tuple[int, ...]) -> int:
    """国士無双 shanten: 13 − kinds of terminals/honors held, minus one if any of them is paired."""
    kinds = sum(1 for index in KOKUSHI_TILES if counts[index])
    paired = any(counts[index] >= 2 for index in KOKUSHI_TILES)
    return 13 - kinds - (1 if paired else 0)


def shanten(counts: list[int] | tuple[int, ...], open_melds: int = 0) -> int:
    """The minimum of the standard, seven-pairs and thirteen-orphans shanten (-1 = complete)."""
    best = shanten_standard(counts, open_melds)
    if open_melds == 0 and sum(counts) >= 13:
        best = min(best, shanten_seven_pairs(counts), shanten_thirteen_orphans(counts))
    return best


# --- seed 003: two- and three-tile models ---------------------------------------------------------------

TWO_TILE_MODELS = {
    "pair": "対子",
    "edge": "辺塔",
    "closed": "嵌塔",
    "open": "両塔",
    "suji": "筋牌",
    "double_closed": "両嵌渡り",
    "isolated": "単独浮き牌",
}
# Which two-tile model is kept when a near-useful three-tile model can be split both ways (seed 003:
# 23+5 keeps 23 over 35, 2+45 keeps 45 over 24, 1+24 keeps 24 over 12, 11+5 keeps the pair).
TWO_TILE_RANK = {"open": 6, "pair": 5, "closed": 4, "edge": 3, "double_closed": 2, "suji": 1, "isolated": 0}
# The 29 useful two-tile models of the seed (45 − 10 isolated − 6 suji).
USEFUL_TWO_TILE = frozenset(("pair", "edge", "closed", "open", "double_closed"))
# Two tiles one tile away from a meld (対子 and 塔子): what a near-useful three-tile model keeps. The seed
# counts 148, 158 and 159 as useless although they hold a 両嵌渡り, so 両嵌渡り is not one of these.
PARTIAL_MELDS = frozenset(("pair", "edge", "closed", "open"))


def classify_two(low: int, high: int) -> str:
    """Seed 003's two-tile model of ranks ``low ≤ high`` (1-9) of one suit.

    The seed's table lists 89 as an edge (辺塔) like 12, though its written rule names only x1 = 1.
    """
    if low > high:
        low, high = high, low
    gap = high - low
    if gap == 0:
        return "pair"  # 対子
    if gap == 1:
        return "edge" if low == 1 or high == 9 else "open"  # 辺塔 / 両塔
    if gap == 2:
        return "closed"  # 嵌塔
    if gap == 3:
        return "suji"  # 筋牌
    if gap == 4:
        return "double_closed"  # 両嵌渡り
    return "isolated"  # 単独浮き牌


def closed_variant(low: int, high: int) -> str:
    """Seed 003 names two kinds of 嵌塔: A (13, 24, 68, 79: next to an end) and B (35, 46, 57)."""
    return "B" if low >= 3 and high <= 7 else "A"


def classify_three(first: int, second: int, third: int) -> dict:
    """Seed 003's three-tile model of ranks P ≤ Q ≤ R: ``complete`` (面子), ``useful`` (有効モデル),
    ``near_useful`` (近似有効モデル, with the kept two-tile model and the tile set apart) or
    ``useless`` (非有効モデル)."""
    p, q, r = sorted((first, second, third))
    if p == q == r or (q == p + 1 and r == p + 2):
        return {"kind": "complete", "meld": "triplet" if p == r else "sequence"}
    if (q in (p, p + 1, p + 2) and r in (p, p + 1, p + 2)) or (q == p + 2 and r == p + 4):
        return {"kind": "useful"}
    split = _near_useful_split(p, q, r)
    if split is None:
        return {"kind": "useless"}
    kept, spare = split
    return {"kind": "near_useful", "keep": kept, "model": classify_two(*kept), "spare": spare}


def _near_useful_split(p: int, q: int, r: int) -> tuple[tuple[int, int], int] | None:
    """Seed 003's rule: [2+1] keeps PQ, [1+2] keeps QR; from rank 2 on, when both halves are useful
    two-tile models, the better one is kept."""
    first_two, last_two = classify_two(p, q), classify_two(q, r)
    if first_two not in PARTIAL_MELDS and last_two not in PARTIAL_MELDS:
        return None
    if q == p:
        keep_first = True  # R ≥ x+3
    elif q == p + 1:
        keep_first = r != p + 3  # R = x+3 -> [1+2]; R ≥ x+4 -> [2+1]
    elif q == p + 2:
        keep_first = r != p + 3  # R = x+3 -> [1+2]; R ≥ x+5 -> [2+1]
    else:
        keep_first = False  # Q ≥ x+3 -> [1+2]
    if p >= 2 and first_two in PARTIAL_MELDS and last_two in PARTIAL_MELDS:
        keep_first = TWO_TILE_RANK[first_two] >= TWO_TILE_RANK[last_two]
    if keep_first:
        return (p, q), r
    return (q, r), p


def model_splits(ranks: list[int]) -> list[list[tuple[int, ...]]]:
    """Seed 003's split of a longer run into lower models: every way to cut the sorted ranks into
    consecutive pieces of 1-3 tiles (3456 -> 345+6, 34+56, 3+456, 3+4+56, ...)."""
    ranks = sorted(ranks)
    if not ranks:
        return [[]]
    result = []
    for size in (1, 2, 3):
        if size <= len(ranks):
            head = tuple(ranks[:size])
            result.extend([head, *rest] for rest in model_splits(ranks[size:]))
    return result


def _model_value(model: tuple[int, ...]) -> int:
    if len(model) == 1:
        return 0
    if len(model) == 2:
        return TWO_TILE_RANK[classify_two(*model)]
    kind = classify_three(*model)["kind"]
    return {"complete": 20, "useful": 10, "near_useful": 5, "useless": 0}[kind]


def simple_split(ranks: list[int]) -> list[tuple[int, ...]]:
    """単純分割: the split into lower models of highest total value (complete melds first), without
    weighing multi-sided waits."""
    return max(model_splits(ranks), key=lambda split: (sum(_model_value(model) for model in split), -len(split)))


def _suit_runs(ranks: list[int]) -> list[list[int]]:
    """Groups of a suit's ranks where neighbours are at most two apart (tiles that can work together)."""
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank - runs[-1][-1] <= 2:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    return runs


def describe_model(model: tuple[int, ...], suit_letter: str) -> dict:
    name = "".join(map(str, model)) + suit_letter
    if len(model) == 1:
        return {"tiles": name, "model": "isolated", "japanese": TWO_TILE_MODELS["isolated"]}
    if len(model) == 2:
        kind = classify_two(*model)
        entry = {"tiles": name, "model": kind, "japanese": TWO_TILE_MODELS[kind]}
        if kind == "closed":
            entry["variant"] = closed_variant(*model)
        return entry
    entry = {"tiles": name, **classify_three(*model)}
    if "keep" in entry:
        entry["keep"] = "".join(map(str, entry["keep"])) + suit_letter
        entry["spare"] = f"{entry['spare']}{suit_letter}"
    return entry


def shape_report(tiles: str | list[int]) -> dict:
    """A readable analysis of a 13- or 14-tile concealed hand: tile models per suit (seed 003),
    shanten (standard, seven pairs, thirteen orphans), waits for 13 tiles, decompositions for 14."""
    indices = parse_tiles(tiles)[0] if isinstance(tiles, str) else list(tiles)
    counts = counts_of(indices)
    models = []
    for suit, letter in enumerate("mps"):
        ranks = [rank + 1 for rank in range(9) for _ in range(counts[suit * 9 + rank])]
        for run in _suit_runs(ranks):
            models.extend(describe_model(model, letter) for model in simple_split(run))
    for index in range(27, 34):
        if counts[index]:
            kind = {1: "isolated", 2: "pair", 3: "triplet", 4: "quad"}[counts[index]]
            models.append({"tiles": to_mpsz([index] * counts[index]), "model": kind})
    report: dict = {
        "tiles": to_mpsz(indices),
        "count": len(indices),
        "models": models,
        "shanten": {
            "standard": shanten_standard(counts, (14 - len(indices)) // 3),
            "seven_pairs": shanten_seven_pairs(counts) if len(indices) >= 13 else None,
            "thirteen_orphans": shanten_thirteen_orphans(counts) if len(indices) >= 13 else None,
        },
    }
    report["shanten"]["minimum"] = min(value for value in report["shanten"].values() if value is not None)
    if len(indices) % 3 == 1:
        hand_waits = waits(counts)
        report["waits"] = [tile_name(index) for index in hand_waits]
        report["tenpai"] = bool(hand_waits)
    elif len(indices) % 3 == 2:
        report["complete"] = is_complete(counts)
        report["decompositions"] = [
            {
                "pair": tile_name(pair) * 2,
                "melds": [
                    to_mpsz([tile, tile + 1, tile + 2] if kind == SEQUENCE else [tile] * 3) for kind, tile in melds
                ],
            }
            for pair, melds in decompositions(counts)
        ]
    return report


def shape_report_text(tiles: str | list[int]) -> str:
    """``shape_report`` as lines a person reads."""
    report = shape_report(tiles)
    lines = [_("%(tiles)s (%(count)s tiles)") % {"tiles": report["tiles"], "count": report["count"]}]
    for model in report["models"]:
        shown = {"tiles": f"{model['tiles']:<8}", "model": model.get("model") or model.get("kind")}
        if "keep" in model:
            # Translators: a shape model of the tiles (seed 003); model is its name (open, isolated, ...).
            line = _("%(tiles)s %(model)s keep %(keep)s, spare %(spare)s") % {
                **shown,
                "keep": model["keep"],
                "spare": model["spare"],
            }
        else:
            line = f"{shown['tiles']} {shown['model']}"
        lines.append(f"  {line}")
    shanten_values = report["shanten"]
    lines.append(
        _(
            "shanten %(minimum)s (standard %(standard)s, seven pairs %(seven_pairs)s, thirteen orphans "
            "%(thirteen_orphans)s)"
        )
        % shanten_values
    )
    if "waits" in report:
        if report["tenpai"]:
            lines.append(_("tenpai, waits %(waits)s") % {"waits": " ".join(report["waits"])})
        else:
            lines.append(_("not tenpai"))
    if report.get("decompositions"):
        for decomposition in report["decompositions"]:
            lines.append("  " + " ".join([*decomposition["melds"], decomposition["pair"]]))
    return "\n".join(lines)
