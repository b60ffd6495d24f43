"""The streams as production serves them: the ASGI application (``config/asgi.py``), with the streams' paths
answered by ``live.asgi`` without a thread each, driven in-process as uvicorn would drive it."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.db import connections

from live.publish import event_channel
from tests.factories import EventRoleFactory
from tests.fixtures.tournament import round_seated
from tournament.services.hands import hand_record
from tournament.services.roles import role_revoke

pytestmark = pytest.mark.django_db(transaction=True)
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


@pytest.fixture(autouse=True)
def streams_that_last(memory_bus, settings):
    """These streams stay open until the test's phone leaves (the test ends them by a disconnect)."""
    settings.LIVE_STREAM_SECONDS = 60


def record_and_let_go(table) -> None:
    """A referee records hand 1, from a thread of its own that gives its database connection back."""
    try:
        hand_record(table=table, number=1, expected_version=0, data=DRAW)
    finally:
        connections.close_all()


def scope(path: str, *, method: str = "GET", headers: list | None = None) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


def run(coroutine):
    """Run ``coroutine`` in a thread of its own: the test's own thread may already run an event loop (the
    browser tests' driver does)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def opened(path: str, **kwargs) -> tuple[ApplicationCommunicator, dict]:
    from config.asgi import application

    talk = ApplicationCommunicator(application, scope(path, **kwargs))
    await talk.send_input({"type": "http.request", "body": b""})
    return talk, await talk.receive_output(timeout=10)


async def body_until(talk: ApplicationCommunicator, needle: bytes) -> bytes:
    text = b""
    while needle not in text:
        text += (await talk.receive_output(timeout=10))["body"]
    return text


def test_a_stream_served_by_asgi_opens_carries_a_hand_and_ends_when_the_phone_leaves(memory_bus, make_event):
    event = make_event(4, is_public=True, slug="asgi-open")
    table = round_seated(event).tables.get()

    async def scenario():
        talk, start = await opened(f"/events/{event.slug}/live")
        assert start["status"] == 200
        assert dict(start["headers"])[b"content-type"].startswith(b"text/event-stream")
        await body_until(talk, b"stream open")
        await sync_to_async(record_and_let_go)(table)
        text = await body_until(talk, b"event: hand")
        assert b'"number":1' in text
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(timeout=5)  # the stream's coroutine ends: nothing left running for the phone

    run(scenario())


def test_asgi_streams_refuse_as_the_django_view_does(memory_bus, make_event):
    event = make_event(4, is_public=False, slug="asgi-private")
    table = round_seated(event).tables.get()

    async def status_of(path: str, **kwargs) -> int:
        talk, start = await opened(path, **kwargs)
        await talk.wait(timeout=5)
        return start["status"]

    assert run(status_of(f"/events/{event.slug}/live")) == 404  # private: not for the public
    assert run(status_of(f"/console/tables/{table.pk}/live")) == 404
    assert run(status_of("/events/no-such-event/live")) == 404
    assert run(status_of(f"/events/{event.slug}/live", method="POST")) == 405


def test_an_asgi_stream_knows_the_referee_by_their_session(memory_bus, make_event, client):
    event = make_event(4, is_public=False, slug="asgi-staff")
    round_seated(event)
    referee = EventRoleFactory(event=event, user__username="kato", kind="referee").user
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    async def scenario():
        talk, start = await opened(f"/events/{event.slug}/live", headers=[(b"cookie", cookie)])
        assert start["status"] == 200
        await body_until(talk, b"stream open")
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 1, "staff": True})
        assert b"event: call" in await body_until(talk, b"event: call")
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(timeout=5)

    run(scenario())


def scope_with(path: str, *, query: bytes = b"", client: str = "127.0.0.1", headers: list | None = None) -> dict:
    found = scope(path, headers=headers)
    return {**found, "query_string": query, "client": (client, 50000)}


async def opened_with(path: str, **kwargs) -> tuple[ApplicationCommunicator, dict]:
    from config.asgi import application

    talk = ApplicationCommunicator(application, scope_with(path, **kwargs))
    await talk.send_input({"type": "http.request", "body": b""})
    return talk, await talk.receive_output(timeout=10)


def test_an_asgi_stream_refuses_a_last_event_id_that_would_inject_an_event(memory_bus, make_event):
    event = make_event(4, is_public=True, slug="asgi-inject")
    injected = b"last_event_id=1-0%0Aevent%3A%20standings%0Adata%3A%20%7B%7D%0A%0A"

    async def scenario():
        talk, start = await opened_with(f"/events/{event.slug}/live", query=injected)
        body = (await talk.receive_output(timeout=10))["body"]
        await talk.wait(timeout=5)
        return start["status"], body

    status, body = run(scenario())
    assert b"event: standings" not in body
    assert status == 400 and json.loads(body)["error"]["field"] == "last_event_id"


def test_an_asgi_address_past_its_streams_gets_429_until_one_of_its_phones_leaves(memory_bus, make_event, settings):
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    event = make_event(4, is_public=True, slug="asgi-slots")
    path = f"/events/{event.slug}/live"

    async def scenario():
        first, _ = await opened_with(path, client="198.51.100.4")
        second, _ = await opened_with(path, client="198.51.100.4")
        third, refused = await opened_with(path, client="198.51.100.4")
        await third.wait(timeout=5)
        await first.send_input({"type": "http.disconnect"})
        await first.wait(timeout=5)
        fourth, again = await opened_with(path, client="198.51.100.4")
        for talk in (second, fourth):
            await talk.send_input({"type": "http.disconnect"})
            await talk.wait(timeout=5)
        return refused, again["status"]

    refused, again = run(scenario())
    assert refused["status"] == 429 and dict(refused["headers"])[b"retry-after"] == b"30"
    assert again == 200


def test_an_asgi_referee_whose_role_is_revoked_stops_getting_calls(memory_bus, make_event, client):
    event = make_event(4, is_public=True, slug="asgi-revoked")
    role = EventRoleFactory(event=event, user__username="kato", kind="referee")
    referee = role.user
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    async def scenario():
        talk, _ = await opened(f"/events/{event.slug}/live", headers=[(b"cookie", cookie)])
        await body_until(talk, b"stream open")
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 1, "staff": True})
        await body_until(talk, b"event: call")
        await sync_to_async(revoke_and_let_go)(role)
        memory_bus.publish(event_channel(event.pk), "call", {"table_number": 2, "staff": True})
        memory_bus.publish(event_channel(event.pk), "hand", {"table_number": 1, "number": 1})
        text = await body_until(talk, b"event: hand")
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(timeout=5)
        return text

    assert b"event: call" not in run(scenario())


def revoke_and_let_go(role) -> None:
    try:
        role_revoke(role=role)
    finally:
        connections.close_all()
