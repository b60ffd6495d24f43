"""An event's records to take away: the standings as CSV and a results file for a ranking body (the whole
event as a versioned archive, ``export.json``, is the ``archive`` app's: ``archive.api``).

``results.ema`` is the event's results file for the EMA (Mahjong Europe Ranking System), in ONE layout: the
same bytes as the file the event's EMA page links (``results.ema?format=csv``), made by one function
(:func:`ema_file_lines`). CSV, UTF-8, a header row, one row per player with a game, best first:

* ``place``: the overall rank (art. 41), recounted among the players with a game, ties sharing the better;
* ``ema_number``: the player's ``external_id`` (empty: a non-member);
* ``last_name``, ``first_name``: the player's family and given names (the display name as last name when
  neither is known);
* ``country``: ISO 3166-1 alpha-2;
* ``points``: the total game points after penalties as a decimal string from the exact Fraction (``45.5``):
  exact when the decimal ends, else 2 places, half away from zero (``tournament.engine.ema.points_text``);
* ``score``: the table score, Σ (final points − start points) over the player's games;
* ``games``: games played.

``?format=csv`` and ``?format=xlsx`` are that file to send: given only once the event passes the EMA checks
(``tournament.selectors.event_ema``: EMA numbers of 8 digits or empty for a non-member, a country for everyone,
points that balance, at most 3 substitutes, every round completed, the standings shown whole, a start date);
else 400 ``ema_checks_failed`` with every ``problem``, never a part of a file. Without ``format`` the same file
is given unchecked (a working copy while the event runs). The files are named
``<slug>_<starts on>_<ends on>_ema.csv`` (``.xlsx``), dates as ``YYYY-MM-DD``.

ASSUMED layout, to verify against a file the EMA accepted: no published upload format was found; the columns
are those of the EMA's published tournament results (position, names, country, EMA number, points) and of the
results workbooks that tools submit, with the table score and the games after them for the organizer's checks.
The EMA's pages write countries as 3-letter codes; this file keeps the alpha-2 codes the project stores. The
base rank is not in the file (the EMA computes it): the event's EMA page (``/events/<slug>/ema/``) shows it.
"""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from openpyxl import Workbook
from rest_framework.response import Response

from core.api import READ_ERRORS
from taikai.errors import TaikaiError
from taikai.spreadsheet import csv_text, csv_writer
from tournament import selectors
from tournament.api_v1.base import EventApiView
from tournament.engine.ema import points_text


def csv_response(filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


CSV_RESPONSE = {(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV, UTF-8, a header row")}


class StandingsCsv(EventApiView):
    @extend_schema(
        operation_id="export_csv",
        tags=["exports"],
        summary="The standings as CSV",
        description="Columns: rank, award_rank, entry, player, external_id, club, country, advances, "
        "total_points (exact: n or n/d), games, penalty_points, status.",
        responses={**CSV_RESPONSE, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        snapshot = selectors.event_standings(event)
        entries = selectors.event_entries_with_ids(event)
        response = csv_response(f"{event.slug}-standings.csv")
        writer = csv_writer(response)
        writer.writerow(
            [
                "rank",
                "award_rank",
                "entry",
                "player",
                "external_id",
                "club",
                "country",
                "advances",
                "total_points",
                "games",
                "penalty_points",
                "status",
            ]
        )
        for row in selectors.event_standings_rows(event) if snapshot else []:
            entry = entries.get(row.entry_id)
            external_id = entry.player.external_id if entry else ""
            writer.writerow(
                [
                    row.rank,
                    row.award_rank or "",
                    row.entry_id,
                    row.name,
                    external_id,
                    row.club,
                    row.country,
                    row.advances,
                    row.total_points,
                    row.games,
                    row.penalty_points,
                    row.status,
                ]
            )
        return response


EMA_COLUMNS = ["place", "ema_number", "last_name", "first_name", "country", "points", "score", "games"]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EMA_FORMAT = OpenApiParameter(
    "format",
    OpenApiTypes.STR,
    enum=["csv", "xlsx"],
    description="`csv` or `xlsx`: the file to send, refused with every problem (400 `ema_checks_failed`) "
    "until the event passes the EMA checks. Not given: the same CSV, unchecked.",
)
EMA_PROBLEMS = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="`ema_checks_failed`: `error.problems` lists each problem (`code`, `message`, `entry`).",
)
XLSX_RESPONSE = {(200, XLSX): OpenApiResponse(OpenApiTypes.BINARY, description="An .xlsx workbook, one sheet")}


class ResultsEma(EventApiView):
    @extend_schema(
        operation_id="export_ema",
        tags=["exports"],
        summary="The EMA results file: place, ema_number, names, country, points, score, games",
        description="CSV, one row per player with a game, best first: place, ema_number (the player's external "
        "id), last_name, first_name, country, points (total game points as a decimal: exact when it ends, else 2 "
        "places, half away from zero), score (Σ final points − start points), games; the same bytes as the file "
        "the event's EMA page links. With `format`: that file as CSV or an .xlsx workbook, once the event passes "
        "the EMA checks.",
        parameters=[EMA_FORMAT],
        responses={**CSV_RESPONSE, **XLSX_RESPONSE, 400: EMA_PROBLEMS, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        kind = request.query_params.get("format")
        if kind is not None:
            return self.ema_file(event, kind)
        ema = selectors.event_ema(event)
        return ema_csv_response(ema.filename_stem, ema_file_lines(event, ema))

    def perform_content_negotiation(self, request, force=False):
        # ``?format=`` names the file (csv, xlsx), not a renderer: answers other than the file stay JSON
        return super().perform_content_negotiation(request, force=True)

    def ema_file(self, event, kind: str):
        if kind not in ("csv", "xlsx"):
            raise TaikaiError("invalid_parameter", _("format is csv or xlsx"), field="format")
        ema = selectors.event_ema(event)
        if ema.problems:
            count = len(ema.problems)
            message = ngettext(
                "the results cannot go to the EMA yet: %(count)s problem",
                "the results cannot go to the EMA yet: %(count)s problems",
                count,
            ) % {"count": count}
            return Response(
                {
                    "error": {
                        "code": "ema_checks_failed",
                        "message": message,
                        "field": None,
                        "problems": [problem.as_dict() for problem in ema.problems],
                    }
                },
                status=400,
            )
        lines = ema_file_lines(event, ema)
        if kind == "csv":
            return ema_csv_response(ema.filename_stem, lines)
        return xlsx_response(f"{ema.filename_stem}.xlsx", ema_workbook(event.name, lines))


def ema_file_lines(event, ema) -> list[list]:
    """The EMA results file's rows, in its one layout (``EMA_COLUMNS``): what the event's page links and what
    the API gives are made here, so that they never differ."""
    finals = selectors.event_entry_final_points(event)
    games = {row.entry_id: row.games for row in selectors.event_standings_rows(event)}
    start = event.ruleset.start_points
    return [
        [
            row.place,
            row.ema_number,
            row.last_name,
            row.first_name,
            row.country,
            points_text(row.points),
            finals.get(row.entry_id, 0) - start * games.get(row.entry_id, 0),
            games.get(row.entry_id, 0),
        ]
        for row in ema.report.rows
    ]


def ema_csv_response(stem: str, lines: list[list]) -> HttpResponse:
    response = csv_response(f"{stem}.csv")
    writer = csv_writer(response)
    writer.writerow(EMA_COLUMNS)
    for line in lines:
        writer.writerow(line)
    return response


def ema_workbook(title: str, lines: list[list]) -> bytes:
    """The EMA file as one sheet: a header row, then the rows. EMA numbers are text (their leading zeros
    kept), places whole numbers, points numbers (the decimal written in the CSV, read as a number)."""
    book = Workbook()
    sheet = book.active
    sheet.title = "EMA"
    sheet.append(EMA_COLUMNS)
    for place, number, last, first, country, points, score, games in lines:
        sheet.append([place, csv_text(number), csv_text(last), csv_text(first), country, float(points), score, games])
        sheet.cell(row=sheet.max_row, column=2).number_format = "@"
    book.properties.title = title[:250]
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(filename: str, content: bytes) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
