"""``/livez``: the process answers. No database, no cache, no broker: a load balancer or a process supervisor
restarts a node that does not answer it, and keeps in one whose database is down (``/healthz`` says so: that
is readiness, shared by every node, and restarting them would not bring the database back)."""

from __future__ import annotations

import os

from django.http import JsonResponse
from django.views.decorators.cache import never_cache


@never_cache
def livez(request):
    return JsonResponse({"status": "ok", "pid": os.getpid()})
