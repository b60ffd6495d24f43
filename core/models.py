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


class Announcement(models.Model):
    """An announcement (``core.announce``) written in its write's own transaction: delivered to the
    subscribers once the transaction commits, then deleted. A row that stays was committed by a process that
    ended before delivering it (killed, or its machine lost between the commit and the delivery);
    ``core.announce.announcements_flush`` delivers it once it is ``ANNOUNCEMENTS_GRACE_SECONDS`` old."""

    subject = models.CharField(max_length=50)
    event_id = models.BigIntegerField()
    facts = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.subject} of event {self.event_id}"
