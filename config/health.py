"""``/healthz``: is the database reachable, the cache, the broker? How much work waits for the broker (the
queued tasks of ``core.queue``, answered as ``"outbox"``: the name monitors read)?

503 when the database is down. With the cache or the broker down, writes still succeed (pages are built
from the database, their Celery work waits in the queued tasks): the answer is ``"status": "degraded"``
naming the part that is down (``"cache": {"ok": false}``, ``"broker": {"ok": false}``), and stays
"degraded" while work waits for the broker, HTTP 200 so that a load balancer keeps the web servers in;
``?require=broker`` (or ``cache``) answers 503 then, for a monitor that should page someone.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.cache import cache_status
from config.celery import app
from core.queue import FLUSH_GRACE_SECONDS
from core.selectors import queued_tasks_backlog
from ops.backups import last_good_backup


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
            conn.ensure_connection(max_retries=0, timeout=settings.BROKER_CONNECT_SECONDS)
    except Exception as exc:  # any transport error means "not reachable"
        return {"ok": False, "mode": "broker", "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker"}


@never_cache
@require_GET
def healthz(request):
    database = database_status()
    parts = {"cache": cache_status(), "broker": broker_status()}
    body = {"status": "ok", "database": database, **parts}
    if database["ok"]:
        body["outbox"] = queued_tasks_backlog()
        body["backup"] = last_good_backup()
    backlog = body.get("outbox", {})
    # work the broker refused, or left by a request that ended before sending it (not a commit in flight)
    waiting = bool(backlog.get("last_error")) or (backlog.get("oldest_seconds") or 0) > FLUSH_GRACE_SECONDS
    if not database["ok"]:
        body["status"] = "down"
    elif waiting or not all(part["ok"] for part in parts.values()):
        body["status"] = "degraded"
    required = request.GET.get("require")
    required_ok = database["ok"] and (required not in parts or parts[required]["ok"])
    return JsonResponse(body, status=200 if required_ok else 503)
