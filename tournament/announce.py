"""What the tournament announces after a write commits, for the apps built on it to react (``live`` pushes it
to the pages). The one after-commit hook of STYLE.md, "Growing the house": ``tournament`` never imports
those apps; they subscribe here.

A service calls ``announce(subject, event_id, **facts)`` inside its transaction; the subscribers are called
once the transaction commits (never for a write rolled back), in the order they subscribed. A subscriber
that fails is logged and the others still run: an announcement is never part of the write.

The subjects and their facts (all JSON values, nothing a public page of the event does not show):

* ``hand``: ``table`` (id), ``table_number``, ``number``, ``version``, ``label`` (東1局 / East 1, 0 honba)
  — a hand recorded, corrected or voided;
* ``table``: ``table``, ``table_number``, ``status``, ``result_version`` — a result confirmed, a table
  reopened;
* ``standings``: ``computed_at`` — the standings were computed again;
* ``seating``: ``round`` (number) — a round's seating was published;
* ``clock``: ``table``, ``table_number``, ``state`` — a clock started, pressed, paused, resumed, flagged or
  stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

logger = logging.getLogger(__name__)

SUBJECTS = frozenset({"hand", "table", "standings", "seating", "clock", "checkin"})  # checkin: registration's

Subscriber = Callable[[str, int, dict], None]
_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> None:
    """Call ``subscriber(subject, event_id, facts)`` after each announcement commits (once per subscriber)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def unsubscribe(subscriber: Subscriber) -> None:
    if subscriber in _subscribers:
        _subscribers.remove(subscriber)


def announce(subject: str, event_id: int, **facts) -> None:
    """Tell the subscribers about ``subject`` in event ``event_id`` once the current transaction commits."""
    if subject not in SUBJECTS:
        raise ValueError(f"unknown subject {subject!r}")
    if _subscribers:
        transaction.on_commit(lambda: _deliver(subject, event_id, facts))


def _deliver(subject: str, event_id: int, facts: dict) -> None:
    for subscriber in list(_subscribers):
        try:
            subscriber(subject, event_id, facts)
        except Exception:  # an announcement is never part of the write
            logger.exception("a subscriber to %s announcements failed", subject)
