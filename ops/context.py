"""The request id of what this thread or coroutine is doing: a request's (``X-Request-ID`` from nginx, or one
made here), or a Celery task's (the id of the request that queued it). Every log line carries it."""

from __future__ import annotations

import contextvars
import re
import uuid

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("taikai_request_id", default="")

# What a request id may look like: nginx's $request_id is 32 hex digits; a client's own id is kept if it is
# this plain, replaced otherwise (a log line never carries what a caller wrote unchecked).
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
HEADER = "X-Request-ID"
TASK_HEADER = "taikai_request_id"


def new_request_id() -> str:
    return uuid.uuid4().hex


def checked_request_id(sent: str | None) -> str:
    return sent if sent and REQUEST_ID.match(sent) else new_request_id()


class RequestIdFilter:
    """A logging filter that gives every record ``request_id`` (empty outside a request or task)."""

    def filter(self, record) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id.get()
        return True
