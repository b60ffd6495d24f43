"""Teams (団体戦).

* a team's members and reserves are entries of its event (``team_member_event``), no entry
  is in two teams (``team_member_twice``), a captain is one of the team (``team_captain``), a reserve in
  for a round is a reserve of the team and the player replaced a member (``team_swap_roles``); with no
  round hidden, the team standings made from the current results (penalty points deducted) are those
  made from the published standings (``team_standings``).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.utils.translation import gettext as _

from tournament.audit.records import THOUSAND, EventRecords, Violation
from tournament.models import Team, TeamMember, TeamSwap
from tournament.services.teams import team_standings_for, team_standings_from


def check_teams(records: EventRecords) -> list[Violation]:
    event = records.event
    teams = {team.pk: team for team in Team.objects.filter(event=event)}
    if not teams:
        return []
    violations = []
    rows = list(
        TeamMember.objects.filter(team__event=event).values_list("team_id", "entry_id", "role", "entry__event_id")
    )
    in_teams: dict[int, set[int]] = defaultdict(set)
    roles: dict[tuple[int, int], str] = {}
    for team_id, entry_id, role, entry_event in rows:
        in_teams[entry_id].add(team_id)
        roles[team_id, entry_id] = role
        if entry_event != event.pk:
            violations.append(
                Violation(
                    "team_member_event",
                    _("team %(team)s") % {"team": teams[team_id].name},
                    _("entry %(entry)s is an entry of another event") % {"entry": entry_id},
                )
            )
    for entry_id, team_ids in sorted(in_teams.items()):
        if len(team_ids) > 1:
            violations.append(
                Violation(
                    "team_member_twice",
                    _("entry %(entry)s") % {"entry": entry_id},
                    _("in %(count)s teams: %(teams)s")
                    % {"count": len(team_ids), "teams": ", ".join(sorted(teams[t].name for t in team_ids))},
                )
            )
    for team in teams.values():
        if team.captain_id is not None and (team.pk, team.captain_id) not in roles:
            violations.append(
                Violation(
                    "team_captain",
                    _("team %(team)s") % {"team": team.name},
                    _("the captain (entry %(entry)s) is not in the team") % {"entry": team.captain_id},
                )
            )
    for swap in TeamSwap.objects.filter(team__event=event):
        if (roles.get((swap.team_id, swap.reserve_id)), roles.get((swap.team_id, swap.member_id))) != (
            TeamMember.Role.RESERVE,
            TeamMember.Role.MEMBER,
        ):
            violations.append(
                Violation(
                    "team_swap_roles",
                    _("team %(team)s round %(round)s") % {"team": teams[swap.team_id].name, "round": swap.round_number},
                    _("entry %(reserve)s in for entry %(member)s: not a reserve and a member of the team")
                    % {"reserve": swap.reserve_id, "member": swap.member_id},
                )
            )
    return violations + _check_team_standings(records)


def _check_team_standings(records: EventRecords) -> list[Violation]:
    """The team standings from the current results, summed here, against those from the published rows."""
    event = records.event
    if not event.team_rule:
        return []
    current = [r for rows in records.results.values() for r in rows if r.is_current]
    hidden_from = event.standings_hidden_from_round
    if hidden_from is not None and any(records.tables[r.table_id].round.number >= hidden_from for r in current):
        return []  # the published standings leave the hidden rounds out: nothing to compare
    round_points: dict[int, dict[int, Fraction]] = defaultdict(dict)
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for row in current:
        number = records.tables[row.table_id].round.number
        round_points[row.entry_id][number] = round_points[row.entry_id].get(number, Fraction(0)) + row.game_points
        totals[row.entry_id] += row.game_points
    for penalty in records.penalties:
        if penalty.cancelled_at is None and penalty.points:  # art. 37 penalty points 反則点
            totals[penalty.entry_id] -= Fraction(penalty.points, THOUSAND)
    expected = {row.team.pk: row for row in team_standings_from(event, dict(round_points), dict(totals))}
    violations = []
    for row in team_standings_for(event):
        want = expected.get(row.team.pk)
        if want is None or (row.rank, row.score, row.rounds) != (want.rank, want.score, want.rounds):
            violations.append(
                Violation(
                    "team_standings",
                    _("team %(team)s") % {"team": row.team.name},
                    _(
                        "rank %(rank)s, score %(score)s; "
                        "the current results give rank %(expected_rank)s, score %(expected)s"
                    )
                    % {
                        "rank": row.rank,
                        "score": row.score,
                        "expected_rank": want.rank if want else "-",
                        "expected": want.score if want else "-",
                    },
                )
            )
    return violations
