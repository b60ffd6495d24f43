"""Public scoring pages: the rulesets and their printable quick-reference tables 点数早見表.

Views only read a ruleset and arrange the engine's table for the template; every amount comes from
:mod:`scoring.engine.score_table` through the one ruleset mapping in :mod:`scoring.options`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from scoring.calculator import DEFAULT_RULESET, FU_LABELS
from scoring.engine.errors import ScoringError
from scoring.engine.score_table import LIMIT_LABELS, TABLE_HANS, ScoreRow, limit_han_range, score_table
from scoring.models import Ruleset
from scoring.options import ruleset_engine_rules
from scoring.selectors import ruleset_get
from scoring.yaku_names import COOKIE, STYLES, naming_context

TABLE_SIZES = (4, 3, 2)  # players m a table can be printed for (up to the ruleset's s)


@dataclass(frozen=True)
class Cell:
    ron: str
    tsumo: str


@dataclass(frozen=True)
class FuLine:
    fu: str
    cells: tuple[Cell, ...]  # one per han of TABLE_HANS


@dataclass(frozen=True)
class LimitLine:
    label: str
    han: str
    cell: Cell


@dataclass(frozen=True)
class TableSide:
    dealer: bool
    fu_lines: tuple[FuLine, ...]
    limit_lines: tuple[LimitLine, ...]


def ruleset_list(request):
    rulesets = Ruleset.objects.order_by("name").only(
        "name", "slug", "description", "scheme", "reference_scheme", "standard_players"
    )
    rows = [
        {"ruleset": ruleset, "sizes": [m for m in TABLE_SIZES if m <= ruleset.standard_players]} for ruleset in rulesets
    ]
    return render(request, "scoring/ruleset_list.html", {"rows": rows})


@dataclass(frozen=True)
class PaletteTile:
    code: str  # MPSZ, e.g. "1m", "0p" (red five), "7z"; its image is scoring/tiles/<code>.svg
    label: str
    red: bool = False


def _suit_palette(letter: str) -> tuple[PaletteTile, ...]:
    tiles = [PaletteTile(f"{rank}{letter}", f"{rank}{letter}") for rank in range(1, 10)]
    tiles.insert(5, PaletteTile(f"0{letter}", f"0{letter}", red=True))  # 赤ドラ
    return tuple(tiles)


# The honors' labels on the palette's buttons: 東南西北 白發中 in Japanese.
HONOR_NAMES = (
    pgettext_lazy("honor tile", "E"),
    pgettext_lazy("honor tile", "S"),
    pgettext_lazy("honor tile", "W"),
    pgettext_lazy("honor tile", "N"),
    pgettext_lazy("honor tile", "Haku"),
    pgettext_lazy("honor tile", "Hatsu"),
    pgettext_lazy("honor tile", "Chun"),
)
PALETTE = (
    (gettext_lazy("Characters"), _suit_palette("m")),
    (gettext_lazy("Circles"), _suit_palette("p")),
    (gettext_lazy("Bamboo"), _suit_palette("s")),
    (
        gettext_lazy("Honors"),
        tuple(PaletteTile(f"{rank}z", name) for rank, name in enumerate(HONOR_NAMES, start=1)),
    ),
)


# The limits by name, in the reader's language (the English keeps both names, as players say them).
LIMIT_WORDS = {
    "mangan": gettext_lazy("満貫 mangan"),
    "haneman": gettext_lazy("跳満 haneman"),
    "baiman": gettext_lazy("倍満 baiman"),
    "sanbaiman": gettext_lazy("三倍満 sanbaiman"),
    "yakuman": gettext_lazy("役満 yakuman"),
}


def limit_labels() -> dict[str, str]:
    return {code: str(LIMIT_WORDS.get(code, label)) for code, label in LIMIT_LABELS.items()}


def calculator(request):
    """The hand calculator page: the form is scored by ``POST /scoring/api/evaluate`` from the page."""
    rulesets = Ruleset.objects.order_by("name").only("name", "slug", "aka_dora")
    naming = naming_context(request)
    labels = {
        "yaku": naming["yaku_names"],
        "fu": FU_LABELS,
        "limit": limit_labels(),
        "tiles": {tile.code: str(tile.label) for _suit, tiles in PALETTE for tile in tiles},
    }
    context = {
        "rulesets": rulesets,
        "selected": request.GET.get("ruleset") or DEFAULT_RULESET,
        "palette": PALETTE,
        "labels": labels,
        "meld_rows": range(1, 5),
        **naming,
    }
    return render(request, "scoring/calculator.html", context)


def ruleset_score_table(request, slug):
    ruleset = ruleset_get(slug=slug)
    if ruleset is None:
        raise Http404(_("no such ruleset"))
    players = _players_param(request.GET.get("players"), default=ruleset.standard_players)
    if players is None:
        message = _("players must be one of 2..%(most)s") % {"most": ruleset.standard_players}
        return HttpResponseBadRequest(f"invalid_parameter: {message}".encode())
    try:
        rules = ruleset_engine_rules(ruleset, players=players)
        rows = score_table(rules.scheme, rules.limits)
    except ScoringError as error:
        return HttpResponseBadRequest(f"{error.code}: {error.message}".encode())
    except (ValueError, ZeroDivisionError) as error:  # a stored coefficient that is not a number
        return HttpResponseBadRequest(f"invalid_ruleset: {error}".encode())
    sides = [table_side(rows, dealer=dealer) for dealer in (False, True)]
    context = {
        "ruleset": ruleset,
        "players": players,
        "params": rules.scheme,
        "limits": rules.limits,
        "hans": TABLE_HANS,
        "sides": [side for side in sides if side.fu_lines or side.limit_lines],
        "sizes": [m for m in TABLE_SIZES if m <= ruleset.standard_players],
    }
    return render(request, "scoring/score_table_page.html", context)


def _players_param(raw: str | None, *, default: int) -> int | None:
    if raw is None or raw == "":
        return default
    try:
        players = int(raw)
    except ValueError:
        return None
    return players if 2 <= players <= default else None


def table_side(rows: tuple[ScoreRow, ...], *, dealer: bool) -> TableSide:
    """One winner's table: a line per fu with ron and tsumo for each han, then the limits."""
    side = [row for row in rows if row.dealer is dealer]
    by_key = {(row.han, row.fu): row for row in side if not row.is_limit_row}
    fus = sorted({row.fu for row in side if not row.is_limit_row})
    fu_lines = tuple(FuLine(fu=_number(fu), cells=tuple(_cell(by_key[(han, fu)]) for han in TABLE_HANS)) for fu in fus)
    limit_rows = [row for row in side if row.is_limit_row]
    counted_yakuman = any(row.limit == "yakuman" and row.han is not None for row in limit_rows)
    limit_lines = tuple(
        LimitLine(
            label=limit_labels().get(row.limit, row.limit),
            han=limit_han_range(row, counted_yakuman=counted_yakuman),
            cell=_cell(row),
        )
        for row in limit_rows
    )
    return TableSide(dealer=dealer, fu_lines=fu_lines, limit_lines=limit_lines)


def _cell(row: ScoreRow) -> Cell:
    """Ron amount; tsumo as ``non-dealer/dealer`` payments, or ``E each`` for a dealer winner."""
    data = row.as_json()
    tsumo = data["tsumo"]
    if tsumo is None:
        tsumo_text = "—"
    elif "each" in tsumo:
        # Translators: a dealer's tsumo, paid the same by every other player (Japanese: "4000オール").
        tsumo_text = _("%(amount)s each") % {"amount": tsumo["each"]}
    elif tsumo["dealer"] is None:  # no dealer at the table (ω = 0)
        tsumo_text = str(tsumo["non_dealer"])
    else:
        tsumo_text = f"{tsumo['non_dealer']}/{tsumo['dealer']}"
    return Cell(ron="—" if data["ron"] is None else str(data["ron"]), tsumo=tsumo_text)


def _number(value) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


@require_POST
def yaku_names_choose(request):
    """The reader's own way of naming yaku, kept in a cookie (nothing is stored on the server): an unknown
    naming is refused with 400, and the reader goes back to the page they chose it on."""
    style = request.POST.get("style", "")
    if style not in STYLES:
        return HttpResponseBadRequest(_("style: choose one of the yaku namings offered"))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = redirect(back)
    response.set_cookie(COOKIE, style, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure())
    return response
