"""The PyPI ``mahjong`` package (2.1.0) configured to our standard rules, fed from hand-format.md requests.

Used as the independent reference of the differential test and as the rival of the benchmark: the
conversion from the request dict to the package's inputs is part of what is measured.
"""

from __future__ import annotations

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

SUITS = "mpsz"
WIND_INDEX = {"E": EAST, "S": EAST + 1, "W": EAST + 2, "N": EAST + 3}
MELD_TYPES = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "kan_open": (Meld.KAN, True),
    "kan_closed": (Meld.KAN, False),
    "kan_added": (Meld.SHOUMINKAN, True),
}

# The package's names for our yaku keys (YakuConfig attribute -> hand-format.md key).
PACKAGE_YAKU_KEYS = {
    "tsumo": "menzen_tsumo",
    "riichi": "riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan": "rinshan",
    "haitei": "haitei",
    "houtei": "houtei",
    "daburu_riichi": "double_riichi",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "iipeiko": "iipeikou",
    "haku": "yakuhai_haku",
    "hatsu": "yakuhai_hatsu",
    "chun": "yakuhai_chun",
    "seat_wind_east": "seat_wind",
    "seat_wind_south": "seat_wind",
    "seat_wind_west": "seat_wind",
    "seat_wind_north": "seat_wind",
    "round_wind_east": "round_wind",
    "round_wind_south": "round_wind",
    "round_wind_west": "round_wind",
    "round_wind_north": "round_wind",
    "sanshoku": "sanshoku",
    "ittsu": "ittsu",
    "chantai": "chanta",
    "honroto": "honroutou",
    "toitoi": "toitoi",
    "sanankou": "sanankou",
    "sankantsu": "sankantsu",
    "sanshoku_douko": "sanshoku_doukou",
    "chiitoitsu": "chiitoitsu",
    "shosangen": "shousangen",
    "honitsu": "honitsu",
    "junchan": "junchan",
    "ryanpeiko": "ryanpeikou",
    "chinitsu": "chinitsu",
    "kokushi": "kokushi",
    "daburu_kokushi": "kokushi",
    "chuuren_poutou": "chuuren",
    "daburu_chuuren_poutou": "chuuren",
    "suuankou": "suuankou",
    "suuankou_tanki": "suuankou",
    "daisangen": "daisangen",
    "shosuushi": "shousuushii",
    "daisuushi": "daisuushii",
    "ryuisou": "ryuuiisou",
    "suukantsu": "suukantsu",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
    "dora": "dora",
    "aka_dora": "aka_dora",
    "ura_dora": "ura_dora",
}


def standard_options(aka_dora: bool) -> OptionalRules:
    """Seeds 001/002's standard rules in the package's option names."""
    return OptionalRules(
        has_open_tanyao=True,  # 喰いタン
        has_aka_dora=aka_dora,
        has_double_yakuman=False,  # one yakuman unit per yakuman
        kazoe_limit=HandConstants.KAZOE_LIMITED,  # 数え役満 on, capped at one yakuman
        kiriage=False,
        fu_for_open_pinfu=True,  # open pinfu shape 30 fu
        fu_for_pinfu_tsumo=False,  # pinfu tsumo 20 fu
        renhou_as_yakuman=False,
    )


class _Allocator:
    """Hands out 136-format ids; a red five takes copy 0 of its kind (the package's aka id)."""

    def __init__(self) -> None:
        self.next_copy = [1 if kind < 27 and kind % 9 == 4 else 0 for kind in range(34)]
        self.red_used = [False] * 34

    def take(self, kind: int, red: bool) -> int:
        if red and not self.red_used[kind]:
            self.red_used[kind] = True
            return kind * 4
        copy = self.next_copy[kind]
        if copy >= 4:  # every plain copy used: the red copy is the fourth
            self.red_used[kind] = True
            return kind * 4
        self.next_copy[kind] += 1
        return kind * 4 + copy


def _read(text: str) -> list[tuple[int, bool]]:
    tiles = []
    pending = []
    for char in text:
        if char.isdigit():
            pending.append(int(char))
        else:
            suit = SUITS.index(char)
            for digit in pending:
                tiles.append((suit * 9 + (4 if digit == 0 else digit - 1), digit == 0))
            pending = []
    return tiles


def package_inputs(request: dict):
    """(tiles, win_tile, melds, dora, ura, config) for ``HandCalculator.estimate_hand_value``."""
    hand = request["hand"]
    allocator = _Allocator()
    concealed = [allocator.take(kind, red) for kind, red in _read(hand["tiles"])]
    melds = []
    all_tiles = list(concealed)
    for meld in hand.get("melds", []):
        meld_type, opened = MELD_TYPES[meld["type"]]
        ids = [allocator.take(kind, red) for kind, red in _read(meld["tiles"])]
        melds.append(Meld(meld_type=meld_type, tiles=ids, opened=opened))
        all_tiles.extend(ids)
    win_kind = _read(hand["win_tile"])[0][0]
    win_tile = next(tile for tile in concealed if tile // 4 == win_kind)
    dora = [kind * 4 + 3 for kind, _ in _read("".join(hand.get("dora_indicators", [])))]
    ura = [kind * 4 + 3 for kind, _ in _read("".join(hand.get("ura_dora_indicators", [])))]
    double_riichi = hand.get("double_riichi", False)
    config = HandConfig(
        is_tsumo=hand.get("tsumo", False),
        is_riichi=hand.get("riichi", False),
        is_daburu_riichi=double_riichi,
        is_ippatsu=hand.get("ippatsu", False),
        is_rinshan=hand.get("rinshan", False),
        is_chankan=hand.get("chankan", False),
        is_haitei=hand.get("haitei", False),
        is_houtei=hand.get("houtei", False),
        is_tenhou=hand.get("tenhou", False),
        is_chiihou=hand.get("chiihou", False),
        player_wind=WIND_INDEX[hand.get("seat_wind", "E")],
        round_wind=WIND_INDEX[hand.get("round_wind", "E")],
        kyoutaku_number=hand.get("riichi_sticks", 0),
        tsumi_number=hand.get("honba", 0),
        options=standard_options(bool(request.get("rules", {}).get("aka_dora", False))),
    )
    return all_tiles, win_tile, melds, dora, ura, config


def package_evaluate(request: dict):
    """The package's ``HandResponse`` for a request."""
    tiles, win_tile, melds, dora, ura, config = package_inputs(request)
    return HandCalculator.estimate_hand_value(
        tiles, win_tile, melds=melds, dora_indicators=dora, ura_dora_indicators=ura, config=config
    )


def yaku_keys(response, config: HandConfig | None = None) -> dict[str, int]:
    """The response's yaku as {hand-format key: han}."""
    names = {}
    yaku_config = (config or HandConfig()).yaku
    for attribute, key in PACKAGE_YAKU_KEYS.items():
        names[type(getattr(yaku_config, attribute)).__name__] = key
    result: dict[str, int] = {}
    for yaku in response.yaku or []:
        key = names.get(type(yaku).__name__, type(yaku).__name__)
        han = yaku.han_open if response.is_open_hand else yaku.han_closed
        result[key] = result.get(key, 0) + han
    return result
