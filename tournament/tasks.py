"""Celery tasks. Their names are pinned, so messages queued before a deploy still find them; each task
runs one service and does nothing else."""

from celery import shared_task
from django.conf import settings
from django.utils.dateparse import parse_datetime

from players.csv_import import PLAYERS_IMPORT, players_import_run
from players.models import PlayerImport
from tournament.services.entries import entries_register_imported
from tournament.services.late import LATE_PLAYERS_MARK, late_players_mark
from tournament.services.seating import SEAT_NEXT_ROUND, seating_job_run
from tournament.services.standings import STANDINGS_RECOMPUTE, standings_recompute


@shared_task(name=STANDINGS_RECOMPUTE, acks_late=True, soft_time_limit=100, time_limit=120)
def standings_recompute_task(event_id: int, requested_at: str | None = None) -> dict:
    """Recompute an event's standings snapshot; a request already covered by a newer snapshot is a no-op."""
    snapshot = standings_recompute(
        event_id=event_id, requested_at=parse_datetime(requested_at) if requested_at else None
    )
    return {"event": event_id, "recomputed": snapshot is not None}


@shared_task(bind=True, name=SEAT_NEXT_ROUND, acks_late=True, soft_time_limit=240, time_limit=300)
def seat_next_round_task(self, job_id: int) -> dict:
    """Seat the job's round; safe to run twice (the second run finds the round and changes nothing). On a
    worker it beats on the job while it runs, so that a job whose worker died is seen to be stale."""
    heartbeat = None if self.request.is_eager else settings.SEATING_HEARTBEAT_SECONDS
    return seating_job_run(job_id=job_id, heartbeat_every=heartbeat)


@shared_task(name=PLAYERS_IMPORT, acks_late=True, soft_time_limit=240, time_limit=300)
def import_csv_task(job_id: int) -> dict:
    """Import a CSV file of players with progress (and register them in the event it was uploaded for);
    safe to run twice (a second run finds the job done). Its name is the players app's, where it was first:
    it is here because it registers in an event."""
    event_id = PlayerImport.objects.filter(pk=job_id).values_list("event_id", flat=True).first()
    register = entries_register_imported(event_id) if event_id else None
    return players_import_run(job_id=job_id, register=register)


@shared_task(name=LATE_PLAYERS_MARK, soft_time_limit=50, time_limit=60, expires=60)
def late_players_mark_task() -> dict:
    """Beat's late players (art. 42): those still not checked in at their table past the deadline are marked
    absent; run twice, it marks once."""
    report = late_players_mark()
    return {"marked": len(report.marked), "left": len(report.left)}
