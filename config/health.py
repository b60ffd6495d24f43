"""``/healthz``: is the database reachable, and the broker? 503 when the database is down."""

from __future__ import annotations

import time

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app


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
    return JsonResponse(
        {"status": status, "database": database, "broker": broker}, status=200 if database["ok"] else 503
    )
