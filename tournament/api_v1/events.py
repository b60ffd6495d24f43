"""Events, their rules, entries (registering players), rounds and seatings, standings, event-wide rulings,
players, and the event's API tokens."""

from __future__ import annotations

import hashlib

from django.core.paginator import EmptyPage, InvalidPage, Paginator
from django.http import Http404
from django.utils.cache import get_conditional_response
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from core.api import ERRORS, PAGE, PAGE_SIZE, PAGED_READ_ERRORS, READ_ERRORS, ErrorSerializer, paged, valid
from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.api_v1 import serializers as s
from tournament.api_v1 import table_serializers as table_s
from tournament.api_v1.base import EventApiView
from tournament.services.checks import round_check, round_unlock
from tournament.services.discipline import ruling_record
from tournament.services.entries import entry_register_player
from tournament.services.guards import OVERRIDABLE
from tournament.services.seating import seating_job_request
from tournament.services.tokens import api_token_issue, api_token_revoke


class EventList(EventApiView):
    @extend_schema(
        operation_id="events_list",
        tags=["events"],
        parameters=[PAGE, PAGE_SIZE],
        summary="Events: the public ones, and those the caller works in (a role or a token)",
        responses={200: s.EventPage, **PAGED_READ_ERRORS},
    )
    def get(self, request):
        events = selectors.events_readable(access.events_where(self.actor))
        return paged(self, events, s.EventSerializer)


class EventDetail(EventApiView):
    @extend_schema(operation_id="event_read", tags=["events"], responses={200: s.EventSerializer, **READ_ERRORS})
    def get(self, request, slug: str):
        return Response(s.EventSerializer(self.event(slug)).data)


class EventRules(EventApiView):
    @extend_schema(
        operation_id="event_rules",
        tags=["events"],
        summary="The event's tournament rules and scoring ruleset",
        responses={200: s.EventRulesSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        return Response(event_rules(self.event(slug)))


def event_rules(event) -> dict:
    """The event's tournament rules (uma, clock, finals, standings order, ...) with its whole ruleset."""
    rules = {name: getattr(event, name) for name in s.EventRulesSerializer().fields if name not in ("uma", "ruleset")}
    rules |= {
        "standings_precedence": list(event.precedence),
        "ruleset": event.ruleset,
        "uma": event.ruleset.uma_for(event.table_size),
    }
    return s.EventRulesSerializer(rules).data


class EventEntries(EventApiView):
    @extend_schema(
        operation_id="entries_list",
        tags=["players"],
        parameters=[PAGE, PAGE_SIZE],
        responses={200: s.EntryPage, **PAGED_READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        return paged(self, selectors.event_entries_page(event), s.EntrySerializer, staff=self.staff(event.pk))

    @extend_schema(
        operation_id="entry_register",
        tags=["players"],
        request=s.EntryInput,
        summary="Register a player in the event (organizers)",
        description="A stored player by id, or a player by their values: a known `external_id` (such as an EMA "
        "number) names the stored player, otherwise a new player is created. A player already registered "
        "answers with their entry.",
        responses={201: s.EntrySerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        event = self.event(slug)
        self.require(access.may_manage(self.actor, event.pk), "register players in this event")
        data = valid(s.EntryInput, request)
        player = None
        if "player" in data:
            player = selectors.player_by_id(data["player"])
            if player is None:
                raise TaikaiError("no_such_player", f"there is no player {data['player']}", field="player")
        entry = entry_register_player(event=event, player=player, values=data)
        return Response(s.EntrySerializer(entry, context={"staff": True}).data, status=status.HTTP_201_CREATED)


class SeatingJobSerializer(serializers.Serializer):
    job = serializers.IntegerField()
    round = serializers.IntegerField()
    state = serializers.CharField()
    percent = serializers.IntegerField()


def seating_job_body(job) -> dict:
    return {"job": job.pk, "round": job.round_number, "state": job.state, "percent": job.percent}


class SeatRoundInput(serializers.Serializer):
    override = serializers.ListField(
        child=serializers.ChoiceField(choices=OVERRIDABLE),
        required=False,
        default=list,
        help_text="Guards before the round to override (with a reason): previous_round_unfinished, check_in_open.",
    )
    reason = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=2000, help_text="Why (with an override)."
    )


class EventRounds(EventApiView):
    @extend_schema(
        operation_id="rounds_list",
        tags=["rounds"],
        summary="The event's rounds (drafts for organizers only)",
        responses={200: s.RoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        rounds = selectors.event_rounds(event, drafts=access.may_manage(self.actor, event.pk))
        return Response(s.RoundSerializer(rounds, many=True).data)

    @extend_schema(
        operation_id="round_seat_next",
        tags=["rounds"],
        request=SeatRoundInput,
        summary="Seat the next round (organizers): queues its seating, a draft to publish",
        description="400 not_enough_players when too few active players are there to fill a table (the "
        "count says how many); 400 previous_round_unfinished while a table of the previous round has no result "
        "(naming the tables); 400 check_in_open while the check-in list is open; 400 round_in_progress until "
        "the current round is completed. The last two guards but round_in_progress can be overridden: "
        '`{"override": ["check_in_open"], "reason": "…"}` (recorded: which guard, what it said, why, who, '
        "when). Asking again for the same round answers the same job.",
        responses={202: SeatingJobSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        event = self.event(slug)
        self.require(access.may_manage(self.actor, event.pk), "seat this event's rounds")
        data = valid(SeatRoundInput, request)
        job = seating_job_request(
            event=event, user=self.actor.author, override=data["override"], override_reason=data["reason"]
        )
        return Response(seating_job_body(job), status=status.HTTP_202_ACCEPTED)


class RoundSeating(EventApiView):
    @extend_schema(
        operation_id="round_seating",
        tags=["rounds"],
        parameters=[PAGE, PAGE_SIZE],
        summary="A round's tables, with their seats and current results",
        responses={200: table_s.TablePage, **PAGED_READ_ERRORS},
    )
    def get(self, request, slug: str, number: int):
        event = self.event(slug)
        round_ = selectors.event_round_any(event, number, drafts=access.may_manage(self.actor, event.pk))
        if round_ is None:
            raise Http404("no such round")
        being_checked = (
            event.results_after_check and round_.checked_at is None and not access.holds_role(self.actor, event.pk)
        )  # a read token sees a round's results once the round is checked, when the event says so
        return paged(self, selectors.round_tables_full(round_), table_s.TableSerializer, being_checked=being_checked)


class RoundCheckSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number.")
    checked = serializers.BooleanField(help_text="Whether the round's results are checked (and the round locked).")
    checked_at = serializers.DateTimeField(allow_null=True)


class UnlockInput(serializers.Serializer):
    reason = serializers.CharField(help_text="Why the round is unlocked (kept with who and when).", allow_blank=True)


def round_check_body(round_) -> dict:
    return {"round": round_.number, "checked": round_.checked_at is not None, "checked_at": round_.checked_at}


class RoundCheckView(EventApiView):
    @extend_schema(
        operation_id="round_check",
        tags=["rounds"],
        request=None,
        summary="Mark a round's results checked: the round is locked (organizers and referees)",
        description="Every table needs its result (400 round_not_finished). From then on no hand, result, "
        "penalty, absence, ruling or clock of the round changes through any path: 409 round_locked. "
        "409 already_checked for a round checked already.",
        responses={200: RoundCheckSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, slug: str, number: int):
        event = self.event(slug)
        self.require(access.may_check_round(self.actor, event.pk), "check this event's rounds")
        round_ = selectors.event_round_any(event, number, drafts=access.may_manage(self.actor, event.pk))
        if round_ is None:
            raise Http404("no such round")
        return Response(round_check_body(round_check(round_=round_, user=self.actor.author)))


class RoundUnlockView(EventApiView):
    @extend_schema(
        operation_id="round_unlock",
        tags=["rounds"],
        request=UnlockInput,
        summary="Unlock a checked round, saying why (the event's owner, or an organizer token)",
        description="400 reason_required without a reason; 409 not_checked for a round that is not checked. "
        "Checking it again is a new check.",
        responses={200: RoundCheckSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, slug: str, number: int):
        event = self.event(slug)
        self.require(access.may_unlock_round(self.actor, event), "unlock this event's rounds")
        round_ = selectors.event_round_any(event, number, drafts=access.may_manage(self.actor, event.pk))
        if round_ is None:
            raise Http404("no such round")
        data = valid(UnlockInput, request)
        return Response(round_check_body(round_unlock(round_=round_, reason=data["reason"], user=self.actor.author)))


STANDINGS_PER_PAGE = 100


class EventStandings(EventApiView):
    @extend_schema(
        operation_id="standings",
        tags=["standings"],
        parameters=[PAGE],
        summary="The overall standings (art. 41), 100 rows a page",
        description="Answers an `ETag`; send it back in `If-None-Match` to get 304 until the standings are "
        "computed again. Totals are exact: `n` or `n/d`.",
        responses={200: s.StandingsPageSerializer, 304: OpenApiResponse(description="Not modified"), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        computed_at = selectors.event_standings_computed_at(event.pk)
        page_text = request.query_params.get("page", "1")
        tag = f"v1|{event.pk}|{computed_at}|{page_text}"
        etag = '"' + hashlib.sha256(tag.encode()).hexdigest()[:32] + '"'
        not_modified = get_conditional_response(request._request, etag=etag)
        if not_modified is not None:
            return not_modified
        snapshot = selectors.event_standings(event) if computed_at else None
        rows = selectors.event_standings_rows(event) if snapshot else []
        paginator = Paginator(rows, STANDINGS_PER_PAGE, allow_empty_first_page=True)
        try:
            page = paginator.page(page_text)
        except (EmptyPage, InvalidPage) as exc:
            raise Http404("no such page") from exc
        url = request.build_absolute_uri()
        body = {
            "count": paginator.count,
            "page": page.number,
            "pages": paginator.num_pages,
            "next": replace_query_param(url, "page", page.next_page_number()) if page.has_next() else None,
            "previous": (
                remove_query_param(url, "page")
                if page.number == 2
                else replace_query_param(url, "page", page.previous_page_number())
            )
            if page.has_previous()
            else None,
            "computed_at": computed_at,
            "rounds": snapshot.round_numbers if snapshot else [],
            "results": [standing(row) for row in page.object_list],
        }
        response = Response(s.StandingsPageSerializer(body).data)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response


def standing(row) -> dict:
    """A standings row (``StandingsRow``, its entry joined) as the API gives it: the games as objects."""
    history = [{"round": r, "game_points": points, "advanced": advanced} for r, points, advanced in row.history]
    return {
        "rank": row.rank,
        "award_rank": row.award_rank,
        "entry": row.entry_id,
        "player": row.entry.player_id,
        "name": row.name,
        "club": row.club,
        "country": row.country,
        "status": row.status,
        "advances": row.advances,
        "total_points": row.total_points,
        "games": row.games,
        "penalty_points": row.penalty_points,
        "history": history,
    }


class EventRulings(EventApiView):
    @extend_schema(
        operation_id="event_rulings_list",
        tags=["discipline"],
        summary="Every ruling of the event (its staff)",
        responses={200: s.RulingSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        self.require(self.staff(event.pk), "read this event's rulings")
        return Response(s.RulingSerializer(selectors.event_rulings(event), many=True).data)

    @extend_schema(
        operation_id="event_ruling_record",
        tags=["discipline"],
        request=s.EventRulingInput,
        summary="Record a directors' ruling for the whole event (art. 44; referees of every table)",
        responses={201: s.RulingSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        event = self.event(slug)
        self.require(access.may_referee(self.actor, event.pk), "record rulings for the whole event")
        data = valid(s.EventRulingInput, request)
        entry = None
        if "entry" in data:
            entry = selectors.event_entry_with_player(event, data["entry"])
            if entry is None:
                raise TaikaiError("entry_not_in_event", "no such entry in this event", field="entry")
        ruling = ruling_record(event=event, decision=data["decision"], entry=entry, user=self.actor.author)
        return Response(s.RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)


class PlayerList(EventApiView):
    @extend_schema(
        operation_id="players_list",
        tags=["players"],
        summary="Players entered in the events the caller may read",
        parameters=[
            PAGE,
            PAGE_SIZE,
            OpenApiParameter("event", OpenApiTypes.STR, description="An event's slug."),
            OpenApiParameter("external_id", OpenApiTypes.STR, description="e.g. an EMA number."),
        ],
        responses={200: s.PlayerPage, **PAGED_READ_ERRORS},
    )
    def get(self, request):
        events = selectors.events_readable(access.events_where(self.actor))
        slug = request.query_params.get("event")
        if slug:
            events = events.filter(slug=slug)
        external_id = (request.query_params.get("external_id") or "").strip()
        return paged(self, selectors.players_entered_in(events, external_id=external_id), s.PlayerSerializer)


class EventTokens(EventApiView):
    @extend_schema(
        operation_id="tokens_list",
        tags=["tokens"],
        summary="The event's API tokens (organizers, signed in)",
        responses={200: s.TokenSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        self.refuse_token("list tokens")
        self.require(access.may_issue_tokens(self.actor, event.pk), "see this event's API tokens")
        return Response(s.TokenSerializer(selectors.event_api_tokens(event), many=True).data)

    @extend_schema(
        operation_id="token_issue",
        tags=["tokens"],
        request=s.TokenInput,
        summary="Issue an API token (organizers, signed in): the secret is in this answer only",
        responses={201: s.IssuedTokenSerializer, **ERRORS},
    )
    def post(self, request, slug: str):
        event = self.event(slug)
        self.refuse_token("issue tokens")
        self.require(access.may_issue_tokens(self.actor, event.pk), "issue API tokens for this event")
        data = valid(s.TokenInput, request)
        issued = api_token_issue(event=event, by=request.user, **data)
        issued.token.token = issued.secret
        return Response(s.IssuedTokenSerializer(issued.token).data, status=status.HTTP_201_CREATED)


class EventTokenRevoke(EventApiView):
    @extend_schema(
        operation_id="token_revoke",
        tags=["tokens"],
        request=None,
        summary="Revoke an API token (organizers, signed in); it stays listed",
        responses={200: s.TokenSerializer, **ERRORS},
    )
    def post(self, request, slug: str, token_id: int):
        event = self.event(slug)
        self.refuse_token("revoke tokens")
        self.require(access.may_issue_tokens(self.actor, event.pk), "revoke this event's API tokens")
        token = selectors.event_api_token(event, token_id)
        if token is None:
            raise Http404("no such token in this event")
        return Response(s.TokenSerializer(api_token_revoke(token=token, by=request.user)).data)
