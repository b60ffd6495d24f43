"""A table: its seats and status, hands (recording, correcting, voiding; every version), its result,
penalties, absences, rulings, a re-seat and the chess clock. The writes are the console's: the same services, the
same checks, the same roles (recording and the clock: the table's referees, its scorekeeper and the
organizers; penalties, absences, rulings and a re-seat: its referees and the organizers)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework import status
from rest_framework.response import Response

from core.api import ERRORS, READ_ERRORS, ErrorSerializer, valid
from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.api import PressInput, StartInput
from tournament.api_v1 import serializers as s
from tournament.api_v1 import table_serializers as table_s
from tournament.api_v1.base import EventApiView
from tournament.forms import FinalScoresForm, PenaltyForm
from tournament.models import Seat, Table
from tournament.services.clock import (
    clock_observe,
    clock_pause,
    clock_payload,
    clock_press,
    clock_resume,
    clock_start,
    clock_state,
)
from tournament.services.discipline import penalty_log, ruling_record, seat_mark_absent, seat_mark_present
from tournament.services.hands import hand_record, hand_void
from tournament.services.reseat import table_reseat
from tournament.services.results import table_finish
from tournament.services.substitutes import substitute_seat

WRITE_ERRORS = {**ERRORS, 409: ErrorSerializer}
BEING_CHECKED = (
    "Empty for a read token while the round is being checked, where the event publishes results only once "
    "checked (the table's `being_checked` says so); the event's staff see everything."
)


class TableView(EventApiView):
    def writable(self, table_id: int, *, referee: bool = False) -> Table:
        """The table, if the caller may record there (``referee``: as a referee of the table)."""
        table = selectors.table_with_event(table_id)
        if table is None:
            raise Http404("no such table")
        actor = self.actor
        if referee:
            allowed = access.may_referee(actor, table.round.event_id, table.number)
        else:
            allowed = access.may_score(actor, table)
        self.require(allowed, "do this at this table")
        return table

    def author(self, table: Table):
        return self.actor.author_at(table)

    def staff_at(self, table: Table) -> bool:
        return table.pk in self.actor.scorekeeper_tables or self.staff(table.round.event_id)

    def being_checked(self, table: Table) -> bool:
        """Are the table's hands and results kept from the caller (a read token, the public) until a referee checks
        its round? Only where the event publishes results once checked; those who work in the event see all."""
        round_ = table.round
        if not round_.event.results_after_check or round_.checked_at is not None:
            return False
        return not (table.pk in self.actor.scorekeeper_tables or access.holds_role(self.actor, round_.event_id))

    def seat_at(self, table: Table, position: int) -> Seat:
        seat = next((seat for seat in selectors.table_seats(table) if seat.position == position), None)
        if seat is None:
            raise TaikaiError("seat_not_at_table", f"no player sits at position {position}", field="position")
        return seat


class TableDetail(TableView):
    @extend_schema(
        operation_id="table_read",
        tags=["tables"],
        summary="A table: its seats, status and current results",
        responses={200: table_s.TableSerializer, **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = self.table(table_id)
        context = {"being_checked": self.being_checked(table)}
        return Response(table_s.TableSerializer(selectors.table_api(table_id), context=context).data)


class TableHands(TableView):
    @extend_schema(
        operation_id="hands_list",
        tags=["hands"],
        summary="The current version of each hand (voided ones too)",
        description=BEING_CHECKED,
        responses={200: table_s.HandVersionSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = self.table(table_id)
        if self.being_checked(table):
            return Response([])
        versions = selectors.table_hand_current_versions(table)
        return Response(
            table_s.HandVersionSerializer(versions, many=True, context={"staff": self.staff_at(table)}).data
        )

    @extend_schema(
        operation_id="hand_record",
        tags=["hands"],
        request=table_s.HandInput,
        summary="Record the next hand (the table's referees, its scorekeeper, the organizers)",
        description="The same record and checks as the console's table sheet. Seats are game_index numbers. "
        "Recording a hand number that is already recorded answers 409: correct it instead.",
        responses={201: table_s.HandVersionSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id)
        serializer = table_s.HandInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = hand_record(
            table=table,
            number=serializer.validated_data["number"],
            expected_version=0,
            data=serializer.hand_data(),
            user=self.author(table),
            note=serializer.validated_data["note"],
        )
        return Response(
            table_s.HandVersionSerializer(version, context={"staff": True}).data, status=status.HTTP_201_CREATED
        )


class HandVersions(TableView):
    @extend_schema(
        operation_id="hand_versions",
        tags=["hands"],
        summary="Every version of a hand, oldest first",
        description=BEING_CHECKED,
        responses={200: table_s.HandVersionSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, table_id: int, number: int):
        table = self.table(table_id)
        if self.being_checked(table):
            return Response([])
        versions = selectors.table_hand_versions(table, number)
        if not versions:
            raise Http404("no such hand")
        return Response(
            table_s.HandVersionSerializer(versions, many=True, context={"staff": self.staff_at(table)}).data
        )

    @extend_schema(
        operation_id="hand_correct",
        tags=["hands"],
        request=table_s.CorrectionInput,
        summary="Correct a hand: a new version (the old one stays)",
        description="`expected_version` is the version you corrected; 409 if someone saved meanwhile. A voided "
        "hand is recorded again this way.",
        responses={201: table_s.HandVersionSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int, number: int):
        table = self.writable(table_id)
        if not selectors.table_hand_versions(table, number):
            raise Http404("no such hand")
        serializer = table_s.CorrectionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        version = hand_record(
            table=table,
            number=number,
            expected_version=data["expected_version"],
            data=serializer.hand_data(),
            user=self.author(table),
            note=data["note"],
        )
        return Response(
            table_s.HandVersionSerializer(version, context={"staff": True}).data, status=status.HTTP_201_CREATED
        )


class HandVoid(TableView):
    @extend_schema(
        operation_id="hand_void",
        tags=["hands"],
        request=table_s.VoidInput,
        summary="Void the last hand as entered by mistake: a new version, no points move",
        responses={201: table_s.HandVersionSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int, number: int):
        table = self.writable(table_id)
        if not selectors.table_hand_versions(table, number):
            raise Http404("no such hand")
        data = valid(table_s.VoidInput, request)
        version = hand_void(
            table=table, number=number, expected_version=data["expected_version"], user=self.author(table)
        )
        return Response(
            table_s.HandVersionSerializer(version, context={"staff": True}).data, status=status.HTTP_201_CREATED
        )


class TableResult(TableView):
    @extend_schema(
        operation_id="result_versions",
        tags=["results"],
        summary="Every version of the table's result",
        description=BEING_CHECKED,
        responses={200: table_s.SeatResultSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = self.table(table_id)
        if self.being_checked(table):
            return Response([])
        return Response(table_s.SeatResultSerializer(selectors.table_results_all_versions(table), many=True).data)

    @extend_schema(
        operation_id="result_confirm",
        tags=["results"],
        request=table_s.ResultInput,
        summary="Confirm the table's result, from its hands or from final scores (a new version each time)",
        responses={201: table_s.SeatResultSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id)
        data = valid(table_s.ResultInput, request)
        final_points = None
        if "final_points" in data:
            final_points = self._final_points(table, data)
        rows = table_finish(
            table=table,
            final_points=final_points,
            user=self.author(table),
            end_reason=data.get("end_reason"),
            end_note=data["end_note"],
        )
        return Response(table_s.SeatResultSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def _final_points(table: Table, data: dict) -> list[int]:
        """The console's final-scores form checks them: one per seat of the game, unusual ones confirmed."""
        seats = selectors.table_game_seats(table)
        points = data["final_points"]
        if len(points) != len(seats):
            raise TaikaiError("wrong_seat_count", f"give {len(seats)} final scores", field="final_points")
        form = FinalScoresForm(
            {
                **{f"seat_{seat.position}": p for seat, p in zip(seats, points, strict=True)},
                "confirm_unusual": data["confirm_unusual"] or "",
            },
            seats=seats,
        )
        if not form.is_valid():
            raise TaikaiError(
                "unusual_scores", " ".join(form.non_field_errors()) or "check the scores", field="confirm_unusual"
            )
        return form.final_points(seats)


class TablePenalties(TableView):
    @extend_schema(
        operation_id="penalties_list",
        tags=["discipline"],
        summary="The table's penalties (its staff)",
        responses={200: table_s.PenaltySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = self.table(table_id)
        self.require(self.staff_at(table), "read this table's penalties")
        return Response(table_s.PenaltySerializer(selectors.table_penalties(table), many=True).data)

    @extend_schema(
        operation_id="penalty_log",
        tags=["discipline"],
        request=table_s.PenaltyInput,
        summary="Log a foul (arts. 35–38, 43; the table's referees)",
        description="A foul that disqualifies (art. 43) needs `confirm_disqualification`, as on the console.",
        responses={201: table_s.PenaltySerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id, referee=True)
        data = valid(table_s.PenaltyInput, request)
        seat = self.seat_at(table, data["position"])
        event = table.round.event
        form = PenaltyForm(
            {
                "seat": seat.pk,
                "kind": data["kind"],
                "hand_number": data["hand_number"],
                "reason": data["reason"],
                "confirm_disqualification": data["confirm_disqualification"] or "",
            },
            seats=selectors.table_seats(table),
            kinds=table_s.PENALTY_KINDS,
            tournament_play=event.tournament_play,
        )
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            field = {"seat": "position", "__all__": "confirm_disqualification"}.get(field, field)
            raise TaikaiError("invalid_penalty", " ".join(errors), field=field)
        penalty = penalty_log(
            event=event,
            entry=seat.entry,
            kind=data["kind"],
            reason=data["reason"],
            table=table,
            hand_number=data["hand_number"],
            user=self.actor.author,
        )
        return Response(table_s.PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)


class TableAbsences(TableView):
    @extend_schema(
        operation_id="absence_mark",
        tags=["discipline"],
        request=table_s.AbsenceInput,
        summary="Mark a player absent (art. 42; the table's referees)",
        responses={201: table_s.TableSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id, referee=True)
        data = valid(table_s.AbsenceInput, request)
        seat_mark_absent(seat=self.seat_at(table, data["position"]), during=data["during"], user=self.actor.author)
        return Response(table_s.TableSerializer(selectors.table_api(table.pk)).data, status=status.HTTP_201_CREATED)


class TableAbsence(TableView):
    @extend_schema(
        operation_id="absence_undo",
        tags=["discipline"],
        request=None,
        summary="Undo an absence marked by mistake, while no hand was recorded since",
        responses={200: table_s.TableSerializer, **WRITE_ERRORS},
    )
    def delete(self, request, table_id: int, position: int):
        table = self.writable(table_id, referee=True)
        seat_mark_present(seat=self.seat_at(table, position), user=self.actor.author)
        return Response(table_s.TableSerializer(selectors.table_api(table.pk)).data)


class TableSubstitutes(TableView):
    @extend_schema(
        operation_id="substitute_seat",
        tags=["discipline"],
        request=table_s.SubstituteInput,
        summary="Seat a substitute 代走 for an absent player, before the table's first hand (its referees)",
        description="The same service as the admin's and the console's: the substitute (a stored player by id, "
        "or a new player's name) takes the seat, the absent player is away, and a ruling records it (art. 44). "
        "After the first hand: 400 game_started.",
        responses={201: table_s.TableSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id, referee=True)
        data = valid(table_s.SubstituteInput, request)
        seat = self.seat_at(table, data["position"])
        player = None
        if data.get("player") is not None:
            player = selectors.substitute_eligible(table.round.event).filter(pk=data["player"]).first()
            if player is None:
                raise TaikaiError(
                    "unknown_player",
                    _("no stored player %(id)s may substitute here") % {"id": data["player"]},
                    field="player",
                )
        substitute_seat(seat=seat, player=player, name=data["name"], reason=data["reason"], user=self.actor.author)
        return Response(table_s.TableSerializer(selectors.table_api(table.pk)).data, status=status.HTTP_201_CREATED)


class TableReseatView(TableView):
    @extend_schema(
        operation_id="table_reseat",
        tags=["discipline"],
        request=table_s.ReseatInput,
        summary="Re-seat a table that sat wrong: every hand written again under the real seats (its referees)",
        description="The same service as the console's: the players go to the seats they really sat in, every "
        "hand in force becomes a new version under them (winners, payers, dealers, riichi, tenpai, pao and the "
        "clock follow the people), priced again; the old versions stay, and one ruling records it (art. 44). "
        "400 with field seats: invalid_seats, player_not_at_table, duplicate_player, seats_unchanged; 400 "
        "table_finished (reopen the table first); 409 round_locked.",
        responses={201: table_s.TableSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id, referee=True)
        data = valid(table_s.ReseatInput, request)
        table_reseat(table=table, players=data["seats"], reason=data["reason"], user=self.actor.author)
        return Response(table_s.TableSerializer(selectors.table_api(table.pk)).data, status=status.HTTP_201_CREATED)


class TableRulings(TableView):
    @extend_schema(
        operation_id="table_rulings_list",
        tags=["discipline"],
        summary="The table's rulings (its staff)",
        responses={200: s.RulingSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = self.table(table_id)
        self.require(self.staff_at(table), "read this table's rulings")
        return Response(s.RulingSerializer(selectors.table_rulings(table), many=True).data)

    @extend_schema(
        operation_id="table_ruling_record",
        tags=["discipline"],
        request=table_s.TableRulingInput,
        summary="Record a directors' ruling at the table (art. 44; the table's referees)",
        responses={201: s.RulingSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        table = self.writable(table_id, referee=True)
        data = valid(table_s.TableRulingInput, request)
        entry = self.seat_at(table, data["position"]).entry if "position" in data else None
        ruling = ruling_record(
            event=table.round.event, decision=data["decision"], table=table, entry=entry, user=self.actor.author
        )
        return Response(s.RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)


# --- The clock (art. 38): today's /api/tables/<id>/clock, with API tokens -------------------------


class ClockStateSerializer(drf_serializers.Serializer):
    table = drf_serializers.IntegerField()
    hand_number = drf_serializers.IntegerField(allow_null=True)
    version = drf_serializers.IntegerField()
    status = drf_serializers.CharField(help_text="not_started, running, paused or finished.")
    seat_on_turn = drf_serializers.IntegerField(allow_null=True, help_text="A game_index.")
    turn_number = drf_serializers.IntegerField()
    remaining_ms = drf_serializers.ListField(child=drf_serializers.IntegerField(), help_text="Per game_index.")
    flagged = drf_serializers.ListField(child=drf_serializers.IntegerField())
    flag_due = drf_serializers.BooleanField(
        help_text="A seat shown flagged ran out of time since the last write; a write (press, pause or flag) "
        "records it and its art. 38 penalty. A read never does."
    )
    absent = drf_serializers.ListField(child=drf_serializers.IntegerField(), required=False)
    bank_ms = drf_serializers.IntegerField()
    increment_ms = drf_serializers.IntegerField()
    cap_ms = drf_serializers.IntegerField()
    server_ms = drf_serializers.IntegerField()


class ClockState(TableView):
    @extend_schema(
        operation_id="clock_read",
        tags=["clock"],
        summary="The table's chess clock (art. 38)",
        responses={200: ClockStateSerializer, **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        return Response(clock_state(table=self.table(table_id)))


class ClockVerb(TableView):
    input_class = None

    def post(self, request, table_id: int):
        table = self.writable(table_id)
        data = valid(self.input_class, request) if self.input_class else {}
        return Response(clock_payload(self.run(table=table, user=self.author(table), **data)))


def clock_verb(name: str, service, input_class, summary: str):
    @extend_schema(
        operation_id=f"clock_{name}",
        tags=["clock"],
        request=input_class,
        summary=summary,
        responses={200: ClockStateSerializer, **WRITE_ERRORS},
    )
    def post(self, request, table_id: int):
        return ClockVerb.post(self, request, table_id)

    return type(
        f"Clock{name.title()}", (ClockVerb,), {"input_class": input_class, "run": staticmethod(service), "post": post}
    )


ClockStart = clock_verb("start", clock_start, StartInput, "The dealer starts the hand's clock, every bank full")
ClockPress = clock_verb(
    "press",
    clock_press,
    PressInput,
    "A press: charge the seat on turn, pass the turn (409 for the wrong seat or an old turn)",
)
ClockPause = clock_verb("pause", clock_pause, None, "Pause the clock")
ClockResume = clock_verb("resume", clock_resume, None, "Resume the clock")
ClockFlag = clock_verb(
    "flag",
    clock_observe,
    None,
    "Record the flag of a seat whose time ran out (art. 38 ⑤), "
    "when a read says flag_due; nothing changes when nobody is out of time",
)
