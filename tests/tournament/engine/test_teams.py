"""Team standings (団体戦), worked by hand for each rule."""

from fractions import Fraction as F

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.teams import TeamRule, team_standings

# two rounds; team A: a1, a2, a3; team B: b1, b2; team C: c1 (a small team)
TEAMS = {"A": ["a1", "a2", "a3"], "B": ["b1", "b2"], "C": ["c1"]}
ROUNDS = {
    "a1": {1: F(30), 2: F(-10)},
    "a2": {1: F(-20), 2: F(15)},
    "a3": {1: F(5)},  # sat out round 2
    "b1": {1: F(25), 2: F(25)},
    "b2": {1: F(-40), 2: F(-5)},
    "c1": {1: F(10), 2: F(-25)},
}
TOTALS = {
    "a1": F(20),
    "a2": F(-5),
    "a3": F(5),
    "b1": F(50),
    "b2": F(-46),
    "c1": F(-15),
}  # b2 lost 1 to a penalty


def rows(rule):
    return [(r.team_id, r.rank, r.score, r.rounds) for r in team_standings(TEAMS, ROUNDS, TOTALS, rule)]


def test_sum_adds_every_members_total_points_penalties_included():
    # A: 20 − 5 + 5 = 20; B: 50 − 46 = 4; C: −15
    assert [(t, rank, score) for t, rank, score, _ in rows(TeamRule("sum"))] == [
        ("A", 1, 20),
        ("B", 2, 4),
        ("C", 3, -15),
    ]


def test_best_two_per_round_counts_the_two_best_members_who_played_it():
    # round 1: A 30 + 5 = 35, B 25 − 40 = −15, C 10; round 2: A 15 − 10 = 5, B 25 − 5 = 20, C −25
    assert rows(TeamRule("best", best=2)) == [
        ("A", 1, F(40), ((1, F(35)), (2, F(5)))),
        ("B", 2, F(5), ((1, F(-15)), (2, F(20)))),
        ("C", 3, F(-15), ((1, F(10)), (2, F(-25)))),
    ]


def test_placement_points_rank_the_teams_each_round_and_ties_share_them():
    # round 1 sums: A 15, B −15, C 10 → A 2, C 1, B 0; round 2: A 5, B 20, C −25 → B 2, A 1, C 0
    assert rows(TeamRule("placement")) == [
        ("A", 1, F(3), ((1, F(2)), (2, F(1)))),
        ("B", 2, F(2), ((1, F(0)), (2, F(2)))),
        ("C", 3, F(1), ((1, F(1)), (2, F(0)))),
    ]
    tied = team_standings(
        {"X": ["x"], "Y": ["y"], "Z": ["z"]},
        {"x": {1: F(5)}, "y": {1: F(5)}, "z": {1: F(0)}},
        {},
        TeamRule("placement"),
    )
    # X and Y tie for first: they share 2 and 1, 3/2 each; equal scores share a rank
    assert [(r.team_id, r.rank, r.score) for r in tied] == [
        ("X", 1, F(3, 2)),
        ("Y", 1, F(3, 2)),
        ("Z", 3, F(0)),
    ]


@pytest.mark.parametrize(("kind", "best"), [("average", 2), ("best", 0), ("best", True)])
def test_an_unknown_rule_or_a_count_below_one_is_refused(kind, best):
    with pytest.raises(TournamentError):
        TeamRule(kind, best=best)
