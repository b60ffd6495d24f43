"""Which han/fu pairs a hand can have (seed 001), for results written as han and fu on a score sheet.

* fu are 20, 25 or 30–110 in tens (raw fu for simple doubling 単純倍加: 20–110 in steps of 2, or 25);
* 20 fu is pinfu tsumo 平和自摸 only, so a ron never has 20 fu and 20 fu is at least 2 han;
* 25 fu is chiitoitsu 七対子 only: at least 2 han, at least 3 with tsumo (menzen tsumo 門前清自摸和);
* from 5 han (mangan 満貫 and up) fu are not counted, so any fu goes.
"""

from __future__ import annotations

from taikai.i18n import _

from .errors import ScoringError

LIMIT_HAN = 5
STANDARD_FU = frozenset({20, 25, *range(30, 111, 10)})


def han_fu_problem(*, han: int, fu: int, tsumo: bool, raw_fu: bool = False) -> ScoringError | None:
    """Why no hand can score ``han`` with ``fu`` (with ``tsumo``), or None when some hand can."""
    if han >= LIMIT_HAN:
        return None
    if raw_fu:
        if not (fu == 25 or (20 <= fu <= 110 and fu % 2 == 0)):
            return ScoringError(
                "impossible_fu", _("%(fu)s fu cannot happen (20–110 in steps of 2, or 25)") % {"fu": fu}
            )
    elif fu not in STANDARD_FU:
        return ScoringError("impossible_fu", _("%(fu)s fu cannot happen (20, 25, or 30–110 in tens)") % {"fu": fu})
    if fu == 20 and not tsumo:
        return ScoringError("impossible_han_fu", _("20 fu is only pinfu tsumo: a ron has at least 30 fu"))
    if fu == 20 and han < 2:
        return ScoringError("impossible_han_fu", _("20 fu is pinfu tsumo, which is at least 2 han"))
    if fu == 25 and han < (3 if tsumo else 2):
        if tsumo:
            return ScoringError("impossible_han_fu", _("25 fu is only chiitoitsu, which is at least 3 han with tsumo"))
        return ScoringError("impossible_han_fu", _("25 fu is only chiitoitsu, which is at least 2 han"))
    return None


def han_fu_exists(*, han: int, fu: int, tsumo: bool, raw_fu: bool = False) -> bool:
    return han_fu_problem(han=han, fu=fu, tsumo=tsumo, raw_fu=raw_fu) is None
