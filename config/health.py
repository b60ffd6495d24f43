"""``/healthz``: is the database reachable, and the broker? How much work waits for the broker (the outbox)?

503 when the database is down. With the broker down, writes still succeed (their Celery work waits in the
outbox): the answer is ``"status": "degraded"`` with ``"broker": {"ok": false}``, HTTP 200 so that a load
balancer keeps the web servers in; ``/healthz?require=broker`` answers 503 then, for a monitor that should
page someone.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app
from tournament import selectors


def database_status() -> dict:
    started = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor, "ms": round((time.monotonic() - started) * 1000, 1)}


def broker_status() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "in-process"}
    try:
        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # any transport error means "not reachable"
        return {"ok": False, "mode": "broker", "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker"}


@never_cache
@require_GET
def healthz(request):
    database = database_status()
    broker = broker_status()
    status = "ok" if database["ok"] and broker["ok"] else ("down" if not database["ok"] else "degraded")
    body = {"status": status, "database": database, "broker": broker}
    if database["ok"]:
        body["outbox"] = selectors.outbox_backlog()
    required_ok = database["ok"] and (broker["ok"] or request.GET.get("require") != "broker")
    return JsonResponse(body, status=200 if required_ok else 503)
