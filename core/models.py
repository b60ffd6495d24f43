from django.db import models


class QueuedTask(models.Model):
    """Celery work a service asked for, written in the service's own transaction (a queued task): sent to
    the broker after the commit and deleted once the broker has it. A row that stays was not taken (the
    broker was down or unreachable); ``core.queue.queued_tasks_flush`` sends it when the broker is back.

    The table keeps the name it had in the tournament app, where the model was first: no data moved."""

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    commit_time = models.BooleanField(default=False, help_text="the time it is sent is its last argument")
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        db_table = "tournament_queuedtask"
        ordering = ["id"]
        indexes = [models.Index(fields=["created_at"], name="tournament__created_daec40_idx")]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
