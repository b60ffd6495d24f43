"""The audit finds nothing wrong in a simulated event, and finds each corruption by its code (seed 004's
incidents, penalties, absences, overtime and the final: ``test_audit_seed004.py``)."""

from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from scoring.models import Ruleset
from tests.tournament.audit_codes import codes, current_versions
from tournament.audit import event_audit
from tournament.audit.records import Violation
from tournament.audit.results import expected_placement
from tournament.models import (
    Event,
    HandVersion,
    Round,
    Seat,
    SeatResult,
    StandingsRow,
    StandingsSnapshot,
    Table,
    Team,
    TeamMember,
)
from tournament.services.results import table_finish
from tournament.services.rounds import round_create
from tournament.simulation import event_create, event_simulate, simulated_players

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def simulated_once(django_db_setup, django_db_blocker):
    """12 players × 3 rounds, every hand through the services, seeded: played once for the module in
    a transaction rolled back at its end; each test's own transaction rolls back its corruption."""
    with django_db_blocker.unblock(), transaction.atomic():
        event = event_create(
            slug="audited",
            name="Audited",
            players=simulated_players(12),
            ruleset=Ruleset.objects.get(slug="standard"),
            planned_rounds=3,
        )
        event_simulate(event, rounds=3, seed=3, seating="shuffle")
        yield event.pk
        transaction.set_rollback(True)


@pytest.fixture
def simulated(simulated_once, db):
    return Event.objects.select_related("ruleset").get(pk=simulated_once)


def some_table(event, round_number=2, number=1):
    return Table.objects.get(round__event=event, round__number=round_number, number=number)


def audit_exit_code(slug) -> int:
    try:
        call_command("audit_event", slug, stdout=StringIO())
    except CommandError as exc:
        return exc.returncode
    return 0


def test_a_simulated_event_has_no_violation(simulated):
    assert event_audit(simulated) == []
    assert audit_exit_code("audited") == 0


def test_a_hand_that_does_not_sum_to_zero(simulated):
    table = some_table(simulated)
    version = current_versions(table)[2]
    HandVersion.objects.filter(pk=version.pk).update(deltas=[version.deltas[0] + 100, *version.deltas[1:]])
    violations = event_audit(simulated)
    zero_sum = [v for v in violations if v.code == "hand_zero_sum"]
    assert [v.where for v in zero_sum] == [f"round 2 table 1 hand 3 v{version.version}"]
    # the table's confirmed points no longer follow from its hands either
    assert {v.code for v in violations} == {"hand_zero_sum", "table_points"}
    assert audit_exit_code("audited") == 1


def test_points_moved_between_seats_break_the_table_points_only(simulated):
    version = current_versions(some_table(simulated))[0]
    deltas = list(version.deltas)
    deltas[0] += 100
    deltas[1] -= 100
    HandVersion.objects.filter(pk=version.pk).update(deltas=deltas)
    violations = event_audit(simulated)
    assert [(v.code, v.where) for v in violations] == [("table_points", "round 2 table 1")]


def test_penalty_points_are_deducted_from_the_standings_totals(simulated, django_capture_on_commit_callbacks):
    from tournament.services.discipline import penalty_log

    table = some_table(simulated, 3, 1)
    seat = table.seats.first()
    # art. 37: 100 × 4 players = 400 points, 0.4 game points off the event total
    with django_capture_on_commit_callbacks(execute=True):
        penalty_log(
            event=simulated, entry=seat.entry, kind="art37_deliberate_foul", reason="swapped tiles", table=table
        )
    assert event_audit(simulated) == []
    row = StandingsRow.objects.get(event=simulated, entry=seat.entry)
    games = SeatResult.objects.filter(entry=seat.entry, is_current=True).values_list("game_points", flat=True)
    assert row.total_points == sum(games, Fraction(0)) - Fraction(4, 10)


def test_a_broken_deposit_chain(simulated):
    versions = current_versions(some_table(simulated, 1, 2))
    # a hand in the middle claims 1000 more deposits in and leaves them on the table: still zero-sum
    version = versions[len(versions) // 2]
    HandVersion.objects.filter(pk=version.pk).update(
        deposits_in=version.deposits_in + 1000, deposits_out=version.deposits_out + 1000
    )
    violations = event_audit(simulated)
    assert {v.code for v in violations} == {"deposits_chain"}
    assert [v.where for v in violations] == [
        f"round 1 table 2 hand {version.hand.number} v{version.version}",
        f"round 1 table 2 hand {version.hand.number + 1} v{versions[len(versions) // 2 + 1].version}",
    ]


def test_a_seat_result_whose_game_points_are_not_the_sum_of_their_parts(simulated):
    row = SeatResult.objects.filter(table=some_table(simulated), is_current=True).first()
    SeatResult.objects.filter(pk=row.pk).update(game_points=row.game_points + 1)
    violations = event_audit(simulated)
    assert {v.code for v in violations} == {"result_game_points", "table_game_points_sum", "standings_total"}
    (row_violation,) = [v for v in violations if v.code == "result_game_points"]
    assert row_violation.where == f"round 2 table 1 seat {row.seat.wind}"
    assert audit_exit_code("audited") == 1


def test_a_placement_that_does_not_follow_the_points(simulated):
    top = SeatResult.objects.get(table=some_table(simulated), is_current=True, placement=1)
    SeatResult.objects.filter(pk=top.pk).update(placement=2)
    # placed 2nd but still marked as the table's winner (勝ち進み)
    assert codes(simulated) == {"placement", "advanced"}


def test_a_player_seated_twice_in_a_round(simulated):
    first_round = simulated.rounds.get(number=1)
    seats = list(Seat.objects.filter(round=first_round).order_by("table__number", "position"))
    twice = seats[0].entry_id
    moved = seats[-1]  # another table of the same round
    # The database refuses the same (round, entry) twice, so the corrupted row also names a round that
    # is not its table's: the audit goes by the table's round.
    spare = Round.objects.create(event=simulated, number=99, status=Round.Status.DRAFT)
    Seat.objects.filter(pk=moved.pk).update(entry_id=twice, round_id=spare.pk)
    violations = event_audit(simulated)
    seated = [v for v in violations if v.code == "seated_twice"]
    assert len(seated) == 1 and seated[0].where == "round 1"
    assert f"(entry {twice}) is seated 2 times" in seated[0].message
    # knock-on findings of the same corruption: the seat's round and the result's player
    assert {v.code for v in violations} == {"seated_twice", "seat_round_mismatch", "result_entry"}
    assert audit_exit_code("audited") == 1


def test_a_standings_total_that_is_not_the_sum_of_the_results(simulated):
    last = StandingsRow.objects.filter(event=simulated).order_by("position").last()
    StandingsRow.objects.filter(pk=last.pk).update(total_points=last.total_points - Fraction(1, 10))
    violations = event_audit(simulated)
    assert [v.code for v in violations] == ["standings_total"]
    assert f"(entry {last.entry_id})" in violations[0].where
    assert audit_exit_code("audited") == 1


def test_standings_listed_out_of_order(simulated):
    rows = StandingsRow.objects.filter(event=simulated).order_by("position")
    first, last = rows.first(), rows.last()
    StandingsRow.objects.filter(pk=first.pk).update(position=10**6)  # out of the way while they swap
    StandingsRow.objects.filter(pk=last.pk).update(position=first.position)
    StandingsRow.objects.filter(pk=first.pk).update(position=last.position)
    assert codes(simulated) == {"standings_order"}


def test_standings_rows_missing_from_their_positions(simulated):
    StandingsRow.objects.filter(event=simulated).order_by("position").last().delete()
    assert codes(simulated) == {"standings_entries", "standings_positions"}


def test_missing_standings(simulated):
    StandingsSnapshot.objects.filter(event=simulated).delete()
    assert codes(simulated) == {"standings_missing"}


def test_a_result_version_left_current_twice_is_refused_by_the_database(simulated):
    table = some_table(simulated)
    row = SeatResult.objects.filter(table=table, is_current=True).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatResult.objects.create(
            table=table,
            seat=row.seat,
            entry=row.entry,
            version=row.version + 1,
            final_points=row.final_points,
            placement=row.placement,
            point_score=row.point_score,
            placement_points=row.placement_points,
            oka=row.oka,
            game_points=row.game_points,
        )


def test_a_seat_left_without_a_current_result(simulated):
    table = some_table(simulated)
    SeatResult.objects.filter(pk=SeatResult.objects.filter(table=table, is_current=True).first().pk).update(
        is_current=False
    )
    assert "result_versions" in codes(simulated)


def test_a_hand_version_marked_current_that_is_not_the_hands_current_one(simulated):
    version = HandVersion.objects.filter(hand__table=some_table(simulated), is_current=True).first()
    HandVersion.objects.filter(pk=version.pk).update(is_current=False)
    assert "hand_current_flag" in codes(simulated)


@pytest.mark.parametrize(
    ("points", "tie_rule", "expected"),
    [
        ([30000, 25000, 25000, 20000], "split", [1, 2, 2, 4]),
        ([30000, 25000, 25000, 20000], "seat_order", [1, 2, 3, 4]),
        ([25000, 25000, 25000, 25000], "split", [1, 1, 1, 1]),
        ([20000, 30000, 30000], "seat_order", [3, 1, 2]),
    ],
)
def test_expected_placement_follows_the_tie_rule(points, tie_rule, expected):
    assert [expected_placement(points, i, tie_rule) for i in range(len(points))] == expected


def test_final_scores_tables_are_checked_against_the_start_total(make_event):
    event = make_event(4, entry_mode=Event.EntryMode.FINAL_SCORES, slug="scores")
    round_create(event=event, tables=[list(event.entries.values_list("id", flat=True))])
    table = Table.objects.get(round__event=event)
    table_finish(table=table, final_points=[40000, 30000, 20000, 9000])  # 1000 left on the table
    from tournament.services.standings import standings_recompute

    standings_recompute(event_id=event.id)
    assert event_audit(event) == []
    row = SeatResult.objects.get(table=table, is_current=True, placement=4)
    SeatResult.objects.filter(pk=row.pk).update(final_points=row.final_points + 1500)
    assert "table_points_sum" in codes(event)


def test_the_audit_command_names_an_unknown_event():
    with pytest.raises(CommandError, match="unknown_event"):
        call_command("audit_event", "nowhere")


def test_violations_print_code_place_and_message():
    assert str(Violation("hand_zero_sum", "round 1 table 2 hand 3 v1", "off by 100")) == (
        "[hand_zero_sum] round 1 table 2 hand 3 v1: off by 100"
    )


@pytest.mark.slow
@pytest.mark.once  # the audit of a long event: the same on every database
def test_a_64_player_6_round_event_passes_the_audit():
    event = event_create(
        slug="large",
        name="Large",
        players=simulated_players(64),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=6,
    )
    summary = event_simulate(event, rounds=6, seed=64)
    assert (summary.rounds, summary.tables) == (6, 96)
    assert event_audit(event) == []


# --- Teams (団体戦) -----------------------------------------------------------------------------------


def teams_made(event, rule: str) -> list[Team]:
    """Three teams of four of the event's entries, in order of registration, under ``rule``."""
    Event.objects.filter(pk=event.pk).update(team_rule=rule, team_best=2)
    event.refresh_from_db()
    teams = [Team.objects.create(event=event, name=f"Team {i}") for i in range(1, 4)]
    for i, entry in enumerate(event.entries.order_by("id")):
        TeamMember.objects.create(team=teams[i // 4], entry=entry)
    return teams


@pytest.mark.parametrize("rule", ["sum", "best", "placement"])
def test_a_team_event_has_no_violation(simulated, rule):
    teams_made(simulated, rule)
    assert event_audit(simulated) == []


def test_a_team_member_of_another_event(simulated, make_event):
    [team, *_] = teams_made(simulated, "sum")
    stranger = make_event(4, slug="elsewhere").entries.first()
    TeamMember.objects.create(team=team, entry=stranger)  # written directly, past the services
    assert [(v.code, v.where) for v in event_audit(simulated)] == [("team_member_event", "team Team 1")]


def test_a_captain_from_outside_the_team(simulated):
    first, second, _third = teams_made(simulated, "sum")
    Team.objects.filter(pk=first.pk).update(captain=second.members.first().entry)
    assert codes(simulated) == {"team_captain"}


def test_team_standings_that_do_not_follow_the_results(simulated):
    teams_made(simulated, "sum")
    row = StandingsRow.objects.filter(event=simulated).order_by("position").first()
    StandingsRow.objects.filter(pk=row.pk).update(total_points=row.total_points + 7)
    assert {"standings_total", "team_standings"} <= codes(simulated)
