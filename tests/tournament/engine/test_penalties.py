"""Arts. 35, 36, 37, 38 ⑤ and 43: what each foul takes away, penalty points and disqualification."""

from __future__ import annotations

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.penalties import (
    PenaltyKind,
    check_claim_allowed,
    check_win_allowed,
    disqualifying_penalty,
    fouls_in_force,
    hand_must_be_replayed,
    is_disqualifying,
    penalty_effect,
    penalty_points,
)

K = PenaltyKind

# kind, ron allowed, tsumo allowed, claim allowed (for the rest of the hand)
RIGHTS_TABLE = [
    (K.REVEALED_HAND, False, True, True),  # 35条① 栄和の権利を失う
    (K.OUT_OF_TURN, False, False, False),  # 36条① 拾・和の権利を失う
    (K.WRONG_HAND_SIZE, False, False, False),  # 36条②
    (K.WALL_WRECKED, False, False, False),  # 36条③ replayed; no claim or win (held into the replay)
    (K.DELIBERATE_FOUL, True, True, True),  # 37条① penalty points only
    (K.CLOCK_FLAG, False, False, False),  # 38条⑤ 拾および和の権利を失う
    (K.EGREGIOUS_CONDUCT, True, True, True),  # 43条
]


def _allowed(check, *args) -> bool:
    try:
        check(*args)
    except TournamentError:
        return False
    return True


@pytest.mark.parametrize(("kind", "ron", "tsumo", "claim"), RIGHTS_TABLE)
def test_art35_to_38_rights_lost_for_the_hand(kind, ron, tsumo, claim):
    assert _allowed(check_win_allowed, [kind], "ron") is ron
    assert _allowed(check_win_allowed, [kind], "tsumo") is tsumo
    assert _allowed(check_claim_allowed, [kind]) is claim


def test_art35_revealed_hand_loses_ron_and_message_names_the_penalty():
    with pytest.raises(TournamentError) as caught:
        check_win_allowed([K.REVEALED_HAND], "ron")
    assert caught.value.code == "win_forbidden_by_penalty"
    assert "35" in caught.value.message and "revealed" in caught.value.message
    assert check_win_allowed([K.REVEALED_HAND], "tsumo") is None


def test_art36_1_out_of_turn_loses_claim_and_win():
    with pytest.raises(TournamentError) as caught:
        check_win_allowed(["art36_out_of_turn"], "tsumo")
    assert "36①" in caught.value.message
    with pytest.raises(TournamentError) as caught:
        check_claim_allowed(["art36_out_of_turn"])
    assert caught.value.code == "claim_forbidden_by_penalty"


def test_art36_2_wrong_hand_size_loses_claim_and_win():
    assert not _allowed(check_win_allowed, [K.WRONG_HAND_SIZE], "ron")
    assert not _allowed(check_claim_allowed, [K.WRONG_HAND_SIZE])


def test_art36_3_wrecked_wall_replays_the_hand_from_the_shuffle():
    assert hand_must_be_replayed([K.WALL_WRECKED]) is True
    assert hand_must_be_replayed([K.OUT_OF_TURN, K.REVEALED_HAND]) is False
    assert hand_must_be_replayed([]) is False


def test_art36_3_the_wall_wrecker_has_no_claim_and_no_win_in_the_replayed_hand():
    # the hand before was stopped and replayed: its 36 ③ offender's loss holds in the replay
    in_force = fouls_in_force([], replayed_before=[[K.WALL_WRECKED]])
    assert in_force == [K.WALL_WRECKED]
    assert not _allowed(check_claim_allowed, in_force)
    assert not _allowed(check_win_allowed, in_force, "ron")
    assert not _allowed(check_win_allowed, in_force, "tsumo")
    assert penalty_effect(K.WALL_WRECKED).carries_to_replay


def test_art36_3_only_the_wall_wrecker_carries_into_the_replay_through_further_replays():
    # fouls of the stopped hand other than 36 ③ were for that hand only (35, 36 ①②, 38 ⑤)
    in_force = fouls_in_force([K.REVEALED_HAND], replayed_before=[[K.OUT_OF_TURN], [K.WALL_WRECKED, K.CLOCK_FLAG]])
    assert in_force == [K.REVEALED_HAND, K.WALL_WRECKED]
    assert fouls_in_force(["art35_revealed_hand"]) == [K.REVEALED_HAND]


def test_art38_5_clock_flag_loses_claim_and_win():
    effect = penalty_effect(K.CLOCK_FLAG)
    assert (effect.loses_claim, effect.loses_win, effect.article) == (True, True, "38⑤")


def test_no_penalty_allows_every_win_and_claim():
    assert check_win_allowed([], "ron") is None
    assert check_win_allowed([], "tsumo") is None
    assert check_claim_allowed([]) is None


@pytest.mark.parametrize(
    ("players", "unit", "points"),
    [(4, 100, 400), (3, 100, 300), (2, 100, 200), (4, 200, 800)],
)
def test_art37_penalty_points_are_unit_times_players_at_table(players, unit, points):
    assert penalty_points(K.DELIBERATE_FOUL, players, unit) == points


def test_art37_default_unit_is_100():
    assert penalty_points(K.DELIBERATE_FOUL, 4) == 400


@pytest.mark.parametrize("kind", [k for k in K if k is not K.DELIBERATE_FOUL])
def test_art37_only_the_deliberate_foul_carries_penalty_points(kind):
    assert penalty_points(kind, 4) == 0


def test_art43_penalty_point_foul_disqualifies_in_tournament_play():
    assert is_disqualifying(K.DELIBERATE_FOUL) is True
    assert is_disqualifying(K.DELIBERATE_FOUL, tournament_play=False) is False
    assert disqualifying_penalty([K.REVEALED_HAND, K.DELIBERATE_FOUL]) is K.DELIBERATE_FOUL


def test_art43_egregious_conduct_disqualifies():
    assert is_disqualifying(K.EGREGIOUS_CONDUCT) is True
    assert is_disqualifying(K.EGREGIOUS_CONDUCT, tournament_play=False) is True


@pytest.mark.parametrize("kind", [K.REVEALED_HAND, K.OUT_OF_TURN, K.WRONG_HAND_SIZE, K.WALL_WRECKED, K.CLOCK_FLAG])
def test_art43_fouls_without_penalty_points_do_not_disqualify(kind):
    assert is_disqualifying(kind) is False
    assert disqualifying_penalty([kind]) is None


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: penalty_effect("art99_unknown"), "unknown_penalty_kind"),
        (lambda: check_win_allowed([], "chombo"), "invalid_win_kind"),
        (lambda: penalty_points(K.DELIBERATE_FOUL, 5), "invalid_players_at_table"),
        (lambda: penalty_points(K.DELIBERATE_FOUL, 4, 0), "invalid_penalty_unit"),
    ],
)
def test_penalty_invalid_input_raises_a_coded_error(call, code):
    with pytest.raises(TournamentError) as caught:
        call()
    assert caught.value.code == code
