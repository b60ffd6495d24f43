from pathlib import Path

from celery import shared_task
from django.conf import settings

from ops.backups import backup_make
from tournament.models import Event


@shared_task(name="ops.backup", soft_time_limit=1500, time_limit=1800, expires=600)
def backup_scheduled() -> str:
    """Beat's backup, every ``BACKUP_EVERY_SECONDS``: while an event is running (or always, with
    ``BACKUP_WHEN_IDLE``)."""
    if not settings.BACKUP_WHEN_IDLE and not Event.objects.filter(status=Event.Status.RUNNING).exists():
        return "no event running"
    return backup_make(folder=Path(settings.BACKUP_DIR), keep=settings.BACKUP_KEEP).file
