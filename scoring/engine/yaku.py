"""The yaku of seed 001 as data, and their detectors.

``YAKU_TABLE`` is seed 001's 役集合: (key, Japanese name, closed han, open han); open han 0 means the
yaku needs a closed hand (門前). A ruleset overrides han through ``Rules.yaku_han``. Yakuman (役満) are
listed with 13 han as in the seed; they are scored in yakuman units by the limits, not by han.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .tiles import (
    CHUN,
    DRAGONS,
    EAST,
    HAKU,
    HATSU,
    HONOR,
    IS_TERMINAL_OR_HONOR,
    NORTH,
    NOT_GREEN,
    NUMBER_SUITS,
    SIMPLE,
    SOUTH,
    SUITS_HELD,
    TERMINAL,
    WEST,
    WINDS,
    dora_from_indicator,
)

if TYPE_CHECKING:
    from .rules import Rules


@dataclass(frozen=True)
class YakuDefinition:
    key: str
    japanese: str
    closed_han: int
    open_han: int  # 0 = closed only (門前限定)
    yakuman: bool = False


YAKU_TABLE: tuple[YakuDefinition, ...] = (
    YakuDefinition("riichi", "立直", 1, 0),
    YakuDefinition("menzen_tsumo", "門前清模和", 1, 0),
    YakuDefinition("ippatsu", "一発", 1, 0),
    YakuDefinition("haitei", "海底摸月", 1, 1),
    YakuDefinition("houtei", "河底撈魚", 1, 1),
    YakuDefinition("rinshan", "嶺上開花", 1, 1),
    YakuDefinition("chankan", "槍槓", 1, 1),
    # 翻牌: one han per value triplet; the seed's single entry is split into one key per tile kind.
    YakuDefinition("yakuhai_haku", "翻牌 白", 1, 1),
    YakuDefinition("yakuhai_hatsu", "翻牌 發", 1, 1),
    YakuDefinition("yakuhai_chun", "翻牌 中", 1, 1),
    YakuDefinition("seat_wind", "翻牌 自風", 1, 1),
    YakuDefinition("round_wind", "翻牌 場風", 1, 1),
    YakuDefinition("tanyao", "断么", 1, 1),
    YakuDefinition("pinfu", "平和", 1, 0),
    YakuDefinition("iipeikou", "一盃口", 1, 0),
    YakuDefinition("double_riichi", "ダブル立直", 2, 0),
    YakuDefinition("sanshoku", "三色同順", 2, 1),
    YakuDefinition("ittsu", "一気通貫", 2, 1),
    YakuDefinition("chanta", "全帯么", 2, 1),
    YakuDefinition("chiitoitsu", "七対子", 2, 0),
    YakuDefinition("toitoi", "対々和", 2, 2),
    YakuDefinition("sanankou", "三暗刻", 2, 2),
    YakuDefinition("honroutou", "混老頭", 2, 2),
    YakuDefinition("sankantsu", "三槓子", 2, 2),
    YakuDefinition("sanshoku_doukou", "三色同刻", 2, 2),
    YakuDefinition("honitsu", "混一色", 3, 2),
    YakuDefinition("junchan", "純全帯么", 3, 2),
    YakuDefinition("ryanpeikou", "二盃口", 3, 0),
    YakuDefinition("shousangen", "小三元", 2, 2),
    YakuDefinition("chinitsu", "清一色", 6, 5),
    YakuDefinition("tenhou", "天和", 13, 0, yakuman=True),
    YakuDefinition("chiihou", "地和", 13, 0, yakuman=True),
    YakuDefinition("tsuuiisou", "字一色", 13, 13, yakuman=True),
    YakuDefinition("suuankou", "四暗刻", 13, 0, yakuman=True),
    YakuDefinition("ryuuiisou", "緑一色", 13, 13, yakuman=True),
    YakuDefinition("shousuushii", "小四喜和", 13, 13, yakuman=True),
    YakuDefinition("daisuushii", "大四喜和", 13, 13, yakuman=True),
    YakuDefinition("daisangen", "大三元", 13, 13, yakuman=True),
    YakuDefinition("chuuren", "九蓮宝燈", 13, 0, yakuman=True),
    YakuDefinition("chinroutou", "清老頭", 13, 13, yakuman=True),
    YakuDefinition("kokushi", "国士無双", 13, 0, yakuman=True),
    YakuDefinition("suukantsu", "四槓子", 13, 13, yakuman=True),
)
YAKU_BY_KEY: Mapping[str, YakuDefinition] = {definition.key: definition for definition in YAKU_TABLE}

DRAGON_KEYS = {HAKU: "yakuhai_haku", HATSU: "yakuhai_hatsu", CHUN: "yakuhai_chun"}
NINE_GATES = 128  # beside a suit's tile classes: the suit holds 九蓮宝燈's shape (all nine ranks, 1 and 9 thrice)

# Wait shapes (待ち) of the group the winning tile completes.
TANKI, SHANPON, RYANMEN, KANCHAN, PENCHAN = "tanki", "shanpon", "ryanmen", "kanchan", "penchan"


class Group(NamedTuple):
    """A meld of a reading (a named tuple: readings are built by the thousand).

    ``concealed`` is False for called melds and for a triplet completed by ron
    (明刻 for fu and 暗刻 counts), even though the hand may still be closed."""

    kind: int  # SEQUENCE or TRIPLET (kans are triplets with is_kan)
    tile: int
    concealed: bool
    is_kan: bool = False
    called: bool = False  # from a chi/pon/open kan/added kan: opens the hand


class Reading(NamedTuple):
    """One way to read a winning hand: its shape, and which group the winning tile completed.

    A standard reading also carries its groups sorted the way the yaku and the fu look at them, built
    once with the reading (from per-suit tables) instead of by each detector walking the groups."""

    form: str  # "standard", "chiitoitsu", "kokushi"
    groups: tuple[Group, ...] = ()
    pair: int = -1
    wait: str = TANKI
    sequences: tuple[int, ...] = ()  # lowest tile of each sequence (順子), in group order
    triplets: tuple[int, ...] = ()  # tile of each triplet or kan (刻子/槓子), in group order
    concealed_triplets: int = 0  # 暗刻: concealed triplets and closed kans (not one completed by ron)
    kans: int = 0  # 槓子
    triplet_fu: tuple[tuple[str, int], ...] = ()  # each triplet's line of the fu breakdown, in group order


class WinContext(NamedTuple):
    """Everything about a hand that does not depend on the reading."""

    counts: tuple[int, ...]  # all 34 kinds, concealed + melds (a kan counts 4)
    classes: int  # the tile classes present (``tiles.TILE_CLASSES`` or-ed), and ``NINE_GATES``
    concealed_counts: tuple[int, ...]
    closed: bool
    tsumo: bool
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    haitei: bool
    houtei: bool
    rinshan: bool
    chankan: bool
    tenhou: bool
    chiihou: bool
    seat_wind: int
    round_wind: int
    has_melds: bool
    hand_yakuman: tuple[str, ...] = ()  # yakuman that do not depend on the reading
    suits: tuple = ()  # per suit: (tiles mod 3, or 3 when it cannot split; its decompositions, tile classes, how many)
    melds: tuple = ()  # what the called melds and kans add to every reading


def wait_of_sequence(first: int, win_tile: int) -> str:
    """The wait a sequence was completed on: 嵌張 middle tile, 辺張 3 of 123 / 7 of 789, else 両面."""
    if win_tile == first + 1:
        return KANCHAN
    rank = first % 9
    if (win_tile == first + 2 and rank == 0) or (win_tile == first and rank == 6):
        return PENCHAN
    return RYANMEN


def is_value_pair(pair: int, context: WinContext) -> bool:
    return pair in DRAGONS or pair == context.seat_wind or pair == context.round_wind


def situational_yaku(context: WinContext, rules: Rules, table: Mapping[str, int]) -> list[tuple[str, int]]:
    """Yaku decided by how the hand was won, whatever its shape (立直, 一発, 門前清模和, 海底, ...).

    ``table`` is the ruleset's han for the hand (``Rules.han_table``: closed or open)."""
    closed = context.closed
    found = []
    if context.double_riichi:
        found.append("double_riichi")
    elif context.riichi:
        found.append("riichi")
    if context.ippatsu:
        found.append("ippatsu")
    if closed and context.tsumo:
        found.append("menzen_tsumo")
    if context.haitei:
        found.append("haitei")
    if context.houtei:
        found.append("houtei")
    if context.rinshan:
        found.append("rinshan")
    if context.chankan:
        found.append("chankan")
    classes = context.classes
    if not classes & (TERMINAL | HONOR) and (closed or rules.open_tanyao):
        found.append("tanyao")  # 断么
    suits = SUITS_HELD[(classes & NUMBER_SUITS) >> 4]
    if suits == 1:
        found.append("honitsu" if classes & HONOR else "chinitsu")  # 混一色 / 清一色
    if suits and not classes & SIMPLE:
        found.append("honroutou")  # 混老頭 (all honors or all terminals: a yakuman replaces it)
    return [(key, table[key]) for key in found if table[key]]


def sequence_facts(sequences: tuple[int, ...]) -> tuple[str | None, tuple[str, ...], bool]:
    """What the yaku ask of a reading's sequences (順子): the 一盃口 or 二盃口 they make (when the hand is
    closed), the 三色同順 and 一気通貫 they make, and whether each holds a terminal (全帯么, 純全帯么)."""
    peikou = None
    runs = []
    if len(sequences) >= 2:
        sequence_set = set(sequences)
        if len(sequence_set) < len(sequences):
            twins = sum(sequences.count(tile) // 2 for tile in sequence_set)
            peikou = "ryanpeikou" if twins >= 2 else "iipeikou"  # 二盃口 / 一盃口
        if len(sequence_set) >= 3:
            for start in sequence_set:
                if start < 7 and start + 9 in sequence_set and start + 18 in sequence_set:
                    runs.append("sanshoku")  # 三色同順
                    break
            for base in (0, 9, 18):
                if base in sequence_set and base + 3 in sequence_set and base + 6 in sequence_set:
                    runs.append("ittsu")  # 一気通貫
                    break
    return peikou, tuple(runs), all(tile % 9 in (0, 6) for tile in sequences)


# A reading's sequences -> ``sequence_facts``: a hand's four sequences at most come from a few thousand sets.
_SEQUENCE_FACTS: dict[tuple[int, ...], tuple[str | None, tuple[str, ...], bool]] = {}


def _sequence_facts(sequences: tuple[int, ...]) -> tuple[str | None, tuple[str, ...], bool]:
    facts = sequence_facts(sequences)
    if len(_SEQUENCE_FACTS) < 65536:
        _SEQUENCE_FACTS[sequences] = facts
    return facts


def shape_yaku(
    reading: Reading, context: WinContext, lines: Mapping[str, tuple[str, int] | None]
) -> list[tuple[str, int]]:
    """Yaku that depend on how the tiles are grouped (平和, 一盃口, 三色, 対々和, ...); pinfu comes first.

    ``lines`` is the ruleset's (key, han) line of each yaku for the hand (``Rules.yaku_lines``: closed
    or open), looked up once per hand rather than once per reading."""
    form, _groups, pair, wait, sequences, triplets, concealed_triplets, kans, _fu = reading
    if form != "standard":
        found = [lines["chiitoitsu"]] if form == "chiitoitsu" else []
        return [line for line in found if line]
    closed = context.closed
    found = []
    if not triplets:
        if closed and wait == RYANMEN and not is_value_pair(pair, context):
            found.append(lines["pinfu"])  # 平和
    else:
        for tile in triplets:
            if tile >= 27:
                if tile in DRAGON_KEYS:
                    found.append(lines[DRAGON_KEYS[tile]])
                else:
                    if tile == context.seat_wind:
                        found.append(lines["seat_wind"])  # 自風
                    if tile == context.round_wind:
                        found.append(lines["round_wind"])  # 場風
    try:
        peikou, runs, terminal_sequences = _SEQUENCE_FACTS[sequences]
    except KeyError:
        peikou, runs, terminal_sequences = _sequence_facts(sequences)
    if peikou and closed:
        found.append(lines[peikou])
    for key in runs:
        found.append(lines[key])
    if len(triplets) >= 3:
        for start in triplets:
            if start < 9 and start + 9 in triplets and start + 18 in triplets:
                found.append(lines["sanshoku_doukou"])  # 三色同刻
                break
        if not sequences:
            found.append(lines["toitoi"])  # 対々和
        if concealed_triplets == 3:
            found.append(lines["sanankou"])  # 三暗刻
        if kans == 3:
            found.append(lines["sankantsu"])  # 三槓子
        dragon_triplets = (HAKU in triplets) + (HATSU in triplets) + (CHUN in triplets)  # one triplet a tile at most
        if dragon_triplets == 2 and pair in DRAGON_KEYS:
            found.append(lines["shousangen"])  # 小三元
    elif len(triplets) == 2 and pair in DRAGON_KEYS and triplets[0] in DRAGON_KEYS and triplets[1] in DRAGON_KEYS:
        found.append(lines["shousangen"])  # 小三元
    if (
        sequences
        and terminal_sequences
        and IS_TERMINAL_OR_HONOR[pair]
        and all(IS_TERMINAL_OR_HONOR[tile] for tile in triplets)
    ):
        found.append(lines["chanta" if context.classes & HONOR else "junchan"])  # 全帯么 / 純全帯么
    return found if None not in found else [line for line in found if line]


def hand_yakuman(classes: int, *, tenhou: bool, chiihou: bool, has_melds: bool) -> tuple[str, ...]:
    """The yakuman (役満) decided by the tiles and flags alone, whatever the reading: from the hand's
    tile classes (and ``NINE_GATES``, which a suit holding 九蓮宝燈's shape adds to them)."""
    found = []
    if tenhou:
        found.append("tenhou")  # 天和
    if chiihou:
        found.append("chiihou")  # 地和
    if not classes & NUMBER_SUITS:
        found.append("tsuuiisou")  # 字一色
    if not classes & (SIMPLE | HONOR):
        found.append("chinroutou")  # 清老頭
    if not classes & NOT_GREEN:
        found.append("ryuuiisou")  # 緑一色
    one_suit = not classes & HONOR and SUITS_HELD[(classes & NUMBER_SUITS) >> 4] == 1
    if not has_melds and classes & NINE_GATES and one_suit:
        found.append("chuuren")  # 九蓮宝燈
    return tuple(found)


# The yakuman of the tiles alone, per tile classes, without melds and with
TILES_YAKUMAN = tuple(
    tuple(hand_yakuman(classes, tenhou=False, chiihou=False, has_melds=has_melds) for classes in range(256))
    for has_melds in (False, True)
)


def yakuman_of(reading: Reading, context: WinContext) -> tuple[str, ...] | list[str]:
    """The yakuman (役満) the reading holds."""
    if reading.form == "kokushi":
        return [key for key in context.hand_yakuman if key in ("tenhou", "chiihou")] + ["kokushi"]  # 国士無双
    triplets = reading.triplets
    if len(triplets) < 3:  # every yakuman of the reading needs three triplets or more
        return context.hand_yakuman
    found = list(context.hand_yakuman)  # a standard reading: seven pairs hold no triplet
    if reading.concealed_triplets == 4:
        found.append("suuankou")  # 四暗刻
    if reading.kans == 4:
        found.append("suukantsu")  # 四槓子
    if max(triplets) >= 27:
        winds = (EAST in triplets) + (SOUTH in triplets) + (WEST in triplets) + (NORTH in triplets)
        if winds == 4:
            found.append("daisuushii")  # 大四喜和
        elif winds == 3 and reading.pair in WINDS:
            found.append("shousuushii")  # 小四喜和
        if HAKU in triplets and HATSU in triplets and CHUN in triplets:
            found.append("daisangen")  # 大三元
    return found


DORA_OF_INDICATOR = tuple(dora_from_indicator(indicator) for indicator in range(34))


def count_dora(tiles_counts: tuple[int, ...], indicators: tuple[int, ...]) -> int:
    """Each indicator counts every tile it points to (two indicators of one kind count twice)."""
    dora = 0
    for indicator in indicators:
        dora += tiles_counts[DORA_OF_INDICATOR[indicator]]
    return dora
