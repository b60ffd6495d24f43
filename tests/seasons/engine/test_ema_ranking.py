"""The EMA ranking projection, worked by hand."""

from datetime import date
from fractions import Fraction

import pytest

from seasons.engine.ema_ranking import RankedResult, age_factor, decimal_text, ema_ranking, part_a_count

AS_OF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("n", "count"), [(5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 9), (11, 10), (14, 13), (15, 13), (20, 17)]
)
def test_part_a_counts_the_best_5_plus_ceil_four_fifths_of_the_rest(n, count):
    assert part_a_count(n) == count


@pytest.mark.parametrize(
    ("ends_on", "factor"),
    [
        (date(2025, 6, 30), 1),
        (date(2024, 6, 30), 1),  # exactly one year before: still the last 12 months (assumed)
        (date(2024, 6, 29), Fraction(1, 2)),
        (date(2023, 6, 30), Fraction(1, 2)),
        (date(2023, 6, 29), 0),
        (date(2025, 7, 1), 0),  # not yet ended on the day of reckoning
    ],
)
def test_age_factor(ends_on, factor):
    assert age_factor(ends_on, AS_OF) == factor


def test_a_small_series_worked_by_hand():
    # given
    results = [
        # player 1: 1000 at a MERS 2 event this year; 500 at a MERS 1 event 16 months ago (weight ½);
        # one older than two years (weight 0: not counted)
        RankedResult(1, 1, 1000, Fraction(2), date(2025, 5, 1)),
        RankedResult(2, 1, 500, Fraction(1), date(2024, 3, 1)),
        RankedResult(3, 1, 900, Fraction(1), date(2022, 1, 1)),
        # player 2: one result only: not ranked
        RankedResult(1, 2, 0, Fraction(2), date(2025, 5, 1)),
        # player 3: ten results of weight 1: 1000, 900, …, 100
        *[RankedResult(10 + i, 3, 1000 - 100 * i, Fraction(1), date(2025, 1, 1)) for i in range(10)],
    ]
    # when
    ranking = ema_ranking(results, as_of=AS_OF)
    # then
    assert [(r.rank, r.player_id) for r in ranking] == [(1, 3), (2, 1)]
    third, first = ranking
    # player 3: part A over the best 9 of 10: (1000 + … + 200)/9 = 5400/9 = 600; part B (1000+900+800+700)/4 = 850
    assert (third.part_a, third.part_b, third.score) == (600, 850, 725)
    assert third.part_a_count == 9 and third.results == 10
    # player 1: padded to 5 with three results of 0, weight 1:
    # part A = (1000·2 + 500·½ + 0 + 0 + 0) / (2 + ½ + 1 + 1 + 1) = 2250 / 5.5 = 4500/11
    # part B = (1000·2 + 500·½ + 0 + 0) / (2 + ½ + 1 + 1) = 2250 / 4.5 = 500
    # score = (4500/11 + 500) / 2 = 5000/11 = 454.5454…
    assert first.part_a == Fraction(4500, 11)
    assert first.part_b == 500
    assert first.score == Fraction(5000, 11)
    assert decimal_text(first.score) == "454.55" and decimal_text(first.part_a) == "409.09"
    assert first.results == 2 and len(first.detail) == 5
    assert [d.event_id for d in first.detail] == [1, 2, None, None, None]


def test_equal_base_ranks_take_the_heavier_weight_first():
    results = [
        RankedResult(1, 1, 800, Fraction(1), date(2025, 1, 1)),
        RankedResult(2, 1, 800, Fraction(3), date(2025, 1, 1)),
    ] + [RankedResult(3 + i, 1, 100, Fraction(1), date(2025, 1, 1)) for i in range(3)]
    [ranked] = ema_ranking(results, as_of=AS_OF)
    assert [d.event_id for d in ranked.detail][:2] == [2, 1]


def test_equal_scores_share_the_rank():
    results = [RankedResult(e, p, 600, Fraction(1), date(2025, 1, 1)) for e in (1, 2) for p in (4, 8)]
    assert [(r.rank, r.player_id) for r in ema_ranking(results, as_of=AS_OF)] == [(1, 4), (1, 8)]
