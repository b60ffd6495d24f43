"""The broker queue's own Celery task: its flush (the services' tasks are their apps')."""

from celery import shared_task
from celery.signals import worker_ready

from core.announce import announcements_flush
from core.queue import QUEUE_FLUSH, queued_tasks_flush, queued_tasks_flush_request

ANNOUNCEMENTS_FLUSH = "core.announcements_flush"


@shared_task(name=QUEUE_FLUSH, soft_time_limit=50, time_limit=60, expires=60)
def queued_tasks_flush_task() -> dict:
    """Send the work the broker did not take when it was asked for (Celery beat runs this periodically)."""
    report = queued_tasks_flush()
    return {"sent": report.sent, "rows": report.rows, "waiting": report.waiting, "error": report.error}


@shared_task(name=ANNOUNCEMENTS_FLUSH, soft_time_limit=50, time_limit=60, expires=60)
def announcements_flush_task() -> int:
    """Deliver the announcements a process committed and ended before delivering (Celery beat runs this every
    ``ANNOUNCEMENTS_FLUSH_SECONDS``)."""
    return announcements_flush()


@worker_ready.connect
def queued_tasks_flush_at_worker_start(**_) -> None:
    """A worker that starts (the broker is back, or a new machine) has the queued tasks sent at once."""
    queued_tasks_flush_request()
