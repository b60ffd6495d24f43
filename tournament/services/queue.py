"""Celery work the services ask for once their transaction has committed.

Tasks are looked up by their pinned names (``tournament.tasks``), so services never import the task
module: the entry points sit above the services, and queued messages keep working across deploys.
With no broker configured the task runs in-process at commit (the embedded default).
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction
from django.utils import timezone

STANDINGS_RECOMPUTE = "tournament.standings_recompute"
SEAT_NEXT_ROUND = "tournament.seat_next_round"


def enqueue_on_commit(task_name: str, *args, commit_time: bool = False) -> None:
    """Queue ``task_name`` with ``args`` after the commit; with ``commit_time`` the time of the commit
    (ISO 8601) is the last argument."""

    def send() -> None:
        stamp = (timezone.now().isoformat(),) if commit_time else ()
        current_app.tasks[task_name].delay(*args, *stamp)

    transaction.on_commit(send)
