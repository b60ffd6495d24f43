import os
import socket

from celery import shared_task

from tournament.services.entries import entries_register_imported

from .csv_import import players_import_run
from .models import Player, PlayerImport


@shared_task(name="players.worker_probe")
def worker_probe(token: str) -> dict:
    """Report who ran the task and what it sees in the database: proves a queue round trip end to end."""
    return {
        "token": token,
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "players": Player.objects.count(),
    }


@shared_task(name="players.import_csv", acks_late=True, soft_time_limit=240, time_limit=300)
def import_csv_task(job_id: int) -> dict:
    """Import a CSV file of players with progress (and register them in the event it was uploaded for);
    safe to run twice (a second run finds the job done)."""
    event_id = PlayerImport.objects.filter(pk=job_id).values_list("event_id", flat=True).first()
    register = entries_register_imported(event_id) if event_id else None
    return players_import_run(job_id=job_id, register=register)
