"""The live streams: the bus keeps what it carried for a page that reconnects, the tournament's writes reach
it after their commit (never a write rolled back), and each stream shows its listener what they may read."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from live import bus as bus_module
from live.bus import MemoryBus, RedisBus, id_key
from live.publish import event_channel, table_channel
from live.services.calls import referee_call
from tests.factories import EventRoleFactory
from tests.live.test_asgi_streams import run  # in a thread of its own: a browser test's driver runs a loop
from tournament.services.hands import hand_record

pytestmark = pytest.mark.django_db
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


@pytest.fixture(params=["memory", "redis"])
def any_bus(request, settings):
    settings.LIVE_KEEP_SECONDS = 900
    if request.param == "memory":
        return MemoryBus()
    server = request.getfixturevalue("own_redis")
    return RedisBus(server.url(3))


def events_of(text: str) -> list[tuple[str, str, dict]]:
    """(id, type, data) of each server-sent event of ``text``, comments left out."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if "event" in fields:
            found.append((fields.get("id", ""), fields["event"], json.loads(fields.get("data", "{}"))))
    return found


def read_stream(client: Client, url: str, last_id: str | None = None):
    headers = {"Last-Event-ID": last_id} if last_id else {}
    response = client.get(url, headers=headers)
    if response.status_code != 200:
        return response, []
    assert response["Content-Type"].startswith("text/event-stream")
    return response, events_of(b"".join(response.streaming_content).decode())


# --- the bus --------------------------------------------------------------------------------------------


@pytest.mark.once  # a bus of the test's own in both cases: the services pass would repeat it
def test_a_reconnecting_listener_gets_what_it_missed_in_order(any_bus):
    before = any_bus.last_id("event:1")
    first = any_bus.publish("event:1", "hand", {"number": 1})
    second = any_bus.publish("event:1", "hand", {"number": 2})
    any_bus.publish("event:2", "hand", {"number": 9})  # another event's channel
    assert id_key(second) > id_key(first)
    assert [m.data["number"] for m in any_bus.since("event:1", before)] == [1, 2]
    assert [m.id for m in any_bus.since("event:1", first)] == [second]
    assert any_bus.since("event:1", second) == []


@pytest.mark.once
def test_a_listener_whose_missed_messages_are_gone_is_told_to_reload(any_bus, settings):
    settings.LIVE_KEEP_SECONDS = 0  # nothing is kept past its publication
    first = any_bus.publish("event:1", "hand", {"number": 1})
    time.sleep(0.01)
    any_bus.publish("event:1", "hand", {"number": 2})
    any_bus.publish("event:1", "hand", {"number": 3})
    assert any_bus.since("event:1", first) is None
    assert any_bus.since("event:1", "99999999999999-0") is None  # an id from the bus's other life
    assert any_bus.since("event:1", "not-an-id") is None


@pytest.mark.once
def test_a_waiting_listener_wakes_when_a_message_comes(any_bus):
    import threading

    start = any_bus.last_id("table:5")
    threading.Timer(0.2, lambda: any_bus.publish("table:5", "clock", {"state": "running"})).start()
    began = time.monotonic()
    found = any_bus.wait("table:5", start, timeout=5)
    assert [m.data for m in found] == [{"state": "running"}] and time.monotonic() - began < 2


@pytest.mark.once
def test_a_listener_whose_redis_restarted_is_told_to_reload_not_given_half(own_redis, settings):
    """Redis keeps nothing on disk: after a restart the channel's stream is made anew by the next message, and
    what was published between the page's last id and the restart is gone. The page reloads (``None``); it is
    never handed the new messages as if nothing were missing."""
    settings.LIVE_KEEP_SECONDS = 900
    bus = RedisBus(own_redis.url(3))
    seen = bus.publish("event:1", "hand", {"number": 1})
    bus.publish("event:1", "hand", {"number": 2})  # the page never saw this one
    own_redis.stop()
    own_redis.start()
    bus.publish("event:1", "hand", {"number": 3})
    assert bus.since("event:1", seen) is None
    newest = bus.last_id("event:1")
    assert bus.since("event:1", newest) == []  # an id of this life goes on as before
    assert [m.data["number"] for m in bus.since("event:1", "0-0")] == [3]


async def next_messages(bus, channel: str, last_id: str, timeout: float) -> list | None:
    """What the process's reader hands a stream that has seen ``last_id`` next, heartbeats passed over: the
    messages after it, or ``None`` (reload)."""
    async with asyncio.timeout(timeout):
        while True:
            delivery = await bus.next_delivery(channel, last_id)
            if delivery.reset:
                return None
            if delivery.messages:
                return list(delivery.messages)


@pytest.mark.once
def test_streams_served_by_one_reader_reload_when_redis_restarts_under_them(own_redis, settings):
    """The process's one reader (``Fanout``) loses Redis while streams wait on it: each of them is told to
    reload once Redis is back, and a stream opened after that carries the new messages."""
    settings.LIVE_KEEP_SECONDS = 900
    bus = RedisBus(own_redis.url(3))
    start = bus.publish("event:1", "hand", {"number": 1})

    async def scenario():
        first = await next_messages(bus, "event:1", "0-0", timeout=2)
        assert [m.data["number"] for m in first] == [1]
        waiting = [asyncio.ensure_future(next_messages(bus, "event:1", start, timeout=20)) for _ in range(3)]
        await asyncio.sleep(0.3)
        await asyncio.to_thread(own_redis.stop)
        await asyncio.to_thread(own_redis.start)
        answers = await asyncio.wait_for(asyncio.gather(*waiting), 15)
        assert answers == [None, None, None]
        bus.publish("event:1", "hand", {"number": 2})
        after = await next_messages(bus, "event:1", "0-0", timeout=5)
        return [m.data["number"] for m in after]

    assert run(scenario()) == [2]


@pytest.mark.once
def test_streams_served_by_one_reader_catch_up_when_its_connection_drops_and_redis_kept_everything(own_redis, settings):
    """The reader's connection drops (a timeout, a proxy, ``CLIENT KILL``) but Redis kept every message: the
    waiting streams get what was published meanwhile, with no reload."""
    import redis

    settings.LIVE_KEEP_SECONDS = 900
    bus = RedisBus(own_redis.url(3))
    start = bus.publish("event:1", "hand", {"number": 1})

    async def scenario():
        waiting = [asyncio.ensure_future(next_messages(bus, "event:1", start, timeout=20)) for _ in range(3)]
        await asyncio.sleep(0.3)
        killer = redis.Redis(port=own_redis.port)
        reader = next(client for client in killer.client_list() if client["name"] == "taikai-live-reader")
        killer.client_kill_filter(_id=reader["id"])
        killer.close()
        bus.publish("event:1", "hand", {"number": 2})
        answers = await asyncio.wait_for(asyncio.gather(*waiting), 15)
        return [[message.data["number"] for message in answer] for answer in answers]

    assert run(scenario()) == [[2], [2], [2]]


# --- the tournament's writes on the bus -----------------------------------------------------------------


def test_a_hand_recorded_reaches_the_events_and_the_tables_channels_after_its_commit(
    memory_bus, make_event, seated_round, django_capture_on_commit_callbacks
):
    table = seated_round(make_event(4, is_public=True)).tables.get()
    event_start = memory_bus.last_id(event_channel(table.round.event_id))
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(table=table, number=1, expected_version=0, data=DRAW)
    (on_event,) = memory_bus.since(event_channel(table.round.event_id), event_start)
    assert on_event.type == "hand"
    assert on_event.data == {"table_number": table.number, "number": 1, "version": 1, "label": on_event.data["label"]}
    assert [m.type for m in memory_bus.since(table_channel(table.pk), "0-0")] == ["hand"]


def test_a_hand_whose_process_ended_after_its_commit_reaches_the_streams_once_the_flush_runs(
    memory_bus, table, django_capture_on_commit_callbacks
):
    """A web node killed between a hand's commit and its message: the device sends the hand again with its key
    and gets the kept answer (nothing written twice, nothing published by the replay); the flush then delivers
    the hand's announcement, so the pages hear of it."""
    from core.announce import announcements_flush

    referee = Client()
    referee.force_login(EventRoleFactory(event=table.round.event, kind="referee").user)
    channel = event_channel(table.round.event_id)
    start = memory_bus.last_id(channel)
    body = json.dumps({"number": 1, "outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [0]})
    url, headers = reverse("api_v1:table_hands", args=[table.pk]), {"Idempotency-Key": "hand-1-of-a-dead-node"}
    with django_capture_on_commit_callbacks(execute=False):  # the process ends before its commit's callbacks
        first = referee.post(url, body, content_type="application/json", headers=headers)
    with django_capture_on_commit_callbacks(execute=True):
        again = referee.post(url, body, content_type="application/json", headers=headers)
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert memory_bus.since(channel, start) == []  # before the flush, no page has heard of the hand
    announcements_flush(grace_seconds=0)
    assert [(m.type, m.data["number"]) for m in memory_bus.since(channel, start)] == [("hand", 1)]


def test_a_write_rolled_back_announces_nothing(memory_bus, make_event, seated_round):
    table = seated_round(make_event(4, is_public=True)).tables.get()
    start = memory_bus.last_id(event_channel(table.round.event_id))
    with pytest.raises(RuntimeError), transaction.atomic():
        hand_record(table=table, number=1, expected_version=0, data=DRAW)
        raise RuntimeError("the request failed after the hand")
    assert memory_bus.since(event_channel(table.round.event_id), start) == []


def test_a_dead_bus_costs_a_write_nothing(monkeypatch, make_event, seated_round, django_capture_on_commit_callbacks):
    monkeypatch.setattr("live.publish._resting_until", 0.0)
    monkeypatch.setattr(bus_module, "the_bus", lambda: RedisBus("redis://127.0.0.1:1/0"))
    table = seated_round(make_event(4, is_public=True)).tables.get()
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        version = hand_record(table=table, number=1, expected_version=0, data=DRAW)
    assert version.pk is not None and time.monotonic() - began < 1.5


# --- the streams ----------------------------------------------------------------------------------------


def test_the_event_stream_sends_what_was_missed_since_last_event_id(memory_bus, make_event, seated_round):
    table = seated_round(make_event(4, is_public=True)).tables.get()
    url = reverse("live:event_live", args=[table.round.event.slug])
    channel = event_channel(table.round.event_id)
    seen = memory_bus.publish(channel, "hand", {"table_number": 1, "number": 1})
    missed = memory_bus.publish(channel, "standings", {"computed_at": "2026-11-26T10:00:00+00:00"})
    response, events = read_stream(Client(), url, last_id=seen)
    assert response["Cache-Control"] == "no-cache, no-store" and response["X-Accel-Buffering"] == "no"
    assert events == [(missed, "standings", {"computed_at": "2026-11-26T10:00:00+00:00"})]


def test_a_stream_asked_for_what_is_gone_says_reset(memory_bus, make_event, seated_round):
    event = seated_round(make_event(4, is_public=True)).event
    _, events = read_stream(Client(), reverse("live:event_live", args=[event.slug]), last_id="99999999999999-0")
    assert [kind for _, kind, _ in events] == ["reset"]


def test_a_private_events_stream_is_for_its_staff_and_a_call_only_for_staff(
    memory_bus, make_event, seated_round, django_capture_on_commit_callbacks
):
    round_ = seated_round(make_event(4, is_public=True))
    table, event = round_.tables.get(), round_.event
    url = reverse("live:event_live", args=[event.slug])
    start = memory_bus.last_id(event_channel(event.pk))
    with django_capture_on_commit_callbacks(execute=True):
        referee_call(table=table, reason="dispute", note="a private note")
    _, public = read_stream(Client(), url, last_id=start)
    assert public == []  # a referee call is the directors' business
    referee = EventRoleFactory(event=event, user__username="kato", kind="referee").user
    staff = Client()
    staff.force_login(referee)
    _, seen = read_stream(staff, url, last_id=start)
    assert [(kind, data["table_number"], data["state"]) for _, kind, data in seen] == [("call", table.number, "open")]
    assert "a private note" not in json.dumps(seen)
    event.is_public = False
    event.save(update_fields=["is_public"])
    cache.clear()  # a minute later (live.streams.EVENT_SEEN_SECONDS)
    assert Client().get(url).status_code == 404
    assert read_stream(staff, url, last_id=start)[0].status_code == 200


def test_a_tables_stream_is_for_its_referees_and_organizers_only(memory_bus, make_event, seated_round):
    table = seated_round(make_event(4, is_public=True)).tables.get()
    url = reverse("live:table_live", args=[table.pk])
    assert Client().get(url).status_code == 404
    outsider = Client()
    outsider.force_login(User.objects.create_user("outsider"))
    assert outsider.get(url).status_code == 404
    referee = EventRoleFactory(event=table.round.event, user__username="kato", kind="referee").user
    staff = Client()
    staff.force_login(referee)
    assert read_stream(staff, url)[0].status_code == 200


def test_a_stream_whose_bus_is_down_answers_503_and_the_page_polls(monkeypatch, make_event, seated_round):
    monkeypatch.setattr(bus_module, "the_bus", lambda: RedisBus("redis://127.0.0.1:1/0"))
    event = seated_round(make_event(4, is_public=True)).event
    response = Client().get(reverse("live:event_live", args=[event.slug]))
    assert response.status_code == 503 and response.json()["error"]["code"] == "live_unavailable"


def test_reading_a_stream_writes_nothing(memory_bus, make_event, seated_round):
    from tests.fixtures.writes import writes_recorded

    event = seated_round(make_event(4, is_public=True)).event
    with writes_recorded() as written:
        read_stream(Client(), reverse("live:event_live", args=[event.slug]))
    assert written == []
