"""Celery tasks of the seasons app. Their names are pinned (``core/queue.py`` sends them by
name); each runs one service and does nothing else."""

from celery import shared_task

from seasons.services import series_recompute


@shared_task(name="seasons.series_recompute", acks_late=True, soft_time_limit=240, time_limit=300)
def series_recompute_task(series_id: int) -> dict:
    """Compute a series' standings and ratings again from its finished events. Idempotent: the same events
    give the same rows; a series deleted meanwhile is a no-op."""
    series = series_recompute(series_id=series_id)
    return {"series": series_id, "recomputed": series is not None}
