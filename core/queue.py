"""The broker queue: Celery work the services ask for, kept in the database until the broker has it.

``enqueue_on_commit`` writes a ``QueuedTask`` row in the caller's transaction, so the work is recorded if
and only if the write is. Once the transaction has committed the task is sent to the broker and its row
deleted. When the broker cannot be reached (down, restarting, a network fault) the write has still
succeeded: the row stays with the error, and ``queued_tasks_flush`` sends it when the broker is back
(Celery beat runs it every ``OUTBOX_FLUSH_SECONDS``; ``manage.py flush_outbox`` runs it from a shell or a
timer: both names are older than this module and kept for the deployments that use them).
Tasks are idempotent, so a message sent twice does no harm; the same task with the same arguments
waiting several times is sent once.

Sending gives up fast: one try, a connection given ``CELERY_BROKER_CONNECTION_TIMEOUT`` (0.5 s), no result
subscription (nothing reads task results). After a failure this process does not try the broker again for
``BROKER_RETRY_SECONDS``: the writes meanwhile go straight to the queued tasks, so a request never waits
on a dead broker more than once. The first send that succeeds after a failure, and every worker at
start-up, queue the flush (``QUEUE_FLUSH``): the queued tasks are sent as soon as the broker is back,
without beat.

Tasks are looked up by their pinned names (each app names its own: ``tournament.services.standings``,
``tournament.services.seating``, ``players.csv_import``), so services never import the task modules: the
entry points sit above the services, and queued messages keep working across deploys. With no broker
configured the task runs in-process at commit (the embedded default).

Not to be confused with the console's device outbox (``tournament/outbox.py``, ``outbox.js``): the writes
a referee's device keeps while the hall's network is down.
"""

from __future__ import annotations

import json
import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from core.models import QueuedTask

# The flush's pinned name, from when the queue was the tournament app's: beat schedules and messages on
# their way name it so.
QUEUE_FLUSH = "tournament.outbox_flush"

# After a failed send, this process leaves the broker alone for this long (the work stays queued here).
BROKER_RETRY_SECONDS = 5.0

# A row younger than this and never tried is left to the request that wrote it (it sends at its commit).
FLUSH_GRACE_SECONDS = 30

log = logging.getLogger("taikai.queue")


def enqueue_on_commit(task_name: str, *args, commit_time: bool = False) -> None:
    """Record ``task_name`` with ``args`` now and send it after the commit; with ``commit_time`` the time
    it is sent (after the commit, ISO 8601) is the last argument.

    Inside ``queued_work_merged()`` (a round's sixteen tables confirmed in one transaction, each asking for the
    standings), the same task with the same arguments asked for again before the commit is sent once, for all
    its rows."""
    row = QueuedTask.objects.create(task=task_name, args=list(args), commit_time=commit_time)
    connection = transaction.get_connection()
    if not connection.in_atomic_block or not connection.__dict__.get("_queue_merging"):  # one sending a row
        transaction.on_commit(lambda: _deliver([row.pk], task_name, list(args), commit_time))
        return
    key = (task_name, json.dumps(list(args), sort_keys=True, default=str), commit_time)
    pending = connection.__dict__.setdefault("_queue_sendings", {})
    sending = pending.get(key)
    if (
        sending is not None
        and not sending.sent
        and any(func is sending for _savepoints, func, *_rest in connection.run_on_commit)
    ):
        sending.ids.append(row.pk)  # still to be sent at this commit: one message for both rows
        return
    pending[key] = sending = _Sending(pending, key, [row.pk], task_name, list(args), commit_time)
    transaction.on_commit(sending)


@contextmanager
def queued_work_merged():
    """Within the block, the same work asked for twice before the commit is sent once (see
    ``enqueue_on_commit``): for a caller that makes many writes in one transaction, each asking for it."""
    connection = transaction.get_connection()
    before = connection.__dict__.get("_queue_merging", False)
    connection.__dict__["_queue_merging"] = True
    try:
        yield
    finally:
        connection.__dict__["_queue_merging"] = before


@dataclass
class _Sending:
    """One task to send after the commit, for the queued rows ``ids`` (see ``enqueue_on_commit``). A sending
    whose savepoint was rolled back is no longer among the connection's commit callbacks: never added to."""

    pending: dict
    key: tuple
    ids: list[int]
    task_name: str
    args: list
    commit_time: bool
    sent: bool = False  # run already (a test's captured callbacks run without leaving the list): never added to

    def __call__(self) -> None:
        self.sent = True
        if self.pending.get(self.key) is self:
            del self.pending[self.key]
        _deliver(self.ids, self.task_name, self.args, self.commit_time)


class BrokerResting(ConnectionError):
    """The broker failed a moment ago: this process does not try it again yet."""


class _Broker:
    """This process's view of the broker: when it last failed, and whether a flush is owed."""

    down_until = 0.0
    flush_owed = False

    @classmethod
    def failed(cls) -> None:
        cls.down_until = time.monotonic() + BROKER_RETRY_SECONDS
        cls.flush_owed = True

    @classmethod
    def resting(cls) -> bool:
        return time.monotonic() < cls.down_until


def _publish(task_name: str, args: list, commit_time: bool) -> None:
    stamp = [timezone.now().isoformat()] if commit_time else []
    if current_app.conf.task_always_eager:  # in-process: no broker to wait for
        current_app.tasks[task_name].apply_async(args=[*args, *stamp])
        return
    if _Broker.resting():
        raise BrokerResting(f"the broker failed less than {BROKER_RETRY_SECONDS:g} s ago")
    try:
        with current_app.connection_for_write() as connection:
            # one try, bounded by the connection timeout (kombu would otherwise wait 2 s and try again)
            connection.ensure_connection(max_retries=0, timeout=settings.BROKER_CONNECT_SECONDS)
            current_app.tasks[task_name].apply_async(
                args=[*args, *stamp], retry=False, ignore_result=True, connection=connection
            )
    except Exception:
        _Broker.failed()
        raise


def _deliver(ids: list[int], task_name: str, args: list, commit_time: bool) -> Exception | None:
    """Send one task for the rows ``ids``; the rows go once the broker has it. Returns the broker's error,
    if any (the rows stay, with it)."""
    if current_app.conf.task_always_eager:
        # in-process: the task runs here and now, and an error it raises is its own, not the broker's
        QueuedTask.objects.filter(pk__in=ids).delete()
        _publish(task_name, args, commit_time)
        return None
    try:
        _publish(task_name, args, commit_time)
    except Exception as exc:  # any failure to hand the message over: the broker did not take it
        QueuedTask.objects.filter(pk__in=ids).update(
            attempts=F("attempts") + 1,
            last_attempt_at=timezone.now(),
            last_error=f"{exc.__class__.__name__}: {exc}"[:300],
        )
        log.warning("broker_unreachable: %s%s kept in the queued tasks (%s)", task_name, tuple(args), exc)
        return exc
    QueuedTask.objects.filter(pk__in=ids).delete()
    if _Broker.flush_owed and task_name != QUEUE_FLUSH:
        queued_tasks_flush_request()
    return None


def queued_tasks_flush_request() -> bool:
    """Ask a worker to send the queued tasks (the broker is back, or a worker has just started). True when
    the broker took the request."""
    try:
        _publish(QUEUE_FLUSH, [], False)
    except Exception as exc:
        log.warning("broker_unreachable: the queued tasks' flush waits (%s)", exc)
        return False
    _Broker.flush_owed = False
    return True


@dataclass(frozen=True)
class FlushReport:
    sent: int  # messages handed to the broker
    rows: int  # queued task rows they cleared
    waiting: int  # rows still waiting
    error: str = ""  # the broker's error that stopped the flush

    def __str__(self) -> str:
        text = f"sent {self.sent} task(s) for {self.rows} request(s); {self.waiting} waiting"
        return f"{text}; broker_unreachable: {self.error}" if self.error else text


def queued_tasks_flush(*, grace_seconds: float = FLUSH_GRACE_SECONDS, limit: int = 1000) -> FlushReport:
    """Send the work the broker did not take: rows a send failed for, and rows older than
    ``grace_seconds`` (their request ended before sending). Identical tasks go once. Stops at the first
    failure: the broker is still down, the rows wait for the next flush. Concurrent flushes skip each
    other's rows."""
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    sent = cleared = 0
    error = ""
    with transaction.atomic():
        rows = list(
            QueuedTask.objects.select_for_update(no_key=True, skip_locked=True)
            .filter(Q(attempts__gt=0) | Q(created_at__lte=cutoff))
            .order_by("id")[:limit]
        )
        groups: dict[tuple[str, str, bool], list[int]] = {}
        for row in rows:
            groups.setdefault((row.task, json.dumps(row.args), row.commit_time), []).append(row.pk)
        for (task_name, args, commit_time), ids in groups.items():
            failure = _deliver(ids, task_name, json.loads(args), commit_time)
            if failure is not None:
                error = f"{failure.__class__.__name__}: {failure}"[:300]
                break
            sent += 1
            cleared += len(ids)
    return FlushReport(sent=sent, rows=cleared, waiting=QueuedTask.objects.count(), error=error)
