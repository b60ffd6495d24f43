"""Art. 38 chess clock (持ち時間) driven by a fake time source."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.clock import (
    ClockFlagged,
    ClockSettings,
    ClockState,
    end_hand,
    observe,
    pause,
    place_log,
    press,
    remaining_ms,
    resume,
    start_hand,
    state_from_dict,
    state_reseated,
    state_to_dict,
    void,
)
from tournament.engine.errors import InvariantViolation, TournamentError
from tournament.engine.penalties import PenaltyKind

SECOND = 1000


class FakeClock:
    """A time source the test moves by hand."""

    def __init__(self, start_ms: int = 1_700_000_000_000):
        self.now = start_ms

    def advance(self, ms: int) -> int:
        self.now += ms
        return self.now


def _press(state, clock, elapsed_ms, claim_by=None):
    now = clock.advance(elapsed_ms)
    return press(state, seat=state.seat_on_turn, turn_number=state.turn_number, now_ms=now, claim_by=claim_by)


def test_art38_1_every_seat_starts_the_hand_with_the_event_bank():
    state = start_hand(ClockSettings(bank_ms=90 * SECOND, increment_ms=5 * SECOND), 0, 0)
    assert state.banks_ms == (90_000, 90_000, 90_000, 90_000)


def test_art38_2_the_dealer_starts_the_clock_and_is_on_turn():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), opener_seat=2, now_ms=clock.now)
    assert (state.seat_on_turn, state.turn_number, state.status) == (2, 1, "running")
    clock.advance(7 * SECOND)
    assert remaining_ms(state, 2, clock.now) == 53_000
    assert remaining_ms(state, 0, clock.now) == 60_000


def test_art38_3_time_used_runs_from_the_previous_press_to_ones_own_press():
    # given: no increment, 60 s banks
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    # when: seat 0 presses after 12 s, seat 1 after 3.5 s
    state = _press(state, clock, 12_000).state
    state = _press(state, clock, 3_500).state
    # then
    assert state.banks_ms == (48_000, 56_500, 60_000, 60_000)
    assert (state.seat_on_turn, state.turn_number) == (2, 3)


def test_art38_4_increment_is_added_for_every_move():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=5 * SECOND), 0, clock.now)
    state = _press(state, clock, 20_000).state  # 60 - 20 + 5
    assert state.banks_ms[0] == 45_000
    for _ in range(3):
        state = _press(state, clock, 1_000).state
    state = _press(state, clock, 2_000).state  # 45 - 2 + 5
    assert state.banks_ms[0] == 48_000


@pytest.mark.parametrize(
    ("bank", "increment", "elapsed", "expected"),
    [
        (60_000, 5_000, 1_000, 60_000),  # 59 + 5 = 64 -> capped at 60
        (60_000, 5_000, 5_000, 60_000),  # 55 + 5 = 60 exactly
        (60_000, 5_000, 6_000, 59_000),  # below the cap
        (30_000, 30_000, 0, 30_000),  # an instant move never lifts the bank
    ],
)
def test_art38_increment_never_exceeds_bank(bank, increment, elapsed, expected):
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=bank, increment_ms=increment), 0, clock.now)
    state = _press(state, clock, elapsed).state
    assert state.banks_ms[0] == expected
    assert max(state.banks_ms) <= bank


def test_art38_5_bank_at_zero_flags_the_seat_and_emits_the_penalty_event():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=2 * SECOND), 1, clock.now)
    transition = _press(state, clock, 11_000)
    assert transition.state.flagged == frozenset({1})
    assert transition.state.banks_ms[1] == 0  # no increment once flagged
    assert transition.events == (ClockFlagged(seat=1, turn_number=1, at_ms=clock.now),)
    assert transition.events[0].penalty_kind is PenaltyKind.CLOCK_FLAG


def test_art38_5_exactly_zero_counts_as_out_of_time():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=2 * SECOND), 0, clock.now)
    transition = _press(state, clock, 10_000)
    assert transition.state.flagged == frozenset({0})
    assert transition.state.banks_ms[0] == 0


def test_art38_5_flag_lasts_for_the_hand_and_the_seat_keeps_discarding():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=5 * SECOND, increment_ms=10 * SECOND), 0, clock.now)
    state = _press(state, clock, 6_000).state
    for _ in range(3):
        state = _press(state, clock, 500).state
    # seat 0 is on turn again: it still presses after discarding its drawn tile, stays at 0, no new event
    transition = _press(state, clock, 100)
    assert transition.events == ()
    assert transition.state.banks_ms[0] == 0
    assert transition.state.flagged == frozenset({0})


def test_art38_5_flagged_seat_cannot_claim():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=5 * SECOND, increment_ms=0), 0, clock.now)
    state = _press(state, clock, 6_000).state  # seat 0 flagged
    with pytest.raises(TournamentError) as caught:
        _press(state, clock, 1_000, claim_by=0)
    assert caught.value.code == "claim_forbidden"


def test_art38_5_observe_flags_the_seat_on_turn_without_its_press():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=5 * SECOND, increment_ms=0), 3, clock.now)
    assert observe(state, clock.advance(4_999)).events == ()
    transition = observe(state, clock.advance(1))
    assert transition.state.flagged == frozenset({3})
    assert transition.events == (ClockFlagged(seat=3, turn_number=1, at_ms=clock.now),)
    # the seat still presses after its discard; the flag is not raised twice
    after = press(transition.state, seat=3, turn_number=1, now_ms=clock.advance(2_000))
    assert after.events == ()
    assert after.state.seat_on_turn == 0


def test_art38_claim_hands_the_turn_to_the_claiming_seat():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    state = _press(state, clock, 4_000, claim_by=2).state
    assert state.seat_on_turn == 2
    state = _press(state, clock, 3_000).state
    assert state.banks_ms == (56_000, 60_000, 57_000, 60_000)
    assert state.seat_on_turn == 3


def test_art38_referee_pause_charges_the_paused_time_to_nobody():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    paused = pause(state, clock.advance(10_000)).state
    assert paused.status == "paused"
    clock.advance(300_000)  # five minutes of ruling
    assert remaining_ms(paused, 0, clock.now) == 50_000
    running = resume(paused, clock.now)
    state = _press(running, clock, 5_000).state
    assert state.banks_ms[0] == 45_000


@pytest.mark.parametrize(
    ("make_call", "code"),
    [
        (lambda s, now: press(s, seat=1, turn_number=1, now_ms=now), "clock_wrong_seat"),
        (lambda s, now: press(s, seat=0, turn_number=0, now_ms=now), "clock_stale_turn"),
        (lambda s, now: press(s, seat=0, turn_number=2, now_ms=now), "clock_stale_turn"),
        (lambda s, now: press(s, seat=0, turn_number=1, now_ms=now, claim_by=0), "invalid_claim"),
        (lambda s, now: press(s, seat=0, turn_number=1, now_ms=now, claim_by=4), "invalid_seat"),
        (lambda s, now: resume(s, now), "clock_not_paused"),
        (lambda s, now: press(pause(s, now).state, seat=0, turn_number=1, now_ms=now), "clock_paused"),
        (lambda s, now: pause(pause(s, now).state, now), "clock_paused"),
        (lambda s, now: press(end_hand(s, now).state, seat=0, turn_number=1, now_ms=now), "clock_finished"),
        (lambda s, now: end_hand(end_hand(s, now).state, now), "clock_finished"),
    ],
)
def test_art38_presses_out_of_order_are_rejected_with_a_code(make_call, code):
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    with pytest.raises(TournamentError) as caught:
        make_call(state, clock.advance(1_000))
    assert caught.value.code == code


def test_art38_a_second_press_for_the_same_turn_is_a_conflict():
    # two referee devices press for the same turn: the second one loses
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    first = press(state, seat=0, turn_number=1, now_ms=clock.advance(1_000)).state
    with pytest.raises(TournamentError) as caught:
        press(first, seat=0, turn_number=1, now_ms=clock.advance(10))
    assert caught.value.code == "clock_stale_turn"


def test_art38_time_going_backwards_is_an_invariant_violation():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=60 * SECOND, increment_ms=0), 0, clock.now)
    with pytest.raises(InvariantViolation):
        press(state, seat=0, turn_number=1, now_ms=clock.now - 1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"bank_ms": 0, "increment_ms": 0},
        {"bank_ms": 1000, "increment_ms": -1},
        {"bank_ms": 1000, "increment_ms": 0, "players": 5},
        {"bank_ms": 1.5, "increment_ms": 0},
    ],
)
def test_art38_invalid_settings_are_rejected(kwargs):
    with pytest.raises(TournamentError) as caught:
        ClockSettings(**kwargs)
    assert caught.value.code == "invalid_clock_settings"


def test_art38_state_survives_a_json_round_trip():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=1 * SECOND, players=3), 1, clock.now)
    state = _press(state, clock, 11_000).state
    state = pause(state, clock.advance(2_000)).state
    stored = json.loads(json.dumps(state_to_dict(state)))
    assert state_from_dict(stored) == state


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(version=99),
        lambda d: d.pop("banks_ms"),
        lambda d: d.update(banks_ms=[1, 2]),
        lambda d: d.update(status="exploded"),
        lambda d: d.update(flagged=[0]),  # seat 0 still has time
        lambda d: d.update(mark_ms="yesterday"),
    ],
)
def test_art38_damaged_stored_state_is_rejected(damage):
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=0, players=3), 0, 0)
    data = state_to_dict(state)
    damage(data)
    with pytest.raises(TournamentError) as caught:
        state_from_dict(data)
    assert caught.value.code == "invalid_clock_state"


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["press", "claim", "pause", "observe"]), st.integers(0, 20_000), st.integers(0, 3)),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(
    bank=st.integers(1, 30_000),
    increment=st.integers(0, 15_000),
    players=st.sampled_from([2, 3, 4]),
    actions=ACTIONS,
)
def test_art38_property_bank_stays_between_zero_and_initial_and_flags_once(bank, increment, players, actions):
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=bank, increment_ms=increment, players=players), 0, clock.now)
    flag_events = []
    for action, elapsed, target in actions:
        now = clock.advance(elapsed)
        if action == "pause":
            transition = pause(state, now)
            state = resume(transition.state, clock.advance(elapsed))
        elif action == "observe":
            transition = observe(state, now)
            state = transition.state
        else:
            claim_by = target % players if action == "claim" else None
            if claim_by == state.seat_on_turn or claim_by in state.flagged:
                claim_by = None
            transition = press(
                state, seat=state.seat_on_turn, turn_number=state.turn_number, now_ms=now, claim_by=claim_by
            )
            state = transition.state
        flag_events.extend(transition.events)
        assert all(0 <= b <= bank for b in state.banks_ms)
        assert all(state.banks_ms[seat] == 0 for seat in state.flagged)
    flagged_seats = [event.seat for event in flag_events]
    assert sorted(flagged_seats) == sorted(set(flagged_seats)) == sorted(state.flagged)


# --- Art. 42: a seat that left the game -----------------------------------------------------------


def test_art42_an_absent_seat_never_gets_the_turn():
    clock = FakeClock()
    settings_ = ClockSettings(bank_ms=30 * SECOND, increment_ms=0, players=4, absent=frozenset({2}))
    state = start_hand(settings_, 0, clock.now)
    seats = []
    for _ in range(6):
        state = _press(state, clock, SECOND).state
        seats.append(state.seat_on_turn)
    assert seats == [1, 3, 0, 1, 3, 0]
    assert state.banks_ms[2] == 30_000  # never charged


def test_art42_the_last_seat_leaving_passes_the_turn_back_to_east():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=SECOND, increment_ms=0, players=4, absent={3}), 2, clock.now)
    assert _press(state, clock, 10).state.seat_on_turn == 0


def test_art42_an_absent_seat_cannot_open_or_claim():
    settings_ = ClockSettings(bank_ms=10 * SECOND, increment_ms=0, players=3, absent={1})
    with pytest.raises(TournamentError) as caught:
        start_hand(settings_, 1, 0)
    assert (caught.value.code, caught.value.field) == ("player_left", "opener_seat")
    state = start_hand(settings_, 0, 0)
    with pytest.raises(TournamentError) as caught:
        press(state, seat=0, turn_number=1, now_ms=10, claim_by=1)
    assert (caught.value.code, caught.value.field) == ("player_left", "claim_by")


@settings(max_examples=150, deadline=None)
@given(players=st.sampled_from([3, 4]), absent=st.integers(0, 3), actions=ACTIONS)
def test_art42_property_an_absent_seat_is_never_on_turn_never_flags_never_claims(players, absent, actions):
    absent %= players
    clock = FakeClock()
    settings_ = ClockSettings(bank_ms=5_000, increment_ms=1_000, players=players, absent={absent})
    state = start_hand(settings_, (absent + 1) % players, clock.now)
    for action, elapsed, target in actions:
        now = clock.advance(elapsed)
        if action == "observe":
            state = observe(state, now).state
        elif action == "pause":
            state = resume(pause(state, now).state, clock.advance(elapsed))
        else:
            claim_by = target % players if action == "claim" else None
            if claim_by in (state.seat_on_turn, absent) or claim_by in state.flagged:
                claim_by = None
            state = press(
                state, seat=state.seat_on_turn, turn_number=state.turn_number, now_ms=now, claim_by=claim_by
            ).state
        assert state.seat_on_turn != absent and absent not in state.flagged
        assert state.banks_ms[absent] == 5_000
    assert all(seat != absent for _, seat, _ in state.claims)


def test_art42_a_void_hand_stops_the_clock_and_charges_nobody():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=0, players=4), 0, clock.now)
    clock.advance(60 * SECOND)  # far past the bank: still nobody flags
    stopped = void(state)
    assert stopped.status == "finished" and stopped.banks_ms[0] == 10_000 and not stopped.flagged
    with pytest.raises(TournamentError) as caught:
        void(stopped)
    assert caught.value.code == "clock_finished"


def test_art36_every_claim_is_kept_with_its_turn_and_time():
    clock = FakeClock()
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=0, players=4), 0, clock.now)
    state = _press(state, clock, SECOND, claim_by=2).state
    assert state.claims == ((2, 2, clock.now),) and state.seat_on_turn == 2
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_art38_a_stored_state_of_the_first_format_is_read_without_absences_or_claims():
    state = start_hand(ClockSettings(bank_ms=10 * SECOND, increment_ms=0, players=3), 0, 0)
    data = state_to_dict(state)
    data["version"] = 1
    del data["absent"], data["claims"]
    assert state_from_dict(data) == state


@pytest.mark.parametrize("absent", [{4}, {0, 1, 2}, {True}])
def test_art42_absent_seats_must_be_seats_and_leave_two_players(absent):
    with pytest.raises(TournamentError) as caught:
        ClockSettings(bank_ms=SECOND, increment_ms=0, players=4 if absent != {0, 1, 2} else 3, absent=absent)
    assert caught.value.code == "invalid_clock_settings"


def test_art38_an_honest_offline_log_keeps_its_devices_gaps_and_ends_where_it_was_sent():
    # a device whose clock is far from the server's went offline after the mark and pressed three times;
    # it sent its log a second after the last press, 40 s after the server's mark by the server's clock
    mark, device = 1_000_000_000, [7_000_000, 7_012_000, 7_030_000]
    placed = place_log(device, sent_at_ms=device[-1] + SECOND, server_now_ms=mark + 40 * SECOND, floor_ms=mark)
    times = [time for time, _ in placed]
    assert [b - a for a, b in pairwise(times)] == [b - a for a, b in pairwise(device)]
    assert times[-1] == mark + 40 * SECOND - SECOND and times[0] > mark and all(moved == 0 for _, moved in placed)


def test_a_reseat_moves_each_seats_bank_flag_claim_absence_and_turn_with_its_player():
    rules = ClockSettings(bank_ms=10_000, increment_ms=0, players=4, absent=frozenset({3}))
    state = ClockState(
        settings=rules,
        status="running",
        seat_on_turn=1,
        turn_number=4,
        banks_ms=(9_000, 8_000, 0, 10_000),
        mark_ms=100,
        flagged=frozenset({2}),
        claims=((3, 1, 50),),
    )
    moved = [1, 3, 0, 2]  # East's player really sat South, South's North, West's East, North's West
    reseated = state_reseated(state, moved)
    assert reseated.banks_ms == (0, 9_000, 10_000, 8_000)
    assert (reseated.seat_on_turn, reseated.flagged, reseated.settings.absent) == (3, {0}, {2})
    assert reseated.claims == ((3, 3, 50),)
    assert state_reseated(reseated, [moved.index(seat) for seat in range(4)]) == state
