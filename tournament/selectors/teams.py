"""Teams 団体戦: the event's teams, their members and reserves."""

from __future__ import annotations

from tournament.models import (
    Event,
    Team,
    TeamMember,
)


def event_teams(event: Event) -> list[Team]:
    """The event's teams with their members (one query each)."""
    return list(Team.objects.filter(event=event).prefetch_related("members__entry__player").order_by("name"))


def event_team_members(event: Event) -> list[list[int]]:
    """The entry ids of each team of the event (members and reserves)."""
    teams: dict[int, list[int]] = {}
    for team_id, entry_id in TeamMember.objects.filter(team__event=event).values_list("team_id", "entry_id"):
        teams.setdefault(team_id, []).append(entry_id)
    return list(teams.values())


def event_team_reserves(event: Event) -> set[int]:
    """The entry ids of the event's teams' reserves."""
    return set(
        TeamMember.objects.filter(team__event=event, role=TeamMember.Role.RESERVE).values_list("entry_id", flat=True)
    )
