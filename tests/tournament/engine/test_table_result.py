"""A table's placement side: placement points (順位点), oka, ties, overtime multiplier, forfeits (art. 42).

Expected values are hand arithmetic, written next to each case.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.errors import TournamentError
from tournament.engine.table_result import SeatOutcome, TableRules, table_result

# uma 30/10/−10/−30, start 25,000, return 30,000: oka = 5 × 4 = 20 to the top of a full table
RULES = TableRules(
    uma_4=(30, 10, -10, -30),
    uma_3=(20, 0, -20),
    uma_2=(10, -10),
    start_points=25000,
    return_points=30000,
)
FLAT = TableRules(uma_4=(30, 10, -10, -30), uma_3=(20, 0, -20), uma_2=(10, -10))  # start = return


def seats(*points):
    return [SeatOutcome(player_id=f"p{i}", final_points=p) for i, p in enumerate(points)]


def test_table_result_four_players_hand_arithmetic():
    result = table_result(seats(40000, 30000, 20000, 10000), RULES)
    # point scores 10, 0, −10, −20; uma 30, 10, −10, −30; oka 20 to first
    assert [s.placement for s in result.seats] == [1, 2, 3, 4]
    assert [s.point_score for s in result.seats] == [10, 0, -10, -20]
    assert [s.placement_points for s in result.seats] == [30, 10, -10, -30]
    assert [s.oka for s in result.seats] == [20, 0, 0, 0]
    assert [s.game_points for s in result.seats] == [60, 10, -20, -50]
    assert [s.advanced for s in result.seats] == [True, False, False, False]


def test_table_result_placement_follows_points_not_seats():
    result = table_result(seats(12300, 51700, 25000, 11000), RULES)
    # seat 1 first: 21.7 + 30 + 20 = 71.7; seat 2: −5 + 10 = 5; seat 0: −17.7 − 10 = −27.7; seat 3: −19 − 30 = −49
    assert [s.placement for s in result.seats] == [3, 1, 2, 4]
    assert [s.game_points for s in result.seats] == [F("-27.7"), F("71.7"), F(5), F(-49)]


def test_table_result_split_tie_shares_placement_points_and_oka():
    result = table_result(seats(35000, 35000, 20000, 10000), RULES)
    # first and second share (30 + 10) / 2 = 20 and oka 20 / 2 = 10; both advance
    assert [s.placement for s in result.seats] == [1, 1, 3, 4]
    assert [s.placement_points for s in result.seats] == [20, 20, -10, -30]
    assert [s.oka for s in result.seats] == [10, 10, 0, 0]
    assert [s.game_points for s in result.seats] == [35, 35, -20, -50]
    assert [s.advanced for s in result.seats] == [True, True, False, False]


def test_table_result_split_three_way_tie_keeps_exact_thirds():
    result = table_result(seats(30000, 30000, 30000, 10000), RULES)
    # (30 + 10 − 10) / 3 = 10 each, oka 20 / 3 each
    assert [s.placement_points for s in result.seats] == [10, 10, 10, -30]
    assert [s.oka for s in result.seats] == [F(20, 3)] * 3 + [0]
    assert [s.game_points for s in result.seats] == [F(50, 3)] * 3 + [-50]


def test_table_result_split_tie_for_last_shares_the_bottom_places():
    result = table_result(seats(50000, 30000, 10000, 10000), RULES)
    # (−10 − 30) / 2 = −20 each
    assert [s.placement for s in result.seats] == [1, 2, 3, 3]
    assert [s.placement_points for s in result.seats] == [30, 10, -20, -20]


def test_table_result_seat_order_tie_ranks_the_earlier_seat_higher():
    rules = TableRules(uma_4=(30, 10, -10, -30), start_points=25000, return_points=30000, tie_rule="seat_order")
    result = table_result(seats(20000, 35000, 35000, 10000), rules)
    # seat 1 before seat 2: 5 + 30 + 20 = 55 and 5 + 10 = 15; seat 0: −10 − 10 = −20; seat 3: −20 − 30 = −50
    assert [s.placement for s in result.seats] == [3, 1, 2, 4]
    assert [s.game_points for s in result.seats] == [-20, 55, 15, -50]
    assert [s.advanced for s in result.seats] == [False, True, False, False]


@pytest.mark.parametrize(
    ("multiplier", "expected"),
    [
        (1, [30, 10, -10, -30]),
        (2, [60, 20, -20, -60]),  # 39条③ 2年春: 順位点を2倍
        (3, [90, 30, -30, -90]),
    ],
)
def test_art39_3_overtime_multiplies_placement_points(multiplier, expected):
    result = table_result(seats(40000, 30000, 20000, 10000), RULES, multiplier=multiplier)
    assert [s.placement_points for s in result.seats] == expected
    assert result.seats[0].oka == 20  # oka is not a placement point: not multiplied
    assert sum(s.game_points for s in result.seats) == 0


def test_table_result_three_player_table_uses_three_player_placement_points():
    result = table_result(seats(40000, 20000, 15000), RULES)
    # oka 5 × 3 = 15; 10 + 20 + 15 = 45; −10 + 0 = −10; −15 − 20 = −35
    assert [s.game_points for s in result.seats] == [45, -10, -35]


def test_table_result_two_player_table_uses_two_player_placement_points():
    result = table_result(seats(22000, 28000), FLAT)
    # start = return: no oka; −3 − 10 = −13; 3 + 10 = 13
    assert [s.game_points for s in result.seats] == [-13, 13]


def test_art42_absent_before_the_game_forfeits_sole_last_placement_points():
    # given: four seated, p3 absent before the game; the other three play a three-player game
    outcome = [*seats(40000, 20000, 15000), SeatOutcome("p3", None, "absent_before")]
    result = table_result(outcome, RULES)
    # then: three-player uma for the players, oka 5 × 3 = 15; the absentee takes −30 (4-player last)
    assert [s.game_points for s in result.seats] == [45, -10, -35, -30]
    absentee = result.seats[3]
    assert (absentee.forfeit, absentee.placement, absentee.advanced, absentee.oka) == (True, None, False, 0)
    assert result.forfeit_total == -30
    assert (result.players_seated, result.players_finished) == (4, 3)


def test_art42_absent_during_the_game_keeps_exchanged_points_and_forfeits():
    # given: p1 left with 18,000 points; the three others finished on 40,000, 22,000 and 20,000
    outcome = [
        SeatOutcome("p0", 40000),
        SeatOutcome("p1", 18000, "absent_during"),
        SeatOutcome("p2", 22000),
        SeatOutcome("p3", 20000),
    ]
    result = table_result(outcome, RULES)
    # p0: 10 + 20 + oka 5 × 4 = 50; p2: −8 + 0 = −8; p3: −10 − 20 = −30; p1: −12 − 30 = −42
    assert [s.game_points for s in result.seats] == [50, -42, -8, -30]
    assert [s.placement for s in result.seats] == [1, None, 2, 3]
    assert sum(s.game_points for s in result.seats) == result.forfeit_total == -30


def test_art42_forfeit_is_multiplied_in_overtime():
    outcome = [*seats(40000, 20000, 15000), SeatOutcome("p3", None, "absent_before")]
    result = table_result(outcome, RULES, multiplier=2)
    assert result.seats[3].game_points == -60


def test_art42_forfeit_at_a_three_player_table_takes_three_player_last():
    outcome = [*seats(30000, 20000), SeatOutcome("p2", None, "absent_before")]
    assert table_result(outcome, FLAT).seats[2].game_points == -20


def test_table_result_advancing_places_setting():
    rules = TableRules(uma_4=(30, 10, -10, -30), advancing_places=2)
    result = table_result(seats(40000, 30000, 20000, 10000), rules)
    assert [s.advanced for s in result.seats] == [True, True, False, False]


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: table_result(seats(40000, 30000, 20000, 10001), RULES), "points_not_zero_sum"),
        (lambda: table_result(seats(100000), RULES), "invalid_table_size"),
        (lambda: table_result(seats(*[20000] * 5), RULES), "invalid_table_size"),
        (lambda: table_result(seats(40000, 30000, 20000, 10000), RULES, multiplier=0), "invalid_multiplier"),
        (
            lambda: table_result(
                [
                    SeatOutcome("a", 50000),
                    SeatOutcome("b", None, "absent_before"),
                    SeatOutcome("c", None, "absent_before"),
                ],
                RULES,
            ),
            "too_few_players",
        ),
        (lambda: TableRules(uma_4=(30, 10, -10, -20)), "invalid_table_rules"),
        (lambda: TableRules(uma_4=(30, -10)), "invalid_table_rules"),
        (lambda: TableRules(uma_4=(10, 30, -10, -30)), "invalid_table_rules"),
        (lambda: TableRules(uma_4=(30.0, 10, -10, -30)), "invalid_table_rules"),
        (lambda: TableRules(tie_rule="coin_toss"), "invalid_table_rules"),
        (lambda: SeatOutcome("a", 1000, "absent_before"), "invalid_seat_outcome"),
        (lambda: SeatOutcome("a", None), "invalid_seat_outcome"),
        (lambda: SeatOutcome("a", 1000, "gone"), "invalid_seat_outcome"),
    ],
)
def test_table_result_invalid_input_raises_a_coded_error(call, code):
    with pytest.raises(TournamentError) as caught:
        call()
    assert caught.value.code == code


@st.composite
def finished_tables(draw):
    size = draw(st.sampled_from([2, 3, 4]))
    start = 25000
    # draw size − 1 scores in hundreds, the last one closes the sum (ties are likely with a coarse grid)
    deltas = draw(st.lists(st.integers(-100, 100).map(lambda x: x * 500), min_size=size - 1, max_size=size - 1))
    points = [start + d for d in deltas]
    points.append(start * size - sum(points))
    return points


@settings(max_examples=200, deadline=None)
@given(
    points=finished_tables(),
    tie_rule=st.sampled_from(["split", "seat_order"]),
    multiplier=st.integers(1, 5),
    return_points=st.sampled_from([25000, 30000]),
)
def test_property_placement_points_sum_to_zero_without_forfeits(points, tie_rule, multiplier, return_points):
    rules = TableRules(
        uma_4=(30, 10, -10, -30),
        uma_3=(F(50, 3), 0, F(-50, 3)),
        start_points=25000,
        return_points=return_points,
        tie_rule=tie_rule,
    )
    result = table_result(seats(*points), rules, multiplier=multiplier)
    assert sum(s.placement_points for s in result.seats) == 0
    assert sum(s.game_points for s in result.seats) == 0
    assert sum(s.oka for s in result.seats) == F((return_points - 25000) * len(points), 1000)
    # higher points never get fewer placement points; equal points get equal ones under split
    for a in result.seats:
        for b in result.seats:
            if a.final_points > b.final_points:
                assert a.placement < b.placement and a.placement_points >= b.placement_points
            if a.final_points == b.final_points and tie_rule == "split":
                assert a.placement == b.placement and a.game_points == b.game_points
    placements = sorted(s.placement for s in result.seats)
    assert placements[0] == 1
    if tie_rule == "seat_order":
        assert placements == list(range(1, len(points) + 1))


def test_deposits_lost_at_game_end_reduce_the_expected_total():
    # 1000 of riichi deposits left on the table and lost: the finals add up to 4 × 25000 − 1000
    rules = TableRules(start_points=25000, return_points=25000)
    seats = [SeatOutcome(i, p) for i, p in enumerate((40000, 30000, 20000, 9000))]
    result = table_result(seats, rules, deposits_lost=1000)
    assert [r.placement for r in result.seats] == [1, 2, 3, 4]
    assert sum(r.game_points for r in result.seats) == F(-1)
    with pytest.raises(TournamentError) as info:
        table_result(seats, rules)
    assert info.value.code == "points_not_zero_sum"
