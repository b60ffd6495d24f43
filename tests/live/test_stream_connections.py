"""What open live streams cost Redis: the access check of each stream borrows a connection (the cache's, the
bus's) and gives it back, and one reader serves every stream of the process. With 50 streams open on a Redis
of the test's own, Redis counts a handful of connections, not one a stream."""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async

from live import bus as bus_module
from live.bus import RedisBus
from live.publish import event_channel
from tests.factories import EventRoleFactory
from tests.live.test_asgi_streams import body_until, opened, run

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 50
STAFF_STREAMS = 10  # of them, a referee's: their role is asked again through the cache on a staff message
MOST_CONNECTIONS = 10  # the cache's pool, the bus's pool and its reader, whatever the number of streams


@pytest.fixture
def redis_streams(own_redis, settings, monkeypatch):
    """The cache and the live bus on a Redis of the test's own (databases 1 and 2), as in production."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": own_redis.url(1),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.LIVE_STREAM_SECONDS = 60
    settings.LIVE_HEARTBEAT_SECONDS = 15
    the_bus = RedisBus(own_redis.url(2))
    monkeypatch.setattr(bus_module, "the_bus", lambda: the_bus)
    monkeypatch.setattr("live.publish._resting_until", 0.0)
    return own_redis, the_bus


def redis_clients(server) -> list[dict]:
    """The connections Redis holds, the one asking left out."""
    asking = redis.Redis(port=server.port)
    try:
        me = asking.client_id()
        return [client for client in asking.client_list() if int(client["id"]) != me]
    finally:
        asking.close()


def test_fifty_open_streams_hold_no_redis_connection_of_their_own(redis_streams, make_event, client):
    server, the_bus = redis_streams
    event = make_event(4, is_public=True, slug="streams-redis")
    referee = EventRoleFactory(event=event, user__username="kato", kind="referee").user
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    channel = event_channel(event.pk)

    async def scenario():
        streams = []
        for number in range(STREAMS):
            headers = [(b"cookie", cookie)] if number < STAFF_STREAMS else []
            talk, start = await opened(f"/events/{event.slug}/live", headers=headers)
            assert start["status"] == 200
            await body_until(talk, b"stream open")
            streams.append(talk)
        await sync_to_async(the_bus.publish)(channel, "call", {"table_number": 1, "staff": True})
        await sync_to_async(the_bus.publish)(channel, "hand", {"table_number": 1, "number": 1})
        texts = await asyncio.gather(*(body_until(talk, b"event: hand") for talk in streams))
        held = await sync_to_async(redis_clients)(server)
        for talk in streams:
            await talk.send_input({"type": "http.disconnect"})
            await talk.wait(timeout=5)
        return texts, held

    texts, held = run(scenario())
    assert sum(b"event: call" in text for text in texts) == STAFF_STREAMS  # the referees' streams, asked again
    names = sorted(client["name"] for client in held)
    assert len(held) <= MOST_CONNECTIONS, names
    assert set(names) <= {"taikai-cache", "taikai-live-bus", "taikai-live-reader"}, names
