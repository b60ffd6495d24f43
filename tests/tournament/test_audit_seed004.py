"""The audit on seed 004's incidents: an event simulated with every incident has no violation, and each
corruption of a penalty, an absence, an overtime, a clock or the final is found by its code."""

import pytest
from django.db import transaction
from django.db.models import F

from scoring.models import Ruleset
from tests.tournament.audit_codes import codes, current_versions
from tournament.audit import event_audit
from tournament.models import Entry, Event, HandVersion, Penalty, Round, Seat, SeatResult, Table, TableClock
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_create
from tournament.simulation import Incidents, event_create, event_simulate, simulated_players

pytestmark = pytest.mark.django_db


# --- Seed 004 incidents: penalties, absences, overtime --------------------------------------------

# 16 players × 4 rounds and a final of 2 games with every incident at least once, among them an art. 37
# foul in round 4 that disqualifies (as ``simulate_event --penalties --absences --overtime`` plays it)
INCIDENTS_SEED = 113


@pytest.fixture(scope="module")
def incidents_once(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        event = event_create(
            slug="incidents",
            name="Incidents",
            players=simulated_players(16),
            ruleset=Ruleset.objects.get(slug="standard"),
            planned_rounds=4,
            overtime_enabled=True,
            final_games=2,
            clock_bank_seconds=60,
        )
        event_simulate(
            event,
            rounds=4,
            seed=INCIDENTS_SEED,
            seating="shuffle",
            incidents=Incidents(penalties=True, absences=True, overtime=True, final=True),
        )
        yield event.pk
        transaction.set_rollback(True)


@pytest.fixture
def incidents(incidents_once, db):
    return Event.objects.select_related("ruleset").get(pk=incidents_once)


def left_seat(event) -> tuple[int, list[HandVersion]]:
    """The game position of a player who left during the game, and the hands after they left."""
    seat = Seat.objects.filter(round__event=event, absence=Seat.Absence.ABSENT_DURING).first()
    playing = list(seat.table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE).order_by("position"))
    later = [v for v in current_versions(seat.table) if v.hand.number > seat.left_after_hand]
    return playing.index(seat), later


def test_an_event_with_every_incident_has_no_violation(incidents):
    assert event_audit(incidents) == []


def test_a_player_who_left_changing_points_later(incidents):
    position, later = left_seat(incidents)
    version = later[0]
    deltas = list(version.deltas)
    other = next(i for i in range(len(deltas)) if i != position)
    deltas[position] += 1000
    deltas[other] -= 1000  # still zero-sum
    HandVersion.objects.filter(pk=version.pk).update(deltas=deltas)
    violations = event_audit(incidents)
    assert {v.code for v in violations} == {"left_seat_change", "table_points"}
    (left,) = [v for v in violations if v.code == "left_seat_change"]
    assert left.where.endswith(f"hand {version.hand.number} v{version.version}")


def test_a_player_who_left_taking_part_later(incidents):
    position, later = left_seat(incidents)
    HandVersion.objects.filter(pk=later[-1].pk).update(riichi_positions=[position])
    assert codes(incidents) == {"left_seat_role"}


def test_a_present_seat_with_a_hand_it_left_after(incidents):
    seat = Seat.objects.filter(round__event=incidents, absence=Seat.Absence.PRESENT).first()
    Seat.objects.filter(pk=seat.pk).update(left_after_hand=2)
    assert codes(incidents) == {"absence_record"}


def test_a_replayed_hand_that_moves_points(incidents):
    version = HandVersion.objects.filter(hand__table__round__event=incidents, outcome="replayed").first()
    HandVersion.objects.filter(pk=version.pk).update(deltas=[1000, -1000, *version.deltas[2:]])
    assert codes(incidents) == {"replayed_hand", "table_points"}


def test_an_absentee_not_marked_as_forfeiting(incidents):
    seat = Seat.objects.filter(round__event=incidents).exclude(absence=Seat.Absence.PRESENT).first()
    SeatResult.objects.filter(seat=seat, is_current=True).update(forfeit=False)
    assert "forfeit" in codes(incidents)


def test_a_forfeit_with_the_wrong_placement_points(incidents):
    seat = Seat.objects.filter(round__event=incidents, absence=Seat.Absence.ABSENT_BEFORE).first()
    row = SeatResult.objects.get(seat=seat, is_current=True)
    # the last place of three (the players who played) instead of four (the players seated): −15, not −20
    three_player_last = incidents.ruleset.uma_for(3)[-1]
    assert three_player_last != incidents.ruleset.uma_for(4)[-1]
    SeatResult.objects.filter(pk=row.pk).update(
        placement_points=three_player_last, game_points=row.point_score + three_player_last + row.oka
    )
    # the table's game points still sum to its (now wrong) forfeits: the forfeit check is what finds it
    assert codes(incidents) == {"forfeit_points", "standings_total"}


@pytest.fixture
def year_two(make_event, seated_round):
    """A table whose overtime reached year 2 (2年春: placement points ×2), through the services."""
    from tournament.services.hands import hand_record
    from tournament.services.standings import standings_recompute

    event = make_event(4, overtime_enabled=True)
    table = seated_round(event).tables.get()
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]},
    )
    for number in range(2, 7):  # East and North trade 1000 below South (it goes on), then a draw ends it
        winner, discarder = (0, 3) if number % 2 else (3, 0)
        data = {
            "outcome": "ron",
            "dealer_position": 1,
            "overtime": True,
            "wins": [{"winner": winner, "discarder": discarder, "han": 1, "fu": 30}],
        }
        if number == 6:
            data = {"outcome": "exhaustive_draw", "dealer_position": 1, "overtime": True}
        hand_record(table=table, number=number, expected_version=0, data=data)
    table_finish(table=table, end_reason="time")
    standings_recompute(event_id=event.id)
    table.refresh_from_db()
    assert table.overtime_year == 2 and event_audit(event) == []
    return event, table


def test_overtime_placement_points_without_the_multiplier(year_two):
    event, table = year_two
    for row in SeatResult.objects.filter(table=table, is_current=True):
        SeatResult.objects.filter(pk=row.pk).update(
            placement_points=row.placement_points / 2, game_points=row.game_points - row.placement_points / 2
        )
    assert codes(event) == {"placement_points", "standings_total"}


def test_a_table_overtime_year_that_does_not_follow_its_hands(year_two):
    event, table = year_two
    Table.objects.filter(pk=table.pk).update(overtime_year=1)
    # the placement points are checked against the year the hands give, so only these two disagree
    assert codes(event) == {"overtime_year", "result_multiplier"}


def test_overtime_hands_in_an_event_without_overtime(incidents):
    Event.objects.filter(pk=incidents.pk).update(overtime_enabled=False)
    incidents.refresh_from_db()
    assert codes(incidents) == {"overtime_disabled"}


def test_a_regular_hand_after_an_overtime_hand(year_two):
    event, table = year_two
    last = current_versions(table)[-1]
    HandVersion.objects.filter(pk=last.pk).update(overtime=False)
    assert "overtime_order" in codes(event)


def test_a_win_by_a_seat_that_lost_the_right(incidents):
    version = (
        HandVersion.objects.filter(
            hand__table__round__event=incidents, outcome="ron", version=F("hand__current_version")
        )
        .select_related("hand__table")
        .first()
    )
    table = version.hand.table
    winner = table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE).order_by("position")[version.wins[0]["winner"]]
    Penalty.objects.create(
        event=incidents,
        table=table,
        entry=winner.entry,
        hand_number=version.hand.number,
        round_number=table.round.number,
        kind="art35_revealed_hand",
        reason="late",
    )
    assert codes(incidents) == {"win_despite_penalty"}


def test_a_wrecked_wall_not_replayed(incidents):
    version = HandVersion.objects.filter(
        hand__table__round__event=incidents, outcome="tsumo", version=F("hand__current_version")
    ).first()
    table = version.hand.table
    Penalty.objects.create(
        event=incidents,
        table=table,
        entry=table.seats.first().entry,
        hand_number=version.hand.number,
        round_number=table.round.number,
        kind="art36_wall_wrecked",
        reason="late",
    )
    assert codes(incidents) == {"hand_not_replayed"}


def deliberate_fouls(event):
    """The art. 37 fouls in force in the regular rounds whose player is still disqualified (art. 43)."""
    fouls = Penalty.objects.filter(
        event=event, kind="art37_deliberate_foul", cancelled_at__isnull=True, round_number__lte=event.planned_rounds
    )
    return [f for f in fouls.order_by("id") if f.entry.status == Entry.Status.DISQUALIFIED]


def test_art37_penalty_points_not_unit_times_players(incidents):
    foul = deliberate_fouls(incidents)[0]
    Penalty.objects.filter(pk=foul.pk).update(points=foul.points - 100)
    assert codes(incidents) == {"penalty_points", "standings_total"}


def test_a_deliberate_foul_in_tournament_play_without_disqualification(incidents):
    foul = next(f for f in deliberate_fouls(incidents) if f.entry.disqualified_by_penalty_id == f.pk)
    Entry.objects.filter(pk=foul.entry_id).update(status=Entry.Status.ACTIVE)
    # the entry still names the penalty that disqualified it, so its record disagrees too
    assert codes(incidents) == {"not_disqualified", "disqualification_record"}


def test_a_disqualified_player_seated_in_a_later_round(incidents):
    foul = next(f for f in deliberate_fouls(incidents) if 2 <= f.round_number <= incidents.planned_rounds)
    Penalty.objects.filter(pk=foul.pk).update(round_number=1)  # as if disqualified in round 1
    violations = event_audit(incidents)
    assert {v.code for v in violations} == {"seated_after_disqualification"}
    assert [v.where for v in violations] == [f"round {n}" for n in range(2, foul.round_number + 1)]


def test_cancelled_penalty_points_are_not_deducted(incidents, django_capture_on_commit_callbacks):
    from tournament.services.discipline import penalty_cancel

    foul = deliberate_fouls(incidents)[0]
    with django_capture_on_commit_callbacks(execute=True):
        penalty_cancel(penalty=foul, reason="misread")
    assert event_audit(incidents) == []
    lifted = Entry.objects.get(pk=foul.entry_id).status == Entry.Status.ACTIVE  # unless it was confirmed
    Penalty.objects.filter(pk=foul.pk).update(cancelled_at=None)  # deducted again behind the services' back
    assert codes(incidents) == {"standings_total"} | ({"not_disqualified"} if lifted else set())


# --- Seed 004 through the services: each new check finds its corruption --------------------------

RON_BY_SOUTH = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}],
}


@pytest.fixture
def one_table(make_event, seated_round):
    def make(**fields):
        event = make_event(4, **fields)
        seated_round(event)
        return event, Table.objects.get(round__event=event)

    return make


def log(table, position, kind, hand_number):
    from tournament.services.discipline import penalty_log

    return penalty_log(
        event=table.round.event,
        entry=table.seats.get(position=position).entry,
        kind=kind,
        reason="seen",
        table=table,
        hand_number=hand_number,
    )


def left_after_first_hand(table):
    from tournament.services.discipline import seat_mark_absent
    from tournament.services.hands import hand_record

    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    seat_mark_absent(seat=table.seats.get(position=2), during=True)  # West leaves: three-player from hand 2


def test_art37_penalty_points_at_a_table_a_player_left_counted_as_four(one_table):
    event, table = one_table(tournament_play=False)
    left_after_first_hand(table)
    foul = log(table, 3, "art37_deliberate_foul", 2)
    assert foul.points == 300 and event_audit(event) == []
    Penalty.objects.filter(pk=foul.pk).update(points=400)  # 100 × 4, the player who left counted
    assert codes(event) == {"penalty_points"}


def test_art42_a_clock_that_gives_the_turn_to_a_seat_that_left(one_table):
    from tournament.services.clock import clock_start

    event, table = one_table(clock_bank_seconds=60)
    left_after_first_hand(table)
    clock = clock_start(table=table, hand_number=2, dealer_position=1)
    assert event_audit(event) == []
    state = {**clock.state, "absent": [], "seat_on_turn": 2}
    TableClock.objects.filter(pk=clock.pk).update(state=state)
    assert codes(event) == {"clock_absent_seats", "clock_turn_to_absent"}
    TableClock.objects.filter(pk=clock.pk).update(state={**state, "version": 99})
    assert codes(event) == {"clock_state"}


def test_art36_a_claim_taken_after_the_right_was_lost(one_table):
    import time

    from tournament.services.clock import clock_press, clock_start

    event, table = one_table(clock_bank_seconds=60)
    log(table, 2, "art36_out_of_turn", 1)
    clock_start(table=table, hand_number=1, dealer_position=0)
    clock = clock_press(table=table, seat=0, turn_number=1, claim_by=3)  # a claim by a seat with the right
    assert len(clock.state["claims"]) == 1 and event_audit(event) == []
    forged = [*clock.state["claims"], [3, 2, int(time.time() * 1000) + 60_000]]  # West claims after its foul
    TableClock.objects.filter(pk=clock.pk).update(state={**clock.state, "claims": forged})
    assert codes(event) == {"claim_despite_penalty"}


def test_art36_3_a_win_by_the_wall_wrecker_in_the_replayed_hand(one_table):
    from tournament.services.hands import hand_record

    event, table = one_table()
    log(table, 1, "art36_wall_wrecked", 1)
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "replayed", "dealer_position": 0})
    version = hand_record(
        table=table,
        number=2,
        expected_version=0,
        data={**RON_BY_SOUTH, "wins": [{"winner": 3, "discarder": 2, "han": 2, "fu": 40}]},
    )
    assert event_audit(event) == []
    HandVersion.objects.filter(pk=version.pk).update(
        wins=[{**version.wins[0], "winner": 1}], deltas=[0, 2600, -2600, 0]
    )  # South, the offender, wins the replay
    assert codes(event) == {"win_despite_penalty"}


OVERTIME_RON = {
    "outcome": "ron",
    "dealer_position": 1,
    "overtime": True,
    "wins": [{"winner": 0, "discarder": 3, "han": 1, "fu": 30}],
}
OVERTIME_DRAW = {"outcome": "exhaustive_draw", "dealer_position": 1, "overtime": True}


def test_art39_an_overtime_state_that_does_not_follow_its_hands(one_table):
    from tournament.services.hands import hand_record

    event, table = one_table(overtime_enabled=True)
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    hand_record(table=table, number=2, expected_version=0, data=OVERTIME_RON)  # East not above South: goes on
    assert event_audit(event) == []
    Table.objects.filter(pk=table.pk).update(overtime_state="no_winner")
    assert codes(event) == {"overtime_state"}
    Table.objects.filter(pk=table.pk).update(overtime_state="playing", status=Table.Status.FINISHED)
    assert "overtime_unfinished" in codes(event)


def test_art39_an_overtime_hand_after_the_overtime_ended(one_table):
    from tournament.services.hands import hand_record

    event, table = one_table(overtime_enabled=True)
    hand_record(table=table, number=1, expected_version=0, data=RON_BY_SOUTH)
    version = hand_record(table=table, number=2, expected_version=0, data=OVERTIME_RON)
    hand_record(table=table, number=3, expected_version=0, data=OVERTIME_DRAW)
    assert event_audit(event) == []
    # hand 2 rewritten as drawn behind the services' back: the overtime ended there, hand 3 follows it
    HandVersion.objects.filter(pk=version.pk).update(outcome="exhaustive_draw", wins=[], deltas=[0, 0, 0, 0])
    assert codes(event) == {"overtime_after_end"}


def two_player_final(make_event, **fields):
    from tournament.services.finals import final_apply
    from tournament.services.hands import hand_record
    from tournament.services.standings import standings_recompute

    event = make_event(3, **fields)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    round_ = round_create(event=event, tables=[ids[:2]], is_final=True)
    table = round_.tables.get()
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 0, "han": 2, "fu": 40}]},
    )
    table_finish(table=table, end_reason="time")
    final_apply(table=table)
    standings_recompute(event_id=event.id)
    event.refresh_from_db()
    return event, ids


def test_art43_a_disqualified_champion(make_event):
    event, ids = two_player_final(make_event)
    assert event.champion_id == ids[1] and event_audit(event) == []
    Entry.objects.filter(pk=ids[1]).update(status=Entry.Status.DISQUALIFIED)
    assert codes(event) == {"champion_disqualified"}


def test_art40_a_champion_who_did_not_play_the_final(make_event):
    event, ids = two_player_final(make_event)
    Event.objects.filter(pk=event.pk).update(champion=ids[2])
    event.refresh_from_db()
    assert codes(event) == {"champion_not_finalist"}


def test_art40_1_a_champion_crowned_before_the_last_prescribed_game(make_event):
    event, _ = two_player_final(make_event)
    Event.objects.filter(pk=event.pk).update(final_games=2)
    event.refresh_from_db()
    assert codes(event) == {"final_decided_early"}


def test_art43_a_disqualification_not_lifted_with_its_penalty(one_table):
    from django.utils import timezone

    event, table = one_table()
    foul = log(table, 3, "art37_deliberate_foul", 1)
    assert event_audit(event) == []
    Penalty.objects.filter(pk=foul.pk).update(cancelled_at=timezone.now())  # cancelled behind the services
    assert codes(event) == {"disqualification_not_lifted"}
    Entry.objects.filter(pk=foul.entry_id).update(disqualification_confirmed_at=timezone.now())
    assert event_audit(event) == []  # a confirmed disqualification stays


def test_art43_a_confirmation_on_an_entry_that_is_not_disqualified(one_table):
    from django.utils import timezone

    from tournament.services.discipline import penalty_cancel

    event, table = one_table()
    foul = log(table, 3, "art37_deliberate_foul", 1)
    penalty_cancel(penalty=foul, reason="misread")
    assert Entry.objects.get(pk=foul.entry_id).status == Entry.Status.ACTIVE and event_audit(event) == []
    Entry.objects.filter(pk=foul.entry_id).update(disqualification_confirmed_at=timezone.now())
    assert codes(event) == {"disqualification_record"}


def test_a_round_marked_completed_while_tables_are_still_playing(make_event, seated_round):
    # given a round of two tables, table 1 confirmed, table 2 still playing
    event = make_event(8)
    round_ = seated_round(event)
    first = round_.tables.get(number=1)
    hand_record(table=first, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0})
    table_finish(table=first, end_reason="time")
    # when the round is marked completed behind the services' back (its status edited)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETED)
    # then the audit names the round and the table still playing
    [violation] = [v for v in event_audit(event) if v.code == "round_completed_while_playing"]
    assert violation.where == "round 1" and "tables 2 are still playing" in violation.message
