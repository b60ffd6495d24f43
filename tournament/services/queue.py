"""Celery work the services ask for once their transaction has committed.

Tasks are looked up by their pinned names (``tournament.tasks``), so services never import the task
module: the entry points sit above the services, and queued messages keep working across deploys.
With no broker configured the task runs in-process at commit (the embedded default).
"""

from __future__ import annotations

from collections.abc import Callable

from celery import current_app
from django.db import transaction

STANDINGS_RECOMPUTE = "tournament.standings_recompute"
SEAT_NEXT_ROUND = "tournament.seat_next_round"


def enqueue_on_commit(task_name: str, arguments: Callable[[], tuple]) -> None:
    """Queue ``task_name`` after the commit, with the arguments ``arguments()`` gives at that moment."""
    transaction.on_commit(lambda: current_app.tasks[task_name].delay(*arguments()))
