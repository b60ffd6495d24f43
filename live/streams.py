"""The live streams (server-sent events): ``GET /events/<slug>/live`` for an event, and
``GET /console/tables/<id>/live`` for one table (its scorekeeper, and the referees and organizers of the
event). Thin: each checks who may read, then hands the channel to ``_stream``.

A stream starts where the browser left off (``Last-Event-ID``, which ``EventSource`` sends by itself when
it reconnects) or at the newest message. When what was missed is no longer kept, the stream sends
``reset`` and ends: the page reloads. A comment every ``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing
a quiet stream; a response ends after ``LIVE_STREAM_SECONDS`` and the browser reconnects at once, so that
no response holds a server for ever.

Served by ASGI (uvicorn in production) the stream waits without a thread; served by WSGI (``bin/serve``,
the tests' live server) it holds one thread while open.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from live import bus as live_bus
from live.bus import BusDown, Message
from live.publish import event_channel, table_channel
from tournament import access
from tournament.models import Event, Table

logger = logging.getLogger(__name__)

RETRY_MS = 2000  # how soon the browser reconnects after a stream ends or drops


@dataclass(frozen=True)
class Listening:
    """What a stream carries to whom: its channel, and whether the listener sees the staff's messages."""

    channel: str
    staff: bool


def event_listening(request, slug: str) -> Listening:
    """The event's stream: anyone who may read the event (public, or a role in it). Raises ``Http404``."""
    found = _event_seen(slug)
    actor = access.actor_for(request)
    if found is None or not (found[1] or access.holds_role(actor, found[0])):
        raise Http404("no such event")
    return Listening(event_channel(found[0]), staff=access.holds_role(actor, found[0]))


def table_listening(request, table_id: int) -> Listening:
    """A table's stream: its scorekeeper, and the event's referees of that table and organizers."""
    table = Table.objects.filter(pk=table_id).select_related("round").first()
    if table is None or not access.may_score(access.actor_for(request), table):
        raise Http404("no such table of yours")
    return Listening(table_channel(table.pk), staff=True)


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


def starting_id(request, channel: str) -> str:
    """Where the stream starts: where the browser left off (``Last-Event-ID``), else the newest message.
    Raises ``BusDown``."""
    asked = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""
    return asked or live_bus.the_bus().last_id(channel)


def _stream(request, listening: Listening):
    the_bus = live_bus.the_bus()
    try:
        start = starting_id(request, listening.channel)
    except BusDown as exc:
        logger.warning("the live bus is down: %s", exc)
        return bus_down()
    release_database_connections()
    if isinstance(request, ASGIRequest):
        events = async_events(the_bus, listening, start)
    else:
        events = _sync_events(the_bus, listening, start)
    response = StreamingHttpResponse(events, content_type=CONTENT_TYPE)
    for name, value in HEADERS.items():
        response[name] = value
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
        {"error": {"code": "live_unavailable", "message": _("live updates are unavailable: the page polls"),
                   "field": None}},
        status=503,
    )  # fmt: skip
    response["Retry-After"] = "30"
    return response


def opening(cursor: str) -> str:
    """How a stream starts: how soon to reconnect, and the id it starts from, so that a browser that
    reconnects before any message came still asks for what happened since (an id alone fires nothing)."""
    return f"retry: {RETRY_MS}\nid: {cursor}\n: stream open\n\n"


RESET = "event: reset\ndata: {}\n\n"
HEARTBEAT = ": keep-alive\n\n"


def _shown(messages: list[Message], staff: bool) -> tuple[str, str | None]:
    """The messages a listener may see as server-sent events, and the id of the last message read."""
    text = "".join(m.as_sse() for m in messages if staff or not m.data.get("staff"))
    return text, (messages[-1].id if messages else None)


_open_sync_streams = 0  # streams this process serves with a thread each (WSGI), for the tests to wait on
_open_lock = threading.Lock()


def open_sync_streams() -> int:
    return _open_sync_streams


def _sync_events(the_bus, listening: Listening, cursor: str):
    global _open_sync_streams
    with _open_lock:
        _open_sync_streams += 1
    try:
        yield opening(cursor)
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        while time.monotonic() < deadline:
            try:
                found = the_bus.wait(listening.channel, cursor, settings.LIVE_HEARTBEAT_SECONDS)
            except BusDown:
                return  # the browser reconnects; while the bus is down it is told 503 and polls
            text, cursor = _next_part(found, listening, cursor)
            yield text
            if text == RESET:
                return
    finally:
        with _open_lock:
            _open_sync_streams -= 1


async def async_events(the_bus, listening: Listening, cursor: str):
    yield opening(cursor)
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    while time.monotonic() < deadline:
        try:
            found = await the_bus.listen(listening.channel, cursor, settings.LIVE_HEARTBEAT_SECONDS)
        except BusDown:
            return
        text, cursor = _next_part(found, listening, cursor)
        yield text
        if text == RESET:
            return


def _next_part(found: list[Message] | None, listening: Listening, cursor: str) -> tuple[str, str]:
    """What the stream sends for what the bus gave (messages, nothing, or ``None``: reload), and where it
    goes on from."""
    if found is None:
        return RESET, cursor
    text, last = _shown(found, listening.staff)
    return text or HEARTBEAT, last or cursor
