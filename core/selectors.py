"""Reads of the core app: the work waiting for the broker (the queued tasks)."""

from __future__ import annotations

from django.utils import timezone

from core.models import QueuedTask


def queued_tasks_backlog() -> dict:
    """How much queued work the broker has not taken yet, and since when."""
    rows = QueuedTask.objects.order_by("created_at")
    oldest = rows.values_list("created_at", flat=True).first()
    failing = rows.filter(attempts__gt=0).order_by("-last_attempt_at").first()
    return {
        "waiting": rows.count(),
        "oldest_seconds": round((timezone.now() - oldest).total_seconds()) if oldest else None,
        "last_error": failing.last_error if failing else "",
    }


def queued_task_waiting_for(task_name: str, *args) -> QueuedTask | None:
    """The queued task ``task_name`` with ``args`` a send failed for (the broker did not take it)."""
    return QueuedTask.objects.filter(task=task_name, args=list(args), attempts__gt=0).first()
