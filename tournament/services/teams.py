"""Team events (団体戦): teams read from a CSV file, and the team standings made from the members' points
(``tournament.engine.teams``). The seating keeps a team's players apart (``seating_request_for``), and seats a
reserve in for a member for one round when asked (``team_reserve_in``, ``round_lineup_absent``/``_present``)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.errors import TournamentError
from tournament.engine.teams import TeamRule, team_standings
from tournament.models import Entry, Event, Team, TeamMember, TeamSwap
from tournament.services.common import recorder, token_of
from tournament.services.locks import lock_event

TEAM_COLUMNS = ("team", "player", "role")  # player: the entry's external id (an EMA number) or display name
MAX_TEAM_ROWS = 20_000


@dataclass(frozen=True)
class TeamStanding:
    team: Team
    rank: int
    score: Fraction
    rounds: tuple[tuple[int, Fraction], ...]
    members: tuple[str, ...]


def team_standings_for(event: Event) -> list[TeamStanding]:
    """The event's teams, best first, under its team rule, from the standings as published (so rounds the
    event hides are hidden here too); empty when it has no rule or no teams."""
    if not event.team_rule:
        return []
    rows = selectors.event_standings_points(event)  # the standings as published (hidden rounds left out)
    round_points = {entry: {r: Fraction(points) for r, points, _adv in history} for entry, _t, history, _n in rows}
    totals = {entry: Fraction(total) for entry, total, _h, _n in rows}
    return team_standings_from(event, round_points, totals)


def team_standings_from(
    event: Event, round_points: dict[int, dict[int, Fraction]], totals: dict[int, Fraction]
) -> list[TeamStanding]:
    """The event's teams, best first, under its team rule, from each entry's game points by round and total
    points (``team_standings_for`` reads them from the published standings; the audit from the results)."""
    if not event.team_rule:
        return []
    teams = selectors.event_teams(event)
    if not teams:
        return []
    try:
        rule = TeamRule(event.team_rule, best=event.team_best)
    except TournamentError as exc:
        raise TaikaiError(exc.code, exc.message, field=exc.field) from exc
    members = {team.pk: [m.entry_id for m in team.members.all()] for team in teams}
    names = {m.entry_id: str(m.entry.player) for team in teams for m in team.members.all()}
    by_id = {team.pk: team for team in teams}
    return [
        TeamStanding(
            by_id[row.team_id], row.rank, row.score, row.rounds, tuple(names.get(e, "") for e in members[row.team_id])
        )
        for row in team_standings(members, round_points, totals, rule)
    ]


@transaction.atomic
def teams_import_csv(*, event: Event, data: bytes) -> int:
    """Teams from a CSV file with the columns ``team``, ``player`` (the entry's external id, or its display
    name) and ``role`` (``member`` or ``reserve``; empty: member). All or nothing: the first problem, with its
    line, refuses the whole file. Returns the members written."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TaikaiError("invalid_csv", _("the file is not UTF-8 text"), field="csv_file") from None
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or not {"team", "player"} <= {f.strip() for f in reader.fieldnames}:
        raise TaikaiError("invalid_csv", _("the first line names the columns team, player and role"), field="csv_file")
    entries = selectors.event_entries_by_name_or_id(event)
    written = 0
    for line, row in enumerate(reader, start=2):
        if line > MAX_TEAM_ROWS:
            raise TaikaiError("too_many_rows", _("at most %(max)s lines") % {"max": MAX_TEAM_ROWS}, field="csv_file")
        name, player = (row.get("team") or "").strip(), (row.get("player") or "").strip()
        role = (row.get("role") or "").strip() or TeamMember.Role.MEMBER
        problem = _row_problem(name, player, role, entries)
        if problem:
            raise TaikaiError(
                "invalid_team_row",
                _("line %(line)s: %(problem)s") % {"line": line, "problem": problem},
                field="csv_file",
            )
        team, _created = Team.objects.get_or_create(event=event, name=name[:120])
        entry = entries[player]
        if TeamMember.objects.filter(entry=entry).exclude(team=team).exists():
            raise TaikaiError(
                "invalid_team_row",
                _("line %(line)s: %(player)s is already in another team") % {"line": line, "player": player},
                field="csv_file",
            )
        TeamMember.objects.update_or_create(entry=entry, defaults={"team": team, "role": role})
        written += 1
    return written


def _row_problem(name: str, player: str, role: str, entries: dict[str, Entry]) -> str | None:
    if not name:
        return _("the team is empty")
    if player not in entries:
        return _("no player %(player)s in this event (its external id or name)") % {"player": repr(player)}
    if role not in TeamMember.Role.values:
        return _("the role is member or reserve")
    return None


def seating_groups(event: Event) -> list[dict]:
    """Each team's players as a group the seating keeps apart (``never``: two of one team never share a
    table when the numbers allow it; see docs/seating-groups.md)."""
    return [
        {"kind": "team", "members": members, "policy": "never"}
        for members in selectors.event_team_members(event)
        if len(members) > 1
    ]


@transaction.atomic
def team_reserve_in(*, team: Team, reserve: Entry, member: Entry, round_number: int, by=None) -> TeamSwap:
    """Record that ``reserve`` plays round ``round_number`` in place of ``member`` (both of ``team``): the
    seating of that round seats the reserve and leaves the member out, for that round only. The round is not
    seated yet; a member is replaced, and a reserve comes in, once a round. ``by``: the account or API token."""
    event = lock_event(team.event_id)  # the seating of the round waits for this, or this sees the round seated
    roles = dict(TeamMember.objects.filter(team=team).values_list("entry_id", "role"))
    if roles.get(reserve.pk) != TeamMember.Role.RESERVE:
        raise TaikaiError(
            "not_a_reserve",
            _("%(player)s is not a reserve of %(team)s") % {"player": reserve.player, "team": team},
            field="reserve",
        )
    if roles.get(member.pk) != TeamMember.Role.MEMBER:
        raise TaikaiError(
            "not_a_member",
            _("%(player)s is not a member of %(team)s") % {"player": member.player, "team": team},
            field="member",
        )
    if reserve.status in (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED):
        raise TaikaiError(
            "reserve_unavailable",
            _("%(player)s cannot play: %(status)s")
            % {"player": reserve.player, "status": reserve.get_status_display()},
            field="reserve",
        )
    if round_number < 1 or selectors.event_round(event, round_number) is not None:
        raise TaikaiError(
            "round_seated",
            _("round %(round)s is seated already: a reserve comes in before the seating") % {"round": round_number},
            field="round",
        )
    taken = TeamSwap.objects.filter(round_number=round_number, team=team)
    if taken.filter(member=member).exists():
        raise TaikaiError(
            "member_replaced",
            _("%(player)s is replaced in round %(round)s already") % {"player": member.player, "round": round_number},
            field="member",
        )
    if taken.filter(reserve=reserve).exists():
        raise TaikaiError(
            "reserve_in",
            _("%(player)s comes in for round %(round)s already") % {"player": reserve.player, "round": round_number},
            field="reserve",
        )
    return TeamSwap.objects.create(
        team=team, round_number=round_number, reserve=reserve, member=member, by=recorder(by), by_token=token_of(by)
    )


def round_lineup_absent(event: Event, round_number: int) -> set[int]:
    """The members a reserve replaces in round ``round_number``: not seated in that round."""
    return set(
        TeamSwap.objects.filter(team__event=event, round_number=round_number).values_list("member_id", flat=True)
    )


def round_lineup_present(event: Event, round_number: int) -> set[int]:
    """The reserves in for round ``round_number``: seated in that round, even if marked away otherwise (never
    when withdrawn or disqualified)."""
    return set(
        TeamSwap.objects.filter(team__event=event, round_number=round_number)
        .exclude(reserve__status__in=(Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED))
        .values_list("reserve_id", flat=True)
    )
