"""Art. 38: the offline log of a referee's device, replayed by the server (``clock_replay``)."""

import json

import pytest
from django.urls import reverse

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
    """The server clock in milliseconds, moved by the test."""
    clock = {"ms": 50_000_000}
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
    log = [{"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
           {"verb": "flag", "at_ms": 21000},  # the device saw East's bank reach 0
           {"verb": "flag", "at_ms": 22000},
           {"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1}]  # fmt: skip
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
    log = [{"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1},  # East flagged: a penalty
           {"verb": "press", "at_ms": 26000, "seat": 3, "turn_number": 2},  # South is on turn, not North
           {"verb": "press", "at_ms": 27000, "seat": 1, "turn_number": 2}]  # fmt: skip
    with pytest.raises(Conflict) as info:
        clock_services.clock_replay(table=tables[0], base_version=1, sent_at_ms=27000, log=log)
    assert (info.value.code, info.value.field) == ("clock_wrong_seat", "log[1]")
    after = TableClock.objects.get()
    assert (after.version, after.state) == (before.version, before.state) and not Penalty.objects.exists()


def test_a_refused_log_creates_no_clock(tables, now):
    log = [{"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
           {"verb": "press", "at_ms": 25000, "seat": 0, "turn_number": 1},
           {"verb": "resume", "at_ms": 26000}]  # the clock is running, not paused  # fmt: skip
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=26000, log=log)
    assert (info.value.code, info.value.field) == ("clock_not_paused", "log[2]")
    assert not TableClock.objects.exists() and not Penalty.objects.exists()


def test_a_press_before_the_clock_is_started_is_refused(tables, now):
    log = [{"verb": "press", "at_ms": 1000, "seat": 0, "turn_number": 1}]
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=1000, log=log)
    assert (info.value.code, info.value.field) == ("clock_not_started", "log[0]")


def test_device_times_are_kept_between_the_clocks_mark_and_the_servers_now(tables, now):
    # given a clock started online; its device's times are off in both directions within one log
    clock_services.clock_start(table=tables[0], hand_number=1, dealer_position=0)
    now["ms"] += 12000
    log = [{"verb": "press", "at_ms": 1, "seat": 0, "turn_number": 1},  # before the start: charged nothing
           {"verb": "press", "at_ms": 999_999, "seat": 1, "turn_number": 2}]  # after sending: now  # fmt: skip
    clock = clock_services.clock_replay(table=tables[0], base_version=1, sent_at_ms=100_000, log=log)
    state = engine.state_from_dict(clock.state)
    assert state.banks_ms == (20000, 13000, 20000, 20000) and state.mark_ms == now["ms"]


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
    return client.post(reverse("tournament_api:clock_replay", args=[table.pk]), json.dumps(body),
                       content_type="application/json", headers=headers)  # fmt: skip


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
        ({"base_version": 0, "sent_at_ms": 0,
          "log": [{"verb": "start", "at_ms": 0, "hand_number": 1, "dealer_position": 0},
                  {"verb": "press", "at_ms": 1, "turn_number": 1}]}, "log[1].seat"),
    ],
)  # fmt: skip
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
    refused = post_replay(
        admin_client, tables[0], {"base_version": 6, "sent_at_ms": sent_at, "log": log[1:2]}
    )
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "log[0]"  # an old turn
    assert TableClock.objects.get().version == 6 and Penalty.objects.count() == 1


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
    clock_services.clock_replay(table=tables[0], base_version=0, sent_at_ms=sent_at - 2 * 12_000, log=log[:3])
    # when the second log, with no version (base_version None), goes on from it
    clock = clock_services.clock_replay(table=tables[0], base_version=None, sent_at_ms=sent_at, log=log[3:])
    # then it is taken; and the same log sent once more is refused by its stale turn, nothing written
    assert engine.state_from_dict(clock.state).turn_number == len(PRESSES) + 1
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_replay(table=tables[0], base_version=None, sent_at_ms=sent_at, log=log[3:])
    assert info.value.code == "clock_stale_turn" and TableClock.objects.get().version == clock.version
