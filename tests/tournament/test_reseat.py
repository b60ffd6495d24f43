"""Re-seating a table that sat wrong (``tournament.services.reseat``): a whole hanchan recorded in the wrong seats
and re-seated equals the same game entered afresh in the real seats; re-seated and back, any game gives its
points exactly; every refusal writes nothing; the clock follows the players."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taikai.errors import TaikaiError
from tests.fixtures.tournament import event_with_players, round_seated
from tests.tournament.audit_codes import codes
from tests.tournament.reseat_game import GAME, REAL, A, B, C, D, hand_at
from tournament.engine import clock as clock_engine
from tournament.models import HandVersion, Ruling, Seat, SeatResult, TableClock, TableReseat
from tournament.services.checks import round_check
from tournament.services.clock import clock_press, clock_start
from tournament.services.discipline import penalty_log, seat_mark_absent
from tournament.services.hands import hand_record
from tournament.services.reseat import table_reseat
from tournament.services.results import table_finish
from tournament.services.rounds import round_create
from tournament.simulation.game import GameState, game_advance, hand_draw

pytestmark = pytest.mark.django_db


def table_seated(standard_ruleset, slug: str, seating: list[int]):
    """A table of a new event's round 1 with its four people (entries in order A, B, C, D) seated ``seating``;
    its people's entries, A first."""
    event = event_with_players(standard_ruleset, 4, name=slug, slug=slug)
    entries = list(event.entries.order_by("id"))
    round_ = round_create(event=event, tables=[[entries[p].pk for p in seating]])
    return round_.tables.get(), entries


def game_recorded(table, entries, seating: list[int]) -> None:
    """The penalties and the hands of ``GAME`` at ``table``, its people seated ``seating``."""
    event = table.round.event
    penalty_log(event=event, entry=entries[D], kind="art35_revealed_hand", reason="shown", table=table, hand_number=5)
    penalty_log(event=event, entry=entries[B], kind="art37_deliberate_foul", reason="wall", table=table, hand_number=3)
    for number, hand in enumerate(GAME, start=1):
        hand_record(table=table, number=number, expected_version=0, data=hand_at(hand, seating))


def players_of(entries, seating: list[int]) -> list[int]:
    return [entries[p].player_id for p in seating]


def in_force(table) -> list[HandVersion]:
    return list(HandVersion.objects.in_force().filter(hand__table=table).order_by("hand__number"))


SAME = ("label", "dealer_position", "honba", "deposits_in", "riichi_positions", "outcome", "tenpai_positions")


def test_a_hanchan_recorded_in_the_wrong_seats_and_reseated_equals_the_game_entered_in_the_real_seats(
    standard_ruleset,
):
    wrong, wrong_entries = table_seated(standard_ruleset, "wrong-seats", [A, B, C, D])
    game_recorded(wrong, wrong_entries, [A, B, C, D])
    right, right_entries = table_seated(standard_ruleset, "right-seats", REAL)
    game_recorded(right, right_entries, REAL)
    before = [v.deltas for v in in_force(wrong)]

    reseat = table_reseat(table=wrong, players=players_of(wrong_entries, REAL), reason="seen at hand 11")

    wrong.refresh_from_db()
    right.refresh_from_db()
    reseated, fresh = in_force(wrong), in_force(right)
    assert len(reseated) == len(fresh) == len(GAME)
    for number, (got, expected) in enumerate(zip(reseated, fresh, strict=True), start=1):
        assert got.version == 2 and expected.version == 1, number
        assert got.deltas == expected.deltas, number
        assert got.deposits_out == expected.deposits_out, number
        assert [w | {"hand": None} for w in got.wins] == [w | {"hand": None} for w in expected.wins], number
        for name in SAME:
            assert getattr(got, name) == getattr(expected, name), (number, name)
    assert wrong.running_points == right.running_points
    # the sticks of the double ron went to another person under the real seats: the points did change
    moved = [[deltas[REAL.index(p)] for p in range(4)] for deltas in before]
    assert moved != [v.deltas for v in reseated]
    # the seats are the real ones; the old versions stay in the history; one ruling records it
    assert [s.entry_id for s in Seat.objects.filter(table=wrong).order_by("position")] == [
        wrong_entries[p].pk for p in REAL
    ]
    assert HandVersion.objects.filter(hand__table=wrong).count() == 2 * len(GAME)
    assert [v.deltas for v in HandVersion.objects.filter(hand__table=wrong, version=1).order_by("hand__number")] == (
        before
    )
    ruling = Ruling.objects.get(table=wrong)
    assert reseat.ruling == ruling and "seen at hand 11" in ruling.decision
    assert reseat.hand_versions == [[n, 2] for n in range(1, len(GAME) + 1)]
    assert reseat.moved == [REAL.index(p) for p in range(4)]
    assert codes(wrong.round.event) == set()
    # confirmed, the results are those of the game entered in the real seats, person by person
    table_finish(table=wrong, end_reason="time")
    table_finish(table=right, end_reason="time")

    def results(table, entries):
        rows = {r.entry_id: r for r in SeatResult.objects.filter(table=table, is_current=True)}
        return [
            (rows[e.pk].final_points, rows[e.pk].placement, rows[e.pk].game_points, rows[e.pk].seat.position)
            for e in entries
        ]

    assert results(wrong, wrong_entries) == results(right, right_entries)


def random_game(table, seed: int) -> None:
    """A random legal game at ``table`` (the simulation's hands, played through the services)."""
    rng = random.Random(seed)
    ruleset = table.round.event.ruleset
    state = GameState(players=4, start_points=ruleset.start_points, riichi_stick=ruleset.riichi_stick, max_hands=12)
    number = 0
    while not state.over:
        number += 1
        hand = hand_draw(rng, state)
        version = hand_record(table=table, number=number, expected_version=0, data=hand)
        game_advance(state, hand, version.deltas, version.deposits_out)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), order=st.permutations(range(4)).filter(lambda o: list(o) != [0, 1, 2, 3]))
def test_any_game_reseated_and_back_gives_its_points_exactly(standard_ruleset, seed, order):
    with transaction.atomic():  # each example from a new event, rolled back after
        table, entries = table_seated(standard_ruleset, "there-and-back", [A, B, C, D])
        random_game(table, seed)
        original = [(v.deltas, v.deposits_out, v.label) for v in in_force(table)]
        table_reseat(table=table, players=players_of(entries, list(order)))
        table_reseat(table=table, players=players_of(entries, [A, B, C, D]))
        assert [(v.deltas, v.deposits_out, v.label) for v in in_force(table)] == original
        assert TableReseat.objects.filter(table=table).count() == Ruling.objects.filter(table=table).count() == 2
        transaction.set_rollback(True)


def nothing_written(table):
    return (
        HandVersion.objects.filter(hand__table=table).count(),
        Ruling.objects.count(),
        TableReseat.objects.count(),
        list(Seat.objects.filter(table=table).order_by("position").values_list("entry_id", flat=True)),
    )


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (lambda e, other: [e[A].player_id, e[B].player_id, e[C].player_id], "invalid_seats"),
        (lambda e, other: "1,2,3,4", "invalid_seats"),
        (lambda e, other: [e[A].player_id, e[B].player_id, "x", e[D].player_id], "invalid_seats"),
        (lambda e, other: [e[B].player_id, e[A].player_id, e[C].player_id, other.player_id], "player_not_at_table"),
        (lambda e, other: [e[B].player_id, e[B].player_id, e[C].player_id, e[D].player_id], "duplicate_player"),
        (lambda e, other: [e[p].player_id for p in (A, B, C, D)], "seats_unchanged"),
    ],
)
def test_a_mapping_that_cannot_be_applied_is_refused_with_its_code_and_nothing_written(standard_ruleset, players, code):
    table, entries = table_seated(standard_ruleset, "refusals", [A, B, C, D])
    game_recorded(table, entries, [A, B, C, D])
    other = event_with_players(standard_ruleset, 1, name="Elsewhere", slug="elsewhere").entries.get()
    before = nothing_written(table)
    with pytest.raises(TaikaiError) as refused:
        table_reseat(table=table, players=players(entries, other))
    assert (refused.value.code, refused.value.field) == (code, "seats")
    assert nothing_written(table) == before


def test_a_confirmed_table_and_a_checked_round_are_refused_with_nothing_written(standard_ruleset):
    table, entries = table_seated(standard_ruleset, "confirmed", [A, B, C, D])
    game_recorded(table, entries, [A, B, C, D])
    table_finish(table=table, end_reason="time")
    before = nothing_written(table)
    with pytest.raises(TaikaiError) as refused:
        table_reseat(table=table, players=players_of(entries, REAL))
    assert refused.value.code == "table_finished"
    round_check(round_=table.round)
    with pytest.raises(TaikaiError) as refused:
        table_reseat(table=table, players=players_of(entries, REAL))
    assert (refused.value.code, refused.value.status) == ("round_locked", 409)
    assert nothing_written(table) == before


def test_the_clock_and_an_absence_follow_the_players(standard_ruleset):
    event = event_with_players(standard_ruleset, 4, clock_bank_seconds=60)
    table = round_seated(event).tables.get()
    entries = list(event.entries.order_by("id"))
    hand_record(table=table, number=1, expected_version=0, data=hand_at(GAME[0], [A, B, C, D]))
    seat_mark_absent(seat=table.seats.get(position=3), during=True)  # D left after hand 1 (art. 42)
    clock_start(table=table, hand_number=2, dealer_position=1)
    clock_press(table=table, seat=1, turn_number=1)  # B's turn done, C on turn
    banks = clock_engine.state_from_dict(TableClock.objects.get(table=table).state).banks_ms

    table_reseat(table=table, players=players_of(entries, REAL))

    state = clock_engine.state_from_dict(TableClock.objects.get(table=table).state)
    assert state.seat_on_turn == REAL.index(C)
    assert state.settings.absent == {REAL.index(D)}
    assert [state.banks_ms[REAL.index(p)] for p in range(4)] == list(banks)
    assert Seat.objects.get(table=table, entry=entries[D]).absence == Seat.Absence.ABSENT_DURING
    assert codes(event) == set()


def test_the_audit_finds_a_reseat_without_its_ruling_and_versions_that_disagree(standard_ruleset):
    table, entries = table_seated(standard_ruleset, "audited", [A, B, C, D])
    game_recorded(table, entries, [A, B, C, D])
    reseat = table_reseat(table=table, players=players_of(entries, REAL))
    event = table.round.event
    assert codes(event) == set()

    TableReseat.objects.filter(pk=reseat.pk).update(ruling=None)
    assert codes(event) == {"reseat_ruling"}
    TableReseat.objects.filter(pk=reseat.pk).update(ruling=Ruling.objects.create(event=event, decision="other"))
    assert codes(event) == {"reseat_ruling"}
    TableReseat.objects.filter(pk=reseat.pk).update(ruling=Ruling.objects.filter(table=table).first())
    assert codes(event) == set()

    written = HandVersion.objects.get(hand__table=table, hand__number=2, version=2)
    HandVersion.objects.filter(pk=written.pk).update(tenpai_positions=[REAL.index(A)])  # not who was tenpai
    assert codes(event) == {"reseat_version_disagrees"}
    HandVersion.objects.filter(pk=written.pk).update(tenpai_positions=written.tenpai_positions)

    TableReseat.objects.filter(pk=reseat.pk).update(hand_versions=[*reseat.hand_versions, [len(GAME), 7]])
    assert codes(event) == {"reseat_version"}
    TableReseat.objects.filter(pk=reseat.pk).update(hand_versions=reseat.hand_versions, moved=[0, 0, 1, 2])
    assert codes(event) == {"reseat_mapping"}
