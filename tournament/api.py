"""JSON API of the chess clock (art. 38): state, start, press, pause, resume. Thin: services decide."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.clock_services import (
    ClockConflict,
    clock_observe,
    clock_pause,
    clock_press,
    clock_resume,
    clock_start,
    clock_view,
)
from tournament.errors import ServiceError
from tournament.models import Table


class IsEventStaffOrReadOnly(permissions.BasePermission):
    """Anyone may read a public event's clock; referees and organizers of the event (or staff) act."""

    def has_object_permission(self, request, view, table: Table):
        event = table.round.event
        if request.method in permissions.SAFE_METHODS:
            return event.is_public or request.user.is_staff
        user = request.user
        if not user.is_authenticated:
            return False
        return (user.is_staff or event.referees.filter(pk=user.pk).exists()
                or event.organizers.filter(pk=user.pk).exists())  # fmt: skip


class StartInput(serializers.Serializer):
    hand_number = serializers.IntegerField(min_value=1)
    dealer_position = serializers.IntegerField(min_value=0, max_value=3)


class PressInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    turn_number = serializers.IntegerField(min_value=1)
    claim_by = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)


def error_response(exc: ServiceError) -> Response:
    code = status.HTTP_409_CONFLICT if isinstance(exc, ClockConflict) else status.HTTP_400_BAD_REQUEST
    return Response({"error": exc.as_dict()}, status=code)


class ClockView(APIView):
    permission_classes = [IsEventStaffOrReadOnly]
    action = "state"

    def table(self, request, table_id: int) -> Table:
        table = get_object_or_404(Table.objects.select_related("round__event"), pk=table_id)
        self.check_object_permissions(request, table)
        return table

    def get(self, request, table_id: int):
        table = self.table(request, table_id)
        try:
            return Response(clock_view(clock_observe(table=table)))
        except ServiceError as exc:
            return error_response(exc)

    def post(self, request, table_id: int):
        table = self.table(request, table_id)
        try:
            if self.action == "start":
                data = self._valid(StartInput, request)
                clock = clock_start(table=table, user=request.user, **data)
            elif self.action == "press":
                data = self._valid(PressInput, request)
                clock = clock_press(table=table, user=request.user, **data)
            elif self.action == "pause":
                clock = clock_pause(table=table, user=request.user)
            elif self.action == "resume":
                clock = clock_resume(table=table, user=request.user)
            else:
                return Response(
                    {"error": {"code": "not_allowed", "message": "read the state with GET"}}, status=405
                )
        except ServiceError as exc:
            return error_response(exc)
        return Response(clock_view(clock))

    @staticmethod
    def _valid(serializer_class, request) -> dict:
        serializer = serializer_class(data=request.data)
        if not serializer.is_valid():
            field, messages = next(iter(serializer.errors.items()))
            raise ServiceError("invalid_input", f"{field}: {' '.join(str(m) for m in messages)}", field=field)
        return serializer.validated_data
