"""A win of a log written as a hand-format request (``../shared/hand-format.md``), so that Taikai's own
scoring engine prices it under the event's rules; and the log's own price of it, to compare.

What a log records as a yaku but the tiles cannot show (立直, 一発, 海底, 河底, 嶺上, 槍槓, 天和, 地和,
ダブル立直) becomes the request's flags; everything else (the shape, dora, winds) the engine finds itself.
"""

from __future__ import annotations

from .record import GameLog, Hand, Win
from .tenhou_tiles import tile_name, tiles_text

WINDS = "ESWN"
# Tenhou's yaku ids for what only the play can tell.
TENHOU_FLAGS = {
    1: "riichi",  # 立直
    2: "ippatsu",  # 一発
    3: "chankan",  # 槍槓
    4: "rinshan",  # 嶺上開花
    5: "haitei",  # 海底摸月
    6: "houtei",  # 河底撈魚
    21: "double_riichi",  # ダブル立直
    37: "tenhou",  # 天和
    38: "chiihou",  # 地和
}
MELD_TYPES = {
    "chi": "chi",
    "pon": "pon",
    "kan_open": "kan_open",
    "kan_closed": "kan_closed",
    "kan_added": "kan_added",
}


def seat_wind(game: GameLog, hand: Hand, seat: int) -> str:
    """The seat's wind (自風) in this hand: the dealer is east."""
    return WINDS[(seat - hand.dealer) % game.rules.players]


def win_request(game: GameLog, hand: Hand, win: Win, *, request_id: str = "") -> dict:
    """The win as a hand-format request, honba and deposits as they stood."""
    aka = game.rules.aka_dora
    flags = {TENHOU_FLAGS[key] for key, _ in win.yaku if key in TENHOU_FLAGS}
    wind = seat_wind(game, hand, win.winner)
    return {
        "id": request_id,
        "rules": {"aka_dora": aka},
        "hand": {
            "tiles": tiles_text(win.concealed, aka_dora=aka),
            "melds": [
                {"type": MELD_TYPES[meld.kind], "tiles": tiles_text(meld.tiles, aka_dora=aka)}
                for meld in win.melds
                if meld.kind in MELD_TYPES
            ],
            "win_tile": tile_name(win.win_tile, aka_dora=aka),
            "tsumo": win.tsumo,
            "riichi": bool(flags & {"riichi", "double_riichi"}),
            **{flag: flag in flags for flag in TENHOU_FLAGS.values() if flag != "riichi"},
            "seat_wind": wind,
            "round_wind": WINDS[hand.wind],
            "dealer": wind == "E",
            "dora_indicators": [tile_name(tile, aka_dora=False) for tile in win.dora_indicators],
            "ura_dora_indicators": [tile_name(tile, aka_dora=False) for tile in win.ura_indicators],
            "honba": hand.honba,
            "riichi_sticks": 0,
        },
    }


def log_base_points(win: Win) -> int:
    """The log's price of the win, honba and deposits left out (its ``ten``)."""
    return win.points


def engine_base_points(result: dict, *, tsumo: bool, dealer: bool, honba: int, honba_unit: int = 100) -> int:
    """The engine's price of a win as the log counts it: what all payers pay, honba left out."""
    payments = result["payments"]
    if not tsumo:
        return payments["ron"] - 3 * honba_unit * honba
    if dealer:
        return 3 * (payments["non_dealer"] - honba_unit * honba)
    return payments["dealer"] - honba_unit * honba + 2 * (payments["non_dealer"] - honba_unit * honba)
