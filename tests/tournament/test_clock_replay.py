"""Art. 38: the offline log of a referee's device, replayed by the server (``clock_replay``)."""

import json

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taikai.errors import Conflict, TaikaiError
from tournament.engine import clock as engine
from tournament.models import Penalty, TableClock
from tournament.services import clock as clock_services

pytestmark = pytest.mark.django_db

# (ms the seat on turn thinks, seat, turn number): with a 20 s bank (持ち時間) and a 5 s increment (加算),
# South runs out of time on turn 2 and is flagged by its own press
PRESSES = [(8000, 0, 1), (26000, 1, 2), (3000, 2, 3), (12000, 3, 4), (4000, 0, 5)]


@pytest.fixture
def now(monkeypatch):
    """The server clock in milliseconds, moved by the test (from the real time: the tables' round was drawn
    a moment before)."""
    clock = {"ms": clock_services._now_ms() + 60_000}
    monkeypatch.setattr(clock_services, "_now_ms", lambda: clock["ms"])
    return clock


@pytest.fixture
def tables(make_event, seated_round):
    event = make_event(8, clock_bank_seconds=20, clock_increment_seconds=5)
    return list(seated_round(event).tables.order_by("number"))


def played_online(table, now) -> TableClock:
    clock_services.clock_start(table=table, hand_number=1, dealer_position=0)
    for think, seat, turn in PRESSES:
        now["ms"] += think
        clock = clock_services.clock_press(table=table, seat=seat, turn_number=turn)
    return clock


def device_log(device_start_ms: int) -> tuple[list[dict], int]:
    """The same hand kept by a device whose clock read ``device_start_ms`` at the start; and the device's
    time when it sends the log (a second after the last press)."""
    log, at = (
        [{"verb": "start", "at_ms": device_start_ms, "hand_number": 1, "dealer_position": 0}],
        device_start_ms,
    )
    for think, seat, turn in PRESSES:
        at += think
        log.append({"verb": "press", "at_ms": at, "seat": seat, "turn_number": turn})
    return log, at + 1000


def shown(clock: TableClock) -> tuple:
    state = engine.state_from_dict(clock.state)
    return state.banks_ms, state.seat_on_turn, state.turn_number, state.flagged, state.status, clock.version


@pytest.mark.parametrize("device_ahead_ms", [0, -49_000_000, 3_000_000_000_000])
def test_a_replayed_log_charges_as_the_same_presses_online(tables, now, device_ahead_ms):
    # given a hand played online at table 1
    online = played_online(tables[0], now)
    # when a device whose clock is off the server's by device_ahead_ms sends the same hand for table 2
    log, sent_at = device_log(now["ms"] + 1000 + device_ahead_ms)
    now["ms"] += 1000 + sum(think for think, *_ in PRESSES) + 1000
    replayed = clock_services.clock_replay(table=tables[1], base_version=0, sent_at_ms=sent_at, log=log)
    # then the banks, the turn, the flags and the version are the same
    assert shown(replayed) == shown(online)
    assert shown(replayed)[0] == (18000, 0, 20000, 13000)  # South flagged at 0
    assert Penalty.objects.filter(table=tables[1], kind="art38_clock_flag").count() == 1


def test_a_press_after_the_bank_ran_out_flags_and_logs_the_penalty_once(tables, now):
    log = [
        {"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
        {"verb": "flag", "at_ms": 21000},  # the device saw East's bank reach 0
        {"verb": "flag", "at_ms": 22000},
        {"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1},
    ]
    clock = clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=25000, log=log)
    state = engine.state_from_dict(clock.state)
    assert state.flagged == {0} and state.banks_ms[0] == 0 and state.seat_on_turn == 1
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.hand_number, penalty.entry.player.display_name) == (
        "art38_clock_flag",
        1,
        "Player 01",
    )


def test_a_log_from_a_version_another_device_moved_on_is_a_409_writing_nothing(tables, now):
    # given a clock another device started and pressed (version 2)
    clock_services.clock_start(table=tables[0], hand_number=1, dealer_position=0)
    clock_services.clock_press(table=tables[0], seat=0, turn_number=1)
    before = TableClock.objects.get().state
    log = [{"verb": "press", "at_ms": 30000, "seat": 0, "turn_number": 1}]
    for base_version in (0, 1):
        # when a device that had the clock at an older version sends its log
        with pytest.raises(Conflict) as info:
            clock_services.clock_replay(table=tables[0], base_version=base_version, sent_at_ms=30000, log=log)
        # then it is refused, nothing written
        assert (info.value.code, info.value.status, info.value.field) == (
            "clock_moved_on",
            409,
            "base_version",
        )
    clock = TableClock.objects.get()
    assert (clock.version, clock.state) == (2, before) and not Penalty.objects.exists()


def test_a_bad_entry_in_the_middle_refuses_the_whole_log(tables, now):
    clock_services.clock_start(table=tables[0], hand_number=1, dealer_position=0)
    now["ms"] += 30000
    before = TableClock.objects.get()
    log = [
        {"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1},  # East flagged: a penalty
        {"verb": "press", "at_ms": 26000, "seat": 3, "turn_number": 2},  # South is on turn, not North
        {"verb": "press", "at_ms": 27000, "seat": 1, "turn_number": 2},
    ]
    with pytest.raises(Conflict) as info:
        clock_services.clock_replay(table=tables[0], base_version=1, sent_at_ms=27000, log=log)
    assert (info.value.code, info.value.field) == ("clock_wrong_seat", "log[1]")
    after = TableClock.objects.get()
    assert (after.version, after.state) == (before.version, before.state) and not Penalty.objects.exists()


def test_a_refused_log_creates_no_clock(tables, now):
    log = [
        {"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
        {"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1},
        {"verb": "resume", "at_ms": 26000},
    ]  # the clock is running, not paused
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=26000, log=log)
    assert (info.value.code, info.value.field) == ("clock_not_paused", "log[2]")
    assert not TableClock.objects.exists() and not Penalty.objects.exists()


def test_a_press_before_the_clock_is_started_is_refused(tables, now):
    log = [{"verb": "press", "at_ms": 1000, "seat": 0, "turn_number": 1}]
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=1000, log=log)
    assert (info.value.code, info.value.field) == ("clock_not_started", "log[0]")


def started_online(table, now, *, thought_ms: int) -> tuple[TableClock, int]:
    """A clock started online at ``table``; East (the dealer) has been thinking ``thought_ms`` since."""
    clock = clock_services.clock_start(table=table, hand_number=1, dealer_position=0)
    now["ms"] += thought_ms
    return clock, engine.state_from_dict(clock.state).mark_ms


def refused_as_implausible(table, log, *, sent_at_ms, base_version=1) -> Conflict:
    before = TableClock.objects.get(table=table)
    with pytest.raises(Conflict) as info:
        clock_services.clock_replay(table=table, base_version=base_version, sent_at_ms=sent_at_ms, log=log)
    after = TableClock.objects.get(table=table)
    assert (after.version, after.state) == (before.version, before.state) and not Penalty.objects.exists()
    return info.value


def test_a_log_with_made_up_device_times_moves_no_time_between_seats_and_is_refused(tables, now):
    # given a clock started online, East thinking for 2.6 s; South has 1 s left... as a forger would like
    started_online(tables[0], now, thought_ms=2600)
    # when a device claims East pressed at its time 0 and South at a time far ahead, sent far in the future
    log = [
        {"verb": "press", "at_ms": 0, "seat": 0, "turn_number": 1},
        {"verb": "press", "at_ms": 9_000_000_000_000, "seat": 1, "turn_number": 2},
    ]
    error = refused_as_implausible(tables[0], log, sent_at_ms=8_000_000_000_000)
    # then East is not credited the 2.6 s it used, nor South charged them: the log is refused, nothing written
    assert (error.code, error.status, error.field) == ("clock_log_implausible", 409, "log[0]")


def test_an_entry_after_the_log_was_sent_or_going_back_in_time_is_refused(tables, now):
    started_online(tables[0], now, thought_ms=12_000)
    after_sending = [{"verb": "press", "at_ms": 105_000, "seat": 0, "turn_number": 1}]
    assert refused_as_implausible(tables[0], after_sending, sent_at_ms=100_000).field == "log[0]"
    backwards = [
        {"verb": "press", "at_ms": 95_000, "seat": 0, "turn_number": 1},
        {"verb": "press", "at_ms": 91_000, "seat": 1, "turn_number": 2},
    ]
    assert refused_as_implausible(tables[0], backwards, sent_at_ms=100_000).field == "log[1]"


def test_entries_before_the_servers_mark_are_refused_beyond_the_devices_error_and_kept_at_the_mark_within(tables, now):
    # given a clock started online 12 s ago (the server's last mark)
    _, mark = started_online(tables[0], now, thought_ms=12_000)
    # when the device's log, sent just now, spans 30 s: its first press 18 s before the mark
    log = [
        {"verb": "press", "at_ms": 100_000, "seat": 0, "turn_number": 1},
        {"verb": "press", "at_ms": 130_000, "seat": 1, "turn_number": 2},
    ]
    # then it is refused, nothing written (East would be credited 18 s)
    error = refused_as_implausible(tables[0], log, sent_at_ms=130_000)
    assert (error.code, error.status, error.field) == ("clock_log_implausible", 409, "log[0]")
    # when it spans 12.6 s instead (its clock ran 0.6 s fast, within the device's error)
    log[1]["at_ms"] = 112_600
    clock = clock_services.clock_replay(table=tables[0], base_version=1, sent_at_ms=112_600, log=log)
    # then East's press is kept at the mark (charged nothing, never before it), South charged up to now
    state = engine.state_from_dict(clock.state)
    increment = state.settings.increment_ms
    assert state.mark_ms == now["ms"] and engine.LOG_TOLERANCE_MS >= 600
    assert state.banks_ms == (20000, 20000 - (now["ms"] - mark) + increment, 20000, 20000)


def test_a_new_clocks_log_cannot_start_before_its_round_was_drawn(tables, now):
    # given a table without a clock, its round drawn a minute ago (the fixture's now)
    # when a device sends a hand it claims was started and played two hours ago
    log = [
        {"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
        {"verb": "press", "at_ms": 5_000, "seat": 0, "turn_number": 1},
    ]
    with pytest.raises(Conflict) as info:
        clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=2 * 3600_000, log=log)
    # then it is refused: South would have been charged two hours and flagged
    assert (info.value.code, info.value.field) == ("clock_log_implausible", "log[0]")
    assert not TableClock.objects.exists() and not Penalty.objects.exists()


# Device logs of up to 8 presses: each press's time after the one before (a device's clock may step back a
# little), the time from the last press to sending, and the real time the server saw since its mark.
DEVICE_LOGS = st.tuples(
    st.integers(0, 10**13),  # the device's time at its first press
    st.lists(st.integers(-3_000, 40_000), min_size=0, max_size=7),
    st.integers(-3_000, 40_000),
    st.integers(0, 120_000),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(device_log=DEVICE_LOGS)
def test_a_replay_never_credits_a_seat_beyond_the_real_time_nor_moves_time_beyond_the_tolerance(
    make_event, seated_round, now, device_log
):
    first, gaps, tail, real_ms = device_log
    with transaction.atomic():  # each example from a new event, rolled back after
        event = make_event(4, clock_bank_seconds=3600, clock_increment_seconds=0)
        table = seated_round(event).tables.get()
        replay_keeps_to_the_real_time(table, now, first=first, gaps=gaps, tail=tail, real_ms=real_ms)
        transaction.set_rollback(True)


def replay_keeps_to_the_real_time(table, now, *, first, gaps, tail, real_ms) -> None:
    clock, mark = started_online(table, now, thought_ms=real_ms)
    at = [first]
    for gap in gaps:
        at.append(max(0, at[-1] + gap))
    sent_at = max(0, at[-1] + tail)
    log = [{"verb": "press", "at_ms": t, "seat": i % 4, "turn_number": i + 1} for i, t in enumerate(at)]
    try:
        clock = clock_services.clock_replay(table=table, base_version=1, sent_at_ms=sent_at, log=log)
    except Conflict as error:
        assert error.code == "clock_log_implausible"
        assert TableClock.objects.get(table=table).version == 1 and not Penalty.objects.exists()
        return
    state = engine.state_from_dict(clock.state)
    charged = [state.settings.bank_ms - bank for bank in state.banks_ms]  # no increment: what each used
    # the time the device claims each seat used, its log laid on the server's clock by its sending
    claimed, previous = [0] * 4, mark
    for i, t in enumerate(at):
        claimed[i % 4] += t + now["ms"] - sent_at - previous
        previous = t + now["ms"] - sent_at
    # no seat is charged less than nothing, and all together no more than the real time since the mark
    assert min(charged) >= 0 and sum(charged) <= now["ms"] - mark
    # and no seat gains or loses more than the device's error against what its device claims
    assert all(abs(c - d) <= engine.LOG_TOLERANCE_MS for c, d in zip(charged, claimed, strict=True))


def test_an_empty_or_too_long_log_is_invalid(tables, now):
    for log, field in (
        ([], "log"),
        ([{"verb": "flag", "at_ms": 0}] * 2001, "log"),
        ([{"verb": "undo"}], "log[0]"),
    ):
        with pytest.raises(TaikaiError) as info:
            clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=0, log=log)
        assert (info.value.code, info.value.status, info.value.field) == ("invalid_input", 400, field)


# --- the API ------------------------------------------------------------------------------------------


def post_replay(client, table, body: dict, key: str | None = None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        reverse("tournament_api:clock_replay", args=[table.pk]),
        json.dumps(body),
        content_type="application/json",
        headers=headers,
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"sent_at_ms": 0, "log": [{"verb": "flag", "at_ms": 0}]}, "base_version"),
        ({"base_version": 0, "sent_at_ms": -1, "log": [{"verb": "flag", "at_ms": 0}]}, "sent_at_ms"),
        ({"base_version": 0, "sent_at_ms": 0, "log": []}, "log"),
        ({"base_version": 0, "sent_at_ms": 0, "log": "start"}, "log"),
        ({"base_version": 0, "sent_at_ms": 0, "log": [{"verb": "flag", "at_ms": 0}] * 2001}, "log"),
        ({"base_version": 0, "sent_at_ms": 0, "log": [{"verb": "flag", "at_ms": 0}, "press"]}, "log[1]"),
        ({"base_version": 0, "sent_at_ms": 0, "log": [{"verb": "undo", "at_ms": 0}]}, "log[0].verb"),
        ({"base_version": 0, "sent_at_ms": 0, "log": [{"verb": "flag", "at_ms": -5}]}, "log[0].at_ms"),
        (
            {
                "base_version": 0,
                "sent_at_ms": 0,
                "log": [
                    {"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
                    {"verb": "press", "at_ms": 1, "turn_number": 1},
                ],
            },
            "log[1].seat",
        ),
    ],
)
def test_api_bad_input_is_a_400_naming_the_field(admin_client, tables, now, body, field):
    response = post_replay(admin_client, tables[0], body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid_input"
    assert response.json()["error"]["field"] == field
    assert not TableClock.objects.exists()


def test_api_replays_and_answers_the_clock_then_409_when_sent_from_an_old_version(admin_client, tables, now):
    log, sent_at = device_log(7_000)
    response = post_replay(admin_client, tables[0], {"base_version": 0, "sent_at_ms": sent_at, "log": log})
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["version"] == 6 and answer["turn_number"] == 6 and answer["flagged"] == [1]
    assert answer["cap_ms"] == 20000 and "server_ms" in answer
    again = post_replay(admin_client, tables[0], {"base_version": 0, "sent_at_ms": sent_at, "log": log})
    assert again.status_code == 409 and again.json()["error"]["code"] == "clock_moved_on"
    refused = post_replay(admin_client, tables[0], {"base_version": 6, "sent_at_ms": sent_at, "log": log[1:2]})
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "log[0]"  # an old turn
    assert TableClock.objects.get().version == 6 and Penalty.objects.count() == 1


def test_api_a_log_with_made_up_times_is_a_409_in_the_error_shape_writing_nothing(admin_client, tables, now):
    started_online(tables[0], now, thought_ms=2600)
    before = TableClock.objects.get()
    log = [
        {"verb": "press", "at_ms": 0, "seat": 0, "turn_number": 1},
        {"verb": "press", "at_ms": 9_000_000_000_000, "seat": 1, "turn_number": 2},
    ]
    response = post_replay(admin_client, tables[0], {"base_version": 1, "sent_at_ms": 8_000_000_000_000, "log": log})
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("clock_log_implausible", "log[0]") and "log entry 0" in error["message"]
    after = TableClock.objects.get()
    assert (after.version, after.state) == (before.version, before.state) and not Penalty.objects.exists()


def test_api_the_same_replay_sent_twice_with_its_key_is_recorded_once(admin_client, tables, now):
    log, sent_at = device_log(7_000)
    body = {"base_version": 0, "sent_at_ms": sent_at, "log": log}
    first = post_replay(admin_client, tables[0], body, key="replay-5e1f")
    again = post_replay(admin_client, tables[0], body, key="replay-5e1f")
    assert first.status_code == again.status_code == 200
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert TableClock.objects.get().version == 6 and Penalty.objects.count() == 1


def test_api_only_those_who_run_the_clock_may_replay(client, tables, now):
    body = {"base_version": 0, "sent_at_ms": 0, "log": [{"verb": "flag", "at_ms": 0}]}
    assert post_replay(client, tables[0], body).status_code == 403
    assert not TableClock.objects.exists()


def test_a_log_that_goes_on_from_the_devices_earlier_log_is_guarded_by_its_turns(tables, now):
    # given a device's first log sent (start and the first two presses) and the rest kept in a second log
    log, sent_at = device_log(1_000)
    first_sent_at = log[2]["at_ms"] + 1000  # a second after its last press
    clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=first_sent_at, log=log[:3])
    # when the second log, with no version (base_version None), goes on from it, sent as much later
    now["ms"] += sent_at - first_sent_at
    clock = clock_services.clock_replay(table=tables[0], base_version=None, sent_at_ms=sent_at, log=log[3:])
    # then it is taken; and the same log sent once more is refused by its stale turn, nothing written
    assert engine.state_from_dict(clock.state).turn_number == len(PRESSES) + 1
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=None, sent_at_ms=sent_at, log=log[3:])
    assert info.value.code == "clock_stale_turn" and TableClock.objects.get().version == clock.version


def test_api_a_log_sent_again_after_a_failed_sending_is_laid_by_its_devices_time_at_this_sending(
    admin_client, tables, now
):
    # given a clock started online, then a device offline: East thinks 8 s, South 6 s (device times)
    _, mark = started_online(tables[0], now, thought_ms=0)
    log = [
        {"verb": "press", "at_ms": 508_000, "seat": 0, "turn_number": 1},
        {"verb": "press", "at_ms": 514_000, "seat": 1, "turn_number": 2},
    ]
    body = {"base_version": 1, "sent_at_ms": 514_500, "log": log}  # sealed at the first sending, which failed
    # when the device sends the same body ten minutes later, saying its time now
    now["ms"] += 14_500 + 600_000
    headers = {"Idempotency-Key": "replay-late-1", "X-Taikai-Sent-At": str(514_500 + 600_000)}
    response = admin_client.post(
        reverse("tournament_api:clock_replay", args=[tables[0].pk]),
        json.dumps(body),
        content_type="application/json",
        headers=headers,
    )
    # then East is charged the 8 s it thought, not the ten minutes the log waited (it is not flagged)
    assert response.status_code == 200, response.content
    state = engine.state_from_dict(TableClock.objects.get(table=tables[0]).state)
    increment = state.settings.increment_ms
    assert state.banks_ms[:2] == (20000 - 8000 + increment, 20000 - 6000 + increment)
    assert not state.flagged and not Penalty.objects.exists()
    assert state.mark_ms == mark + 14_000


@pytest.mark.parametrize("claimed", ["508499", "-1", "1e9", "٥١٤٥٠٠", "9" * 17, ""])
def test_api_a_sending_time_that_is_no_later_whole_number_is_ignored(admin_client, tables, now, claimed):
    _, mark = started_online(tables[0], now, thought_ms=0)
    log = [{"verb": "press", "at_ms": 508_000, "seat": 0, "turn_number": 1}]
    now["ms"] += 8_500
    response = admin_client.post(
        reverse("tournament_api:clock_replay", args=[tables[0].pk]),
        json.dumps({"base_version": 1, "sent_at_ms": 508_500, "log": log}),
        content_type="application/json",
        headers={"X-Taikai-Sent-At": claimed},
    )
    assert response.status_code == 200, response.content
    assert engine.state_from_dict(TableClock.objects.get(table=tables[0]).state).mark_ms == mark + 8_000
