"""Seed 004 at the table, through the services: penalties, disqualification, absences, overtime."""

from fractions import Fraction

import pytest

from taikai.errors import TaikaiError
from tournament.models import Entry, HandVersion, Penalty, Seat, StandingsRow, StandingsSnapshot, Table
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


def seat_entry(table, position) -> Entry:
    return table.seats.get(position=position).entry


def log(table, position, kind, hand_number=1, **extra):
    return penalty_log(
        event=table.round.event,
        entry=seat_entry(table, position),
        kind=kind,
        reason="seen by referee",
        table=table,
        hand_number=hand_number,
        **extra,
    )


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
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "abortive_draw", "dealer_position": 0})
    assert hand_record(table=table, number=2, expected_version=0, data=RON_BY_SOUTH).deltas[1] == 2600


def test_art36_wall_wrecked_hand_is_recorded_as_replayed_and_moves_no_points(table):
    log(table, 2, "art36_wall_wrecked")
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    assert info.value.code == "hand_must_be_replayed"
    version = hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "replayed", "dealer_position": 0, "riichi_positions": [1]},
    )
    assert version.deltas == [0, 0, 0, 0] and version.deposits_out == 0


def test_art37_penalty_points_are_unit_times_players_and_deducted(table, django_capture_on_commit_callbacks):
    event = table.round.event
    event.tournament_play = False  # keep the player eligible to see the deduction alone
    event.save()
    penalty = log(table, 3, "art37_deliberate_foul")
    assert penalty.points == 100 * 4
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    table_finish(table=table, end_reason="time")
    standings_recompute(event_id=event.id)
    row = StandingsRow.objects.get(event=event, entry_id=penalty.entry_id)
    seat_result = penalty.entry.results.get(is_current=True)
    assert row.total_points == seat_result.game_points - Fraction(400, 1000)
    assert row.penalty_points == 400


def test_art37_on_a_three_player_table_uses_three(table):
    seat_mark_absent(seat=table.seats.get(position=0), during=False)
    assert log(table, 3, "art37_deliberate_foul").points == 300


def test_art43_penalty_points_foul_in_tournament_play_disqualifies(table):
    penalty = log(table, 3, "art37_deliberate_foul")
    entry = Entry.objects.get(pk=penalty.entry_id)
    assert entry.status == Entry.Status.DISQUALIFIED and "37" in entry.status_reason


def test_art43_disqualified_player_keeps_rank_but_not_award_place(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    table_finish(table=table, end_reason="time")
    winner = seat_entry(table, 1)
    entry_disqualify(entry=winner, reason="art. 43: director's decision")
    standings_recompute(event_id=table.round.event_id)
    rows = list(StandingsRow.objects.filter(event_id=table.round.event_id).order_by("position"))
    assert rows[0].entry_id == winner.id and rows[0].rank == 1 and rows[0].award_rank is None
    assert [r.award_rank for r in rows[1:]] == [1, 1, 3]  # East and North tie at 25000, West after


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
    rows = {r.seat.position: r for r in table_finish(table=table, end_reason="time")}
    uma = table.round.event.ruleset.uma_for(4)
    # then the absentee takes the sole-last placement points of a four-player table, subtracted
    assert rows[3].forfeit and rows[3].placement is None and rows[3].game_points == uma[-1]
    # and the three who played are placed among themselves with three-player placement points
    uma3 = table.round.event.ruleset.uma_for(3)
    assert rows[1].placement == 1 and rows[1].placement_points == uma3[0]
    standings_recompute(event_id=table.round.event_id)
    absentee = StandingsRow.objects.get(event_id=table.round.event_id, entry_id=rows[3].entry_id)
    assert absentee.total_points == uma[-1]


def test_art42_absent_during_the_game_points_stand_and_the_game_goes_on(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)  # West pays 2600
    seat_mark_absent(seat=table.seats.get(position=2), during=True)  # West leaves after hand 1
    with pytest.raises(TaikaiError) as info:
        hand_record(
            table=table,
            number=2,
            expected_version=0,
            data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 1, "fu": 30}]},
        )
    assert info.value.code == "player_left"
    version = hand_record(
        table=table,
        number=2,
        expected_version=0,
        data={"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]},
    )
    assert version.deltas[2] == 0 and sum(version.deltas) == 0
    rows = {r.seat.position: r for r in table_finish(table=table, end_reason="time")}
    assert rows[2].forfeit and rows[2].final_points == 25000 - 2600  # points exchanged stand
    assert rows[2].placement_points == table.round.event.ruleset.uma_for(4)[-1]
    assert {rows[p].placement for p in (0, 1, 3)} == {1, 2, 3}


def test_art42_absence_before_is_refused_once_hands_are_recorded(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    with pytest.raises(TaikaiError) as info:
        seat_mark_absent(seat=table.seats.get(position=0), during=False)
    assert info.value.code == "game_started"


def ron(winner, discarder, *, dealer=1, overtime=True):
    return {
        "outcome": "ron",
        "dealer_position": dealer,
        "overtime": overtime,
        "wins": [{"winner": winner, "discarder": discarder, "han": 1, "fu": 30}],
    }


DRAWN_OVERTIME = {"outcome": "exhaustive_draw", "dealer_position": 1, "overtime": True}


def play_overtime(table, hands: int):
    """Hand 1: South wins off West (South 27600 on top). Then ``hands`` overtime hands: East and North
    win 1000 off each other (nobody passes South: the overtime goes on), the last one drawn (it ends)."""
    event = table.round.event
    event.overtime_enabled = True
    event.save()
    number = 1
    hand_record(table=table, number=number, expected_version=0, data=RON_BY_SOUTH)
    for index in range(hands):
        number += 1
        data = DRAWN_OVERTIME if index == hands - 1 else (ron(0, 3) if index % 2 == 0 else ron(3, 0))
        hand_record(table=table, number=number, expected_version=0, data=data)
    return number


def test_art39_overtime_is_refused_when_the_event_has_none(table):
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    with pytest.raises(TaikaiError) as info:
        hand_record(
            table=table,
            number=2,
            expected_version=0,
            data={"outcome": "exhaustive_draw", "dealer_position": 0, "overtime": True},
        )
    assert info.value.code == "overtime_disabled"


def test_snapshot_is_not_recomputed_for_an_older_request(table):
    from datetime import timedelta

    snapshot = standings_recompute(event_id=table.round.event_id)
    assert (
        standings_recompute(event_id=table.round.event_id, requested_at=snapshot.computed_at - timedelta(seconds=1))
        is None
    )
    assert StandingsSnapshot.objects.count() == 1
    assert Seat.objects.filter(table=table).count() == 4


def test_art39_a_replayed_overtime_hand_is_played_again_in_the_same_season(table):
    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))  # 1年春: East not on top, goes on
    log(table, 2, "art36_wall_wrecked", hand_number=3)
    hand_record(
        table=table, number=3, expected_version=0, data={"outcome": "replayed", "dealer_position": 1, "overtime": True}
    )
    replay = hand_record(table=table, number=4, expected_version=0, data=DRAWN_OVERTIME)
    labels = list(
        HandVersion.objects.filter(hand__table=table).order_by("hand__number").values_list("label", flat=True)
    )
    assert labels[2].startswith("1年夏") and replay.label.startswith("1年夏")


# --- Art. 39 ②: outside the finals the engine ends the overtime -----------------------------------


def overtime_status(table):
    from tournament.selectors import table_overtime_status

    return table_overtime_status(Table.objects.select_related("round__event__ruleset").get(pk=table.pk))


def test_art39_2_a_winner_above_everyone_ends_the_overtime_and_no_hand_follows(table):
    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))  # East 26000 < South 27600
    assert overtime_status(table).state == "playing"
    hand_record(
        table=table,
        number=3,
        expected_version=0,
        data={**ron(0, 3), "wins": [{"winner": 0, "discarder": 3, "han": 2, "fu": 30}]},
    )
    status = overtime_status(table)  # East 28000: above everyone (勝利条件)
    assert (status.state, status.winner, status.year) == ("won_with_condition", "Player 01", 1)
    assert "Player 01 won it above every other player" in status.sentence and "1年夏" in status.sentence
    assert Table.objects.get(pk=table.pk).overtime_state == Table.Overtime.WON
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=4, expected_version=0, data=DRAWN_OVERTIME)
    assert info.value.code == "overtime_over" and "1年夏" in info.value.message
    assert not HandVersion.objects.filter(hand__number=4).exists()
    assert table_finish(table=table, end_reason="time")


def test_art39_2_a_drawn_overtime_hand_ends_the_overtime(table):
    play_overtime(table, 1)
    status = overtime_status(table)
    assert (status.state, status.next_hand) == ("no_winner", "")
    assert "without a winner" in status.sentence


def test_art39_2_the_result_waits_for_an_overtime_still_going(table):
    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))
    status = overtime_status(table)
    assert (status.state, status.next_hand) == ("playing", "1年夏 (Y1 Summer)") and status.playing
    with pytest.raises(TaikaiError) as info:
        table_finish(table=table, end_reason="time")
    assert info.value.code == "overtime_in_progress" and "1年夏" in info.value.message


def test_art39_art44_the_directors_close_an_overtime_still_going(table, admin_user):
    from tournament.models import Ruling
    from tournament.services.hands import table_overtime_close

    play_overtime(table, 0)
    with pytest.raises(TaikaiError) as info:
        table_overtime_close(table=table, reason="schedule")
    assert info.value.code == "overtime_not_playing"
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))
    table_overtime_close(table=table, reason="the hall closes", user=admin_user)
    assert overtime_status(table).state == "closed_by_organizer"
    assert Ruling.objects.get(table=table).decided_by == admin_user
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=3, expected_version=0, data=DRAWN_OVERTIME)
    assert info.value.code == "overtime_over"
    assert table_finish(table=table, end_reason="time")


def test_art39_2_a_correction_that_ends_the_overtime_before_later_hands_is_refused(table):
    play_overtime(table, 3)  # 1年春 and 1年夏 go on, 1年秋 is drawn
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=2, expected_version=1, data=DRAWN_OVERTIME)
    assert info.value.code == "overtime_over"
    assert HandVersion.objects.filter(hand__table=table, hand__number=2).count() == 1


def test_art39_a_regular_hand_after_an_overtime_hand_is_refused(table):
    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=3, expected_version=0, data=ron(0, 3, overtime=False))
    assert info.value.code == "overtime_order"


def test_art39_the_referee_screen_include_shows_the_engines_decision(table):
    from django.template.loader import render_to_string

    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))
    html = render_to_string("tournament/console/_overtime.html", {"overtime": overtime_status(table)})
    assert 'id="overtime"' in html and "1年夏 (Y1 Summer)" in html and "Overtime in play" in html
    assert render_to_string("tournament/console/_overtime.html", {"overtime": None}).strip() == ""


# --- Art. 42: a player who leaves makes it a three-player game for everything after ----------------


def leave_after_first_hand(table, position=2):
    """Hand 1 (South wins off West), then the player at ``position`` leaves: three-player from hand 2."""
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    return seat_mark_absent(seat=table.seats.get(position=position), during=True)


def test_art37_penalty_points_count_players_left_at_the_table(table):
    event = table.round.event
    event.tournament_play = False
    event.save()
    leave_after_first_hand(table)
    # 37 ①「100点を対局者の人数倍」: three players are left at the table from hand 2 on
    assert log(table, 3, "art37_deliberate_foul", hand_number=2).points == 300
    assert log(table, 0, "art37_deliberate_foul", hand_number=None).points == 300  # the hand being played
    # a foul of hand 1, when all four still played, counts four
    assert log(table, 3, "art37_deliberate_foul", hand_number=1).points == 400


def test_art42_a_player_who_left_is_not_penalised_in_a_later_hand(table):
    leave_after_first_hand(table)
    with pytest.raises(TaikaiError) as info:
        log(table, 2, "art35_revealed_hand", hand_number=2)
    assert info.value.code == "player_not_in_hand"


def test_art42_payments_after_a_leave_are_among_the_players_left(table):
    leave_after_first_hand(table)
    # 1 han 30 fu non-dealer tsumo among the three left (m = 3), on four-player values by equal split 等分
    # (the standard ruleset, seed 000 §3.2): the dealer pays 600, the one other non-dealer 400, West nothing
    version = hand_record(
        table=table,
        number=2,
        expected_version=0,
        data={"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]},
    )
    assert version.deltas == [-600, -400, 0, 1000]


def test_art42_the_deal_goes_round_the_players_left_and_the_labels_count_them(table):
    from tournament import selectors

    # South deals hand 1 and East wins: the deal would pass to West, who leaves after it
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 1, "wins": [{"winner": 0, "discarder": 3, "han": 1, "fu": 30}]},
    )
    seat_mark_absent(seat=table.seats.get(position=2), during=True)
    sheet = selectors.table_hand_sheet(table)
    assert selectors.next_hand_defaults(sheet, players=4) == {"dealer_position": 3, "honba": 0}
    version = hand_record(
        table=table, number=2, expected_version=0, data={"outcome": "abortive_draw", "dealer_position": 3, "honba": 1}
    )
    assert version.label == "East 3, 1 honba"  # a three-player game: North deals its third hand


# --- Art. 36: the loss of 拾 wherever a claim is recorded, the replayed hand included ---------------


@pytest.fixture
def clocked(make_event, seated_round):
    event = make_event(4, clock_bank_seconds=60, clock_increment_seconds=5)
    seated_round(event)
    return Table.objects.get(round__event=event)


@pytest.mark.parametrize("kind", ["art36_out_of_turn", "art36_wrong_hand_size"])
def test_art36_a_player_who_lost_claims_cannot_claim_through_the_clock(clocked, kind):
    from tournament.services import clock as clock_services

    log(clocked, 2, kind)
    clock_services.clock_start(table=clocked, hand_number=1, dealer_position=0)
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_press(table=clocked, seat=0, turn_number=1, claim_by=2)
    assert (info.value.code, info.value.field) == ("claim_forbidden_by_penalty", "claim_by")
    assert "36" in info.value.message
    # another seat still claims, and the turn goes to it
    view = clock_services.clock_view(clock_services.clock_press(table=clocked, seat=0, turn_number=1, claim_by=3))
    assert view["seat_on_turn"] == 3


def test_art35_keeps_the_claim_and_a_cancelled_foul_gives_it_back(clocked):
    from tournament.services import clock as clock_services

    log(clocked, 1, "art35_revealed_hand")  # loses ron only
    foul = log(clocked, 2, "art36_out_of_turn")
    penalty_cancel(penalty=foul, reason="misread")
    clock_services.clock_start(table=clocked, hand_number=1, dealer_position=0)
    view = clock_services.clock_view(clock_services.clock_press(table=clocked, seat=0, turn_number=1, claim_by=1))
    assert view["seat_on_turn"] == 1
    view = clock_services.clock_view(clock_services.clock_press(table=clocked, seat=1, turn_number=2, claim_by=2))
    assert view["seat_on_turn"] == 2


def test_art38_art42_the_clock_passes_over_a_seat_that_left_and_refuses_its_claim(clocked):
    from tournament.services import clock as clock_services

    leave_after_first_hand(clocked)
    view = clock_services.clock_view(clock_services.clock_start(table=clocked, hand_number=2, dealer_position=1))
    turns = []
    for turn in range(1, 7):
        turns.append(view["seat_on_turn"])
        view = clock_services.clock_view(
            clock_services.clock_press(table=clocked, seat=view["seat_on_turn"], turn_number=turn)
        )
    assert turns == [1, 3, 0, 1, 3, 0] and view["absent"] == [2]
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_press(table=clocked, seat=1, turn_number=7, claim_by=2)
    assert info.value.code == "player_left"
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_start(table=clocked, hand_number=2, dealer_position=2)
    assert info.value.code == "player_left"


def test_art42_leaving_voids_the_clock_of_the_hand_in_progress(clocked):
    from tournament.services import clock as clock_services

    hand_record(table=clocked, number=1, expected_version=0, data=RON_BY_SOUTH)
    clock_services.clock_start(table=clocked, hand_number=2, dealer_position=1)
    seat_mark_absent(seat=clocked.seats.get(position=1), during=True)  # South leaves on turn
    view = clock_services.clock_view(clock_services.clock_observe(table=clocked))
    assert view["status"] == "finished" and not Penalty.objects.filter(kind="art38_clock_flag").exists()
    # the hand restarts from the shuffle: the clock starts again without South
    view = clock_services.clock_view(clock_services.clock_start(table=clocked, hand_number=2, dealer_position=2))
    assert view["absent"] == [1] and view["seat_on_turn"] == 2


def test_art36_3_the_wall_wrecker_has_no_win_in_the_replayed_hand(table):
    log(table, 1, "art36_wall_wrecked")
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "replayed", "dealer_position": 0})
    # hand 2 is the hand played again from the shuffle: South (the offender) neither wins by ron nor tsumo
    for data in (RON_BY_SOUTH, TSUMO_BY_SOUTH):
        with pytest.raises(TaikaiError) as info:
            hand_record(table=table, number=2, expected_version=0, data=data)
        assert info.value.code == "win_forbidden_by_penalty" and "36③" in info.value.message
    # the others win as usual, and the offender wins again once the replay is over
    hand_record(
        table=table,
        number=2,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 3, "discarder": 1, "han": 1, "fu": 30}]},
    )
    assert hand_record(table=table, number=3, expected_version=0, data=RON_BY_SOUTH).deltas[1] == 2600


def test_art36_3_the_wall_wrecker_has_no_claim_in_the_replayed_hand_even_replayed_again(clocked):
    from tournament.services import clock as clock_services

    log(clocked, 1, "art36_wall_wrecked")
    hand_record(table=clocked, number=1, expected_version=0, data={"outcome": "replayed", "dealer_position": 0})
    log(clocked, 3, "art36_wall_wrecked", hand_number=2)  # the replay is stopped too
    hand_record(table=clocked, number=2, expected_version=0, data={"outcome": "replayed", "dealer_position": 0})
    clock_services.clock_start(table=clocked, hand_number=3, dealer_position=0)
    for offender in (1, 3):
        with pytest.raises(TaikaiError) as info:
            clock_services.clock_press(table=clocked, seat=0, turn_number=1, claim_by=offender)
        assert info.value.code == "claim_forbidden_by_penalty"
    clock_services.clock_press(table=clocked, seat=0, turn_number=1, claim_by=2)


# --- Art. 43: a disqualification lifted with its penalty, unless confirmed --------------------------


def test_art43_cancelling_the_penalty_lifts_the_automatic_disqualification(table):
    penalty = log(table, 3, "art37_deliberate_foul")
    entry = Entry.objects.get(pk=penalty.entry_id)
    assert entry.status == Entry.Status.DISQUALIFIED and entry.disqualified_by_penalty_id == penalty.pk
    penalty_cancel(penalty=penalty, reason="not deliberate after all")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE and entry.disqualified_by_penalty is None
    assert "lifted" in entry.status_reason


def test_art43_a_confirmed_disqualification_stays_when_its_penalty_is_cancelled(table, admin_user):
    from tournament.services.discipline import entry_disqualification_confirm

    penalty = log(table, 3, "art37_deliberate_foul")
    entry = entry_disqualification_confirm(entry=Entry.objects.get(pk=penalty.entry_id), user=admin_user)
    assert entry.disqualification_confirmed_by == admin_user and entry.disqualification_confirmed_at
    penalty_cancel(penalty=penalty, reason="points waived on appeal")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED
    with pytest.raises(TaikaiError) as info:
        entry_disqualification_confirm(entry=entry, user=admin_user)
    assert info.value.code == "already_confirmed"


def test_art43_another_disqualifying_penalty_keeps_the_disqualification(table):
    first = log(table, 3, "art37_deliberate_foul")
    second = log(table, 3, "art43_egregious_conduct", hand_number=None)
    penalty_cancel(penalty=first, reason="misread")
    entry = Entry.objects.get(pk=first.entry_id)
    assert entry.status == Entry.Status.DISQUALIFIED and entry.disqualified_by_penalty_id == second.pk
    penalty_cancel(penalty=second, reason="misread too")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


def test_art43_a_directors_disqualification_is_not_lifted_by_a_cancelled_penalty(table):
    penalty = log(table, 3, "art37_deliberate_foul")
    entry_disqualify(entry=Entry.objects.get(pk=penalty.entry_id), reason="art. 43: the director's decision")
    penalty_cancel(penalty=penalty, reason="misread")
    assert Entry.objects.get(pk=penalty.entry_id).status == Entry.Status.DISQUALIFIED


def test_art43_only_a_disqualified_entry_is_confirmed(table):
    from tournament.services.discipline import entry_disqualification_confirm

    with pytest.raises(TaikaiError) as info:
        entry_disqualification_confirm(entry=seat_entry(table, 0))
    assert info.value.code == "not_disqualified"
