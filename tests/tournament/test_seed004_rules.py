"""Seed 004 at the table, through the services: penalties, disqualification, absences, overtime."""

from fractions import Fraction

import pytest

from taikai.errors import TaikaiError
from tournament.models import Entry, HandVersion, Penalty, Seat, StandingsSnapshot, Table
from tournament.services.discipline import (
    entry_disqualify,
    penalty_cancel,
    penalty_log,
    ruling_record,
    seat_mark_absent,
)
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

RON_BY_SOUTH = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}],
}
TSUMO_BY_SOUTH = {"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 1, "han": 2, "fu": 40}]}


@pytest.fixture
def table(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    return Table.objects.get(round__event=event)


def seat_entry(table, position) -> Entry:
    return table.seats.get(position=position).entry


def log(table, position, kind, hand_number=1, **extra):
    return penalty_log(event=table.round.event, entry=seat_entry(table, position), kind=kind, reason="seen by referee",
                       table=table, hand_number=hand_number, **extra)  # fmt: skip


def test_art35_revealed_hand_loses_the_right_to_ron_only(table):
    log(table, 1, "art35_revealed_hand")
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    assert info.value.code == "win_forbidden_by_penalty" and "35" in info.value.message
    assert not HandVersion.objects.exists()
    # a tsumo is still allowed
    assert hand_record(table=table, number=1, expected_version=0, data=TSUMO_BY_SOUTH).deltas[1] == 2700


@pytest.mark.parametrize("kind", ["art36_out_of_turn", "art36_wrong_hand_size", "art38_clock_flag"])
def test_art36_and_art38_lose_the_right_to_win_for_the_hand(table, kind):
    log(table, 1, kind)
    for data in (RON_BY_SOUTH, TSUMO_BY_SOUTH):
        with pytest.raises(TaikaiError) as info:
            hand_record(table=table, number=1, expected_version=0, data=data)
        assert info.value.code == "win_forbidden_by_penalty"
    # the right comes back in the next hand
    hand_record(
        table=table, number=1, expected_version=0, data={"outcome": "abortive_draw", "dealer_position": 0}
    )
    assert hand_record(table=table, number=2, expected_version=0, data=RON_BY_SOUTH).deltas[1] == 2600


def test_art36_wall_wrecked_hand_is_recorded_as_replayed_and_moves_no_points(table):
    log(table, 2, "art36_wall_wrecked")
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    assert info.value.code == "hand_must_be_replayed"
    version = hand_record(table=table, number=1, expected_version=0,
                          data={"outcome": "replayed", "dealer_position": 0, "riichi_positions": [1]})  # fmt: skip
    assert version.deltas == [0, 0, 0, 0] and version.deposits_out == 0


def test_art37_penalty_points_are_unit_times_players_and_deducted(table, django_capture_on_commit_callbacks):
    event = table.round.event
    event.tournament_play = False  # keep the player eligible to see the deduction alone
    event.save()
    penalty = log(table, 3, "art37_deliberate_foul")
    assert penalty.points == 100 * 4
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    table_finish(table=table)
    snapshot = standings_recompute(event_id=event.id)
    row = next(r for r in snapshot.rows if r["entry"] == penalty.entry_id)
    seat_result = penalty.entry.results.get(is_current=True)
    assert Fraction(row["total_points"]) == seat_result.game_points - Fraction(400, 1000)
    assert row["penalty_points"] == 400


def test_art37_on_a_three_player_table_uses_three(table):
    seat_mark_absent(seat=table.seats.get(position=0), during=False)
    assert log(table, 3, "art37_deliberate_foul").points == 300


def test_art43_penalty_points_foul_in_tournament_play_disqualifies(table):
    penalty = log(table, 3, "art37_deliberate_foul")
    entry = Entry.objects.get(pk=penalty.entry_id)
    assert entry.status == Entry.Status.DISQUALIFIED and "37" in entry.status_reason


def test_art43_disqualified_player_keeps_rank_but_not_award_place(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    table_finish(table=table)
    winner = seat_entry(table, 1)
    entry_disqualify(entry=winner, reason="art. 43: director's decision")
    rows = standings_recompute(event_id=table.round.event_id).rows
    assert rows[0]["entry"] == winner.id and rows[0]["rank"] == 1 and rows[0]["award_rank"] is None
    assert [r["award_rank"] for r in rows[1:]] == [1, 1, 3]  # East and North tie at 25000, West after


def test_penalty_cancel_restores_the_right_and_is_kept(table, admin_user):
    penalty = log(table, 1, "art35_revealed_hand", user=admin_user)
    penalty_cancel(penalty=penalty, reason="the referee misread the situation", user=admin_user)
    assert hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH).deltas[1] == 2600
    kept = Penalty.objects.get(pk=penalty.pk)
    assert kept.cancelled_by == admin_user and kept.logged_by == admin_user
    with pytest.raises(TaikaiError) as info:
        penalty_cancel(penalty=penalty, reason="again")
    assert info.value.code == "already_cancelled"


def test_art44_ruling_is_recorded(table, admin_user):
    ruling = ruling_record(
        event=table.round.event, table=table, decision="Hand 3 replayed after a dispute", user=admin_user
    )
    assert ruling.decided_by == admin_user and ruling.table == table


def test_art42_absent_before_the_game_plays_three_player_and_forfeits(table):
    # given North absent before the game: the table plays three-player (m = 3, reference scheme)
    seat_mark_absent(seat=table.seats.get(position=3), during=False)
    version = hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    # 40 fu 2 han ron paid on four-player values: 2600, whatever m is for a ron
    assert version.deltas == [0, 2600, -2600]
    rows = {r.seat.position: r for r in table_finish(table=table)}
    uma = table.round.event.ruleset.uma_for(4)
    # then the absentee takes the sole-last placement points of a four-player table, subtracted
    assert rows[3].forfeit and rows[3].placement is None and rows[3].game_points == uma[-1]
    # and the three who played are placed among themselves with three-player placement points
    uma3 = table.round.event.ruleset.uma_for(3)
    assert rows[1].placement == 1 and rows[1].placement_points == uma3[0]
    snapshot = standings_recompute(event_id=table.round.event_id)
    absentee = next(r for r in snapshot.rows if r["entry"] == rows[3].entry_id)
    assert Fraction(absentee["total_points"]) == uma[-1]


def test_art42_absent_during_the_game_points_stand_and_the_game_goes_on(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)  # West pays 2600
    seat_mark_absent(seat=table.seats.get(position=2), during=True)  # West leaves after hand 1
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=2, expected_version=0,
                    data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 1, "fu": 30}]})  # fmt: skip
    assert info.value.code == "player_left"
    version = hand_record(table=table, number=2, expected_version=0,
                          data={"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]})  # fmt: skip
    assert version.deltas[2] == 0 and sum(version.deltas) == 0
    rows = {r.seat.position: r for r in table_finish(table=table)}
    assert rows[2].forfeit and rows[2].final_points == 25000 - 2600  # points exchanged stand
    assert rows[2].placement_points == table.round.event.ruleset.uma_for(4)[-1]
    assert {rows[p].placement for p in (0, 1, 3)} == {1, 2, 3}


def test_art42_absence_before_is_refused_once_hands_are_recorded(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    with pytest.raises(TaikaiError) as info:
        seat_mark_absent(seat=table.seats.get(position=0), during=False)
    assert info.value.code == "game_started"


def play_overtime(table, hands: int):
    event = table.round.event
    event.overtime_enabled = True
    event.save()
    number = 1
    hand_record(table=table, number=number, expected_version=0, data=RON_BY_SOUTH)
    for _ in range(hands):
        number += 1
        hand_record(table=table, number=number, expected_version=0,
                    data={"outcome": "exhaustive_draw", "dealer_position": 0, "overtime": True})  # fmt: skip
    return number


@pytest.mark.parametrize(
    ("overtime_hands", "year", "label"), [(1, 1, "1年春"), (4, 1, "1年冬"), (5, 2, "2年春"), (9, 3, "3年春")]
)
def test_art39_overtime_labels_and_placement_point_multiplier(table, overtime_hands, year, label):
    last = play_overtime(table, overtime_hands)
    assert HandVersion.objects.get(hand__table=table, hand__number=last).label.startswith(label)
    rows = {r.seat.position: r for r in table_finish(table=table)}
    uma = table.round.event.ruleset.uma_for(4)
    assert rows[1].multiplier == year
    assert rows[1].placement_points == uma[0] * year
    snapshot = standings_recompute(event_id=table.round.event_id)
    top = snapshot.rows[0]
    assert Fraction(top["total_points"]) == rows[1].game_points


def test_art39_overtime_is_refused_when_the_event_has_none(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=2, expected_version=0,
                    data={"outcome": "exhaustive_draw", "dealer_position": 0, "overtime": True})  # fmt: skip
    assert info.value.code == "overtime_disabled"


def test_snapshot_is_not_recomputed_for_an_older_request(table):
    from datetime import timedelta

    snapshot = standings_recompute(event_id=table.round.event_id)
    assert (
        standings_recompute(
            event_id=table.round.event_id, requested_at=snapshot.computed_at - timedelta(seconds=1)
        )
        is None
    )
    assert StandingsSnapshot.objects.count() == 1
    assert Seat.objects.filter(table=table).count() == 4


def test_art39_a_replayed_overtime_hand_is_played_again_in_the_same_season(table):
    play_overtime(table, 1)  # 1年春 drawn
    log(table, 2, "art36_wall_wrecked", hand_number=3)
    hand_record(table=table, number=3, expected_version=0,
                data={"outcome": "replayed", "dealer_position": 0, "overtime": True})  # fmt: skip
    replay = hand_record(table=table, number=4, expected_version=0,
                         data={"outcome": "exhaustive_draw", "dealer_position": 0, "overtime": True})  # fmt: skip
    labels = list(
        HandVersion.objects.filter(hand__table=table).order_by("hand__number").values_list("label", flat=True)
    )
    assert labels[2].startswith("1年夏") and replay.label.startswith("1年夏")
