"""One process's streams of a channel wait on its turn together: a message's bytes are written once and handed
to every waiting stream, one heartbeat wakes them all, a stream that leaves disturbs no other, one that fell
behind still gets everything in order, and a listener's role is asked again only for what it decides."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from live.bus import HEARTBEAT, RESET, MemoryBus, RedisBus, id_key
from live.streams import Listening, async_events
from tests.live.test_asgi_streams import run  # in a thread of its own: a browser test's driver runs a loop

CHANNEL = "event:1"


@pytest.fixture
def bus(settings):
    settings.LIVE_KEEP_SECONDS = 900
    settings.LIVE_HEARTBEAT_SECONDS = 60  # no comment unless a test asks for one
    settings.LIVE_STREAM_SECONDS = 60
    return MemoryBus()


async def waiting(bus: MemoryBus, last_id: str, streams: int) -> list[asyncio.Task]:
    """``streams`` streams of the channel that have seen ``last_id``, each waiting on its next turn."""
    fanout = bus.fanout()
    tasks = [asyncio.ensure_future(fanout.next_delivery(CHANNEL, last_id)) for _ in range(streams)]
    while sum(len(kept.waiting) for kept in fanout.channels.values()) < streams:
        await asyncio.sleep(0.01)
    return tasks


def test_every_waiting_stream_is_handed_the_same_bytes_written_once(bus):
    start = bus.last_id(CHANNEL)

    async def scenario():
        tasks = await waiting(bus, start, 5)
        bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 1})
        bus.publish(CHANNEL, "call", {"table_number": 1, "staff": True})
        first = await asyncio.wait_for(tasks[0], 5)
        return first, await asyncio.wait_for(asyncio.gather(*tasks[1:]), 5)

    first, others = run(scenario())
    assert all(other is first for other in others)  # one delivery, its bytes built once, for every stream
    assert b"event: hand" in first.public and b"event: call" not in first.public
    assert b"event: hand" in first.everything and b"event: call" in first.everything
    assert first.has_staff and first.last_id == bus.last_id(CHANNEL)


def test_a_stream_that_leaves_does_not_cancel_the_turn_the_others_wait_on(bus):
    start = bus.last_id(CHANNEL)

    async def scenario():
        leaving, *staying = await waiting(bus, start, 3)
        leaving.cancel()
        await asyncio.sleep(0.01)
        bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 1})
        return await asyncio.wait_for(asyncio.gather(*staying), 5), leaving.cancelled()

    deliveries, left = run(scenario())
    assert left
    assert [[m.data["number"] for m in delivery.messages] for delivery in deliveries] == [[1], [1]]


def test_a_stream_behind_the_channel_gets_what_it_missed_in_order_then_waits_with_the_others(bus):
    start = bus.last_id(CHANNEL)

    async def scenario():
        fanout = bus.fanout()
        (ahead,) = await waiting(bus, start, 1)
        bus.publish(CHANNEL, "hand", {"number": 1})
        seen = (await asyncio.wait_for(ahead, 5)).last_id
        bus.publish(CHANNEL, "hand", {"number": 2})
        bus.publish(CHANNEL, "hand", {"number": 3})
        await asyncio.sleep(0.01)
        behind = await fanout.next_delivery(CHANNEL, start)  # a stream still at the start: its own part
        caught_up = await fanout.next_delivery(CHANNEL, seen)
        return behind, caught_up

    behind, caught_up = run(scenario())
    assert [m.data["number"] for m in behind.messages] == [1, 2, 3]
    assert [m.data["number"] for m in caught_up.messages] == [2, 3]
    assert behind.public.count(b"event: hand") == 3


def test_one_heartbeat_wakes_every_stream_and_ends_those_past_their_time(bus, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    settings.LIVE_STREAM_SECONDS = 0.2
    listening = Listening(CHANNEL, staff=False)
    start = bus.last_id(CHANNEL)

    async def read(parts: list[bytes]) -> None:
        async for part in async_events(bus, listening, start):
            parts.append(part)

    async def scenario():
        streams = [[] for _ in range(20)]
        tasks = [asyncio.ensure_future(read(parts)) for parts in streams]
        await asyncio.sleep(0.02)
        running = len(asyncio.all_tasks())  # this scenario, its 20 streams and the process's one heartbeat
        await asyncio.wait_for(asyncio.gather(*tasks), 5)
        return streams, running

    streams, running = run(scenario())
    assert running == 1 + 20 + 1
    for parts in streams:
        assert parts[0].startswith(b"retry: ")
        assert parts[1:] and all(part is HEARTBEAT for part in parts[1:])  # the same bytes for every stream


def test_a_staff_listeners_role_is_asked_again_only_for_a_staff_message(bus):
    asked = []
    listening = Listening(
        CHANNEL, staff=True, event_id=1, generation="stale", still_staff=lambda: asked.append(1) or True
    )
    start = bus.last_id(CHANNEL)

    async def scenario():
        events = async_events(bus, listening, start)
        parts = [await anext(events)]
        for data in ({"number": 1}, {"number": 2}, {"table_number": 1, "staff": True}):
            bus.publish(CHANNEL, "hand" if "number" in data else "call", data)
            parts.append(await asyncio.wait_for(anext(events), 5))
        await events.aclose()
        return parts

    parts = run(scenario())
    assert len(asked) == 1  # the call only: a public message is everyone's, whoever the listener is
    assert b"event: call" in parts[-1]


def test_a_stream_whose_messages_are_gone_is_told_to_reset(bus):
    listening = Listening(CHANNEL, staff=False)

    async def scenario():
        return [part async for part in async_events(bus, listening, "99999999999999-0")]

    parts = run(scenario())
    assert parts[-1] == RESET


def test_a_stream_whose_channel_opens_past_it_while_it_reads_the_bus_reads_the_bus_again(bus):
    # given a stream reading the bus for its channel (none is open yet), and meanwhile a hand published and the
    # channel opened by another stream that has seen that hand already
    start = bus.last_id(CHANNEL)

    async def scenario():
        fanout = bus.fanout()
        read = fanout._since
        meanwhile = []

        async def since(channel, last_id):
            found = await read(channel, last_id)
            if not meanwhile:
                meanwhile.append(bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 1}))
                fanout._open(CHANNEL, id_key(meanwhile[0]))
            return found

        fanout._since = since
        # when the stream asks what comes after what it has seen
        return await asyncio.wait_for(fanout.next_delivery(CHANNEL, start), 2)

    # then it gets the hand at once (not at the next heartbeat, nor never)
    delivery = run(scenario())
    assert [message.data["number"] for message in delivery.messages] == [1]


@pytest.mark.once
def test_a_stream_that_waits_starts_again_the_reader_that_stopped(own_redis, settings):
    # given a channel read by the process's one reader, which then stops (its task ended, however it ended)
    settings.LIVE_HEARTBEAT_SECONDS = 600  # no heartbeat ends the wait: only the hand can
    redis_bus = RedisBus(own_redis.url(3))
    start = redis_bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 1})

    async def scenario():
        fanout = redis_bus.fanout()
        fanout._open(CHANNEL, id_key(start))
        fanout.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await fanout.task
        # when a stream waits on the channel and a hand is published
        waiting = asyncio.ensure_future(fanout.next_delivery(CHANNEL, start))
        await asyncio.sleep(0)
        await asyncio.to_thread(redis_bus.publish, CHANNEL, "hand", {"table_number": 1, "number": 2})
        return await asyncio.wait_for(waiting, 10)

    # then the stream gets it: the reader runs again
    delivery = run(scenario())
    assert [message.data["number"] for message in delivery.messages] == [2]


@pytest.mark.once
def test_an_answer_read_for_a_channel_opened_again_meanwhile_is_read_again_from_the_new_channels_id(
    own_redis, settings
):
    # given the reader waiting on Redis from a channel's newest hand, and meanwhile the channel forgotten and
    # opened again from an older id (a stream that had not seen the newest hand)
    settings.LIVE_HEARTBEAT_SECONDS = 600
    redis_bus = RedisBus(own_redis.url(3))
    older = redis_bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 1})
    newest = redis_bus.publish(CHANNEL, "hand", {"table_number": 1, "number": 2})

    async def scenario():
        fanout = redis_bus.fanout()
        fanout._open(CHANNEL, id_key(newest))
        await asyncio.sleep(0.3)  # the reader's XREAD waits from the newest hand
        del fanout.channels[CHANNEL]
        fanout._open(CHANNEL, id_key(older))
        # when a hand is published (the waiting read answers it) and the stream asks what followed its id
        await asyncio.to_thread(redis_bus.publish, CHANNEL, "hand", {"table_number": 1, "number": 3})
        await asyncio.sleep(0.3)
        return await asyncio.wait_for(fanout.next_delivery(CHANNEL, older), 10)

    # then it gets both hands after its id, in order: none skipped because the answer was read from further on
    delivery = run(scenario())
    assert [message.data["number"] for message in delivery.messages] == [2, 3]
