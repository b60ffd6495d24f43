"""Registration in the REST API (``/api/v1/events/<slug>/…``, mounted by ``config/urls.py``).

* ``registration`` (GET): the settings and the count of sign-ups in each state, for whoever reads the event;
* ``sign-ups`` (GET): the sign-ups, by ``state``, a page at a time; (POST) a sign-up on someone's behalf;
* ``sign-ups/<id>/approve``, ``refuse``, ``withdraw``, ``check-in``, ``move``; ``check-in/close``.

Everything but the first is the event's organizers' (an organizer token, or an organizer signed in): the
public sign-up is the event's sign-up page. Thin like every entry point: the role is checked first, then
:mod:`registration.services` writes and the sign-up is answered as it is after. The ``id`` converter of
these paths is ``core.converters``' (registered by ``core.apps``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, status
from rest_framework.response import Response

from core.api import ERRORS, PAGE, PAGE_SIZE, PAGED_READ_ERRORS, READ_ERRORS, Pages, page_of, valid
from registration import selectors, services
from registration.models import FIELDS, Registration, SignUp
from taikai.errors import TaikaiError
from tournament import access
from tournament.api_v1 import serializers as s
from tournament.api_v1.base import EventApiView

State = SignUp.State
MANAGE = gettext_lazy("manage this event's sign-ups")

# --- What goes in and out ------------------------------------------------------------------------------


class CountsSerializer(serializers.Serializer):
    pending = serializers.IntegerField(help_text="Sign-ups awaiting the organizers' approval.")
    confirmed = serializers.IntegerField(help_text="Sign-ups holding a place (each is an entry of the event).")
    waiting = serializers.IntegerField(help_text="Sign-ups on the waiting list.")
    withdrawn = serializers.IntegerField(help_text="Sign-ups withdrawn by the player (or for them).")
    refused = serializers.IntegerField(help_text="Sign-ups refused by the organizers.")
    checked_in = serializers.IntegerField(help_text="Confirmed sign-ups checked in at the venue.")


@extend_schema_field({"type": "array", "items": {"type": "string", "pattern": f"^({'|'.join(FIELDS)})$"}})
class DetailsField(serializers.ListField):
    """Some of a sign-up's details, by name: a pattern, not an enum (two enums of one choice set would need
    names in the settings' ``ENUM_NAME_OVERRIDES``)."""

    child = serializers.CharField()


class RegistrationSerializer(serializers.Serializer):
    opens_at = serializers.DateTimeField(help_text="Sign-ups are taken from this time…")
    closes_at = serializers.DateTimeField(help_text="…until this one.")
    open = serializers.BooleanField(help_text="Whether sign-ups are taken now.")
    cap = serializers.IntegerField(help_text="Confirmed players at most; more sign-ups wait in order.")
    places_left = serializers.IntegerField(help_text="Places not yet taken (0 when full).")
    approval = serializers.BooleanField(help_text="Each sign-up is pending until an organizer approves it.")
    asked = DetailsField(help_text="The details asked.")
    required = DetailsField(help_text="The details a sign-up must give.")
    pending_per_email = serializers.IntegerField(
        help_text="Live sign-ups (pending, waiting or confirmed) with one e-mail address, at most."
    )
    checkin_opens_at = serializers.DateTimeField(allow_null=True, help_text="Check-in at the venue opens then.")
    checkin_closed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When check-in was closed (the players not checked in are away for round 1).",
    )
    checkin_open = serializers.BooleanField(help_text="Whether players may check in now.")
    counts = CountsSerializer(help_text="Sign-ups in each state.")


def registration_body(registration: Registration) -> dict:
    counts = selectors.sign_up_counts(registration.event)
    now = timezone.now()
    fields = {
        name: getattr(registration, name)
        for name in RegistrationSerializer().fields
        if name not in ("open", "places_left", "checkin_open", "counts")
    }
    return fields | {
        "open": registration.opens_at <= now < registration.closes_at,
        "places_left": max(0, registration.cap - counts.confirmed),
        "checkin_open": services.checkin_open(registration),
        "counts": counts.__dict__,
    }


class SignUpSerializer(serializers.ModelSerializer):
    state = serializers.ChoiceField(
        choices=State.choices,
        help_text="pending (awaiting approval), confirmed, waiting, withdrawn or refused.",
    )
    email = serializers.SerializerMethodField(help_text="The player's e-mail address: for organizers only.")
    entry = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="The player's entry in the event, once confirmed."
    )
    waiting_place = serializers.SerializerMethodField(
        help_text="Where a waiting sign-up stands in the waiting list (1: the next to get a place); else null."
    )

    class Meta:
        model = SignUp
        fields = (
            "id",
            "state",
            "rank",
            "name",
            "reading",
            "club",
            "country",
            "external_id",
            "email",
            "checked_in_at",
            "entry",
            "waiting_place",
        )
        extra_kwargs = {
            "rank": {
                "help_text": "The order of sign-up, which is the waiting list's order (organizers may move "
                "a waiting sign-up)."
            },
            "name": {"help_text": "The name as the player gave it."},
            "reading": {"help_text": "The name's reading in kana or romaji."},
            "club": {"help_text": "The player's club or affiliation."},
            "country": {"help_text": "The country as the player gave it."},
            "external_id": {
                "help_text": "An EMA number or other id, as the player gave it: a claim, never a link "
                "to the stored player by itself (organizers merge the sign-up with it)."
            },
            "checked_in_at": {"help_text": "When the player checked in at the venue."},
        }

    def get_email(self, sign_up) -> str | None:
        return sign_up.email if self.context.get("organizer") else None

    def get_waiting_place(self, sign_up) -> int | None:
        places = self.context.get("places")
        if places is not None:
            return places.get(sign_up.pk)
        return selectors.waiting_place(sign_up)


SignUpPage = page_of(SignUpSerializer)


class SignUpInput(serializers.Serializer):
    """A person signed up by an organizer: the values of the sign-up form. The registration's own rules
    apply (its dates, the details it requires, blocked addresses, sign-ups per address)."""

    name = serializers.CharField(max_length=80)
    email = serializers.CharField(max_length=254, help_text="Where the player's messages go.")
    reading = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    country = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    external_id = serializers.CharField(
        max_length=40, required=False, allow_blank=True, default="", help_text="An EMA number or other id."
    )
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE, help_text="The language of the player's messages."
    )


class RefuseInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, default="", help_text="Why: kept, and told to the player."
    )
    block = serializers.BooleanField(default=False, help_text="Refuse every later sign-up from its address too.")


class MoveInput(serializers.Serializer):
    before = serializers.IntegerField(
        min_value=1,
        max_value=s.MAX_ID,
        allow_null=True,
        required=False,
        default=None,
        help_text="The waiting sign-up to move it just before; null: to the end.",
    )
    reason = serializers.CharField(max_length=300, allow_blank=True, help_text="Why the order changes (required).")


class CheckInClosedSerializer(serializers.Serializer):
    registration = RegistrationSerializer()
    away = serializers.ListField(
        child=serializers.IntegerField(), help_text="The confirmed sign-ups not checked in: away for round 1."
    )


# --- The views ------------------------------------------------------------------------------------------


class RegistrationView(EventApiView):
    # what every view here shares: the event's registration, and the organizers' check

    def registration(self, slug: str, *, manage: bool) -> Registration:
        event = self.event(slug)
        if manage:
            self.require(access.may_manage(self.actor, event.pk), MANAGE)
        registration = selectors.registration_of(event)
        if registration is None:
            raise Http404(_("this event takes no sign-ups"))
        registration.event = event
        return registration

    def sign_up(self, slug: str, sign_up_id: int) -> SignUp:
        registration = self.registration(slug, manage=True)
        sign_up = (
            SignUp.objects.select_related("event", "entry").filter(event=registration.event, pk=sign_up_id).first()
        )
        if sign_up is None:
            raise Http404(_("no such sign-up in this event"))
        return sign_up

    @property
    def by(self):
        """The account a change names (a token's change names no account)."""
        return self.request.user if self.request.user.is_authenticated else None

    def answer(self, sign_up: SignUp, code: int = status.HTTP_200_OK) -> Response:
        return Response(SignUpSerializer(sign_up, context={"organizer": True}).data, status=code)


class EventRegistration(RegistrationView):
    @extend_schema(
        operation_id="registration_read",
        tags=["registration"],
        summary="The event's registration: its settings and the sign-ups in each state",
        responses={200: RegistrationSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        return Response(RegistrationSerializer(registration_body(self.registration(slug, manage=False))).data)


STATE = OpenApiParameter("state", str, enum=State.values, description="Only the sign-ups in this state.")


class EventSignUps(RegistrationView):
    @extend_schema(
        operation_id="sign_ups_list",
        tags=["registration"],
        parameters=[STATE, PAGE, PAGE_SIZE],
        summary="The sign-ups in their order (organizers), a page at a time",
        responses={200: SignUpPage, **PAGED_READ_ERRORS},
    )
    def get(self, request, slug: str):
        registration = self.registration(slug, manage=True)
        rows = SignUp.objects.filter(event=registration.event).order_by("rank")
        state = request.query_params.get("state")
        if state is not None:
            if state not in State.values:
                raise TaikaiError(
                    "invalid_parameter",
                    _("state is one of %(states)s") % {"states": ", ".join(State.values)},
                    field="state",
                )
            rows = rows.filter(state=state)
        pages = Pages()
        page = pages.paginate_queryset(rows, request, view=self)
        context = {"organizer": True, "places": waiting_places(page)}
        return pages.get_paginated_response(SignUpSerializer(page, many=True, context=context).data)

    @extend_schema(
        operation_id="sign_up_create",
        tags=["registration"],
        request=SignUpInput,
        summary="Sign someone up (organizers): confirmed, pending or waiting as the registration decides",
        description="The public sign-up is the event's sign-up page; through the API only an organizer signs "
        "someone up, on their behalf. The registration's rules apply: it must be open, the details it "
        "requires given, the address not blocked, the sign-ups per e-mail address; the limit of sign-ups per "
        "network address of the public page does not.",
        responses={201: SignUpSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        registration = self.registration(slug, manage=True)
        data = valid(SignUpInput, request)
        language = data.pop("language")
        made = services.sign_up_create(
            event=registration.event, values=data, language=language, by=self.by
        )  # an organizer's: not counted by the public limit
        return self.answer(made, status.HTTP_201_CREATED)


def waiting_places(page: list[SignUp]) -> dict[int, int]:
    """The waiting list's places of a page's waiting sign-ups, in one query: a page is a run of the list in
    its order, so its waiting sign-ups stand one after the other from the first one's place."""
    waiting = [sign_up for sign_up in page if sign_up.state == State.WAITING]
    if not waiting:
        return {}
    first = selectors.waiting_place(waiting[0])
    return {sign_up.pk: first + i for i, sign_up in enumerate(waiting)}


class SignUpAction(RegistrationView):
    # a change of one sign-up (organizers): the sign-up is answered as it is after

    body: type[serializers.Serializer] | None = None

    def post(self, request, slug: str, sign_up_id: int):
        sign_up = self.sign_up(slug, sign_up_id)
        data = valid(self.body, request) if self.body is not None else {}
        return self.answer(self.act(sign_up, **data))

    def act(self, sign_up: SignUp, **data) -> SignUp:
        raise NotImplementedError


def action_schema(operation_id: str, summary: str, body=None, description: str = ""):
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            tags=["registration"],
            request=body,
            summary=summary,
            description=description,
            responses={200: SignUpSerializer, **ERRORS},
        )
    )


@action_schema("sign_up_approve", "Approve a pending sign-up: confirmed if a place is left, else it waits")
class SignUpApprove(SignUpAction):
    def act(self, sign_up, **data):
        return services.sign_up_approve(sign_up=sign_up, by=self.by)


@action_schema(
    "sign_up_refuse",
    "Refuse a sign-up (with block: every later one from its address too)",
    RefuseInput,
    "A confirmed player refused loses their place, which goes to the first waiting sign-up.",
)
class SignUpRefuse(SignUpAction):
    body = RefuseInput

    def act(self, sign_up, **data):
        return services.sign_up_refuse(sign_up=sign_up, by=self.by, **data)


@action_schema(
    "sign_up_withdraw",
    "Withdraw a sign-up for the player",
    None,
    "A confirmed place goes to the first waiting sign-up.",
)
class SignUpWithdraw(SignUpAction):
    def act(self, sign_up, **data):
        return services.sign_up_withdraw(sign_up=sign_up)


@action_schema("sign_up_check_in", "Check a confirmed player in at the venue (while check-in is open)")
class SignUpCheckIn(SignUpAction):
    def act(self, sign_up, **data):
        return services.sign_up_check_in(sign_up=sign_up, by=self.by)


@action_schema("sign_up_move", "Move a waiting sign-up in the waiting list, with the reason", MoveInput)
class SignUpMove(SignUpAction):
    body = MoveInput

    def act(self, sign_up, *, before, reason):
        if before is not None:
            before = SignUp.objects.filter(event_id=sign_up.event_id, state=State.WAITING, pk=before).first()
            if before is None:
                raise TaikaiError("not_waiting", _("no such sign-up on this event's waiting list"), field="before")
        return services.waiting_move(sign_up=sign_up, before=before, reason=reason, by=self.by)


class CheckInClose(RegistrationView):
    @extend_schema(
        operation_id="checkin_close",
        tags=["registration"],
        request=None,
        summary="Close check-in (organizers): the confirmed players not checked in are away for round 1",
        responses={200: CheckInClosedSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        registration = self.registration(slug, manage=True)
        away = services.checkin_close(event=registration.event, by=self.by)
        registration.refresh_from_db()
        body = {"registration": registration_body(registration), "away": [sign_up.pk for sign_up in away]}
        return Response(CheckInClosedSerializer(body).data)


urlpatterns = [
    path("registration", EventRegistration.as_view(), name="event_registration"),
    path("sign-ups", EventSignUps.as_view(), name="event_sign_ups"),
    path("sign-ups/<id:sign_up_id>/approve", SignUpApprove.as_view(), name="sign_up_approve"),
    path("sign-ups/<id:sign_up_id>/refuse", SignUpRefuse.as_view(), name="sign_up_refuse"),
    path("sign-ups/<id:sign_up_id>/withdraw", SignUpWithdraw.as_view(), name="sign_up_withdraw"),
    path("sign-ups/<id:sign_up_id>/check-in", SignUpCheckIn.as_view(), name="sign_up_check_in"),
    path("sign-ups/<id:sign_up_id>/move", SignUpMove.as_view(), name="sign_up_move"),
    path("check-in/close", CheckInClose.as_view(), name="checkin_close"),
]
