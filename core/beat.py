"""Beat in-process, for the embedded default (no broker, no ``celery beat``): the entries of
``CELERY_BEAT_SCHEDULE`` that ``IN_PROCESS_BEAT_ENTRIES`` names run in a daemon thread of the serving process, each
at its own interval, as beat would send them. Started by ``CoreConfig.ready`` when ``IN_PROCESS_BEAT`` is set;
every such task is idempotent, so two processes running it (the autoreloader's) change nothing."""

from __future__ import annotations

import logging
import threading
import time

from celery import current_app
from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)
_started = threading.Event()


def beat_entries() -> list[tuple[str, float]]:
    """The tasks to run in-process, with their interval in seconds."""
    schedule = settings.CELERY_BEAT_SCHEDULE
    return [
        (schedule[name]["task"], float(schedule[name]["schedule"]))
        for name in settings.IN_PROCESS_BEAT_ENTRIES
        if name in schedule
    ]


def beat_tick(entries: list[tuple[str, float]], last: dict[str, float], now: float) -> list[str]:
    """Run each task whose interval has passed since it last ran (at ``now``, monotonic seconds); the names run."""
    ran = []
    for task, every in entries:
        if now - last.get(task, now - every) < every:
            continue
        last[task] = now
        try:
            current_app.tasks[task].apply()
        except Exception:  # a failed run is logged; the next tick tries again
            log.exception("in-process beat: %s failed", task)
        ran.append(task)
    return ran


def _run(entries: list[tuple[str, float]]) -> None:
    last: dict[str, float] = {task: time.monotonic() for task, _ in entries}  # first run after one interval
    step = min(every for _, every in entries)
    while True:
        time.sleep(step)
        try:
            beat_tick(entries, last, time.monotonic())
        finally:
            connection.close()


def beat_start() -> bool:
    """Start the in-process beat once per process (when there is something to run)."""
    entries = beat_entries()
    if not entries or _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_run, args=(entries,), name="in-process-beat", daemon=True).start()
    return True
