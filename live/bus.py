"""The bus that carries what happened in an event to every open stream, in every web process and machine.

One channel per event (``event:<id>``) and one per table (``table:<id>``). Each message has an id, a type
(``hand``, ``table``, ``standings``, ``seating``, ``clock``, ``call``) and JSON data. The ids are Redis stream
ids (``<milliseconds>-<sequence>``), ordered, so a stream that reconnects with ``Last-Event-ID`` gets the
messages after it; messages are kept for ``LIVE_KEEP_SECONDS`` (15 minutes). When the messages after that
id are no longer all kept (too old, or the bus restarted), ``since`` answers ``None``: the page reloads.

* ``RedisBus`` (when ``LIVE_BUS_URL`` or ``CACHE_URL`` names a Redis): each channel is a Redis stream
  (``XADD`` with ``MINID`` trimming). Streams served by an ASGI server share one reader per process
  (``Fanout``): one blocking ``XREAD`` over the channels that have listeners, handed out to in-process
  queues; the short calls (where a stream starts, the address's slots, what a late listener missed) borrow
  a connection from a pool of ``LIVE_BUS_CONNECTIONS`` (4) and give it back. However many streams are
  open, a process holds at most that many connections plus its reader (and the cache's own pool,
  ``config/cache.py``): each connection is named (``CLIENT LIST``: ``taikai-live-bus``,
  ``taikai-live-reader``, ``taikai-cache``).
* ``MemoryBus`` (the embedded default, ``bin/serve``): the same, inside one process.

Why Redis streams and not pub/sub: a stream keeps what it carried, so a phone that lost the hall's Wi-Fi
for a minute gets what it missed from the same place it reads live messages from, in order, with ids that
Redis makes unique across machines.

The bus also counts the streams each address holds open (``slot_take``, ``slot_give_back``): a sorted set
per address in Redis, each stream a member that expires on its own when its response should have ended (a
process that died gives its streams back by itself); in memory without Redis, and in the process's memory
for ``SLOTS_REST_SECONDS`` after Redis failed (the limit then holds per process).

A bus that cannot be reached loses nothing recorded: publishing is after the commit and its failure is
logged; the streams answer 503 and the pages poll instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cache, cached_property

from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "taikai:live:"


@dataclass(frozen=True)
class Message:
    id: str
    type: str
    data: dict

    @cached_property
    def sse(self) -> str:
        """The message as a server-sent event, written once for every stream that carries it."""
        return f"id: {self.id}\nevent: {self.type}\ndata: {json.dumps(self.data, separators=(',', ':'))}\n\n"


def id_key(message_id: str) -> tuple[int, int]:
    """``"1700000000000-3"`` → ``(1700000000000, 3)``, to compare ids; a malformed id is ``(-1, -1)``."""
    milliseconds, _, sequence = message_id.partition("-")
    try:
        return int(milliseconds), int(sequence or 0)
    except ValueError:
        return -1, -1


def keep_seconds() -> int:
    return settings.LIVE_KEEP_SECONDS


class BusDown(Exception):
    """The bus cannot be reached: the stream answers 503 and the page polls."""


class MemorySlots:
    """The streams each holder (an address) has open, in this process: token → when it lapses."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, dict[str, float]] = {}

    def take(self, holder: str, limit: int, seconds: float) -> str | None:
        """A slot for one more stream of ``holder`` (its token), or ``None`` when ``limit`` are open."""
        now = time.monotonic()
        with self._lock:
            held = self._held.setdefault(holder, {})
            for token, until in list(held.items()):
                if until <= now:
                    del held[token]
            if len(held) >= limit:
                return None
            token = "m:" + secrets.token_hex(8)
            held[token] = now + seconds
            return token

    def give_back(self, holder: str, token: str) -> None:
        with self._lock:
            held = self._held.get(holder)
            if held is not None:
                held.pop(token, None)
                if not held:
                    del self._held[holder]


class MemoryBus:
    """The bus of one process (no Redis): for ``bin/serve`` and the tests."""

    MAX_KEPT = 10_000  # per channel, on top of the time limit

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._channels: dict[str, deque[tuple[float, Message]]] = {}
        self._dropped: dict[str, tuple[int, int]] = {}  # the newest id no longer kept, per channel
        self._last = (0, 0)
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.slots = MemorySlots()

    def slot_take(self, holder: str, limit: int, seconds: float) -> str | None:
        return self.slots.take(holder, limit, seconds)

    def slot_give_back(self, holder: str, token: str) -> None:
        self.slots.give_back(holder, token)

    def _next_id(self) -> str:
        now = int(time.time() * 1000)
        self._last = (now, 0) if now > self._last[0] else (self._last[0], self._last[1] + 1)
        return f"{self._last[0]}-{self._last[1]}"

    def publish(self, channel: str, type_: str, data: dict) -> str:
        with self._lock:
            message = Message(self._next_id(), type_, data)
            kept = self._channels.setdefault(channel, deque())
            kept.append((time.monotonic(), message))
            horizon = time.monotonic() - keep_seconds()
            while kept and (kept[0][0] < horizon or len(kept) > self.MAX_KEPT):
                self._dropped[channel] = id_key(kept.popleft()[1].id)
            self._lock.notify_all()
            waiters = list(self._waiters)
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)
        return message.id

    def last_id(self, channel: str) -> str:
        with self._lock:
            kept = self._channels.get(channel)
            return kept[-1][1].id if kept else f"{self._last[0]}-{self._last[1]}"

    def since(self, channel: str, last_id: str) -> list[Message] | None:
        """The messages after ``last_id``, or ``None`` when some of them are no longer kept."""
        after = id_key(last_id)
        with self._lock:
            if after > self._last or after < (0, 0) or after <= self._dropped.get(channel, (-1, -1)):
                return None  # an id of another life of this process, malformed, or too old
            return [m for _, m in self._channels.get(channel, ()) if id_key(m.id) > after]

    def wait(self, channel: str, last_id: str, timeout: float) -> list[Message] | None:
        """Block until a message after ``last_id`` arrives (or ``timeout``): for a stream served by WSGI."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = self.since(channel, last_id)
                left = deadline - time.monotonic()
                if found != [] or left <= 0:
                    return found
                self._lock.wait(left)

    async def listen(self, channel: str, last_id: str, timeout: float) -> list[Message] | None:
        """The same as ``wait``, for a stream served by ASGI: no thread is held while it waits."""
        loop, event = asyncio.get_running_loop(), asyncio.Event()
        waiter = (loop, event)
        with self._lock:
            self._waiters.add(waiter)
        try:
            deadline = loop.time() + timeout
            while True:
                event.clear()
                found = self.since(channel, last_id)
                left = deadline - loop.time()
                if found != [] or left <= 0:
                    return found
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), left)
        finally:
            with self._lock:
                self._waiters.discard(waiter)

    def ping(self) -> bool:
        return True


# One stream more for a holder, atomically: drop its lapsed streams, refuse at the limit, else add this one
# (scored by when it lapses) and keep the set as long as its newest member.
_SLOT_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
SLOTS_REST_SECONDS = 5.0


def after_another_life(after: tuple[int, int], info: dict) -> bool:
    """Whether ``after`` (an id a page saw, not 0-0) is of an earlier life of the channel's stream: a Redis
    restarted (it keeps nothing on disk) and the stream made anew. In one life every id a page saw is either
    trimmed (at most ``max-deleted-entry-id``) or still kept (at least the first entry kept); an id between
    the two was never in this stream, so the messages after it may be lost: the page reloads."""
    if after <= (0, 0):
        return False
    first = info.get("recorded-first-entry-id") or (info.get("first-entry") or ("0-0",))[0]
    return id_key(info.get("max-deleted-entry-id", "0-0")) < after < id_key(first)


def messages_lost(after: tuple[int, int], info: dict | None) -> bool:
    """Whether some messages after ``after`` may no longer be read from the channel's Redis stream (``info``:
    its ``XINFO STREAM``, ``None`` when there is none): an id past the stream's last (another life), some
    trimmed, or an id of an earlier life of the stream."""
    if info is None:
        return after > (0, 0)
    if after > id_key(info["last-generated-id"]) or after < id_key(info.get("max-deleted-entry-id", "0-0")):
        return True
    return after_another_life(after, info)


class RedisBus:
    """Each channel a Redis stream; see the module docstring."""

    CONNECT_SECONDS = 0.5

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        # Short calls share a bounded pool (``LIVE_BUS_CONNECTIONS``): each call borrows a connection and gives it
        # back; a burst of streams opening at once waits its turn for one (up to 5 s) instead of failing.
        self.redis = redis.Redis(
            connection_pool=redis.BlockingConnectionPool.from_url(
                url,
                max_connections=settings.LIVE_BUS_CONNECTIONS,
                timeout=5,
                socket_connect_timeout=self.CONNECT_SECONDS,
                socket_timeout=2,
                decode_responses=True,
                client_name="taikai-live-bus",
            )
        )
        # A stream served by WSGI blocks on a connection of its own for up to a heartbeat's time.
        self.blocking = redis.Redis.from_url(
            url,
            socket_connect_timeout=self.CONNECT_SECONDS,
            decode_responses=True,
            max_connections=100_000,
            client_name="taikai-live-wsgi",
        )
        self._fanout: Fanout | None = None
        self._slot_take = self.redis.register_script(_SLOT_TAKE)
        self.fallback_slots = MemorySlots()
        self._slots_resting_until = 0.0

    @staticmethod
    def key(channel: str) -> str:
        return KEY_PREFIX + channel

    @staticmethod
    def slots_key(holder: str) -> str:
        return f"{KEY_PREFIX}slots:{holder[:100]}"

    def slot_take(self, holder: str, limit: int, seconds: float) -> str | None:
        """A slot for one more stream of ``holder`` (its token), or ``None`` when ``limit`` are open. While
        Redis fails, the process's own memory counts (never an error: the streams degrade, the site stays)."""
        import redis

        if time.monotonic() < self._slots_resting_until:
            return self.fallback_slots.take(holder, limit, seconds)
        token = secrets.token_hex(8)
        now_ms = int(time.time() * 1000)
        try:
            taken = self._slot_take(
                keys=[self.slots_key(holder)],
                args=[now_ms, limit, now_ms + int(seconds * 1000), token, int(seconds) + 1],
            )
        except redis.RedisError as exc:
            logger.warning(
                "the live bus cannot count the streams: %s; this process counts for %ss", exc, SLOTS_REST_SECONDS
            )
            self._slots_resting_until = time.monotonic() + SLOTS_REST_SECONDS
            return self.fallback_slots.take(holder, limit, seconds)
        return token if taken else None

    def slot_give_back(self, holder: str, token: str) -> None:
        import redis

        if token.startswith("m:"):
            return self.fallback_slots.give_back(holder, token)
        try:
            self.redis.zrem(self.slots_key(holder), token)
        except redis.RedisError as exc:  # the slot lapses by itself
            logger.warning("the live bus cannot give a stream's slot back: %s", exc)

    def _call(self, method, *args, **kwargs):
        import redis

        try:
            return method(*args, **kwargs)
        except redis.RedisError as exc:
            raise BusDown(str(exc)) from exc

    def publish(self, channel: str, type_: str, data: dict) -> str:
        key = self.key(channel)
        horizon = int((time.time() - keep_seconds()) * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.xadd(key, {"type": type_, "data": json.dumps(data)}, minid=horizon, approximate=True)
        pipe.expire(key, keep_seconds() * 4)
        return self._call(pipe.execute)[0]

    def last_id(self, channel: str) -> str:
        newest = self._call(self.redis.xrevrange, self.key(channel), count=1)
        return newest[0][0] if newest else "0-0"

    def since(self, channel: str, last_id: str) -> list[Message] | None:
        after = id_key(last_id)
        if after < (0, 0):
            return None
        key = self.key(channel)
        try:
            info = self._call(self.redis.xinfo_stream, key)
        except BusDown as exc:
            if "no such key" not in str(exc).lower():
                raise
            info = None  # the stream is gone (Redis restarted, or quiet past its expiry)
        if messages_lost(after, info):
            return None
        if info is None:
            return []
        entries = self._call(self.redis.xrange, key, min=f"({last_id}" if after > (0, 0) else "-")
        return [Message(entry_id, fields["type"], json.loads(fields["data"])) for entry_id, fields in entries]

    def wait(self, channel: str, last_id: str, timeout: float) -> list[Message] | None:
        found = self.since(channel, last_id)
        if found != []:
            return found
        self._call(self.blocking.xread, {self.key(channel): last_id}, count=1, block=int(timeout * 1000))
        return self.since(channel, last_id)

    async def listen(self, channel: str, last_id: str, timeout: float) -> list[Message] | None:
        loop = asyncio.get_running_loop()
        if self._fanout is None or self._fanout.loop is not loop:
            self._fanout = Fanout(self, loop)
        return await self._fanout.listen(channel, last_id, timeout)

    def ping(self) -> bool:
        try:
            return bool(self._call(self.redis.ping))
        except BusDown:
            return False


class Fanout:
    """One reader per process for every stream served by ASGI: a blocking ``XREAD`` over the channels that
    have listeners keeps the messages it read (``recent``) and wakes the listeners of their channel, who
    take them from there: a message costs one read from Redis, however many streams carry it.

    A channel's reader starts at the id its first listener had seen (``base``); a listener that had seen
    less, or more than ``recent`` still holds, reads Redis itself (``since``, in a thread)."""

    BLOCK_MS = 1000
    RECENT = 1000
    IDLE_SECONDS = 30.0
    RETRY_SECONDS = 1.0
    # A process busy opening thousands of streams reads its own socket late: the reader's timeouts are
    # generous, and a timeout costs the listeners nothing (the reader resumes from its cursors).
    CONNECT_SECONDS = 5.0
    READ_SECONDS = 30.0  # past the block, Redis has gone silent

    def __init__(self, bus: RedisBus, loop: asyncio.AbstractEventLoop) -> None:
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.bus, self.loop = bus, loop
        self.redis = redis.asyncio.Redis.from_url(
            bus.url,
            decode_responses=True,
            socket_connect_timeout=self.CONNECT_SECONDS,
            socket_timeout=self.BLOCK_MS / 1000 + self.READ_SECONDS,
            retry=Retry(NoBackoff(), 0),  # no silent reconnection: a lost connection is checked (``_resume``)
            client_name="taikai-live-reader",
        )
        self.channels: dict[str, _Channel] = {}
        self.task: asyncio.Task | None = None
        self.resuming = False  # the reader lost Redis: each channel is checked before it is read again

    async def listen(self, channel: str, last_id: str, timeout: float) -> list[Message] | None:
        after = id_key(last_id)
        kept = self.channels.get(channel)
        if kept is None or not kept.covers(after):
            found = await asyncio.to_thread(self.bus.since, channel, last_id)
            if found != []:
                return found
            kept = self.channels.get(channel)
            if kept is None:
                kept = self.channels[channel] = _Channel(base=after, recent=deque(maxlen=self.RECENT))
        found = kept.after(after)
        if found:
            return found
        kept.listeners += 1
        wake = kept.wake
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._read())
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task of its own per listener, unlike ``wait_for``
                    await wake.wait()
        finally:
            kept.listeners -= 1
            kept.idle_since = self.loop.time()
        if kept.broken:
            return None
        return kept.after(after) if kept.covers(after) else await asyncio.to_thread(self.bus.since, channel, last_id)

    async def _read(self) -> None:
        while self.channels:
            now = self.loop.time()
            for channel, kept in list(self.channels.items()):
                if kept.listeners == 0 and now - kept.idle_since > self.IDLE_SECONDS:
                    del self.channels[channel]  # nobody listens any more
            if not self.channels:
                return
            cursors = {self.bus.key(channel): kept.cursor() for channel, kept in list(self.channels.items())}
            try:
                if self.resuming:
                    await self._resume()
                    continue
                answer = await self.redis.xread(cursors, block=self.BLOCK_MS, count=100)
            except Exception:
                logger.warning("the live bus cannot be read", exc_info=True)
                self.resuming = True
                await asyncio.sleep(self.RETRY_SECONDS)
                continue
            for key, entries in answer or ():
                kept = self.channels.get(key.removeprefix(KEY_PREFIX))
                if kept is None or not entries:
                    continue
                for entry_id, fields in entries:
                    kept.add(Message(entry_id, fields["type"], json.loads(fields["data"])))
                kept.wake.set()
                kept.wake = asyncio.Event()

    async def _resume(self) -> None:
        """Redis went away under the reader, or answered too late: each channel whose messages since the
        reader's cursor are all still in Redis goes on from there (its listeners catch up, nothing is lost);
        a channel where some may be lost (a Redis restarted without them, or trimmed meanwhile) tells its
        listeners to reload (``None``: the stream sends ``reset``) and starts again from what Redis has."""
        import redis

        for channel, kept in list(self.channels.items()):
            try:
                info = await self.redis.xinfo_stream(self.bus.key(channel))
            except redis.ResponseError as exc:
                if "no such key" not in str(exc).lower():
                    raise
                info = None
            if messages_lost(id_key(kept.cursor()), info):
                kept.broken = True
                kept.wake.set()
                if self.channels.get(channel) is kept:
                    del self.channels[channel]
        self.resuming = False


@dataclass
class _Channel:
    """What the reader has read of one channel since ``base``."""

    base: tuple[int, int]
    recent: deque  # (id as a key, message), oldest first
    floor: tuple[int, int] = (-1, -1)  # the newest message no longer in ``recent``
    listeners: int = 0
    idle_since: float = 0.0
    broken: bool = False  # the reader lost Redis and messages may be lost: its listeners reload
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def covers(self, after: tuple[int, int]) -> bool:
        return after >= self.base and after >= self.floor

    def cursor(self) -> str:
        newest = self.recent[-1][1].id if self.recent else None
        return newest or f"{self.base[0]}-{self.base[1]}"

    def add(self, message: Message) -> None:
        if len(self.recent) == self.recent.maxlen:
            self.floor = self.recent[0][0]
        self.recent.append((id_key(message.id), message))

    def after(self, after: tuple[int, int]) -> list[Message]:
        """The messages after ``after``, read from the newest back: a listener woken by a message costs the
        few it had not seen, not the whole of ``recent`` (thousands of listeners wake at once)."""
        found = []
        for key, message in reversed(self.recent):
            if key <= after:
                break
            found.append(message)
        found.reverse()
        return found


@cache
def the_bus() -> MemoryBus | RedisBus:
    """The process's bus: Redis when configured, else in memory."""
    url = settings.LIVE_BUS_URL
    return RedisBus(url) if url else MemoryBus()
