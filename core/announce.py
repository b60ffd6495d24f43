"""What the apps announce after a write commits, for the apps built on them to react (``live`` pushes it to
the pages, ``seasons`` recomputes a series). The one after-commit hook of STYLE.md, "Growing the house": an
app never imports the apps built on it; they subscribe here.

Each app registers the subjects it announces, with the facts each one carries, once at start-up
(``subject_register`` in its ``AppConfig.ready``): ``tournament`` registers ``hand``, ``table``,
``standings``, ``seating`` and ``clock`` (``tournament/apps.py``, with what each means), ``registration``
registers ``checkin``. A service calls ``announce(subject, event_id, **facts)`` inside its transaction; the
subscribers are called once the transaction commits (never for a write rolled back), in the order they
subscribed. A subscriber that fails is logged and the others still run: an announcement is never part of
the write. Facts are JSON values, nothing a public page of the event does not show.

An announcement is delivered at least once. It is written (``core.models.Announcement``) in the write's own
transaction; after the commit its row is deleted in the transaction that delivers it (one statement for all
the write's announcements), so that a process that ends between the commit and the delivery's own commit (a
web node killed, its machine lost) leaves the row behind: ``announcements_flush`` (Celery beat, every
``ANNOUNCEMENTS_FLUSH_SECONDS``) delivers the rows older than ``ANNOUNCEMENTS_GRACE_SECONDS``, late and
possibly after newer ones. A subscriber therefore takes an announcement as "this changed: read it again",
never as a state to apply: the live pages fetch what they show again, a series' recompute is asked for
again. Nothing else would announce such a write again: its device, sending it again with its key, gets the
kept answer (``idempotency``), which writes and announces nothing.

An announcement is checked when it is made: a subject nobody registered is refused (``AnnouncementError``),
and so are facts other than the registered ones, except in production (``TAIKAI_PRODUCTION``), where
those are logged and the announcement still goes: a write never fails for its announcement.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

logger = logging.getLogger(__name__)


class AnnouncementError(ValueError):
    """A subject nobody registered, facts other than its registered ones, or a subject registered twice
    with different facts: a programming error."""


@dataclass(frozen=True)
class Subject:
    name: str
    facts: frozenset[str]
    app: str  # the app that announces it


_subjects: dict[str, Subject] = {}

Subscriber = Callable[[str, int, dict], None]
_subscribers: list[Subscriber] = []


def subject_register(name: str, *facts: str, app: str) -> Subject:
    """Declare the subject ``name`` announced by ``app`` with exactly ``facts`` (again with the same facts
    is harmless: ``ready`` may run twice in tests)."""
    subject = Subject(name=name, facts=frozenset(facts), app=app)
    known = _subjects.setdefault(name, subject)
    if known != subject:
        raise AnnouncementError(
            f"subject {name!r} is registered by {known.app} with facts {sorted(known.facts)}; "
            f"{app} registers it with {sorted(subject.facts)}"
        )
    return known


def subjects() -> dict[str, Subject]:
    """Every registered subject, by name."""
    return dict(_subjects)


def subscribe(subscriber: Subscriber) -> None:
    """Call ``subscriber(subject, event_id, facts)`` after each announcement commits (once per subscriber)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def unsubscribe(subscriber: Subscriber) -> None:
    if subscriber in _subscribers:
        _subscribers.remove(subscriber)


def announce(subject: str, event_id: int, **facts) -> None:
    """Tell the subscribers about ``subject`` in event ``event_id`` once the current transaction commits."""
    declared = _subjects.get(subject)
    if declared is None:
        raise AnnouncementError(f"unknown subject {subject!r}: registered are {sorted(_subjects)}")
    if set(facts) != declared.facts:
        problem = (
            f"{subject!r} announced with facts {sorted(facts)}; {declared.app} registered {sorted(declared.facts)}"
        )
        if not settings.PRODUCTION:
            raise AnnouncementError(problem)
        logger.error("announcement_facts: %s", problem)
    if _subscribers:
        _after_commit(_kept_rows().create(subject=subject, event_id=event_id, facts=facts))


def _after_commit(kept) -> None:
    """Deliver ``kept`` (an ``Announcement`` row) once its transaction commits, with the transaction's other
    announcements: one claim of their rows for the whole commit (``_Delivery``), not one each."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return _claimed_delivered([kept])  # committed already
    delivery, block = connection.__dict__.get(_PENDING), _transaction_block(connection)
    if (
        delivery is None
        or delivery.block is not block
        or not any(func is delivery for _savepoints, func, *_rest in connection.run_on_commit)
    ):
        # the first announcement of the transaction, or the one that registered the delivery was in a savepoint
        # rolled back since (its callback went with it)
        delivery = connection.__dict__[_PENDING] = _Delivery(block)
        transaction.on_commit(delivery)
    delivery.kept.append(kept)


def _transaction_block(connection):
    """The atomic block whose commit delivers: the outermost, leaving out a test's own blocks (a test runs
    inside blocks that never commit, each service call of it in a block of its own), as Django's own check
    of a durable block does."""
    return next((block for block in connection.atomic_blocks if not block._from_testcase), None)


_PENDING = "_taikai_announcements"  # the connection's delivery waiting for its commit


class _Delivery:
    """The announcements of one transaction, delivered after its commit. Some may have been made in a savepoint
    rolled back since: their rows are gone, and the claim leaves them out."""

    def __init__(self, block) -> None:
        self.block = block  # the atomic block whose commit runs it
        self.kept: list = []

    def __call__(self) -> None:
        connection = transaction.get_connection()
        if connection.__dict__.get(_PENDING) is self:
            del connection.__dict__[_PENDING]
        _claimed_delivered(self.kept)


def _claimed_delivered(kept: list) -> None:
    """Deliver the kept announcements whose rows this process deletes, in one transaction: a process that ends
    before it commits leaves the rows to ``announcements_flush`` (delivered again: at least once, never lost),
    and a row the flush took meanwhile is not delivered twice."""
    if not kept:
        return
    connection = transaction.get_connection()
    table = connection.ops.quote_name(_kept_rows().model._meta.db_table)
    ids = sorted({row.pk for row in kept})
    marks = ", ".join(["%s"] * len(ids))
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            # what is delivered is what the rows say: an id of a row rolled back may have been given again
            cursor.execute(
                f"DELETE FROM {table} WHERE id IN ({marks}) RETURNING id, subject, event_id, facts",
                ids,
            )
            for _id, subject, event_id, facts in sorted(cursor.fetchall()):
                _deliver(subject, event_id, json.loads(facts) if isinstance(facts, str | bytes) else facts)
    except DatabaseError:
        logger.warning("%d announcement(s) left to the flush: the database failed after their commit", len(kept))


def _kept_rows():
    """``core.models.Announcement``'s rows, looked up when used: the apps import this module while they load,
    before any model may be."""
    return apps.get_model("core", "Announcement").objects


def announcements_flush(*, grace_seconds: float | None = None, limit: int = 1000) -> int:
    """Deliver the announcements whose write committed but whose process never delivered them (rows older
    than ``grace_seconds``, by default ``ANNOUNCEMENTS_GRACE_SECONDS``: a younger one is its own process's to
    deliver), oldest first, and forget them; the number delivered. Concurrent flushes skip each other's rows."""
    grace = settings.ANNOUNCEMENTS_GRACE_SECONDS if grace_seconds is None else grace_seconds
    cutoff = timezone.now() - timedelta(seconds=grace)
    with transaction.atomic():
        rows = list(
            _kept_rows().select_for_update(skip_locked=True).filter(created_at__lte=cutoff).order_by("id")[:limit]
        )
        for row in rows:
            _deliver(row.subject, row.event_id, row.facts)
        _kept_rows().filter(pk__in=[row.pk for row in rows]).delete()
    if rows:
        logger.warning("announcements_flushed: %d announcement(s) delivered late (their process ended)", len(rows))
    return len(rows)


def _deliver(subject: str, event_id: int, facts: dict) -> None:
    for subscriber in list(_subscribers):
        try:
            subscriber(subject, event_id, facts)
        except Exception:  # an announcement is never part of the write
            logger.exception("a subscriber to %s announcements failed", subject)
