"""A disagreement's two scorings side by side, in words a referee reads: han, fu, yaku, points, and each seat's
change where the hand's payments differ (the console's page and the admin's)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from gamelogs.engine.tenhou_names import TENHOU_YAKU_NAMES
from gamelogs.models import Disagreement
from scoring.calculator import YAKU_LABELS

YAKUMAN_HAN = 13


@dataclass(frozen=True)
class Row:
    label: str
    log: str
    taikai: str

    @property
    def differs(self) -> bool:
        return self.log != self.taikai


def side_by_side(disagreement: Disagreement, names: list[str]) -> list[Row]:
    """The rows of the comparison: for a win, han, fu, yaku and points; for a hand's payments, each seat's change
    (``names``: the log's names in its seat order)."""
    log, taikai = disagreement.log_scoring, disagreement.engine_scoring
    if "deltas" in log or "deltas" in taikai:
        return [
            Row(name, _signed(log.get("deltas"), seat), _signed(taikai.get("deltas"), seat))
            for seat, name in enumerate(names)
        ]
    if "error" in taikai:
        return [Row(_("Han"), _han(log), taikai.get("message") or taikai["error"])]
    return [
        Row(_("Han"), _han(log), _han(taikai)),
        Row(_("Fu"), str(log.get("fu", "")), str(taikai.get("fu", ""))),
        Row(_("Yaku"), _log_yaku(log.get("yaku", [])), _taikai_yaku(taikai.get("yaku", []))),
        Row(_("Points"), _points(log.get("points")), _points(taikai.get("points"))),
    ]


def _signed(deltas, seat: int) -> str:
    return f"{deltas[seat]:+d}" if deltas and seat < len(deltas) else "—"


def _han(scoring: dict) -> str:
    yakuman = scoring.get("yakuman") or sum(1 for _key, han in scoring.get("yaku", []) if han >= YAKUMAN_HAN)
    if yakuman and scoring.get("limit", "yakuman") == "yakuman":
        return _("yakuman ×%(count)s") % {"count": yakuman}
    return str(scoring.get("han", ""))


def _points(points) -> str:
    return str(points) if points is not None else "—"


def _log_yaku(yaku: list) -> str:
    """Tenhou's ids with their han, in Tenhou's own (Japanese) names."""
    words = []
    for key, han in yaku:
        name = TENHOU_YAKU_NAMES[key] if isinstance(key, int) and 0 <= key < len(TENHOU_YAKU_NAMES) else str(key)
        words.append(f"{name} {_han_words(han)}")
    return ", ".join(words) or "—"


def _taikai_yaku(yaku: list) -> str:
    return ", ".join(f"{YAKU_LABELS.get(key, key)} {_han_words(han)}" for key, han in yaku) or "—"


def _han_words(han: int) -> str:
    return _("yakuman") if han >= YAKUMAN_HAN else _("%(han)s han") % {"han": han}
