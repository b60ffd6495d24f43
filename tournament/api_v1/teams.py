"""Team events (団体戦): an event's teams, the team standings, and a reserve in for a member for one round."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core.api import ERRORS, READ_ERRORS, valid
from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.api_v1 import team_serializers as team_s
from tournament.api_v1.base import EventApiView
from tournament.models import Event
from tournament.services.teams import team_reserve_in, team_standings_for


def team_players(team) -> list[dict]:
    """A team's members then reserves (``Team.members`` prefetched with their entries and players)."""
    return [
        {"entry": m.entry_id, "player": m.entry.player_id, "name": str(m.entry.player), "role": m.role}
        for m in team.members.all()
    ]


class TeamEventView(EventApiView):
    def team_event(self, slug: str) -> Event:
        """The event, if the caller may read it and it is a team event (else 404)."""
        event = self.event(slug)
        if not event.team_rule:
            raise Http404(_("not a team event"))
        return event


class EventTeams(TeamEventView):
    @extend_schema(
        operation_id="teams_list",
        tags=["teams"],
        summary="The event's teams: members, reserves and captain",
        description="404 for an event without a team rule.",
        responses={200: team_s.TeamSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        teams = selectors.event_teams(self.team_event(slug))
        body = [{"id": t.pk, "name": t.name, "captain": t.captain_id, "members": team_players(t)} for t in teams]
        return Response(team_s.TeamSerializer(body, many=True).data)


class EventTeamStandings(TeamEventView):
    @extend_schema(
        operation_id="team_standings",
        tags=["teams", "standings"],
        summary="The team standings under the event's team rule, best first",
        description="Made from the standings as published (rounds the event hides are left out). Scores are "
        "exact: `n` or `n/d`. 404 for an event without a team rule.",
        responses={200: team_s.TeamStandingsSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.team_event(slug)
        rows = team_standings_for(event)
        results = [
            {
                "rank": row.rank,
                "team": row.team.pk,
                "name": row.team.name,
                "score": row.score,
                "rounds": [{"round": number, "score": score} for number, score in row.rounds],
                "members": team_players(row.team),
            }
            for row in rows
        ]
        body = {
            "rule": event.team_rule,
            "best": event.team_best,
            "rounds": [number for number, _score in rows[0].rounds] if rows else [],
            "results": results,
        }
        return Response(team_s.TeamStandingsSerializer(body).data)


class TeamReserveIn(TeamEventView):
    @extend_schema(
        operation_id="team_reserve_in",
        tags=["teams"],
        request=team_s.ReserveInInput,
        summary="A reserve plays a round in place of a member of their team (organizers)",
        description="Recorded before the round is seated: that round's seating seats the reserve and leaves "
        "the member out, for that round only.",
        responses={201: team_s.TeamSwapSerializer, **ERRORS},
    )
    def post(self, request, slug: str, team_id: int):
        event = self.team_event(slug)
        self.require(access.may_manage(self.actor, event.pk), "change this event's teams")
        team = next((t for t in selectors.event_teams(event) if t.pk == team_id), None)
        if team is None:
            raise Http404(_("no such team in this event"))
        data = valid(team_s.ReserveInInput, request)
        entries = {}
        for name in ("reserve", "member"):
            entries[name] = selectors.event_entry_with_player(event, data[name])
            if entries[name] is None:
                raise TaikaiError("entry_not_in_event", _("no such entry in this event"), field=name)
        swap = team_reserve_in(
            team=team,
            reserve=entries["reserve"],
            member=entries["member"],
            round_number=data["round"],
            by=self.actor.author,
        )
        return Response(team_s.TeamSwapSerializer(swap).data, status=status.HTTP_201_CREATED)
