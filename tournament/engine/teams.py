"""Team standings (団体戦): a team's score from its members' points, under one of three rules.

* ``sum``: every member's total points (the individual standings' totals, penalties included), summed;
* ``best``: each round, the best ``best`` members' game points of that round, summed over the rounds (a
  member who did not play the round counts nothing; fewer players than ``best`` count what they have);
* ``placement``: each round the teams are ranked by their members' game points summed for that round,
  and get team placement points: with ``n`` teams, ``n − 1`` for the first down to 0 for the last; teams
  tied share the points of the places they take (their mean, an exact fraction).

Teams are ranked by their score, best first; teams with equal scores share a rank (1, 2, 2, 4). Points are
exact fractions, never floats.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import TournamentError

RULES = ("sum", "best", "placement")


@dataclass(frozen=True)
class TeamRule:
    kind: str
    best: int = 2  # members counted per round under ``best``

    def __post_init__(self) -> None:
        if self.kind not in RULES:
            raise TournamentError(
                "invalid_team_rule",
                _("the team rule is one of %(rules)s") % {"rules": ", ".join(RULES)},
                field="team_rule",
            )
        if isinstance(self.best, bool) or not isinstance(self.best, int) or self.best < 1:
            raise TournamentError(
                "invalid_team_best", _("the members counted per round are 1 or more"), field="team_best"
            )


@dataclass(frozen=True)
class TeamRow:
    team_id: Hashable
    rank: int
    score: Fraction
    rounds: tuple[tuple[int, Fraction], ...]  # (round number, the team's score for the round), in order


def team_standings(
    teams: Mapping[Hashable, Sequence[Hashable]],
    round_points: Mapping[Hashable, Mapping[int, Fraction]],
    totals: Mapping[Hashable, Fraction],
    rule: TeamRule,
) -> tuple[TeamRow, ...]:
    """``teams``: team → its members; ``round_points``: member → round → game points of that round;
    ``totals``: member → total points (the individual standings'). A member missing from either counts
    nothing."""
    rounds = sorted({r for member_rounds in round_points.values() for r in member_rounds})
    per_round = {team: {r: _members_round(members, round_points, r) for r in rounds} for team, members in teams.items()}
    if rule.kind == "sum":
        scores = {
            team: sum((Fraction(totals.get(m, 0)) for m in members), Fraction(0)) for team, members in teams.items()
        }
        shown = {
            team: {r: sum(points, Fraction(0)) for r, points in by_round.items()}
            for team, by_round in per_round.items()
        }
    elif rule.kind == "best":
        shown = {
            team: {r: sum(sorted(points, reverse=True)[: rule.best], Fraction(0)) for r, points in by_round.items()}
            for team, by_round in per_round.items()
        }
        scores = {team: sum(by_round.values(), Fraction(0)) for team, by_round in shown.items()}
    else:
        sums = {
            team: {r: sum(points, Fraction(0)) for r, points in by_round.items()}
            for team, by_round in per_round.items()
        }
        shown = {team: {} for team in teams}
        for r in rounds:
            for team, points in _placement_points({team: sums[team][r] for team in teams}).items():
                shown[team][r] = points
        scores = {team: sum(by_round.values(), Fraction(0)) for team, by_round in shown.items()}
    ordered = sorted(teams, key=lambda team: (-scores[team], str(team)))
    rows, rank = [], 0
    for index, team in enumerate(ordered):
        if index == 0 or scores[team] != scores[ordered[index - 1]]:
            rank = index + 1
        rows.append(TeamRow(team, rank, scores[team], tuple((r, shown[team].get(r, Fraction(0))) for r in rounds)))
    return tuple(rows)


def _members_round(members: Sequence[Hashable], round_points, r: int) -> list[Fraction]:
    """The game points of the members who played round ``r``."""
    return [Fraction(round_points[m][r]) for m in members if r in round_points.get(m, {})]


def _placement_points(sums: Mapping[Hashable, Fraction]) -> dict[Hashable, Fraction]:
    """Team placement points of one round: ``n − 1`` … 0 by place; tied teams share the mean of theirs."""
    ordered = sorted(sums, key=lambda team: -sums[team])
    n, out, index = len(ordered), {}, 0
    while index < n:
        tied = [t for t in ordered[index:] if sums[t] == sums[ordered[index]]]
        places = range(index, index + len(tied))
        shared = Fraction(sum(n - 1 - p for p in places), len(tied))
        for team in tied:
            out[team] = shared
        index += len(tied)
    return out
