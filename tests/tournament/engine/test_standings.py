"""Art. 41 overall standings (総合順位), with penalty deductions (art. 37) and disqualification (art. 43)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.errors import TournamentError
from tournament.engine.standings import (
    GameRecord,
    PenaltyDeduction,
    StandingsOptions,
    compute_standings,
)


def g(player, round_number, points, advanced=False):
    return GameRecord(player, round_number, F(points), advanced)


def by_player(rows):
    return {row.player_id: row for row in rows}


def test_art41_more_advances_rank_higher_than_more_points():
    games = [g("A", 1, 80), g("B", 1, 5, advanced=True)]
    rows = compute_standings(["A", "B"], games)
    assert [(r.player_id, r.rank) for r in rows] == [("B", 1), ("A", 2)]


def test_art41_equal_advances_rank_by_total_points():
    games = [g("A", 1, 10, True), g("A", 2, -5), g("B", 1, 3, True), g("B", 2, 4)]
    rows = compute_standings(["A", "B"], games)
    # A: 5, B: 7
    assert [(r.player_id, r.rank, r.total_points) for r in rows] == [("B", 1, 7), ("A", 2, 5)]


def test_art41_equal_advances_and_points_share_the_rank():
    games = [g("A", 1, 30, True), g("B", 1, 10), g("C", 1, 10), g("D", 1, -50)]
    rows = compute_standings(["A", "B", "C", "D"], games)
    assert [r.rank for r in rows] == [1, 2, 2, 4]
    assert [r.player_id for r in rows] == ["A", "B", "C", "D"]


def test_art41_exact_fractions_decide_and_tie():
    games = [g("A", 1, F(1, 3)), g("A", 2, F(1, 3)), g("B", 1, F(2, 3)), g("C", 1, F(2, 3) - F(1, 1000))]
    rows = compute_standings(["C", "B", "A"], games)
    assert [(r.player_id, r.rank) for r in rows] == [("B", 1), ("A", 1), ("C", 3)]


def test_art41_swiss_precedence_ranks_by_total_points_only():
    games = [g("A", 1, 80), g("B", 1, 5, advanced=True)]
    rows = compute_standings(["A", "B"], games, options=StandingsOptions(precedence=("total_points",)))
    assert [r.player_id for r in rows] == ["A", "B"]


def test_art41_row_carries_advances_games_and_round_history():
    games = [g("A", 3, 1), g("A", 1, 2, True), g("A", 2, 4, True)]
    (row,) = compute_standings(["A"], games)
    assert (row.advances, row.games, row.total_points) == (2, 3, 7)
    assert [r.round_number for r in row.history] == [1, 2, 3]


def test_art41_player_without_games_is_listed_with_zero():
    rows = by_player(compute_standings(["A", "B"], [g("A", 1, -3)]))
    assert (rows["B"].games, rows["B"].total_points, rows["B"].rank) == (0, 0, 1)


def test_art37_penalty_points_are_deducted_from_the_total():
    # 400 penalty points (100 × 4 players) are 0.4 game points
    rows = by_player(compute_standings(["A", "B"], [g("A", 1, 10), g("B", 1, 10)], [PenaltyDeduction("A", 400, 1)]))
    assert rows["A"].total_points == F("9.6")
    assert rows["A"].penalty_points == 400
    assert (rows["B"].rank, rows["A"].rank) == (1, 2)


def test_art43_disqualified_player_stays_listed_without_award_eligibility():
    games = [g("A", 1, 50, True), g("B", 1, 30), g("C", 1, 30), g("D", 1, 10)]
    rows = compute_standings(["A", "B", "C", "D"], games, disqualified={"A"})
    assert [(r.player_id, r.rank, r.award_rank, r.disqualified) for r in rows] == [
        ("A", 1, None, True),
        ("B", 2, 1, False),
        ("C", 2, 1, False),
        ("D", 4, 3, False),
    ]


def test_art43_disqualified_player_inside_a_tie_does_not_shift_the_tie():
    games = [g("A", 1, 50), g("B", 1, 30), g("C", 1, 30), g("D", 1, 10)]
    rows = compute_standings(["A", "B", "C", "D"], games, disqualified={"B"})
    assert [(r.player_id, r.award_rank) for r in rows] == [("A", 1), ("B", None), ("C", 2), ("D", 3)]


@pytest.mark.parametrize(
    ("precedence", "code"),
    [
        ((), "empty_precedence"),
        (("advances", "wins"), "unknown_precedence_key"),
        (("total_points", "total_points"), "duplicate_precedence_key"),
    ],
)
def test_art41_precedence_is_validated(precedence, code):
    with pytest.raises(TournamentError) as caught:
        StandingsOptions(precedence=precedence)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: compute_standings(["A"], [g("Z", 1, 1)]), "unknown_player"),
        (lambda: compute_standings(["A", "A"], []), "duplicate_player"),
        (lambda: compute_standings(["A"], [GameRecord("A", 1, 1.5, False)]), "invalid_game_points"),
        (lambda: compute_standings(["A"], [], [PenaltyDeduction("Z", 100)]), "unknown_player"),
        (lambda: compute_standings(["A"], [], [PenaltyDeduction("A", -100)]), "invalid_penalty_points"),
    ],
)
def test_art41_invalid_input_raises_a_coded_error(call, code):
    with pytest.raises(TournamentError) as caught:
        call()
    assert caught.value.code == code


POINTS = st.fractions(min_value=-3, max_value=3, max_denominator=6)


@settings(max_examples=150, deadline=None)
@given(
    results=st.lists(st.lists(st.tuples(POINTS, st.booleans()), max_size=4), min_size=1, max_size=12),
    penalties=st.lists(st.tuples(st.integers(0, 11), st.sampled_from([0, 200, 400])), max_size=4),
    disqualified=st.sets(st.integers(0, 11), max_size=3),
    precedence=st.sampled_from([("advances", "total_points"), ("total_points",), ("total_points", "advances")]),
)
def test_art41_property_ranks_are_one_based_and_ties_share(results, penalties, disqualified, precedence):
    players = list(range(len(results)))
    games = [
        GameRecord(p, rnd, pts, adv) for p, played in enumerate(results) for rnd, (pts, adv) in enumerate(played, 1)
    ]
    deductions = [PenaltyDeduction(p, pts) for p, pts in penalties if p < len(players)]
    rows = compute_standings(players, games, deductions, disqualified, StandingsOptions(precedence))

    # independent reference: Fraction sums and rank = 1 + number of strictly better players
    def reference_key(p):
        total = sum((pts for pts, _ in results[p]), F(0)) - sum(
            F(d.points, 1000) for d in deductions if d.player_id == p
        )
        advances = sum(adv for _, adv in results[p])
        return tuple({"advances": advances, "total_points": total}[k] for k in precedence)

    keys = {p: reference_key(p) for p in players}
    eligible = [p for p in players if p not in disqualified]
    assert sorted(r.player_id for r in rows) == players
    for row in rows:
        assert row.rank == 1 + sum(keys[q] > keys[row.player_id] for q in players)
        if row.player_id in disqualified:
            assert row.award_rank is None
        else:
            assert row.award_rank == 1 + sum(keys[q] > keys[row.player_id] for q in eligible)
    assert rows[0].rank == 1
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
