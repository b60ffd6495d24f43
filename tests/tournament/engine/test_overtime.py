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
    OvertimeHandResult,
    overtime_after_hand,
    overtime_hand_at,
    overtime_progress,
    overtime_win_condition_met,
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
    decision = overtime_after_hand(overtime_hand_at(10), OvertimeHandOutcome(winner_seat=0, closed_by_organizer=True))
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


# --- Art. 39 ② outside the finals: the win condition and the end, decided here ---------------------

FOUR = (0, 1, 2, 3)


def won(winner: int, points: tuple[int, ...], playing=FOUR) -> OvertimeHandResult:
    return OvertimeHandResult(winners=(winner,), points_after=points, playing=playing)


def drawn(points: tuple[int, ...], playing=FOUR) -> OvertimeHandResult:
    return OvertimeHandResult(winners=(), points_after=points, playing=playing)


def test_art39_2_win_condition_the_winner_ends_above_every_other_player():
    assert overtime_win_condition_met((26000, 25000, 25000, 24000), 0, FOUR)
    assert not overtime_win_condition_met((26000, 27000, 24000, 23000), 0, FOUR)
    assert not overtime_win_condition_met((26000, 26000, 24000, 24000), 0, FOUR)  # a tie does not decide


def test_art39_2_art42_the_win_condition_compares_the_players_still_at_the_table():
    # North left with 30000 (art. 42): East is above everyone still playing
    assert overtime_win_condition_met((27000, 23000, 20000, 30000), 0, (0, 1, 2))


def test_art39_2_an_overtime_goes_on_until_a_winner_meets_the_condition():
    hands = [won(3, (27000, 26000, 23000, 24000)), won(1, (27000, 28000, 22000, 23000))]
    progress = overtime_progress(hands[:1])
    assert (progress.state, progress.next_hand.label_ja, progress.over) == ("playing", "1年夏", False)
    progress = overtime_progress(hands)
    assert (progress.state, progress.winner, progress.last_hand.label_ja) == (
        "won_with_condition",
        1,
        "1年夏",
    )
    assert progress.next_hand is None and progress.over


def test_art39_2_a_hand_without_a_winner_ends_the_overtime():
    progress = overtime_progress([drawn((25000,) * 4)])
    assert (progress.state, progress.winner, progress.multiplier) == ("no_winner", None, 1)


def test_art39_3_the_multiplier_is_the_year_of_the_last_season_played():
    not_top = won(3, (27000, 26000, 23000, 24000))
    progress = overtime_progress([not_top] * 5)
    assert (progress.state, progress.last_hand.label_ja, progress.multiplier) == ("playing", "2年春", 2)


def test_art39_2_hands_after_the_end_are_counted_for_the_caller_to_refuse():
    progress = overtime_progress([drawn((25000,) * 4), won(0, (30000, 20000, 25000, 25000))])
    assert (progress.state, progress.hands_after_end) == ("no_winner", 1)


def test_art36_3_a_replayed_overtime_hand_decides_nothing_and_keeps_its_season():
    replay = OvertimeHandResult(winners=(), points_after=(25000,) * 4, playing=FOUR, replayed=True)
    assert overtime_progress([replay]).state == "playing"
    progress = overtime_progress([won(3, (27000, 26000, 23000, 24000)), replay])
    assert (progress.state, progress.next_hand.label_ja) == ("playing", "1年夏")


def test_art39_art44_the_directors_close_an_overtime_still_going():
    progress = overtime_progress([won(3, (27000, 26000, 23000, 24000))], closed_by_organizer=True)
    assert (progress.state, progress.next_hand) == ("closed_by_organizer", None)
    ended = overtime_progress([drawn((25000,) * 4)], closed_by_organizer=True)
    assert ended.state == "no_winner"  # the hands ended it first
    assert overtime_progress([]).state == "none"


def test_art39_2_a_double_ron_ends_the_overtime_when_either_winner_meets_the_condition():
    double = OvertimeHandResult(winners=(1, 2), points_after=(20000, 24000, 31000, 25000), playing=FOUR)
    progress = overtime_progress([double])
    assert (progress.state, progress.winner) == ("won_with_condition", 2)
