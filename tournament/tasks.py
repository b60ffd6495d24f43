from celery import shared_task
from django.utils.dateparse import parse_datetime

from tournament.standings import standings_recompute


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
    from tournament.models import SeatingJob
    from tournament.seating import round_seat_next

    job = SeatingJob.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        return {"job": job_id, "state": "missing"}

    def progress(percent: int, message: str) -> None:
        SeatingJob.objects.filter(pk=job_id).update(
            state=SeatingJob.State.RUNNING, percent=percent, message=message
        )

    try:
        round_ = round_seat_next(event=job.event, round_number=job.round_number, progress=progress)
    except Exception as exc:
        code = getattr(exc, "code", exc.__class__.__name__)
        SeatingJob.objects.filter(pk=job_id).update(state=SeatingJob.State.FAILED, message=f"{code}: {exc}")
        raise
    SeatingJob.objects.filter(pk=job_id).update(
        state=SeatingJob.State.DONE,
        percent=100,
        message=f"round {round_.number}: {round_.tables.count()} tables",
    )
    return {"job": job_id, "state": "done", "round": round_.number}
