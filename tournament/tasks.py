"""Celery tasks. Their names are pinned, so messages queued before a deploy still find them; each task
runs one service and does nothing else."""

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.utils.dateparse import parse_datetime

from tournament.services.queue import outbox_flush, outbox_flush_request
from tournament.services.seating import seating_job_run
from tournament.services.standings import standings_recompute


@shared_task(name="tournament.standings_recompute", acks_late=True, soft_time_limit=100, time_limit=120)
def standings_recompute_task(event_id: int, requested_at: str | None = None) -> dict:
    """Recompute an event's standings snapshot; a request already covered by a newer snapshot is a no-op."""
    snapshot = standings_recompute(
        event_id=event_id, requested_at=parse_datetime(requested_at) if requested_at else None
    )
    return {"event": event_id, "recomputed": snapshot is not None}


@shared_task(bind=True, name="tournament.seat_next_round", acks_late=True, soft_time_limit=240, time_limit=300)
def seat_next_round_task(self, job_id: int) -> dict:
    """Seat the job's round; safe to run twice (the second run finds the round and changes nothing). On a
    worker it beats on the job while it runs, so that a job whose worker died is seen to be stale."""
    heartbeat = None if self.request.is_eager else settings.SEATING_HEARTBEAT_SECONDS
    return seating_job_run(job_id=job_id, heartbeat_every=heartbeat)


@shared_task(name="tournament.outbox_flush", soft_time_limit=50, time_limit=60, expires=60)
def outbox_flush_task() -> dict:
    """Send the work the broker did not take when it was asked for (Celery beat runs this periodically)."""
    report = outbox_flush()
    return {"sent": report.sent, "rows": report.rows, "waiting": report.waiting, "error": report.error}


@worker_ready.connect
def outbox_flush_at_worker_start(**_) -> None:
    """A worker that starts (the broker is back, or a new machine) has the outbox sent at once."""
    outbox_flush_request()
