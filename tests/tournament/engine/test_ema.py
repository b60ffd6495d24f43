"""The EMA engine: base ranks (ties share the better place), places recounted, points as decimals, the
checks of a results file and the MERS weight, all worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournament.engine.ema import (
    EmaLine,
    base_rank,
    base_ranks,
    ema_report,
    is_ema_number,
    mers_weight,
    places_from_ranks,
    points_text,
)
from tournament.engine.errors import TournamentError


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2, 2, 4, 5], [1000, 750, 750, 250, 0]),  # the example: 1000·3/4 = 750, 1000·1/4 = 250
        ([1, 2, 3, 4, 5], [1000, 750, 500, 250, 0]),
        ([1, 1, 3, 3], [1000, 1000, 333, 333]),  # 1000·1/3 = 333.3 → 333
        ([1, 2, 3], [1000, 500, 0]),
        ([1, 1], [1000, 1000]),  # everyone tied for first
        ([1], [1000]),  # one ranked player: 1000
        ([1, 2, 3, 4, 5, 6, 7, 8, 9], [1000, 875, 750, 625, 500, 375, 250, 125, 0]),
        ([1, 2, 3, 4, 5, 6, 7], [1000, 833, 667, 500, 333, 167, 0]),  # 666.7 → 667, 166.7 → 167
    ],
)
def test_base_ranks_by_hand(places, expected):
    assert base_ranks(places) == expected


def test_a_base_rank_rounds_half_up():
    # 1000 · (100 − 75) / 99 = 252.52… → 253; 1000 · (201 − 101) / 200 = 500 exactly; 1000 · 1/8 = 125
    assert base_rank(place=75, players=100) == 253
    assert base_rank(place=101, players=201) == 500
    assert base_rank(place=8, players=9) == 125
    # 1000 · (17 − 16) / 16 = 62.5 → 63 (half up, not to even)
    assert base_rank(place=16, players=17) == 63


@pytest.mark.parametrize(("place", "players"), [(0, 5), (6, 5), (1, 0), (True, 5)])
def test_a_place_outside_the_field_is_refused(place, players):
    with pytest.raises(TournamentError):
        base_rank(place=place, players=players)


def test_places_are_recounted_among_the_rows_kept_ties_sharing_the_better_place():
    assert places_from_ranks([1, 3, 3, 7, 8]) == [1, 2, 2, 4, 5]
    assert places_from_ranks([2, 2, 2]) == [1, 1, 1]
    assert places_from_ranks([]) == []
    with pytest.raises(TournamentError):
        places_from_ranks([1, 3, 2])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(91, 2), "45.5"),
        (Fraction(-49, 4), "-12.25"),
        (Fraction(1, 8), "0.125"),
        (Fraction(10, 3), "3.33"),
        (Fraction(-10, 3), "-3.33"),
        (Fraction(2, 3), "0.67"),  # half away from zero past 2 places
        (Fraction(-1, 300), "0.00"),  # no "-0.00"
        (0, "0"),
        (-7, "-7"),
        (Fraction(12345, 10), "1234.5"),
    ],
)
def test_points_are_decimals_never_fractions(value, text):
    assert points_text(value) == text


def test_ema_numbers_are_eight_digits():
    assert is_ema_number("04090055")
    assert not is_ema_number("4090055")  # a leading zero lost
    assert not is_ema_number("04-001")
    assert not is_ema_number("040900551")
    assert not is_ema_number("０４０９００５５")  # full-width digits are not ASCII digits


def line(entry_id, rank, ema_number="04090055", country="DE", points=Fraction(0)):
    return EmaLine(
        entry_id=entry_id,
        rank=rank,
        name=f"Player {entry_id}",
        last_name=f"Last {entry_id}",
        first_name="First",
        ema_number=ema_number,
        country=country,
        points=points,
    )


def test_a_clean_report_has_places_base_ranks_and_its_non_members():
    lines = [
        line(1, 1, points=Fraction(91, 2)),
        line(2, 2, ema_number=""),
        line(3, 2),
        line(4, 5, country="jp"),
    ]
    report = ema_report(lines, imbalance=Fraction(0), substitutes=3)
    assert report.problems == ()
    assert [(r.place, r.base_rank) for r in report.rows] == [(1, 1000), (2, 667), (2, 667), (4, 0)]
    assert [r.entry_id for r in report.non_members] == [2]
    assert report.rows[0].points_text == "45.5" and report.rows[3].country == "JP"
    assert report.countries == 2


def test_every_problem_is_listed_at_once():
    lines = [line(1, 1, ema_number="04-001"), line(2, 2, country="")]
    report = ema_report(lines, imbalance=Fraction(-5, 2), substitutes=4)
    assert [(p.code, p.entry_id) for p in report.problems] == [
        ("ema_number_invalid", 1),
        ("country_missing", 2),
        ("points_unbalanced", None),
        ("too_many_substitutes", None),
    ]
    assert "-2.5" in report.problems[2].message and "04-001" in report.problems[0].message


def test_no_ranked_player_is_a_problem():
    report = ema_report([], imbalance=Fraction(0), substitutes=0)
    assert [p.code for p in report.problems] == ["no_ranked_players"]


@pytest.mark.parametrize(
    ("days", "players", "countries", "qualification", "total"),
    [
        (1, 20, 2, False, Fraction(1)),  # a local one-day event
        (2, 40, 5, False, Fraction(2)),  # 40 players and 5 countries: no extra yet
        (2, 41, 6, False, Fraction(3)),  # 41 players +0.5, 6 countries +0.5
        (2, 80, 9, False, Fraction(3)),  # the top of both half bands
        (
            2,
            81,
            10,
            False,
            Fraction(4),
        ),  # 81 players +1; 10 countries +1 (the current page; the 2018 page: +0.5)
        (3, 120, 15, True, Fraction(6)),  # 3 + 1 + 1 + 1
        (5, 10, 1, False, Fraction(3)),  # ASSUMED: more than 3 days counts as 3
        (1, 41, 0, True, Fraction(5, 2)),
    ],
)
def test_mers_weights_by_hand(days, players, countries, qualification, total):
    assert mers_weight(days=days, players=players, countries=countries, qualification=qualification).total == total


def test_a_mers_weight_keeps_its_parts():
    weight = mers_weight(days=2, players=60, countries=12, qualification=True)
    assert (weight.duration, weight.players, weight.countries, weight.qualification) == (
        2,
        Fraction(1, 2),
        1,
        1,
    )
    with pytest.raises(TournamentError):
        mers_weight(days=0, players=10, countries=1, qualification=False)
