"""The live streams (server-sent events): ``GET /events/<slug>/live`` for an event, and
``GET /console/tables/<id>/live`` for one table (its scorekeeper, and the referees and organizers of the
event). Thin: each checks who may read, then hands the channel to ``_stream``.

A stream starts where the browser left off (``Last-Event-ID``, which ``EventSource`` sends by itself when
it reconnects) or at the newest message. When what was missed is no longer kept, the stream sends
``reset`` and ends: the page reloads. A comment every ``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing
a quiet stream; a response ends after ``LIVE_STREAM_SECONDS`` and the browser reconnects at once, so that
no response holds a server for ever.

Nothing a stranger sends reaches the stream as it was sent: ``Last-Event-ID`` (or ``?last_event_id=``) is
a bus id (``<digits>-<digits>``) or the request is refused (400, ``invalid_last_event_id``), so no line of
theirs is written into the stream. Who sees the staff's messages is decided when the stream opens and asked
again when a role in the event changes (``roles_generation``, one cache read for a staff message on a staff
listener's stream, or any turn of a table's) or every ``ROLE_RECHECK_SECONDS``: a referee whose role is
revoked stops receiving calls at once, and a table's stream ends. One address holds at most
``LIVE_STREAMS_PER_ADDRESS`` streams at once (counted on the bus, given back when a response closes, however
it closes): past it the answer is 429 and the page polls.

Served by ASGI (uvicorn in production) the stream waits without a thread; served by WSGI (``bin/serve``,
the tests' live server) it holds one thread while open.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.caller import client_address
from live import bus as live_bus
from live.bus import HEARTBEAT, RESET, BusDown, Delivery, Message
from live.publish import event_channel, table_channel
from taikai.errors import TaikaiError
from tournament import access
from tournament.models import Event, Table
from tournament.services.roles import roles_generation

logger = logging.getLogger(__name__)

RETRY_MS = 2000  # how soon the browser reconnects after a stream ends or drops


ROLE_RECHECK_SECONDS = 60.0  # a staff listener's role is asked again at least this often


@dataclass(frozen=True)
class Listening:
    """What a stream carries to whom: its channel, and whether the listener sees the staff's messages.

    A staff listener also carries how to ask again (``still_staff``: a database read, in a thread of the
    stream's), the event whose roles it depends on, and that event's roles generation when it was decided;
    ``ends_unless_staff``: the whole stream is for staff (a table's), so it ends rather than goes on."""

    channel: str
    staff: bool
    event_id: int | None = None
    generation: str = ""
    still_staff: Callable[[], bool] | None = None
    ends_unless_staff: bool = False


def _fresh_actor(request):
    """The request's actor built again from the database (the roles and table cards held now)."""
    request.__dict__.pop("_taikai_actor", None)
    return access.actor_for(request)


def event_listening(request, slug: str) -> Listening:
    """The event's stream: anyone who may read the event (public, or a role in it). Raises ``Http404``."""
    found = _event_seen(slug)
    if found is None:
        raise Http404("no such event")
    # Read before the roles, so that a change after it is seen; only an account can hold a role in the event.
    generation = roles_generation(found[0]) if request.user.is_authenticated else ""
    actor = access.actor_for(request)
    staff = access.holds_role(actor, found[0])
    if not (found[1] or staff):
        raise Http404("no such event")
    return Listening(
        event_channel(found[0]),
        staff=staff,
        event_id=found[0],
        generation=generation,
        still_staff=lambda: access.holds_role(_fresh_actor(request), found[0]),
    )


def table_listening(request, table_id: int) -> Listening:
    """A table's stream: its scorekeeper, and the event's referees of that table and organizers."""
    table = Table.objects.filter(pk=table_id).select_related("round").first()
    if table is None:
        raise Http404("no such table of yours")
    generation = roles_generation(table.round.event_id)
    if not access.may_score(access.actor_for(request), table):
        raise Http404("no such table of yours")
    return Listening(
        table_channel(table.pk),
        staff=True,
        event_id=table.round.event_id,
        generation=generation,
        still_staff=lambda: access.may_score(_fresh_actor(request), table),
        ends_unless_staff=True,
    )


class Watch:
    """Whether a stream's listener still sees the staff's messages: asked again when the event's roles
    generation moved (one cache read, made only for staff listeners) or ``ROLE_RECHECK_SECONDS`` passed
    (a cache that lost the generation, Redis down, a card cancelled)."""

    def __init__(self, listening: Listening) -> None:
        self.listening = listening
        self.staff = listening.staff
        self.generation = listening.generation
        self.asked_at = time.monotonic()

    def ask(self) -> bool:
        """Whether the listener is still staff (sync: runs in the stream's thread, or one lent to it)."""
        if not self.staff or self.listening.still_staff is None:
            return self.staff
        generation = roles_generation(self.listening.event_id)
        if generation == self.generation and time.monotonic() - self.asked_at < ROLE_RECHECK_SECONDS:
            return True
        try:
            self.staff = bool(self.listening.still_staff())
        except Exception:  # the database away: no staff message goes out until the role is known again
            logger.warning("the role of a live stream's listener could not be read", exc_info=True)
            self.staff = False
        finally:
            release_database_connections()
        self.generation, self.asked_at = generation, time.monotonic()
        return self.staff

    @property
    def ended(self) -> bool:
        return not self.staff and self.listening.ends_unless_staff


@require_safe
def event_live(request, slug):
    """What happens in the event, for its pages."""
    return _stream(request, event_listening(request, slug))


@require_safe
def table_live(request, table_id):
    """One table's hands, result, clock and calls."""
    return _stream(request, table_listening(request, table_id))


EVENT_SEEN_SECONDS = 60


def _event_seen(slug: str) -> tuple[int, bool] | None:
    """(id, is public) of the event, kept a minute: a hall of phones opening their streams at once does not
    each ask the database (a page a phone had open keeps its stream that long after the event turns
    private; the stream carries only what the public pages showed)."""
    key = f"live:event:{slug}"
    found = cache.get(key)
    if found is None:
        event = Event.objects.filter(slug=slug).values_list("pk", "is_public").first()
        found = list(event) if event else []
        cache.set(key, found, EVENT_SEEN_SECONDS)
    return tuple(found) if found else None


BUS_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")  # what both buses give as ids: Redis stream ids


def asked_id(request) -> str:
    """The id the browser says it left off at (``Last-Event-ID``, or ``?last_event_id=`` for a page that
    opens its stream again itself), or ``""``. Anything but a bus id is refused, and never repeated."""
    for field, value in (
        ("Last-Event-ID", request.headers.get("Last-Event-ID")),
        ("last_event_id", request.GET.get("last_event_id")),
    ):
        if value and not BUS_ID.fullmatch(value):
            raise TaikaiError(
                "invalid_last_event_id",
                _("the last event id is not one this stream sent (digits, a dash, digits)"),
                field=field,
            )
    return request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""


def starting_id(request, channel: str) -> str:
    """Where the stream starts: where the browser left off (``Last-Event-ID``), else the newest message.
    Raises ``TaikaiError`` (an id that is not one) and ``BusDown``."""
    return asked_id(request) or live_bus.the_bus().last_id(channel)


def refused(exc: TaikaiError) -> JsonResponse:
    return JsonResponse({"error": exc.as_dict()}, status=exc.status)


SLOT_RETRY_SECONDS = 30


def slot_take(request) -> tuple[str, str] | None:
    """One of the ``LIVE_STREAMS_PER_ADDRESS`` streams the caller's address may hold: (holder, token), or
    ``None`` when they are all open. Give it back with ``slot_give_back`` when the response closes."""
    holder = f"address:{client_address(request)}"
    # The longest a response lasts: past it the slot lapses by itself, even if its process died.
    lapses = settings.LIVE_STREAM_SECONDS + 2 * settings.LIVE_HEARTBEAT_SECONDS + 10
    token = live_bus.the_bus().slot_take(holder, settings.LIVE_STREAMS_PER_ADDRESS, lapses)
    return (holder, token) if token else None


def slot_give_back(slot: tuple[str, str]) -> None:
    try:
        live_bus.the_bus().slot_give_back(*slot)
    except Exception:  # it lapses by itself; a response that closes never fails for it
        logger.warning("a live stream's slot could not be given back", exc_info=True)


def too_many_streams() -> JsonResponse:
    response = JsonResponse(
        {
            "error": {
                "code": "too_many_streams",
                "message": _("this address has too many live streams open: the page polls"),
                "field": None,
            }
        },
        status=429,
    )
    response["Retry-After"] = str(SLOT_RETRY_SECONDS)
    return response


def _stream(request, listening: Listening):
    the_bus = live_bus.the_bus()
    try:
        start = starting_id(request, listening.channel)
    except TaikaiError as exc:
        return refused(exc)
    except BusDown as exc:
        logger.warning("the live bus is down: %s", exc)
        return bus_down()
    release_database_connections()
    slot = slot_take(request)
    if slot is None:
        return too_many_streams()
    try:
        if isinstance(request, ASGIRequest):
            events = async_events(the_bus, listening, start)
        else:
            events = _sync_events(the_bus, listening, start)
        response = StreamingHttpResponse(events, content_type=CONTENT_TYPE)
        for name, value in HEADERS.items():
            response[name] = value
    except BaseException:
        slot_give_back(slot)
        raise
    response._resource_closers.append(lambda: slot_give_back(slot))  # however the response ends
    return response


CONTENT_TYPE = "text/event-stream; charset=utf-8"
HEADERS = {
    "Cache-Control": "no-cache, no-store",
    "X-Accel-Buffering": "no",
}  # nginx: pass each event on at once


def release_database_connections() -> None:
    """A stream reads no database once open: its connections go back now, not when the response ends
    minutes later (under ASGI each request's thread has its own; 5,000 open streams would hold 5,000)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:  # a test's transaction, or a request run in one, keeps its own
            connection.close()


def bus_down() -> JsonResponse:
    response = JsonResponse(
        {
            "error": {
                "code": "live_unavailable",
                "message": _("live updates are unavailable: the page polls"),
                "field": None,
            }
        },
        status=503,
    )
    response["Retry-After"] = "30"
    return response


def opening(cursor: str) -> str:
    """How a stream starts: how soon to reconnect, and the id it starts from, so that a browser that
    reconnects before any message came still asks for what happened since (an id alone fires nothing)."""
    if not BUS_ID.fullmatch(cursor):  # only ids of the bus are ever written into a stream
        raise ValueError("not a bus id")
    return f"retry: {RETRY_MS}\nid: {cursor}\n: stream open\n\n"


_open_sync_streams = 0  # streams this process serves with a thread each (WSGI), for the tests to wait on
_open_lock = threading.Lock()


def open_sync_streams() -> int:
    return _open_sync_streams


def _sync_events(the_bus, listening: Listening, cursor: str):
    global _open_sync_streams
    with _open_lock:
        _open_sync_streams += 1
    watch = Watch(listening)
    try:
        yield opening(cursor).encode()
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        while time.monotonic() < deadline:
            try:
                found = the_bus.wait(listening.channel, cursor, settings.LIVE_HEARTBEAT_SECONDS)
            except BusDown:
                return  # the browser reconnects; while the bus is down it is told 503 and polls
            staff = watch.ask()
            if watch.ended:
                return
            part, cursor = _next_part(found, staff, cursor)
            yield part
            if part == RESET:
                return
    finally:
        with _open_lock:
            _open_sync_streams -= 1


async def async_events(the_bus, listening: Listening, cursor: str):
    """The stream's bytes under ASGI. Each turn of the channel hands every stream the same bytes (the staff's or
    everyone's); the listener's role is asked again only when the turn carries something it decides (a staff
    message; anything on a stream that is all staff's, such as a table's, so that it ends once the role is
    gone). The process's heartbeat wakes the stream every ``LIVE_HEARTBEAT_SECONDS``, which is when a stream
    past ``LIVE_STREAM_SECONDS`` ends."""
    watch = Watch(listening)
    yield opening(cursor).encode()
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    fanout, channel, after = the_bus.fanout(), listening.channel, live_bus.id_key(cursor)
    while True:
        try:
            delivery = await fanout.next_delivery(channel, cursor, after)
        except BusDown:
            return
        if delivery.reset:
            yield RESET
            return
        staff = watch.staff
        if staff and (delivery.has_staff or listening.ends_unless_staff):
            staff = await asyncio.to_thread(watch.ask)
            if watch.ended:
                return
        yield delivery.everything if staff else delivery.public
        if delivery.last_id is not None:
            cursor, after = delivery.last_id, delivery.last_key
        if time.monotonic() >= deadline:
            return


def _next_part(found: list[Message] | None, staff: bool, cursor: str) -> tuple[bytes, str]:
    """What a stream served by WSGI sends for what the bus gave (messages, nothing, or ``None``: reload), and
    where it goes on from."""
    if found is None:
        return RESET, cursor
    if not found:
        return HEARTBEAT, cursor
    delivery = Delivery.of(found)
    return delivery.everything if staff else delivery.public, delivery.last_id
