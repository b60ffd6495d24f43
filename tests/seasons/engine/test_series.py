"""The series rules, worked by hand on three events of three players."""

from fractions import Fraction

import pytest

from seasons.engine.series import EventResult, SeriesError, SeriesRule, series_standings

# event 1: A 1st +30, B 2nd +10, C 3rd −40; event 2: B 1st +50, C 2nd 0, A 3rd −50; event 3: A 1st +20, C 2nd +20
A, B, C = 1, 2, 3
RESULTS = [
    EventResult(1, A, 1, Fraction(30)),
    EventResult(1, B, 2, Fraction(10)),
    EventResult(1, C, 3, Fraction(-40)),
    EventResult(2, B, 1, Fraction(50)),
    EventResult(2, C, 2, Fraction(0)),
    EventResult(2, A, 3, Fraction(-50)),
    EventResult(3, A, 1, Fraction(20)),
    EventResult(3, C, 2, Fraction(20)),
]


def table(lines):
    return [(line.rank, line.player_id, line.total, line.events) for line in lines]


def test_sum_of_points():
    # A: 30 − 50 + 20 = 0; B: 10 + 50 = 60; C: −40 + 0 + 20 = −20
    lines = series_standings(RESULTS, SeriesRule("sum"), event_order=[1, 2, 3])
    assert table(lines) == [(1, B, 60, 2), (2, A, 0, 3), (3, C, -20, 3)]
    assert all(r.counted for line in lines for r in line.results)
    assert [r.event_id for r in lines[1].results] == [1, 2, 3]


def test_best_n_of_m():
    # best 2: A 30 + 20 = 50 (−50 left out); B 10 + 50 = 60; C 0 + 20 = 20 (−40 left out)
    lines = series_standings(RESULTS, SeriesRule("best_n", best_n=2), event_order=[1, 2, 3])
    assert table(lines) == [(1, B, 60, 2), (2, A, 50, 3), (3, C, 20, 3)]
    a = lines[1]
    assert [(r.event_id, r.counted) for r in a.results] == [(1, True), (2, False), (3, True)]


def test_best_n_equal_values_keep_the_earlier_event():
    results = [EventResult(1, A, 1, Fraction(5)), EventResult(2, A, 1, Fraction(5))]
    [line] = series_standings(results, SeriesRule("best_n", best_n=1), event_order=[1, 2])
    assert [(r.event_id, r.counted) for r in line.results] == [(1, True), (2, False)]
    assert line.total == 5


def test_points_by_place():
    # table 10, 6, 3: A 10 + 3 + 10 = 23; B 6 + 10 = 16; C 3 + 6 + 6 = 15
    lines = series_standings(RESULTS, SeriesRule("place_points", place_points=(10, 6, 3)), event_order=[1, 2, 3])
    assert table(lines) == [(1, A, 23, 3), (2, B, 16, 2), (3, C, 15, 3)]


def test_a_place_past_the_table_scores_zero():
    lines = series_standings(RESULTS, SeriesRule("place_points", place_points=(10,)), event_order=[1, 2, 3])
    assert table(lines) == [(1, A, 20, 3), (2, B, 10, 2), (3, C, 0, 3)]


def test_ties_share_the_rank_and_exact_fractions():
    results = [
        EventResult(1, 7, 1, Fraction(1, 3)),
        EventResult(1, 5, 1, Fraction(1, 3)),
        EventResult(1, 9, 3, Fraction(-2, 3)),
    ]
    lines = series_standings(results, SeriesRule("sum"))
    assert table(lines) == [(1, 5, Fraction(1, 3), 1), (1, 7, Fraction(1, 3), 1), (3, 9, Fraction(-2, 3), 1)]


@pytest.mark.parametrize(
    ("rule", "code"),
    [
        (lambda: SeriesRule("median"), "invalid_rule"),
        (lambda: SeriesRule("best_n"), "invalid_best_n"),
        (lambda: SeriesRule("best_n", best_n=0), "invalid_best_n"),
        (lambda: SeriesRule("place_points"), "invalid_place_points"),
        (lambda: SeriesRule("place_points", place_points=(1.5,)), "invalid_place_points"),
    ],
)
def test_rules_that_cannot_apply_are_refused(rule, code):
    with pytest.raises(SeriesError) as refused:
        rule()
    assert refused.value.code == code


def test_two_results_of_one_player_in_one_event_are_refused():
    with pytest.raises(SeriesError):
        series_standings([EventResult(1, A, 1, Fraction(1)), EventResult(1, A, 2, Fraction(0))], SeriesRule("sum"))
