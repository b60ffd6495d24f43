"""JSON API of the chess clock (art. 38): state, start, press, pause, resume, flag, and replay (the log of a
device that ran the clock offline). Thin: services decide."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import authentication, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from taikai.errors import TaikaiError
from tournament import access
from tournament.models import Table
from tournament.services.clock import (
    REPLAY_LOG_MAX,
    REPLAY_VERBS,
    clock_observe,
    clock_pause,
    clock_payload,
    clock_press,
    clock_replay,
    clock_resume,
    clock_start,
    clock_state,
)


class SessionWithTableCards(authentication.SessionAuthentication):
    """Session sign-in, and CSRF checked for a scorekeeper too: their session has opened a table card but
    holds no account, and DRF checks CSRF only for signed-in users."""

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is None and request._request.session.get(access.SESSION_SCOREKEEPER_KEYS):
            self.enforce_csrf(request)
        return result


class TableScorekeeperOrReadOnly(permissions.BasePermission):
    """Anyone may read a public event's clock (and anyone with a role, any event's); the table's referees,
    its scorekeeper and the event's organizers run it."""

    def has_object_permission(self, request, view, table: Table):
        actor = access.actor_for(request)
        if request.method in permissions.SAFE_METHODS:
            return table.round.event.is_public or access.may_score(actor, table)
        return access.may_score(actor, table)


class StartInput(serializers.Serializer):
    hand_number = serializers.IntegerField(min_value=1, max_value=999)
    dealer_position = serializers.IntegerField(min_value=0, max_value=3)


class PressInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    turn_number = serializers.IntegerField(min_value=1, max_value=100_000)
    claim_by = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)


class ReplayEntryInput(serializers.Serializer):
    """One entry of a device's offline log: its verb, the device's time, and its verb's fields."""

    verb = serializers.ChoiceField(choices=REPLAY_VERBS)
    at_ms = serializers.IntegerField(min_value=0)
    hand_number = serializers.IntegerField(min_value=1, max_value=999, required=False)
    dealer_position = serializers.IntegerField(min_value=0, max_value=3, required=False)
    seat = serializers.IntegerField(min_value=0, max_value=3, required=False)
    turn_number = serializers.IntegerField(min_value=1, max_value=100_000, required=False)
    claim_by = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)

    NEEDS = {"start": ("hand_number", "dealer_position"), "press": ("seat", "turn_number")}

    def validate(self, data):
        missing = [name for name in self.NEEDS.get(data["verb"], ()) if name not in data]
        if missing:
            # Translators: verb is a clock action (start, press) that needs this field.
            message = _("required for %(verb)s") % {"verb": data["verb"]}
            raise serializers.ValidationError({name: [message] for name in missing})
        return data


class ReplayInput(serializers.Serializer):
    base_version = serializers.IntegerField(min_value=0, allow_null=True)  # None: goes on from the log before
    sent_at_ms = serializers.IntegerField(min_value=0)
    log = ReplayEntryInput(many=True, allow_empty=False, max_length=REPLAY_LOG_MAX)


SENT_AT_HEADER = "X-Taikai-Sent-At"


def sending_time_ms(request, sealed_ms: int) -> int:
    """The device's time when it sent this log (art. 38 replay).

    The body's ``sent_at_ms`` is sealed at the first sending, so that the same log sent again keeps its
    idempotency key; when that sending failed on the way and the log goes again minutes later, its
    entries would be laid on the server's clock late by the wait, and the seat on turn at the server's
    mark charged for it. The device therefore says its time at each sending in ``X-Taikai-Sent-At``. It
    is a claim like the body's: ``engine.place_log`` still keeps every entry within the time the server
    saw. A header that is not a whole number, or earlier than the seal, is ignored.
    """
    claimed = request.headers.get(SENT_AT_HEADER, "")
    if claimed.isascii() and claimed.isdigit() and len(claimed) <= 16 and int(claimed) >= sealed_ms:
        return int(claimed)
    return sealed_ms


class ClockView(APIView):
    authentication_classes = [SessionWithTableCards]
    permission_classes = [TableScorekeeperOrReadOnly]
    action = "state"

    def table(self, request, table_id: int) -> Table:
        table = get_object_or_404(Table.objects.select_related("round__event"), pk=table_id)
        self.check_object_permissions(request, table)
        return table

    def get(self, request, table_id: int):
        return Response(clock_state(table=self.table(request, table_id)))

    def post(self, request, table_id: int):
        table = self.table(request, table_id)
        if self.action == "start":
            clock = clock_start(table=table, user=request.user, **self._valid(StartInput, request))
        elif self.action == "press":
            clock = clock_press(table=table, user=request.user, **self._valid(PressInput, request))
        elif self.action == "pause":
            clock = clock_pause(table=table, user=request.user)
        elif self.action == "resume":
            clock = clock_resume(table=table, user=request.user)
        elif self.action == "flag":
            clock = clock_observe(table=table, user=request.user)
        elif self.action == "replay":
            valid = self._valid(ReplayInput, request)
            log = [dict(entry) for entry in valid["log"]]
            clock = clock_replay(
                table=table,
                user=request.user,
                base_version=valid["base_version"],
                sent_at_ms=sending_time_ms(request, valid["sent_at_ms"]),
                log=log,
            )
        else:
            return Response({"error": {"code": "not_allowed", "message": _("read the state with GET")}}, status=405)
        return Response(clock_payload(clock))

    @staticmethod
    def _valid(serializer_class, request) -> dict:
        serializer = serializer_class(data=request.data)
        if not serializer.is_valid():
            field, messages = _first_error(serializer.errors)
            # Translators: an input's name and what is wrong with it, e.g. "seat: Ensure this value is …".
            message = _("%(field)s: %(problems)s") % {
                "field": field,
                "problems": " ".join(str(m) for m in messages),
            }
            raise TaikaiError("invalid_input", message, field=field)
        return serializer.validated_data


def _first_error(errors, field: str = "") -> tuple[str, list]:
    """The first input at fault and its messages, named down into lists and nested inputs
    (``log[3].seat``); a list's or an entry's own error names the list or the entry."""
    if isinstance(errors, dict):
        name, inner = next(iter(errors.items()))
        if isinstance(name, int):  # a list's entry
            field = f"{field}[{name}]"
        elif name != "non_field_errors":
            field = f"{field}.{name}" if field else name
        return _first_error(inner, field)
    if errors and all(isinstance(item, dict) for item in errors):
        index = next(i for i, item in enumerate(errors) if item)
        return _first_error(errors[index], f"{field}[{index}]")
    return field, errors
