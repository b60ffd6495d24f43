"""An event's records to take away: the standings as CSV, the whole event as JSON, and a results file
for a ranking body.

``results.ema`` is CSV (UTF-8, a header row), one row per entry in standings order, the columns a ranking
submission such as the EMA's (Mahjong Europe Ranking System) asks for:

* ``place``: the overall rank (art. 41; tied players share it);
* ``ema_number``: the player's ``external_id`` (empty when unknown);
* ``last_name``, ``first_name``: the player's family and given names (the display name as last name when
  neither is known);
* ``country``: ISO 3166-1 alpha-2;
* ``points``: the total of game points (placement points included), exact: ``n`` or ``n/d``;
* ``score``: the table score, Σ (final points − start points) over the player's games;
* ``games``: games played.
"""

from __future__ import annotations

import csv

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response

from tournament import selectors
from tournament.api_v1 import serializers as s
from tournament.api_v1.base import ApiView
from tournament.api_v1.events import READ_ERRORS, event_rules, standing
from tournament.views import csv_text

EXPORT_VERSION = 1


def csv_response(filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


CSV_RESPONSE = {(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV, UTF-8, a header row")}


class StandingsCsv(ApiView):
    @extend_schema(
        operation_id="export_csv", tags=["exports"], summary="The standings as CSV",
        description="Columns: rank, award_rank, entry, player, external_id, club, country, advances, "
        "total_points (exact: n or n/d), games, penalty_points, status.",
        responses={**CSV_RESPONSE, **READ_ERRORS},
    )  # fmt: skip
    def get(self, request, slug: str):
        event = self.event(slug)
        snapshot = selectors.event_standings(event)
        entries = selectors.event_entries_with_ids(event)
        response = csv_response(f"{event.slug}-standings.csv")
        writer = csv.writer(response)
        writer.writerow(["rank", "award_rank", "entry", "player", "external_id", "club", "country", "advances",
                         "total_points", "games", "penalty_points", "status"])  # fmt: skip
        for row in selectors.event_standings_rows(event) if snapshot else []:
            entry = entries.get(row.entry_id)
            external_id = entry.player.external_id if entry else ""
            writer.writerow([row.rank, row.award_rank or "", row.entry_id, csv_text(row.name),
                             csv_text(external_id), csv_text(row.club), csv_text(row.country), row.advances,
                             row.total_points, row.games, row.penalty_points, row.status])  # fmt: skip
        return response


class ResultsEma(ApiView):
    @extend_schema(
        operation_id="export_ema", tags=["exports"],
        summary="Results for a ranking body (EMA style): place, ema_number, names, country, points, score",
        description="CSV, one row per entry in standings order: place, ema_number (the player's external id), "
        "last_name, first_name, country, points (total game points, exact: n or n/d), score (Σ final points − "
        "start points), games.",
        responses={**CSV_RESPONSE, **READ_ERRORS},
    )  # fmt: skip
    def get(self, request, slug: str):
        event = self.event(slug)
        snapshot = selectors.event_standings(event)
        entries = selectors.event_entries_with_ids(event)
        finals = selectors.event_entry_final_points(event)
        start = event.ruleset.start_points
        response = csv_response(f"{event.slug}-results-ema.csv")
        writer = csv.writer(response)
        writer.writerow(
            ["place", "ema_number", "last_name", "first_name", "country", "points", "score", "games"]
        )
        for row in selectors.event_standings_rows(event) if snapshot else []:
            entry = entries.get(row.entry_id)
            player = entry.player if entry else None
            if player is not None and (player.family_name or player.given_name):
                last, first = player.family_name, player.given_name
            else:
                last, first = row.name, ""
            writer.writerow([row.rank, csv_text(player.external_id if player else ""), csv_text(last),
                             csv_text(first), csv_text(row.country),
                             row.total_points, finals.get(row.entry_id, 0) - start * row.games,
                             row.games])  # fmt: skip
        return response


class EventExport(ApiView):
    @extend_schema(
        operation_id="export_json", tags=["exports"],
        summary="The whole event as JSON: rules, entries, rounds, tables, every version of hands and results",
        description="`penalties` and `rulings` are included for the event's staff and tokens only. Fractions "
        "are exact strings (n or n/d).",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The event's records"), **READ_ERRORS},
    )  # fmt: skip
    def get(self, request, slug: str):
        event = self.event(slug)
        staff = self.staff(event.pk)
        tables = selectors.event_export_tables(event)
        rounds: dict[int, dict] = {}
        for table in tables:
            round_ = rounds.setdefault(
                table.round.number, {**s.RoundSerializer(table.round).data, "tables": []}
            )
            versions = [v for hand in table.hands.all() for v in hand.versions.all()]
            round_["tables"].append({
                "id": table.pk, "number": table.number, "status": table.status,
                "overtime_state": table.overtime_state, "overtime_year": table.overtime_year,
                "seats": s.SeatSerializer(s.seats_with_game_index(table.seats.all()), many=True).data,
                "results": s.SeatResultSerializer(table.all_results, many=True).data,
                "hands": s.HandVersionSerializer(versions, many=True, context={"staff": staff}).data,
            })  # fmt: skip
        snapshot = selectors.event_standings(event)
        body = {
            "format": "taikai-event", "version": EXPORT_VERSION,
            "event": s.EventSerializer(event).data,
            "rules": event_rules(event),  # the tournament rules and the whole ruleset, not only its name
            "entries": s.EntrySerializer(selectors.event_entries_page(event), many=True, context={"staff": staff}).data,
            "rounds": list(rounds.values()),
            "standings": {"computed_at": snapshot.computed_at if snapshot else None,
                          "rows": s.StandingSerializer([standing(row) for row in selectors.event_standings_rows(event)],
                                                       many=True).data if snapshot else []},
        }  # fmt: skip
        if staff:
            body["penalties"] = s.PenaltySerializer(selectors.event_penalties(event), many=True).data
            body["rulings"] = s.RulingSerializer(selectors.event_rulings(event), many=True).data
        response = Response(body)
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
        return response
