"""The bus that carries what happened in an event to every open stream, in every web process and machine.

One channel per event (``event:<id>``) and one per table (``table:<id>``). Each message has an id, a type
(``hand``, ``table``, ``standings``, ``seating``, ``clock``, ``call``) and JSON data. The ids are Redis stream
ids (``<milliseconds>-<sequence>``), ordered, so a stream that reconnects with ``Last-Event-ID`` gets the
messages after it; messages are kept for ``LIVE_KEEP_SECONDS`` (15 minutes). When the messages after that
id are no longer all kept (too old, or the bus restarted), ``since`` answers ``None``: the page reloads.

* ``RedisBus`` (when ``LIVE_BUS_URL`` or ``CACHE_URL`` names a Redis): each channel is a Redis stream
  (``XADD`` with ``MINID`` trimming). Streams served by an ASGI server share one reader per process
  (``RedisFanout``): one blocking ``XREAD`` over the channels that have listeners, each channel's messages
  written once as bytes and handed to all its waiting streams at its turn; the short calls (where a stream
  starts, the address's slots, what a late listener missed) borrow a connection from a pool of
  ``LIVE_BUS_CONNECTIONS`` (4) and give it back. However many streams are open, a process holds at most
  that many connections plus its reader (and the cache's own pool,
  ``config/cache.py``): each connection is named (``CLIENT LIST``: ``taikai-live-bus``,
  ``taikai-live-reader``, ``taikai-cache``).
* ``MemoryBus`` (the embedded default, ``bin/serve``): the same, inside one process (``MemoryFanout``).

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
from dataclasses import dataclass
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


HEARTBEAT = b": keep-alive\n\n"
RESET = b"event: reset\ndata: {}\n\n"


@dataclass(frozen=True, slots=True)
class Delivery:
    """What a channel's turn hands every stream waiting on it, written once for all of them: the messages read
    after ``after`` (the id, as a key, the channel had reached) as server-sent bytes, ``everything`` for the
    staff and ``public`` for everyone else (the keep-alive comment when none of them is public). A turn with no
    message is the process's heartbeat (``BEAT``: the keep-alive comment, for every stream whatever its id);
    ``RELOAD``: some messages may be lost, the stream sends ``reset``."""

    after: tuple[int, int] | None
    messages: tuple[Message, ...] = ()
    last_id: str | None = None  # the id of the last message, where the stream goes on from
    last_key: tuple[int, int] | None = None  # the same, as a key
    public: bytes = HEARTBEAT
    everything: bytes = HEARTBEAT
    has_staff: bool = False
    reset: bool = False

    @classmethod
    def of(cls, messages: list[Message], after: tuple[int, int] | None = None) -> Delivery:
        public = [m.sse for m in messages if not m.data.get("staff")]
        return cls(
            after=after,
            messages=tuple(messages),
            last_id=messages[-1].id,
            last_key=id_key(messages[-1].id),
            public="".join(public).encode() or HEARTBEAT,
            everything="".join(m.sse for m in messages).encode(),
            has_staff=len(public) < len(messages),
        )


BEAT = Delivery(after=None)
RELOAD = Delivery(after=None, public=RESET, everything=RESET, reset=True)


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
        self._fanouts: dict[asyncio.AbstractEventLoop, MemoryFanout] = {}  # one per event loop that streams
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
            fanouts = list(self._fanouts.values())
        for fanout in fanouts:
            with contextlib.suppress(RuntimeError):  # a loop closed since (a test's): nobody listens there
                fanout.loop.call_soon_threadsafe(fanout.read)
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

    def fanout(self) -> MemoryFanout:
        """The streams of the running event loop (ASGI): no thread is held while they wait; see ``Fanout``."""
        loop = asyncio.get_running_loop()
        fanout = self._fanouts.get(loop)
        if fanout is None:
            with self._lock:
                for closed in [other for other in self._fanouts if other.is_closed()]:
                    del self._fanouts[closed]
                fanout = self._fanouts[loop] = MemoryFanout(self, loop)
        return fanout

    async def next_delivery(self, channel: str, last_id: str) -> Delivery:
        """What comes after ``last_id`` on ``channel``: messages, the heartbeat, or ``RELOAD``."""
        return await self.fanout().next_delivery(channel, last_id)

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
        self._fanout: RedisFanout | None = None
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

    def fanout(self) -> RedisFanout:
        """The streams of the running event loop (ASGI): the process's one reader reads Redis for all of them."""
        loop = asyncio.get_running_loop()
        if self._fanout is None or self._fanout.loop is not loop:
            self._fanout = RedisFanout(self, loop)
        return self._fanout

    async def next_delivery(self, channel: str, last_id: str) -> Delivery:
        """What comes after ``last_id`` on ``channel``: messages, the heartbeat, or ``RELOAD``."""
        return await self.fanout().next_delivery(channel, last_id)

    def ping(self) -> bool:
        try:
            return bool(self._call(self.redis.ping))
        except BusDown:
            return False


class Fanout:
    """The streams one process serves by ASGI (one event loop), and the channels they wait on.

    Each channel has one turn (a future) that all its waiting streams await. When messages come, the turn is
    resolved once with a ``Delivery`` (the messages' bytes written once) and replaced by the next, and every
    stream writes the same bytes: a message costs each stream a wake-up and a write, no queue, no timer and no
    text of its own. Every ``LIVE_HEARTBEAT_SECONDS`` one task (``_beat``) resolves every channel's turn with
    the keep-alive comment, so that no stream keeps a timer either. A stream that had not reached the channel's
    newest message when its turn came (it was still writing the one before) takes what it missed from the
    messages the channel keeps (``recent``, from the newest back), or from the bus (``since``) when it is
    older than those.

    What brings the messages differs by bus: ``RedisFanout`` reads Redis once for every channel (one blocking
    ``XREAD``); ``MemoryFanout`` is told by the memory bus when something is published."""

    RECENT = 1000
    IDLE_SECONDS = 30.0

    def __init__(self, bus, loop: asyncio.AbstractEventLoop) -> None:
        self.bus, self.loop = bus, loop
        self.channels: dict[str, _Channel] = {}
        self.beating: asyncio.Task | None = None

    async def _since(self, channel: str, last_id: str) -> list[Message] | None:
        """The bus's messages after ``last_id`` (``None``: some are lost), for a stream the channel does not cover."""
        raise NotImplementedError

    def _start(self) -> None:
        """The heartbeat (and, for a bus that needs one, the reader) running while there are channels."""
        if self.beating is None or self.beating.done():
            self.beating = self.loop.create_task(self._beat())

    async def next_delivery(self, channel: str, last_id: str, after: tuple[int, int] | None = None) -> Delivery:
        """What the stream that has seen ``last_id`` (``after``: the same as a key, when the stream keeps it)
        sends next: the messages after it, the keep-alive comment, or ``RELOAD``. Waits on the channel's turn
        when there is nothing yet."""
        if after is None:
            after = id_key(last_id)
        while True:
            kept = self.channels.get(channel)
            news = None if kept is None else kept.news(after)
            if news is None:  # before what the channel keeps, or no channel yet: the bus itself is asked
                found = await self._since(channel, last_id)
                if found is None:
                    return RELOAD
                if found:
                    return Delivery.of(found, after)
                kept = self.channels.get(channel) or self._open(channel, after)
                news = kept.news(after)
                if news is None:
                    # another stream opened the channel meanwhile past this one's id (a message came while the bus
                    # was read): what lies between is read from the bus again, not waited for
                    continue
            if news:
                return Delivery.of(news, after)
            self._start()  # a reader or heartbeat that stopped under waiting streams runs again
            delivery = await kept.next_turn()
            if delivery.after is None or delivery.after == after:
                return delivery  # the heartbeat, a reload, or what came right after this stream's id: shared bytes
            # the stream had not reached the channel's newest message (or had seen past it): its own part

    def _open(self, channel: str, after: tuple[int, int]) -> _Channel:
        """A channel read from ``after`` on; the heartbeat and the reader run while there are channels."""
        kept = self.channels[channel] = _Channel(self.loop, base=after, recent=deque(maxlen=self.RECENT))
        self._start()
        return kept

    def _arrived(self, kept: _Channel, messages: list[Message]) -> None:
        """Messages read for a channel: kept, and handed to every stream waiting on it at once."""
        after = kept.newest()
        fresh = [message for message in messages if id_key(message.id) > after]
        if fresh:
            for message in fresh:
                kept.add(message)
            kept.fire(Delivery.of(fresh, after))

    def _lost(self, channel: str, kept: _Channel) -> None:
        """Some of the channel's messages may be lost: its streams reload, and it starts again from the bus."""
        kept.fire(RELOAD)
        if self.channels.get(channel) is kept:
            del self.channels[channel]

    def _forget_idle(self) -> None:
        now = self.loop.time()
        for channel, kept in list(self.channels.items()):
            if now - kept.listened_at > self.IDLE_SECONDS and not kept.listened:
                del self.channels[channel]  # nobody listens any more

    async def _beat(self) -> None:
        """The process's one heartbeat: every ``LIVE_HEARTBEAT_SECONDS``, every waiting stream sends the same
        keep-alive comment (and ends if its time is up)."""
        while self.channels:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            self._forget_idle()
            for kept in list(self.channels.values()):
                kept.fire(BEAT)


class MemoryFanout(Fanout):
    """The streams of one event loop on the memory bus, told by its ``publish`` (from any thread)."""

    async def _since(self, channel: str, last_id: str) -> list[Message] | None:
        return self.bus.since(channel, last_id)

    def read(self) -> None:
        """Something was published: each channel takes what came after the last message it kept."""
        for channel, kept in list(self.channels.items()):
            found = self.bus.since(channel, kept.cursor())
            if found is None:
                self._lost(channel, kept)
            elif found:
                self._arrived(kept, found)


class RedisFanout(Fanout):
    """One reader per process for every stream served by ASGI: a blocking ``XREAD`` over the channels that
    have listeners; a message costs one read from Redis, however many streams carry it.

    A channel's reader starts at the id its first listener had seen (``base``); a listener that had seen
    less, or more than ``recent`` still holds, reads Redis itself (``since``, in a thread)."""

    BLOCK_MS = 1000
    RETRY_SECONDS = 1.0
    # A process busy opening thousands of streams reads its own socket late: the reader's timeouts are
    # generous, and a timeout costs the listeners nothing (the reader resumes from its cursors).
    CONNECT_SECONDS = 5.0
    READ_SECONDS = 30.0  # past the block, Redis has gone silent

    def __init__(self, bus: RedisBus, loop: asyncio.AbstractEventLoop) -> None:
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        super().__init__(bus, loop)
        self.redis = redis.asyncio.Redis.from_url(
            bus.url,
            decode_responses=True,
            socket_connect_timeout=self.CONNECT_SECONDS,
            socket_timeout=self.BLOCK_MS / 1000 + self.READ_SECONDS,
            retry=Retry(NoBackoff(), 0),  # no silent reconnection: a lost connection is checked (``_resume``)
            client_name="taikai-live-reader",
        )
        self.task: asyncio.Task | None = None
        self.resuming = False  # the reader lost Redis: each channel is checked before it is read again

    async def _since(self, channel: str, last_id: str) -> list[Message] | None:
        return await asyncio.to_thread(self.bus.since, channel, last_id)

    def _start(self) -> None:
        super()._start()
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._read())

    async def _read(self) -> None:
        while self.channels:
            self._forget_idle()
            if not self.channels:
                return
            reading = dict(self.channels)
            cursors = {self.bus.key(channel): kept.cursor() for channel, kept in reading.items()}
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
                channel = key.removeprefix(KEY_PREFIX)
                kept = self.channels.get(channel)
                # A channel forgotten and opened again while Redis was read starts from its own id, which may be
                # older than the cursor this answer was read from: the answer is left, the next read covers it.
                if kept is not None and kept is reading.get(channel) and entries:
                    self._arrived(kept, [Message(at, got["type"], json.loads(got["data"])) for at, got in entries])

    async def _resume(self) -> None:
        """Redis went away under the reader, or answered too late: each channel whose messages since the
        reader's cursor are all still in Redis goes on from there (its listeners catch up, nothing is lost);
        a channel where some may be lost (a Redis restarted without them, or trimmed meanwhile) tells its
        listeners to reload (``RELOAD``: the stream sends ``reset``) and starts again from what Redis has."""
        import redis

        for channel, kept in list(self.channels.items()):
            try:
                info = await self.redis.xinfo_stream(self.bus.key(channel))
            except redis.ResponseError as exc:
                if "no such key" not in str(exc).lower():
                    raise
                info = None
            if messages_lost(id_key(kept.cursor()), info):
                self._lost(channel, kept)
        self.resuming = False


class _Channel:
    """What the process has read of one channel since ``base``, and the streams waiting on its next turn."""

    __slots__ = ("base", "floor", "listened_at", "loop", "recent", "waiting")

    def __init__(self, loop: asyncio.AbstractEventLoop, base: tuple[int, int], recent: deque) -> None:
        self.loop = loop
        self.base = base
        self.recent = recent  # (id as a key, message), oldest first
        self.floor = (-1, -1)  # the newest message no longer in ``recent``
        self.listened_at = loop.time()  # when a turn last reached a stream
        self.waiting: list[asyncio.Future] = []  # the streams waiting on the next turn

    @property
    def listened(self) -> bool:
        return any(not waiter.done() for waiter in self.waiting)

    def newest(self) -> tuple[int, int]:
        return self.recent[-1][0] if self.recent else self.base

    def cursor(self) -> str:
        newest = self.newest()
        return f"{newest[0]}-{newest[1]}"

    def add(self, message: Message) -> None:
        if len(self.recent) == self.recent.maxlen:
            self.floor = self.recent[0][0]
        self.recent.append((id_key(message.id), message))

    def news(self, after: tuple[int, int]) -> list[Message] | None:
        """The messages after ``after``, read from the newest back (a stream that fell behind costs the few it
        had not seen, not the whole of ``recent``); ``None`` when some of them may be older than ``recent``."""
        if after < self.base or after < self.floor:
            return None
        recent = self.recent
        if not recent or recent[-1][0] <= after:
            return []  # the stream has seen everything: the usual case
        found = []
        for key, message in reversed(recent):
            if key <= after:
                break
            found.append(message)
        found.reverse()
        return found

    def next_turn(self) -> asyncio.Future:
        """The channel's next turn, for one stream to await. Each stream waits on a bare future of its own (no
        timer, no task, no code of ours runs for it when the turn comes), so that a stream that leaves (its
        task cancelled) cancels only its own: one future shared by all would be cancelled for all of them,
        and shielding it costs each stream two more callbacks a turn."""
        waiter = self.loop.create_future()
        self.waiting.append(waiter)
        return waiter

    def fire(self, delivery: Delivery) -> None:
        """Hand the same ``delivery`` to every stream waiting on the channel, in one pass; the next turn starts."""
        waiting, self.waiting = self.waiting, []
        woken = 0
        for waiter in waiting:
            if not waiter.done():  # a stream that left
                waiter.set_result(delivery)
                woken += 1
        if woken:
            self.listened_at = self.loop.time()


@cache
def the_bus() -> MemoryBus | RedisBus:
    """The process's bus: Redis when configured, else in memory."""
    url = settings.LIVE_BUS_URL
    return RedisBus(url) if url else MemoryBus()
