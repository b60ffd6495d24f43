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
