"""The quick-reference score table (点数早見表) for any scheme and limit options (seed 002).

One table for a non-dealer (子) winner and one for a dealer (親) winner: han 1-4 by fu, then the
limit rows (mangan to yakuman). Entries that no hand can have are ``None``, for the reasons of
seed 001's fu and yaku rules:

* 20 fu is only pinfu by tsumo (平和自摸 adds 0 fu; a closed ron adds 10, an open pinfu shape is 30),
  so it is never a ron, and its tsumo has at least pinfu + menzen tsumo = 2 han;
* 25 fu is only chiitoitsu (七対子, 2 han, closed), so at least 2 han, and a tsumo adds menzen
  tsumo (門前清模和): at least 3 han.

Rows are plain data (:class:`ScoreRow`); :func:`table_json`, :func:`render_csv` and
:func:`render_html` turn them into the formats the ``score_table`` command prints.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _
from taikai.spreadsheet import csv_writer

from .errors import ScoringError
from .limits import LIMIT_HAN_RANGES, LIMIT_NAMES
from .params import LimitOptions, SchemeParams
from .schemes import Points, WinPayment, ceil_to, win_payment

TABLE_HANS = (1, 2, 3, 4)
RAW_FU_RANGE = range(20, 111, 2)  # raw fu 連底 of ordinary hands: 20 + even additions
CHIITOITSU_FU = 25  # 七対子

LIMIT_LABELS = {
    "mangan": "満貫 mangan",
    "haneman": "跳満 haneman",
    "baiman": "倍満 baiman",
    "sanbaiman": "三倍満 sanbaiman",
    "yakuman": "役満 yakuman",
}


@dataclass(frozen=True)
class ScoreRow:
    """One entry of the table. ``None`` amounts mark an impossible way to win."""

    dealer: bool
    han: int | None  # lowest han of a limit row; None for a yakuman row without counted yakuman
    fu: Fraction | None  # None on limit rows
    limit: str | None  # the limit the entry pays (also on a capped fu row, e.g. 4 han 40 fu)
    is_limit_row: bool
    ron: Points | None
    tsumo_non_dealer: Points | None  # K: non-dealer winner's tsumo, each non-dealer; dealer winner: each
    tsumo_dealer: Points | None  # E: non-dealer winner's tsumo, each dealer

    def as_json(self) -> dict:
        row: dict = {"han": self.han}
        if not self.is_limit_row:
            row["fu"] = _json_number(self.fu)
        row["limit"] = self.limit
        row["dealer"] = self.dealer
        row["ron"] = _json_number(self.ron)
        if self.tsumo_non_dealer is None:
            row["tsumo"] = None
        elif self.dealer:
            row["tsumo"] = {"each": _json_number(self.tsumo_non_dealer)}
        else:
            row["tsumo"] = {
                "non_dealer": _json_number(self.tsumo_non_dealer),
                "dealer": _json_number(self.tsumo_dealer),
            }
        return row


def table_fu_values(params: SchemeParams) -> tuple[Fraction, ...]:
    """The fu a table lists: raw fu 20..110 (and 25) for simple doubling, which does not round fu;
    otherwise the rounded values ``ceil_θ(p)`` of those raw fu, and 25."""
    if params.scheme == "simple_doubling":
        values = {Fraction(p) for p in RAW_FU_RANGE}
    else:
        values = {ceil_to(p, params.theta) for p in RAW_FU_RANGE}
    return tuple(sorted(values | {Fraction(CHIITOITSU_FU)}))


def impossible_reason(params: SchemeParams, *, han: int, fu: Fraction, tsumo: bool) -> str | None:
    """Why no hand is won with ``han`` and table fu ``fu`` (by tsumo or ron), or ``None`` if one is."""
    if fu == 20:
        if not tsumo:
            return _("20 fu is only pinfu by tsumo: never a ron")
        if han < 2:
            return _("20 fu is only pinfu by tsumo: pinfu + menzen tsumo is at least 2 han")
    if fu == CHIITOITSU_FU and not _ordinary_hands_reach(params, fu):
        if han < 2:
            return _("25 fu is only chiitoitsu: at least 2 han")
        if tsumo and han < 3:
            return _("25 fu is only chiitoitsu: with menzen tsumo at least 3 han")
    return None


def score_table(params: SchemeParams, limits: LimitOptions | None = None, *, honba: int = 0) -> tuple[ScoreRow, ...]:
    """Every entry of the quick-reference table: non-dealer rows first, then dealer rows.

    ``honba`` (本場 t) adds ``a·t`` to every payment (``(m-1)·a·t`` to a ron), as in a win.
    """
    limits = limits or LimitOptions()
    rows: list[ScoreRow] = []
    for dealer in (False, True) if params.dealers else (False,):
        for han in TABLE_HANS:
            for fu in table_fu_values(params):
                rows.append(_fu_row(params, limits, dealer=dealer, han=han, fu=fu, honba=honba))
        rows.extend(_limit_rows(params, limits, dealer=dealer, honba=honba))
    return tuple(rows)


def table_json(params: SchemeParams, limits: LimitOptions | None = None, *, honba: int = 0) -> list[dict]:
    """The table as JSON-ready rows; a non-integral amount is written as the string ``"n/d"``."""
    return [row.as_json() for row in score_table(params, limits, honba=honba)]


CSV_HEADER = ("dealer", "han", "fu", "limit", "ron", "tsumo_non_dealer", "tsumo_dealer", "tsumo_each")


def render_csv(rows: tuple[ScoreRow, ...]) -> str:
    """One line per entry; empty cells for impossible entries."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for row in rows:
        writer.writerow(
            (
                "dealer" if row.dealer else "non_dealer",
                _text(row.han),
                _text(row.fu),
                row.limit or "",
                _text(row.ron),
                "" if row.dealer else _text(row.tsumo_non_dealer),
                "" if row.dealer else _text(row.tsumo_dealer),
                _text(row.tsumo_non_dealer) if row.dealer else "",
            )
        )
    return out.getvalue()


def render_html(rows: tuple[ScoreRow, ...], *, title: str = "点数早見表 score table") -> str:
    """A plain printable page: per winner a grid of fu (rows) by han (columns), then the limits.

    A cell reads ``ron`` over the tsumo payments: ``non-dealer/dealer`` or ``each``; ``—`` marks
    an impossible entry. Every text is escaped.
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="ja"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #000;"
        "padding:.2em .5em;text-align:right}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
    ]
    for dealer in (False, True):
        side = [row for row in rows if row.dealer is dealer]
        if not side:
            continue
        caption = "親 dealer" if dealer else "子 non-dealer"
        parts.append(f"<h2>{html.escape(caption)}</h2>")
        parts.append(_html_fu_grid(side))
        parts.append(_html_limit_table(side))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _fu_row(
    params: SchemeParams, limits: LimitOptions, *, dealer: bool, han: int, fu: Fraction, honba: int
) -> ScoreRow:
    payment = _price(params, limits, dealer=dealer, han=han, fu=fu, honba=honba)
    ron_possible = impossible_reason(params, han=han, fu=fu, tsumo=False) is None
    tsumo_possible = impossible_reason(params, han=han, fu=fu, tsumo=True) is None
    if payment is None:
        ron_possible = tsumo_possible = False
    return ScoreRow(
        dealer=dealer,
        han=han,
        fu=fu,
        limit=payment.limit if payment and (ron_possible or tsumo_possible) else None,
        is_limit_row=False,
        ron=payment.ron if payment and ron_possible else None,
        tsumo_non_dealer=payment.tsumo_non_dealer if payment and tsumo_possible else None,
        tsumo_dealer=payment.tsumo_dealer if payment and tsumo_possible else None,
    )


def _limit_rows(params: SchemeParams, limits: LimitOptions, *, dealer: bool, honba: int) -> list[ScoreRow]:
    rows = []
    for name in LIMIT_NAMES:
        lowest_han = LIMIT_HAN_RANGES[name][0]
        if name == "yakuman":
            payment = _win(params, limits, dealer=dealer, han=0, fu=Fraction(30), fixed=False, yakuman=1, honba=honba)
            han = lowest_han if limits.kazoe_yakuman else None
        else:
            payment = _win(params, limits, dealer=dealer, han=lowest_han, fu=Fraction(30), fixed=False, honba=honba)
            han = lowest_han
        rows.append(
            ScoreRow(
                dealer=dealer,
                han=han,
                fu=None,
                limit=name,
                is_limit_row=True,
                ron=payment.ron,
                tsumo_non_dealer=payment.tsumo_non_dealer,
                tsumo_dealer=payment.tsumo_dealer,
            )
        )
    return rows


def _price(
    params: SchemeParams, limits: LimitOptions, *, dealer: bool, han: int, fu: Fraction, honba: int
) -> WinPayment | None:
    fixed = fu == CHIITOITSU_FU and not _ordinary_hands_reach(params, fu)
    try:
        return _win(params, limits, dealer=dealer, han=han, fu=fu, fixed=fixed, honba=honba)
    except ScoringError as error:
        if error.code == "below_minimum_han":  # simple doubling: not a scoring hand
            return None
        raise


def _win(
    params: SchemeParams,
    limits: LimitOptions,
    *,
    dealer: bool,
    han: int,
    fu: Fraction,
    fixed: bool,
    yakuman: int = 0,
    honba: int = 0,
) -> WinPayment:
    return win_payment(params, limits, han=han, fu=fu, fu_is_fixed=fixed, yakuman=yakuman, dealer=dealer, honba=honba)


def _ordinary_hands_reach(params: SchemeParams, fu: Fraction) -> bool:
    """Whether a hand other than chiitoitsu is listed under ``fu`` (e.g. θ = 12.5 rounds 22 to 25)."""
    if params.scheme == "simple_doubling":
        return fu in {Fraction(p) for p in RAW_FU_RANGE}
    return fu in {ceil_to(p, params.theta) for p in RAW_FU_RANGE}


def _json_number(value: Points | Fraction | None) -> int | str | None:
    if value is None:
        return None
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else str(value)


def _text(value: Points | Fraction | None) -> str:
    number = _json_number(value)
    return "" if number is None else str(number)


def _cell(row: ScoreRow) -> str:
    ron = _text(row.ron) or "—"
    if row.tsumo_non_dealer is None:
        tsumo = "—"
    elif row.dealer:
        tsumo = f"{_text(row.tsumo_non_dealer)} each"
    elif row.tsumo_dealer is None:
        tsumo = _text(row.tsumo_non_dealer)
    else:
        tsumo = f"{_text(row.tsumo_non_dealer)}/{_text(row.tsumo_dealer)}"
    return f"{html.escape(ron)}<br>{html.escape(tsumo)}"


def _html_fu_grid(rows: list[ScoreRow]) -> str:
    fu_rows = [row for row in rows if not row.is_limit_row]
    hans = sorted({row.han for row in fu_rows if row.han is not None})
    fus = sorted({row.fu for row in fu_rows if row.fu is not None})
    by_key = {(row.han, row.fu): row for row in fu_rows}
    lines = ["<table>", "<tr><th>符 fu \\ 翻 han</th>" + "".join(f"<th>{han}</th>" for han in hans) + "</tr>"]
    for fu in fus:
        cells = "".join(f"<td>{_cell(by_key[(han, fu)])}</td>" for han in hans)
        lines.append(f"<tr><th>{html.escape(_text(fu))}</th>{cells}</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _html_limit_table(rows: list[ScoreRow]) -> str:
    limit_rows = [row for row in rows if row.is_limit_row]
    counted_yakuman = any(row.limit == "yakuman" and row.han is not None for row in limit_rows)
    lines = ["<table>", "<tr><th>limit</th><th>翻 han</th><th>ron / tsumo</th></tr>"]
    for row in limit_rows:
        label = LIMIT_LABELS.get(row.limit or "", row.limit or "")
        han_range = limit_han_range(row, counted_yakuman=counted_yakuman)
        lines.append(f"<tr><th>{html.escape(label)}</th><td>{html.escape(han_range)}</td><td>{_cell(row)}</td></tr>")
    lines.append("</table>")
    return "\n".join(lines)


def limit_han_range(row: ScoreRow, *, counted_yakuman: bool) -> str:
    """The han a limit row is reached with: ``5``, ``6–7``, ``13+``; ``—`` for yakuman by yaku only."""
    if row.han is None or row.limit is None:
        return "—"
    low, high = LIMIT_HAN_RANGES[row.limit]
    if high is None or (row.limit == "sanbaiman" and not counted_yakuman):
        return f"{low}+"
    return str(low) if low == high else f"{low}–{high}"
