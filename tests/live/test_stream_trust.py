"""What a stream's caller claims is checked: the id they say they left off at is a bus id or refused (no
line of theirs reaches the stream), a role taken back ends what the role showed on a stream already open,
and one address holds a bounded number of streams (429 past it, a slot given back when a stream closes)."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from live.bus import RedisBus
from live.publish import event_channel, table_channel
from tests.factories import EventRoleFactory, signed_in
from tests.live.test_streams import events_of
from tournament.models import EventRole
from tournament.services.roles import role_grant, role_revoke

pytestmark = pytest.mark.django_db

INJECTED = '1-0\nevent: standings\ndata: {"forged":true}\n\n'


def stream_text(response) -> str:
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


# --- the id a browser says it left off at -----------------------------------------------------------------


@pytest.mark.parametrize("sent_as", ["query", "header"])
def test_a_last_event_id_carrying_a_line_break_injects_no_event(memory_bus, make_event, seated_round, sent_as):
    event = seated_round(make_event(4, is_public=True)).event
    url = reverse("live:event_live", args=[event.slug])
    if sent_as == "query":
        response = Client().get(url, {"last_event_id": INJECTED})
    else:
        response = Client().get(url, headers={"Last-Event-ID": INJECTED})
    text = stream_text(response)
    assert [kind for _, kind, _ in events_of(text)] == []
    assert "forged" not in text and "event: standings" not in text
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_last_event_id"
    assert response.json()["error"]["field"] == ("last_event_id" if sent_as == "query" else "Last-Event-ID")


@pytest.mark.parametrize("claimed", ["abc", "12-", "-3", "1-2-3", "1-0 ", "١٢-٣"])
def test_a_last_event_id_that_is_no_bus_id_is_refused_naming_the_field(memory_bus, make_event, claimed):
    event = make_event(4, is_public=True)
    response = Client().get(reverse("live:event_live", args=[event.slug]), {"last_event_id": claimed})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "last_event_id"
    assert claimed not in response.content.decode()


def test_a_bus_id_as_last_event_id_still_resumes_the_stream(memory_bus, make_event):
    event = make_event(4, is_public=True)
    seen = memory_bus.publish(event_channel(event.pk), "hand", {"table_number": 1, "number": 1})
    missed = memory_bus.publish(event_channel(event.pk), "hand", {"table_number": 1, "number": 2})
    response = Client().get(reverse("live:event_live", args=[event.slug]), {"last_event_id": seen})
    assert response.status_code == 200
    assert [(i, kind) for i, kind, _ in events_of(stream_text(response))] == [(missed, "hand")]


# --- a role taken back -----------------------------------------------------------------------------------


def read_until(chunks, needle: str, limit: float = 5.0) -> str:
    """The stream's text up to and including the part that holds ``needle`` (or its end)."""
    text, began = "", time.monotonic()
    for chunk in chunks:
        text += chunk.decode()
        if needle in text or time.monotonic() - began > limit:
            break
    return text


def test_a_referee_whose_role_is_revoked_stops_getting_calls_on_a_stream_already_open(
    memory_bus, make_event, seated_round, settings, django_capture_on_commit_callbacks
):
    settings.LIVE_STREAM_SECONDS = 30
    event = seated_round(make_event(4, is_public=True)).event
    role = EventRoleFactory(event=event, user__username="kato", kind="referee")
    referee = role.user
    response = signed_in(referee).get(reverse("live:event_live", args=[event.slug]))
    chunks = iter(response.streaming_content)
    try:
        assert "stream open" in read_until(chunks, "stream open")
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 1, "staff": True})
        assert "event: call" in read_until(chunks, "event: call")
        with django_capture_on_commit_callbacks(execute=True):
            role_revoke(role=EventRole.objects.get(pk=role.pk))
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 2, "staff": True})
        memory_bus.publish(event_channel(event.pk), "hand", {"table_number": 1, "number": 1})
        after = read_until(chunks, "event: hand")
    finally:
        response.close()
    assert [(kind, data["table_number"]) for _, kind, data in events_of(after)] == [("hand", 1)]


def test_a_referee_whose_role_is_revoked_loses_an_open_tables_stream(
    memory_bus, make_event, seated_round, settings, django_capture_on_commit_callbacks
):
    settings.LIVE_STREAM_SECONDS = 30
    table = seated_round(make_event(4, is_public=True)).tables.get()
    role = EventRoleFactory(event=table.round.event, user__username="kato", kind="referee")
    referee = role.user
    response = signed_in(referee).get(reverse("live:table_live", args=[table.pk]))
    chunks = iter(response.streaming_content)
    try:
        assert "stream open" in read_until(chunks, "stream open")
        with django_capture_on_commit_callbacks(execute=True):
            role_revoke(role=EventRole.objects.get(pk=role.pk))
        memory_bus.publish(table_channel(table.pk), "hand", {"number": 1})
        began = time.monotonic()
        after = read_until(chunks, "event: hand")
    finally:
        response.close()
    assert "event: hand" not in after and time.monotonic() - began < 5  # the stream ended


def test_a_referee_still_holding_the_role_keeps_getting_calls_after_another_role_changes(
    memory_bus, make_event, seated_round, settings, django_capture_on_commit_callbacks
):
    settings.LIVE_STREAM_SECONDS = 30
    event = seated_round(make_event(4, is_public=True)).event
    referee = EventRoleFactory(event=event, user__username="kato", kind="referee").user
    other = role_grant(event=event, user=User.objects.create_user("sato"), kind="referee")
    response = signed_in(referee).get(reverse("live:event_live", args=[event.slug]))
    chunks = iter(response.streaming_content)
    try:
        read_until(chunks, "stream open")
        with django_capture_on_commit_callbacks(execute=True):
            role_revoke(role=EventRole.objects.get(pk=other.pk))
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 3, "staff": True})
        after = read_until(chunks, "event: call")
    finally:
        response.close()
    assert [(kind, data["table_number"]) for _, kind, data in events_of(after)] == [("call", 3)]


# --- how many streams one address holds --------------------------------------------------------------------


def test_an_address_past_its_streams_gets_429_and_a_closed_stream_frees_a_slot(memory_bus, make_event, settings):
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    event = make_event(4, is_public=True)
    url = reverse("live:event_live", args=[event.slug])
    phone = Client(REMOTE_ADDR="203.0.113.7")
    first, second = phone.get(url), phone.get(url)
    assert (first.status_code, second.status_code) == (200, 200)
    refused = phone.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["error"]["code"] == "too_many_streams"
    assert Client(REMOTE_ADDR="203.0.113.8").get(url).status_code == 200  # another address is not counted
    stream_text(first)  # the stream runs to its end and closes
    again = phone.get(url)
    assert again.status_code == 200
    assert phone.get(url).status_code == 429
    second.close()  # never read: closed all the same (the phone left before the first byte)
    assert phone.get(url).status_code == 200


@pytest.mark.once  # a Redis of the test's own in both passes
def test_redis_counts_an_addresss_streams_and_each_lapses_by_itself(own_redis):
    bus = RedisBus(own_redis.url(3))
    first = bus.slot_take("address:203.0.113.7", 2, 0.3)
    second = bus.slot_take("address:203.0.113.7", 2, 30)
    assert first and second and not first.startswith("m:")
    assert bus.slot_take("address:203.0.113.7", 2, 30) is None
    assert bus.slot_take("address:203.0.113.8", 2, 30)
    bus.slot_give_back("address:203.0.113.7", second)
    assert bus.slot_take("address:203.0.113.7", 2, 30)
    time.sleep(0.4)  # the first stream's process died without giving it back: it lapses
    assert bus.slot_take("address:203.0.113.7", 2, 30)
    assert bus.slot_take("address:203.0.113.7", 2, 30) is None


@pytest.mark.once
def test_the_streams_limit_holds_per_process_while_redis_is_down():
    bus = RedisBus("redis://127.0.0.1:1/0")
    began = time.monotonic()
    taken = [bus.slot_take("address:203.0.113.7", 2, 30) for _ in range(3)]
    assert taken[0] and taken[1] and taken[2] is None  # no error: counted in this process's memory
    bus.slot_give_back("address:203.0.113.7", taken[0])
    assert bus.slot_take("address:203.0.113.7", 2, 30)
    assert time.monotonic() - began < 2
