"""Small steps every service takes alike."""

from __future__ import annotations


def recorder(user):
    """The user a record names as its author: nobody for an anonymous caller (a simulation, a task)."""
    return user if getattr(user, "is_authenticated", False) else None


def status_set(row, status: str) -> None:
    """Move a locked row (event, round, table) to ``status``, writing that column only."""
    row.status = status
    row.save(update_fields=["status"])
