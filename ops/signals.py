"""What the metrics and the logs hear without the apps knowing: the tournament's announcements (hands), the
rows other apps make (sign-ups, sign-in lockouts), the database's statements, and Celery's task signals (each
task's time and outcome, its log line, and the request id carried from the request that queued it)."""

from __future__ import annotations

import logging
import time

from celery import signals as celery_signals
from django.db import transaction
from django.db.backends.signals import connection_created
from django.db.models.signals import post_save

from accounts.models import SignInLockout
from core.announce import subscribe
from ops import context, metrics
from registration.models import SignUp

task_log = logging.getLogger("taikai.task")

_task_started: dict[str, tuple[float, object]] = {}


def on_announcement(subject: str, event_id: int, facts: dict) -> None:
    if subject == "hand":
        metrics.HANDS.inc()


def on_sign_up_saved(sender, instance, created, **kwargs) -> None:
    if created:
        transaction.on_commit(metrics.SIGN_UPS.inc, using=kwargs.get("using"))


def on_lockout_saved(sender, instance, created, **kwargs) -> None:
    if created:
        kind = instance.kind
        transaction.on_commit(lambda: metrics.LOCKOUTS.labels(kind).inc(), using=kwargs.get("using"))


def _counted(execute, sql, params, many, context_):
    vendor = context_["connection"].vendor
    try:
        return execute(sql, params, many, context_)
    except Exception as exc:
        metrics.DB_ERRORS.labels(exc.__class__.__name__).inc()
        raise
    finally:
        metrics.DB_QUERIES.labels(vendor).inc()


def on_connection_created(sender, connection, **kwargs) -> None:
    if _counted not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counted)


def on_before_task_publish(sender=None, headers=None, **kwargs) -> None:
    """The request id goes with the task the request queues (in the message's headers)."""
    rid = context.request_id.get()
    if rid and headers is not None and context.TASK_HEADER not in headers:
        headers[context.TASK_HEADER] = rid


def on_task_prerun(task_id=None, task=None, **kwargs) -> None:
    request = getattr(task, "request", None)
    rid = getattr(request, context.TASK_HEADER, None) or (getattr(request, "headers", None) or {}).get(
        context.TASK_HEADER
    )
    token = context.request_id.set(rid or task_id or "")
    _task_started[task_id] = (time.monotonic(), token)


def on_task_postrun(task_id=None, task=None, state=None, **kwargs) -> None:
    started, token = _task_started.pop(task_id, (None, None))
    name = getattr(task, "name", "?")
    seconds = time.monotonic() - started if started is not None else 0.0
    metrics.TASKS.labels(name, state or "UNKNOWN").inc()
    metrics.TASK_SECONDS.labels(name).observe(seconds)
    task_log.info(
        "task %s %s",
        name,
        state,
        extra={
            "event": "task",
            "task": name,
            "task_id": task_id,
            "state": state,
            "duration_ms": round(seconds * 1000, 1),
        },
    )
    if token is not None:
        try:
            context.request_id.reset(token)
        except ValueError:  # set in another context (a pool's thread): nothing to undo here
            context.request_id.set("")


def on_worker_ready(**kwargs) -> None:
    """A worker node serves its metrics on 127.0.0.1:``TAIKAI_METRICS_PORT`` (its pool's processes added up)."""
    import os

    port = os.environ.get("TAIKAI_METRICS_PORT")
    if not port:
        return
    from prometheus_client import REGISTRY, CollectorRegistry, multiprocess, start_http_server

    registry = REGISTRY
    if metrics.multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    start_http_server(int(port), addr=os.environ.get("TAIKAI_METRICS_ADDR", "127.0.0.1"), registry=registry)


def connect() -> None:
    subscribe(on_announcement)
    post_save.connect(on_sign_up_saved, sender=SignUp, dispatch_uid="ops.sign_ups")
    post_save.connect(on_lockout_saved, sender=SignInLockout, dispatch_uid="ops.lockouts")
    connection_created.connect(on_connection_created, dispatch_uid="ops.db_queries")
    celery_signals.before_task_publish.connect(on_before_task_publish, dispatch_uid="ops.request_id")
    celery_signals.task_prerun.connect(on_task_prerun, dispatch_uid="ops.task_prerun")
    celery_signals.task_postrun.connect(on_task_postrun, dispatch_uid="ops.task_postrun")
    celery_signals.worker_ready.connect(on_worker_ready, dispatch_uid="ops.worker_metrics")
