"""Fu (符) of a reading, seed 001 definitions 0.14-0.18, with the breakdown shown to users.

The raw fu p (副底 + 面子部分符 + 聴牌形の符 + 和了形の符) is returned unrounded: the payment scheme
rounds it with its own θ. Seven pairs (七対子) is a fixed 25; an open hand with nothing but the base
(喰い平和 shape) is a fixed 30; pinfu tsumo (平和自摸) takes no tsumo fu and stays at 20.
"""

from __future__ import annotations

from typing import NamedTuple

from .tiles import DRAGONS
from .yaku import KANCHAN, PENCHAN, TANKI, Reading, WinContext

BASE_FU = 20  # 副底
CHIITOITSU_FU = 25  # 七対子
OPEN_PINFU_FU = 30  # 喰い平和
CLOSED_RON_FU = 10  # 門前加符 (門前栄)
TSUMO_FU = 2  # ツモ符
WAIT_FU = {TANKI: 2, PENCHAN: 2, KANCHAN: 2}  # 単騎, 辺張, 嵌張; 両面 and シャボ 0


class FuResult(NamedTuple):
    fu: int  # raw p for the scheme (fixed values as they are)
    fixed: bool  # use ``fu`` without rounding
    details: tuple[tuple[str, int], ...]


def meld_fu(concealed: bool, is_kan: bool, terminal_or_honor: bool) -> int:
    """面子部分符: an open triplet of simples is 2; concealed ×2, terminal/honor ×2, kan ×4."""
    return 2 * (2 if concealed else 1) * (2 if terminal_or_honor else 1) * (4 if is_kan else 1)


def pair_fu(pair: int, seat_wind: int, round_wind: int, double_wind_pair_fu: int) -> int:
    """雀頭: dragon 2, seat wind 2, round wind 2; a wind that is both (連風牌) per the rules (4 or 2)."""
    if pair in DRAGONS:
        return 2
    if pair == seat_wind and pair == round_wind:
        return double_wind_pair_fu
    if pair in (seat_wind, round_wind):
        return 2
    return 0


# (concealed, kan, terminal or honor) -> a triplet's line of the fu breakdown
TRIPLET_DETAILS = {
    (concealed, is_kan, terminal_or_honor): (
        ("closed_" if concealed else "open_") + ("kan" if is_kan else "triplet"),
        meld_fu(concealed, is_kan, terminal_or_honor),
    )
    for concealed in (False, True)
    for is_kan in (False, True)
    for terminal_or_honor in (False, True)
}
_BASE_DETAIL = ("base", BASE_FU)
_TSUMO_DETAIL = ("tsumo", TSUMO_FU)
_CLOSED_RON_DETAIL = ("closed_ron", CLOSED_RON_FU)


_CHIITOITSU_RESULT = FuResult(CHIITOITSU_FU, True, (("chiitoitsu", CHIITOITSU_FU),))
_KOKUSHI_RESULT = FuResult(0, True, ())
_OPEN_PINFU_RESULT = FuResult(OPEN_PINFU_FU, True, (("base", BASE_FU), ("open_pinfu", OPEN_PINFU_FU - BASE_FU)))
_WAIT_DETAILS = {wait: (wait, value) for wait, value in WAIT_FU.items()}
_fu_result = tuple.__new__  # ``FuResult(*fields)`` without the named tuple's Python-level ``__new__``


def fu_of(reading: Reading, context: WinContext, pinfu: bool, double_wind_pair_fu: int) -> FuResult:
    """Fu of a standard or seven-pairs reading (thirteen orphans has none: NA in the seed)."""
    form, _groups, pair, wait, _sequences, _triplets, _concealed, _kans, triplet_fu = reading
    if form != "standard":
        return _CHIITOITSU_RESULT if form == "chiitoitsu" else _KOKUSHI_RESULT
    details: list[tuple[str, int]] = [_BASE_DETAIL, *triplet_fu]
    total = BASE_FU
    for _name, value in triplet_fu:
        total += value
    if pair >= 27:  # only an honor pair (字牌) has fu
        value = pair_fu(pair, context.seat_wind, context.round_wind, double_wind_pair_fu)
        if value:
            double_wind = pair == context.seat_wind == context.round_wind
            details.append(("double_wind_pair" if double_wind else "value_pair", value))
            total += value
    if wait in _WAIT_DETAILS:
        wait = _WAIT_DETAILS[wait]
        details.append(wait)
        total += wait[1]
    closed = context.closed
    if context.tsumo:
        if not pinfu:
            details.append(_TSUMO_DETAIL)
            total += TSUMO_FU
    elif closed:
        details.append(_CLOSED_RON_DETAIL)
        total += CLOSED_RON_FU
    if total == BASE_FU and not closed:
        return _OPEN_PINFU_RESULT
    return _fu_result(FuResult, (total, False, tuple(details)))
