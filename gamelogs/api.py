"""Game logs in the REST API: ``POST /api/v1/events/<slug>/game-logs`` with the log itself as the body.

The body is the log as the platform gives it (``application/xml`` for Tenhou's XML, ``application/json`` for
the tenhou.net/6 form; gzip accepted either way). Organizers and referees (accounts or tokens) import; a read
token cannot. Thin: the role is checked, :func:`gamelogs.services.game_log_import` does the rest.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import parsers, serializers, status
from rest_framework.response import Response

from core.api import ErrorSerializer
from gamelogs import services
from gamelogs.engine.tenhou_xml import MAX_LOG_BYTES
from taikai.errors import TaikaiError
from tournament import access
from tournament.api_v1.base import EventApiView


class LogBodyParser(parsers.BaseParser):
    """The body as bytes, whatever its type: the service reads XML, JSON and gzip itself."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read(MAX_LOG_BYTES + 1) if stream is not None else b""


class DisagreementSerializer(serializers.Serializer):
    hand = serializers.IntegerField(help_text="The hand's number at the table, from 1.")
    winner = serializers.IntegerField(allow_null=True, help_text="The winner's seat in the log's order.")
    log = serializers.DictField(help_text="The log's scoring: han, fu, limit, points, yaku (Tenhou's ids).")
    taikai = serializers.DictField(help_text="Taikai's scoring of the same tiles under the event's rules.")


class ImportedSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's id.")
    round = serializers.IntegerField(help_text="The round's number.")
    hands = serializers.IntegerField(help_text="The log's hands (a multiple ron is one hand).")
    final_scores = serializers.ListField(child=serializers.IntegerField(), help_text="In the log's seat order.")
    players = serializers.ListField(child=serializers.CharField(), help_text="The names, in the log's seat order.")
    disagreements = DisagreementSerializer(many=True)
    finished = serializers.BooleanField(help_text="Whether the table's result is confirmed (no disagreement).")


class GameLogs(EventApiView):
    parser_classes = [LogBodyParser]

    @extend_schema(
        operation_id="game_log_import",
        tags=["game logs"],
        summary="Import a whole online game from its log (organizers and referees)",
        description="The log's players are matched by their online accounts; the game goes to the table of a "
        "round in play that seats them, every hand recorded as the log says and re-priced by Taikai under the "
        "event's rules (in a free online league, a new table of the round in play). Refusals: not_a_game_log, "
        "game_not_finished, unknown_players, rules_differ, wrong_lobby, log_too_old, no_table_for_players, "
        "table_already_played (400); log_already_imported (409).",
        request={
            "application/xml": OpenApiTypes.STR,
            "application/json": OpenApiTypes.OBJECT,
            "application/gzip": OpenApiTypes.BINARY,
        },
        responses={
            201: ImportedSerializer,
            409: ErrorSerializer,
            **{code: ErrorSerializer for code in (400, 401, 403, 404)},
        },
    )
    def post(self, request, slug: str):
        event = self.event(slug)
        actor = self.actor
        grant = actor.grant(event.pk)
        self.require(grant.organizer or grant.referee, "import game logs in this event")
        body = request.data if isinstance(request.data, bytes) else b""
        if len(body) > MAX_LOG_BYTES:
            raise TaikaiError("body_too_large", "a game log is at most 2 MB", field="log")
        record = services.game_log_import(
            event=event,
            data=body,
            content_type=request.content_type or "",
            user=actor.author,
            may_record=lambda table: access.may_referee(actor, event.pk, table.number),
        )
        return Response(imported_body(record), status=status.HTTP_201_CREATED)


def imported_body(record) -> dict:
    table = record.table
    return {
        "table": table.pk,
        "round": table.round.number,
        "hands": record.hands,
        "final_scores": record.final_scores,
        "players": record.players,
        "disagreements": [
            {
                "hand": d.hand_number,
                "winner": d.winner_position,
                "log": d.log_scoring,
                "taikai": d.engine_scoring,
            }
            for d in record.disagreements.all()
        ],
        "finished": table.status == table.Status.FINISHED,
    }


urlpatterns = [path("events/<slug:slug>/game-logs", GameLogs.as_view(), name="api_game_logs")]
