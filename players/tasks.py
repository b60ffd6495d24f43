import os
import socket

from celery import shared_task

from .models import Player


@shared_task(name="players.worker_probe")
def worker_probe(token: str) -> dict:
    """Report who ran the task and what it sees in the database: proves a queue round trip end to end."""
    return {
        "token": token,
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "players": Player.objects.count(),
    }
