"""Celery tasks. Their names are pinned, so messages queued before a deploy still find them; each task
runs one service and does nothing else."""

from celery import shared_task
from django.utils.dateparse import parse_datetime

from tournament.services.seating import seating_job_run
from tournament.services.standings import standings_recompute


@shared_task(name="tournament.standings_recompute", acks_late=True, soft_time_limit=100, time_limit=120)
def standings_recompute_task(event_id: int, requested_at: str | None = None) -> dict:
    """Recompute an event's standings snapshot; a request already covered by a newer snapshot is a no-op."""
    snapshot = standings_recompute(
        event_id=event_id, requested_at=parse_datetime(requested_at) if requested_at else None
    )
    return {"event": event_id, "recomputed": snapshot is not None}


@shared_task(name="tournament.seat_next_round", acks_late=True, soft_time_limit=240, time_limit=300)
def seat_next_round_task(job_id: int) -> dict:
    """Seat the job's round; safe to run twice (the second run finds the round and changes nothing)."""
    return seating_job_run(job_id=job_id)
