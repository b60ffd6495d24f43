"""Art. 39 overtime (延長戦): labels, multipliers and when the game ends; regular hand labels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.errors import TournamentError
from tournament.engine.overtime import (
    FIRST_OVERTIME_HAND,
    OvertimeHand,
    OvertimeHandOutcome,
    overtime_after_hand,
    overtime_hand_at,
    placement_multiplier,
    regular_hand_label,
)


def test_art39_2_overtime_opens_at_year1_spring():
    # given / when / then: 延長戦は1年春から開局
    assert OvertimeHand(year=1, season=0) == FIRST_OVERTIME_HAND
    assert FIRST_OVERTIME_HAND.label_ja == "1年春"
    assert FIRST_OVERTIME_HAND.label_en == "Y1 Spring"


@pytest.mark.parametrize(
    ("index", "label_ja", "label_en"),
    [
        (0, "1年春", "Y1 Spring"),
        (1, "1年夏", "Y1 Summer"),
        (2, "1年秋", "Y1 Autumn"),
        (3, "1年冬", "Y1 Winter"),
        (4, "2年春", "Y2 Spring"),
        (7, "2年冬", "Y2 Winter"),
        (9, "3年夏", "Y3 Summer"),
    ],
)
def test_art39_a_year_is_four_seasons_one_hand_each(index, label_ja, label_en):
    hand = overtime_hand_at(index)
    assert (hand.label_ja, hand.label_en) == (label_ja, label_en)


@pytest.mark.parametrize(("year", "multiplier"), [(1, 1), (2, 2), (3, 3), (4, 4), (10, 10)])
def test_art39_3_placement_multiplier_grows_one_per_year(year, multiplier):
    assert placement_multiplier(year) == multiplier
    assert OvertimeHand(year=year, season=2).placement_multiplier == multiplier


def test_art39_year2_doubles_placement_points():
    assert overtime_hand_at(4).placement_multiplier == 2


def test_art39_year3_multiplies_by_3():
    assert overtime_hand_at(8).placement_multiplier == 3


def test_art39_2_win_meeting_the_condition_ends_the_game():
    decision = overtime_after_hand(
        overtime_hand_at(1), OvertimeHandOutcome(winner_seat=2, winner_meets_win_condition=True)
    )
    assert (decision.game_over, decision.reason, decision.next_hand) == (True, "won_with_condition", None)
    assert decision.multiplier == 1


def test_art39_2_hand_without_winner_ends_the_game():
    # 和者が出ずに終局: the overtime stops at a drawn hand
    decision = overtime_after_hand(overtime_hand_at(5), OvertimeHandOutcome(winner_seat=None))
    assert (decision.game_over, decision.reason, decision.multiplier) == (True, "no_winner", 2)


def test_art39_2_win_without_the_condition_plays_the_next_season():
    decision = overtime_after_hand(overtime_hand_at(0), OvertimeHandOutcome(winner_seat=1))
    assert decision.game_over is False
    assert decision.next_hand.label_ja == "1年夏"
    assert decision.multiplier == 1


def test_art39_3_undecided_year1_winter_is_followed_by_year2_spring_at_double():
    decision = overtime_after_hand(OvertimeHand(year=1, season=3), OvertimeHandOutcome(winner_seat=0))
    assert decision.next_hand == OvertimeHand(year=2, season=0)
    assert decision.next_hand.label_ja == "2年春"
    assert decision.multiplier == 2


def test_art44_organizer_may_close_the_overtime():
    decision = overtime_after_hand(
        overtime_hand_at(10), OvertimeHandOutcome(winner_seat=0, closed_by_organizer=True)
    )
    assert (decision.game_over, decision.reason, decision.multiplier) == (True, "closed_by_organizer", 3)


@pytest.mark.parametrize(
    ("build", "code"),
    [
        (lambda: OvertimeHand(year=0, season=0), "invalid_overtime_hand"),
        (lambda: OvertimeHand(year=1, season=4), "invalid_overtime_hand"),
        (lambda: overtime_hand_at(-1), "invalid_overtime_hand"),
        (lambda: placement_multiplier(0), "invalid_overtime_hand"),
        (
            lambda: OvertimeHandOutcome(winner_seat=None, winner_meets_win_condition=True),
            "invalid_hand_outcome",
        ),
        (lambda: regular_hand_label(0, 5), "invalid_hand_label"),
        (lambda: regular_hand_label(0, 4, players=3), "invalid_hand_label"),
        (lambda: regular_hand_label(4, 1), "invalid_hand_label"),
        (lambda: regular_hand_label(0, 1, -1), "invalid_hand_label"),
        (lambda: regular_hand_label(0, 1, language="fr"), "invalid_hand_label"),
    ],
)
def test_art39_invalid_input_raises_a_coded_error(build, code):
    with pytest.raises(TournamentError) as caught:
        build()
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("args", "language", "label"),
    [
        ((0, 1, 0), "en", "East 1"),
        ((0, 4, 0), "en", "East 4"),
        ((1, 1, 0), "en", "South 1"),
        ((1, 4, 2), "en", "South 4, 2 honba"),
        ((0, 1, 0), "ja", "東1局"),
        ((1, 4, 2), "ja", "南4局 2本場"),
    ],
)
def test_regular_hand_labels(args, language, label):
    assert regular_hand_label(*args, language=language) == label


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_art39_property_hands_follow_each_other_and_multiplier_is_the_year(index):
    hand = overtime_hand_at(index)
    assert hand.index == index
    assert hand.next().index == index + 1
    assert hand.placement_multiplier == index // 4 + 1
