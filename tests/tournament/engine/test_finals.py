"""Art. 40, the final (決勝戦): overtime, elimination, champion."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.finals import FinalistTotal, FinalsHandOutcome, decide_final
from tournament.engine.overtime import OvertimeHand


def outcome(totals: dict, winner=None, win_kind=None, overtime_hand=None, disqualified=()):
    if winner is not None and win_kind is None:
        win_kind = "ron"
    return FinalsHandOutcome(
        totals=tuple(FinalistTotal(p, t, eligible=p not in disqualified) for p, t in totals.items()),
        winner=winner,
        win_kind=win_kind,
        overtime_hand=overtime_hand,
    )


FOUR = {"A": 60, "B": 20, "C": -10, "D": -70}


def test_art40_1_winner_overall_last_goes_to_overtime_from_year1_spring():
    decision = decide_final(outcome(FOUR, winner="D"))
    assert decision.kind == "overtime"
    assert decision.next_overtime_hand.label_ja == "1年春"
    assert decision.remaining == ("A", "B", "C", "D")


def test_art40_1_overtime_continues_season_by_season_into_year2():
    decision = decide_final(outcome(FOUR, winner="D", overtime_hand=OvertimeHand(year=1, season=3)))
    assert decision.kind == "overtime"
    assert decision.next_overtime_hand == OvertimeHand(year=2, season=0)
    assert decision.next_overtime_hand.placement_multiplier == 2


def test_art40_1_winner_tied_for_last_is_still_last():
    decision = decide_final(outcome({"A": 60, "B": 20, "C": -40, "D": -40}, winner="C"))
    assert decision.kind == "overtime"


def test_art40_2_winner_not_last_eliminates_the_overall_last():
    decision = decide_final(outcome(FOUR, winner="C"))
    assert (decision.kind, decision.player_id) == ("eliminate", "D")
    assert decision.remaining == ("A", "B", "C")
    assert decision.next_game_players == 3  # 40条③ 三人戦


def test_art40_2_nobody_winning_eliminates_the_overall_last():
    decision = decide_final(outcome(FOUR, winner=None))
    assert (decision.kind, decision.player_id) == ("eliminate", "D")


def test_art40_2_a_later_overtime_win_by_a_player_not_last_eliminates():
    decision = decide_final(outcome(FOUR, winner="A", overtime_hand=OvertimeHand(year=2, season=1)))
    assert (decision.kind, decision.player_id) == ("eliminate", "D")


def test_art40_3_three_finalists_eliminate_down_to_a_two_player_game():
    decision = decide_final(outcome({"A": 10, "B": F(-5, 2), "C": F(-15, 2)}, winner="A"))
    assert (decision.kind, decision.player_id, decision.next_game_players) == ("eliminate", "C", 2)
    assert decision.remaining == ("A", "B")


def test_art40_2_tie_for_last_when_someone_must_go_is_for_the_directors():
    decision = decide_final(outcome({"A": 60, "B": 20, "C": -40, "D": -40}, winner="A"))
    assert decision.kind == "directors_ruling"
    assert decision.tied == ("C", "D")


@pytest.mark.parametrize(
    ("totals", "winner", "kind", "player"),
    [
        ({"A": 30, "B": -30}, "A", "champion", "A"),  # leader wins: beats the opponent
        ({"A": 30, "B": -30}, "B", "overtime", None),  # trailer wins but stays behind
        ({"A": -5, "B": 5}, "A", "overtime", None),
        ({"A": 10, "B": 10}, "A", "overtime", None),  # a tie does not beat (上回る)
        ({"A": F(1, 3), "B": F(-1, 3)}, "A", "champion", "A"),
        ({"A": 30, "B": -30}, None, "champion", "A"),  # nobody wins: higher total
        ({"A": -1, "B": 1}, None, "champion", "B"),
        ({"A": 0, "B": 0}, None, "directors_ruling", None),
    ],
)
def test_art40_4_two_player_final(totals, winner, kind, player):
    decision = decide_final(outcome(totals, winner=winner))
    assert (decision.kind, decision.player_id) == (kind, player)


@pytest.mark.parametrize(
    ("totals", "winner", "win_kind", "kind", "player"),
    [
        ({"A": 40, "B": 10, "C": -20, "D": -30}, "A", "tsumo", "champion", "A"),
        ({"A": 40, "B": 10, "C": -20, "D": -30}, "A", "ron", "overtime", None),  # only tsumo decides
        ({"A": 40, "B": 40, "C": -40, "D": -40}, "A", "tsumo", "overtime", None),  # must beat every total
        ({"A": 40, "B": 10, "C": -20, "D": -30}, "B", "tsumo", "overtime", None),
        ({"A": 40, "B": 10, "C": -20, "D": -30}, None, None, "champion", "A"),  # nobody wins: highest
        ({"A": 40, "B": 40, "C": -40, "D": -40}, None, None, "directors_ruling", None),
        ({"A": 40, "B": 10, "C": -20, "D": -30}, "D", "tsumo", "overtime", None),
    ],
)
def test_art40_5_final_without_eliminations(totals, winner, win_kind, kind, player):
    decision = decide_final(outcome(totals, winner=winner, win_kind=win_kind), mode="no_elimination")
    assert (decision.kind, decision.player_id) == (kind, player)
    if kind == "overtime":
        assert decision.next_overtime_hand == OvertimeHand(year=1, season=0)
        assert decision.remaining == tuple(totals)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: outcome({"A": 1}), "invalid_finalists"),
        (lambda: outcome({"A": 1, "B": 2, "C": 3, "D": 4, "E": -10}), "invalid_finalists"),
        (lambda: outcome({"A": 1, "B": -1}, winner="Z"), "invalid_hand_outcome"),
        (lambda: outcome({"A": 1, "B": -1}, winner="A", win_kind="chombo"), "invalid_hand_outcome"),
        (lambda: outcome({"A": 1, "B": -1}, win_kind="tsumo"), "invalid_hand_outcome"),
        (lambda: FinalistTotal("A", 1.5), "invalid_total"),
        (lambda: decide_final(outcome({"A": 1, "B": -1}), mode="sudden_death"), "invalid_finals_mode"),
        (lambda: decide_final(outcome({"A": 1, "B": -1}), games=0), "invalid_final_games"),
        (
            lambda: FinalsHandOutcome(totals=(FinalistTotal("A", 1), FinalistTotal("A", 2)), winner=None),
            "invalid_finalists",
        ),
    ],
)
def test_art40_invalid_input_raises_a_coded_error(call, code):
    with pytest.raises(TournamentError) as caught:
        call()
    assert caught.value.code == code


# --- Art. 43: a disqualified finalist is never champion ---------------------------------------------


def test_art43_a_disqualified_finalist_who_wins_the_two_player_final_is_not_champion():
    # B fouled (art. 37) and is disqualified; B then wins and beats A's total: A is champion all the same
    decision = decide_final(outcome({"A": -5, "B": 5}, winner="B", disqualified={"B"}))
    assert (decision.kind, decision.player_id, decision.disqualified) == ("champion", "A", ("B",))
    assert "disqualified" in decision.reason and "art. 43" in decision.reason


def test_art43_every_finalist_disqualified_is_for_the_directors():
    decision = decide_final(outcome({"A": -5, "B": 5}, disqualified={"A", "B"}))
    assert (decision.kind, decision.player_id) == ("directors_ruling", None)
    assert "art. 43" in decision.reason


def test_art43_the_decision_is_taken_among_the_eligible_finalists_only():
    # D is disqualified and overall last: C, last among the eligible, is eliminated; D leaves too
    decision = decide_final(outcome(FOUR, winner="A", disqualified={"D"}))
    assert (decision.kind, decision.player_id) == ("eliminate", "C")
    assert decision.remaining == ("A", "B") and decision.next_game_players == 2
    assert decision.disqualified == ("D",)


def test_art43_a_disqualified_winner_decides_nothing():
    # A leads; disqualified B wins the two-player hand among three: as if nobody won, the last (C) goes
    decision = decide_final(outcome({"A": 30, "B": 10, "C": -40}, winner="B", disqualified={"B"}))
    assert (decision.kind, decision.player_id) == ("champion", "A")  # A vs C: nobody won, A is higher
    assert "decides nothing" in decision.reason


def test_art43_no_elimination_final_never_crowns_a_disqualified_tsumo():
    totals = {"A": 40, "B": 10, "C": -20, "D": -30}
    decision = decide_final(outcome(totals, winner="A", win_kind="tsumo", disqualified={"A"}), mode="no_elimination")
    assert decision.player_id != "A"
    assert (decision.kind, decision.player_id) == ("champion", "B")  # nobody eligible won: highest total


def test_art43_overtime_with_a_disqualified_finalist_becomes_a_new_game_without_them():
    # the eligible winner C is last among the eligible: overtime, but D cannot play on at the table
    decision = decide_final(outcome({"A": 60, "B": 20, "C": -10, "D": 5}, winner="C", disqualified={"D"}))
    assert (decision.kind, decision.player_id, decision.remaining) == ("eliminate", "D", ("A", "B", "C"))
    assert decision.next_game_players == 3 and "40③" in decision.reason


# --- Art. 40 ①: the last of the prescribed games ------------------------------------------------------


def test_art40_1_nothing_is_decided_before_the_last_prescribed_game():
    decision = decide_final(outcome(FOUR, winner="D"), game=1, games=2)
    assert (decision.kind, decision.remaining, decision.next_game_players) == ("next_game", tuple(FOUR), 4)
    assert "game 1 of the 2" in decision.reason


def test_art40_1_the_decision_comes_after_the_last_prescribed_game():
    assert decide_final(outcome(FOUR, winner="D"), game=2, games=2).kind == "overtime"
    assert decide_final(outcome(FOUR, winner="C"), game=3, games=2).kind == "eliminate"  # after 40③


def test_art40_1_art43_a_disqualified_finalist_leaves_before_the_next_prescribed_game():
    decision = decide_final(outcome(FOUR, winner="D", disqualified={"B"}), game=1, games=3)
    assert (decision.kind, decision.remaining, decision.disqualified) == (
        "next_game",
        ("A", "C", "D"),
        ("B",),
    )
    only = decide_final(outcome({"A": 1, "B": -1}, disqualified={"B"}), game=1, games=3)
    assert (only.kind, only.player_id) == ("champion", "A")
