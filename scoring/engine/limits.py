"""Limit hands, mangan and above (満貫以上; seeds 001 and 002).

The basic value of a hand (Γ, or U for simple doubling) is capped: from mangan up, a limit's basic
points take its place in whatever payment scheme is in force.

* mangan 満貫: 5 han, or a hand below 5 han whose basic value reaches 2000 (4 han from 40 fu, 3 han
  from 70 fu in the standard table); with kiriage mangan 切り上げ満貫 also 30 fu 4 han and 60 fu
  3 han (basic value 1920);
* haneman 跳満 6-7 han (3000), baiman 倍満 8-10 han (4000), sanbaiman 三倍満 11-12 han (6000);
* yakuman 役満 (8000): a yakuman, or 13+ han when counted yakuman 数え役満 is on (else sanbaiman).
  With yakuman stacking, n yakuman units pay n × 8000.

``han`` here is yaku + dora han, without the bazoro (場ゾロ) han.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import ScoringError
from .params import LimitOptions

MANGAN_BASIC = 2000
LIMIT_BASIC_POINTS = {
    "mangan": 2000,  # 満貫
    "haneman": 3000,  # 跳満
    "baiman": 4000,  # 倍満
    "sanbaiman": 6000,  # 三倍満
    "yakuman": 8000,  # 役満
}
LIMIT_NAMES = tuple(LIMIT_BASIC_POINTS)

# (lowest han, highest han or None) each limit is reached with by han count alone.
LIMIT_HAN_RANGES = {
    "mangan": (5, 5),
    "haneman": (6, 7),
    "baiman": (8, 10),
    "sanbaiman": (11, 12),
    "yakuman": (13, None),
}

# 切り上げ満貫: (han, fu) pairs rounded up to mangan; both have basic value 1920.
KIRIAGE_HANDS = ((4, 30), (3, 60))


@dataclass(frozen=True)
class Limit:
    name: str  # one of LIMIT_NAMES
    basic: int  # basic points paid in place of Γ/U
    yakuman_units: int = 0  # how many yakuman are paid (stacked yakuman), 0 below yakuman


def limit_named(name: str, *, yakuman_units: int = 1) -> Limit:
    """The limit ``name``; for ``"yakuman"``, ``yakuman_units`` × 8000 basic points."""
    if name not in LIMIT_BASIC_POINTS:
        raise ScoringError("unknown_limit", _("unknown limit %(limit)s") % {"limit": repr(name)}, field="limit")
    if name == "yakuman":
        return Limit(name, LIMIT_BASIC_POINTS[name] * yakuman_units, yakuman_units)
    return Limit(name, LIMIT_BASIC_POINTS[name])


def han_limit(limits: LimitOptions, *, han: int, yakuman: int) -> Limit | None:
    """The limit a hand reaches by yakuman or by han count alone (5 han and up), else ``None``."""
    if yakuman > 0:
        return limit_named("yakuman", yakuman_units=yakuman if limits.yakuman_stack else 1)
    if han >= 13:
        return limit_named("yakuman") if limits.kazoe_yakuman else limit_named("sanbaiman")
    if han >= 11:
        return limit_named("sanbaiman")
    if han >= 8:
        return limit_named("baiman")
    if han >= 6:
        return limit_named("haneman")
    if han >= 5:
        return limit_named("mangan")
    return None


def basic_limit(limits: LimitOptions, *, han: int, basic: Fraction, table_fu: Fraction) -> Limit | None:
    """Mangan for a hand below 5 han whose basic value reaches 2000, or a kiriage mangan hand.

    ``table_fu`` is the fu the hand is listed under (``ceil_θ(p)``, or the fixed fu).
    """
    if basic >= MANGAN_BASIC:
        return limit_named("mangan")
    if limits.kiriage_mangan and (han, table_fu) in KIRIAGE_HANDS:
        return limit_named("mangan")
    return None


def classify_limit(
    limits: LimitOptions, *, han: int, yakuman: int, basic: Fraction, table_fu: Fraction
) -> Limit | None:
    """The limit of a hand, or ``None`` when it is paid from its basic value."""
    return han_limit(limits, han=han, yakuman=yakuman) or basic_limit(limits, han=han, basic=basic, table_fu=table_fu)
