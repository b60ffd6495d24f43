"""Celery work kept in the database until the broker has it."""

from __future__ import annotations

from django.db import models


class QueuedTask(models.Model):
    """Celery work a service asked for, written in the service's own transaction (an outbox): sent to the
    broker after the commit and deleted once the broker has it. A row that stays was not taken (the broker
    was down or unreachable); ``tournament.services.queue.outbox_flush`` sends it when the broker is back."""

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    commit_time = models.BooleanField(default=False, help_text="the time it is sent is its last argument")
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
