"""One middleware, first of all: the request's id, its metrics and its log line.

* The id: ``X-Request-ID`` as nginx sends it (a plain id, else a new one), kept for the log lines written
  while answering and for the Celery tasks the request queues, and sent back in the response.
* The metrics: the request by view and status, its time; a write refused, by the refusal's code; a write
  answered from its idempotency key's record.
* The log line (logger ``taikai.request``, at INFO): time, request id, method, view, event slug, status,
  duration, the account's id or the API token's id, never a secret. Written when ``LOG_FORMAT=json``.
"""

from __future__ import annotations

import json
import logging
import time

from ops import context, metrics

log = logging.getLogger("taikai.request")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def view_name(request) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "<unresolved>"
    return match.view_name or match._func_path


def refusal_code(response) -> str:
    """The code of a refused write: the API's ``{"error": {"code": …}}``, else the status."""
    if response.get("Content-Type", "").startswith("application/json") and not getattr(response, "streaming", False):
        try:
            error = json.loads(response.content).get("error")
        except (ValueError, AttributeError):
            error = None
        if isinstance(error, dict) and isinstance(error.get("code"), str):
            return error["code"][:64]
    return f"http_{response.status_code}"


def who(request) -> dict:
    """The account's id, or the API token's id (never the token itself)."""
    found = {}
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        found["user_id"] = user.pk
    token = getattr(request, "auth", None) or getattr(request, "api_token", None)
    if token is not None and getattr(token, "pk", None) is not None:
        found["token_id"] = token.pk
    return found


class OpsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rid = context.checked_request_id(request.headers.get(context.HEADER))
        request.request_id = rid
        token = context.request_id.set(rid)
        started = time.monotonic()
        try:
            response = self.get_response(request)
        finally:
            context.request_id.reset(token)
        seconds = time.monotonic() - started
        response[context.HEADER] = rid
        view = view_name(request)
        metrics.REQUESTS.labels(view, request.method, str(response.status_code)).inc()
        metrics.LATENCY.labels(view).observe(seconds)
        if response.get("Idempotent-Replayed") == "true":
            metrics.REPLAYS.inc()
        elif request.method not in SAFE_METHODS and 400 <= response.status_code < 500:
            metrics.REFUSED.labels(refusal_code(response)).inc()
        if log.isEnabledFor(logging.INFO):
            match = getattr(request, "resolver_match", None)
            slug = (match.kwargs.get("slug") if match else None) or ""
            log.info(
                "%s %s %s",
                request.method,
                view,
                response.status_code,
                extra={
                    "request_id": rid,
                    "event": "request",
                    "method": request.method,
                    "view": view,
                    "event_slug": slug,
                    "status": response.status_code,
                    "duration_ms": round(seconds * 1000, 1),
                    **who(request),
                },
            )
        return response
