"""The live streams served by ASGI without holding a thread each (``config/asgi.py`` routes them here).

Django's ASGI handler runs a request's synchronous parts (the middleware, the session) in a thread of the
request's own, kept until the response ends: for a stream that is minutes, so 5,000 open phones would be
5,000 parked threads, 110 KiB each, and garbage collections that pause every stream of the process. Here
the decision is taken as Django's view takes it (``live.streams``: the session, the account, who may listen,
where to start), in a shared thread that then lets go, and the stream itself is a coroutine.

Everything else, and every stream under WSGI, goes to Django as usual.
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import re
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from live import bus as live_bus
from live.bus import BusDown
from live.streams import (
    CONTENT_TYPE,
    HEADERS,
    Listening,
    async_events,
    bus_down,
    event_listening,
    refused,
    release_database_connections,
    slot_give_back,
    slot_take,
    starting_id,
    table_listening,
    too_many_streams,
)
from taikai.errors import TaikaiError

logger = logging.getLogger(__name__)

ROUTES = (
    (re.compile(r"^/events/(?P<slug>[-a-zA-Z0-9_]+)/live$"), event_listening),
    (re.compile(r"^/console/tables/(?P<table_id>[0-9]+)/live$"), table_listening),
)


def collect_for_streams() -> None:
    """The garbage collector of a process serving thousands of streams (gunicorn's stream workers, from
    ``deploy/gunicorn.conf.py``). Each message wakes every stream, and each wake-up makes a few objects that
    live until the next message (the stream's wait): at the default thresholds (a young collection every 700
    allocations) they outlived several collections into the oldest generation, whose collection, over every
    open stream's objects, then came every few messages and cost more than the messages themselves
    (``benchmarks/live_wakeup.py``, 5,000 streams: 12 µs a stream a message, pauses up to 48 µs a stream,
    against 5 µs without them). Young collections every 50,000 allocations, the oldest generation's a
    hundredth as often. Not for a test run's process: its connections left to the collector would stay open."""
    gc.set_threshold(50_000, 20, 100)


def with_live_streams(django_application):
    """``django_application``, with the live streams' paths served here."""

    async def application(scope, receive, send):
        if scope["type"] == "http":
            for pattern, listening in ROUTES:
                found = pattern.match(scope["path"])
                if found:
                    return await _serve(scope, receive, send, listening, found.groupdict())
        return await django_application(scope, receive, send)

    return application


def _decide(scope, listening_of, arguments) -> tuple[Listening, str, tuple[str, str]] | HttpResponse:
    """What to listen to, where to start and the address's slot the stream holds, as Django's view decides
    them; or the refusal to send. Runs in a thread."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # ALLOWED_HOSTS, as Django checks it
        engine = import_module(settings.SESSION_ENGINE)
        request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        from django.contrib.auth import get_user

        request.user = get_user(request)
        if "table_id" in arguments:
            arguments = {"table_id": int(arguments["table_id"])}
        listening = listening_of(request, **arguments)
        start = starting_id(request, listening.channel)
        slot = slot_take(request)
        if slot is None:
            return too_many_streams()
        return listening, start, slot
    except TaikaiError as exc:
        return refused(exc)
    except DisallowedHost:
        return _refusal(400, "bad_request", _("the request could not be read"))
    except Http404:
        return _refusal(404, "not_found", _("no such stream"))
    except BusDown as exc:
        logger.warning("the live bus is down: %s", exc)
        return bus_down()
    finally:
        release_database_connections()


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "field": None}}, status=status)


async def _answer(send, response: HttpResponse) -> None:
    """Send a (non-streaming) Django response as ASGI messages."""
    headers = [(name.lower().encode(), value.encode()) for name, value in response.items()]
    headers.append((b"content-length", str(len(response.content)).encode()))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


async def _serve(scope, receive, send, listening_of, arguments) -> None:
    if scope["method"] not in ("GET", "HEAD"):
        return await _answer(send, _refusal(405, "method_not_allowed", _("only GET reads a stream")))
    decided = await sync_to_async(_decide, thread_sensitive=False)(scope, listening_of, arguments)
    if isinstance(decided, HttpResponse):
        return await _answer(send, decided)
    listening, start, slot = decided
    try:
        await _pump(send, receive, scope, listening, start)
    finally:  # however the stream ends (the phone left, an error, the server stopping): its slot is free
        await asyncio.shield(asyncio.to_thread(slot_give_back, slot))


async def _pump(send, receive, scope, listening: Listening, start: str) -> None:
    headers = [(b"content-type", CONTENT_TYPE.encode())]
    headers += [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    if scope["method"] == "HEAD":
        return await send({"type": "http.response.body", "body": b""})

    async def pump():
        async for part in async_events(live_bus.the_bus(), listening, start):
            await send({"type": "http.response.body", "body": part, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def disconnected():
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(disconnected())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
