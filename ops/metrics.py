"""``/metrics`` in Prometheus's text format, and the metrics Taikai keeps.

Each process counts in its own memory; under gunicorn (several worker processes per node) and Celery (a
worker's pool), ``PROMETHEUS_MULTIPROC_DIR`` names a folder, one per node, where every process of the node
writes its counts and from which ``/metrics`` adds them up (prometheus-client's multiprocess mode; the node's
start empties the folder, see ``deploy/``). What the database holds (the outbox, seating jobs by state) is read
when ``/metrics`` is asked, the same on every node: a dashboard takes its ``max``.

``/metrics`` answers only the addresses of ``METRICS_ALLOWED_ADDRESSES`` (the caller's address as
``TRUSTED_PROXIES`` says it); to anyone else it is 404, as if it did not exist.
"""

from __future__ import annotations

import ipaddress
import os

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from core.caller import client_address
from core.selectors import queued_tasks_backlog
from ops.backups import last_good_backup
from tournament.models import SeatingJob

# Requests: by view (its URL name, never the raw path, so that ids make no new series) and status.
REQUESTS = Counter(
    "taikai_http_requests", "Requests answered, by view, method and status", ["view", "method", "status"]
)
LATENCY = Histogram(
    "taikai_http_request_duration_seconds",
    "Time to answer a request, by view",
    ["view"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
DB_QUERIES = Counter("taikai_db_queries", "Database statements run, by database vendor", ["vendor"])
DB_ERRORS = Counter("taikai_db_errors", "Database statements that failed, by error class", ["error"])
# Taikai's own figures.
HANDS = Counter("taikai_hands_recorded", "Hands recorded, corrected or voided (committed)")
REFUSED = Counter("taikai_writes_refused", "Writes refused, by the refusal's code", ["code"])
LIVE_STREAMS = Gauge("taikai_live_streams_open", "Live streams open on this node", multiprocess_mode="livesum")
SIGN_UPS = Counter("taikai_sign_ups", "Sign-ups made")
REPLAYS = Counter("taikai_idempotent_replays", "Writes sent again with their idempotency key, answered from the record")
LOCKOUTS = Counter("taikai_sign_in_lockouts", "Sign-in lockouts, by kind (pair: an account from an address)", ["kind"])
TASKS = Counter("taikai_tasks", "Celery tasks run, by task and outcome", ["task", "state"])
TASK_SECONDS = Histogram(
    "taikai_task_duration_seconds",
    "Time a Celery task ran, by task (tournament.seat_next_round: the seating jobs)",
    ["task"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300),
)

# Read from the database when /metrics is asked (see DatabaseCollector).
DATABASE_METRICS = (
    "taikai_outbox_waiting",
    "taikai_outbox_oldest_seconds",
    "taikai_seating_jobs",
    "taikai_backup_last_good_age_seconds",
)


class DatabaseCollector:
    """The figures the database holds, read when /metrics is asked: nothing if the database does not answer."""

    def collect(self):
        try:
            outbox = queued_tasks_backlog()
            states = dict.fromkeys(SeatingJob.State.values, 0)
            for row in SeatingJob.objects.values("state").annotate(count=Count("id")):
                states[row["state"]] = row["count"]
            backup = last_good_backup()
        except DatabaseError:
            return
        yield GaugeMetricFamily("taikai_outbox_waiting", "Celery work waiting in the outbox", value=outbox["waiting"])
        yield GaugeMetricFamily(
            "taikai_outbox_oldest_seconds",
            "Age of the oldest work waiting in the outbox (0: none)",
            value=outbox.get("oldest_seconds") or 0,
        )
        jobs = GaugeMetricFamily("taikai_seating_jobs", "Seating jobs, by state", labels=["state"])
        for state, count in sorted(states.items()):
            jobs.add_metric([state], count)
        yield jobs
        if backup is not None:
            yield GaugeMetricFamily(
                "taikai_backup_last_good_age_seconds",
                "Seconds since the last backup that was checked good",
                value=backup["age_seconds"],
            )


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> bytes:
    """Every metric of this node, as Prometheus reads them."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        counted = generate_latest(registry)
    else:
        counted = generate_latest(REGISTRY)
    read = CollectorRegistry()
    read.register(DatabaseCollector())
    return counted + generate_latest(read)


def address_allowed(address: str) -> bool:
    try:
        caller = ipaddress.ip_address(address)
    except ValueError:
        return False
    for allowed in settings.METRICS_ALLOWED_ADDRESSES:
        try:
            if caller in ipaddress.ip_network(allowed, strict=False):
                return True
        except ValueError:
            continue
    return False


@never_cache
def metrics(request):
    if not address_allowed(client_address(request)):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
