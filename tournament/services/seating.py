"""Seating an event's next round with the pairing engine: the ``../shared/seating-protocol.md`` request
built from the database, the engine run outside any transaction, and the round with all its tables
written in one (idempotent per round number). Organizers ask for it as a job that a Celery worker runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import IntegrityError, transaction

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.pairing.protocol import seat_round
from tournament.models import Entry, Event, Round, SeatingJob
from tournament.options import seating_settings
from tournament.services.common import recorder
from tournament.services.locks import lock_event
from tournament.services.queue import SEAT_NEXT_ROUND, enqueue_on_commit
from tournament.services.rounds import round_create
from tournament.services.standings import standings_rows

Progress = Callable[[int, str], None]


def seating_request_for(
    event: Event, *, round_number: int, seed: int | None = None, time_limit_s: float | None = None
) -> dict:
    """The seating request for ``round_number`` of ``event``: every entry, the earlier rounds' tables,
    the standings order (Swiss), who is not to be seated, and the event's seating settings."""
    entries = selectors.event_entry_statuses(event)
    history = selectors.event_seating_history(event, before_round=round_number)
    standings = [row["entry"] for row in standings_rows(event)] if history else []
    request = {
        "players": [entry_id for entry_id, _ in entries],
        "history": history,
        "standings": standings,
        "absent": [entry_id for entry_id, status in entries if status != Entry.Status.ACTIVE],
        **seating_settings(event, round_number=round_number, swiss_ready=bool(standings), seed=seed,
                           time_limit_s=time_limit_s),
    }  # fmt: skip
    if request["mode"] == "interval":
        request["step"] = max(1, len(request["players"]) // event.table_size)
    return request


def seating_from_engine(request: dict) -> dict:
    """The engine's answer to a seating request; a refusal is a ``TaikaiError`` with its code."""
    response = seat_round(request)
    if "error" in response:
        raise TaikaiError(response["error"]["code"], response["error"]["message"], field="seating")
    return response


def round_seat_next(*, event: Event, round_number: int, progress: Progress | None = None) -> Round:
    """Seat ``round_number`` (the next round) as a draft with its quality report.

    Idempotent: if that round exists already, it is returned unchanged. The engine runs outside the
    transaction; the round and its tables are written in one transaction, so a crash leaves nothing.
    """
    report = progress or (lambda percent, message: None)
    existing = selectors.event_round(event, round_number)
    if existing is not None:
        return existing
    next_number = selectors.event_next_round_number(event)
    if round_number != next_number:
        raise TaikaiError("not_the_next_round", f"the next round of {event} is {next_number}", field="round")
    report(10, "reading standings and history")
    request = seating_request_for(event, round_number=round_number)
    report(30, f"seating {len(request['players']) - len(request['absent'])} players")
    started = time.monotonic()
    response = seating_from_engine(request)
    report(80, "writing the round")
    quality = response["report"] | {"byes": response["byes"], "mode": request["mode"],
                                    "seconds": round(time.monotonic() - started, 3)}  # fmt: skip
    try:
        with transaction.atomic():
            lock_event(event.pk)  # serialise with other seatings of the event
            existing = selectors.event_round(event, round_number)
            if existing is not None:
                return existing
            round_ = round_create(
                event=event, tables=response["tables"], report=quality, status=Round.Status.DRAFT
            )
    except IntegrityError:  # another run wrote the same round first
        return selectors.event_round(event, round_number)
    report(100, "done")
    return round_


def seating_job_request(*, event: Event, user=None) -> SeatingJob:
    """Ask for the next round's seating; a second request for the same round returns the same job."""
    round_number = selectors.event_next_round_number(event)
    if selectors.event_unfinished_round_numbers(event):
        raise TaikaiError(
            "round_in_progress", "complete the current round before seating the next", field="event"
        )
    with transaction.atomic():
        job, created = SeatingJob.objects.get_or_create(
            event=event, round_number=round_number,
            defaults={"requested_by": recorder(user)},
        )  # fmt: skip
        if not created and job.state == SeatingJob.State.FAILED:
            SeatingJob.objects.filter(pk=job.pk).update(state=SeatingJob.State.QUEUED, percent=0, message="")
            created = True
        if created:
            enqueue_on_commit(SEAT_NEXT_ROUND, job.pk)
    return job


def seating_job_run(*, job_id: int) -> dict:
    """Run a seating job (the Celery task's body): its progress and outcome are written on the job.
    Safe to run twice: the second run finds the round and changes nothing."""
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
    tables = round_.tables.count()
    SeatingJob.objects.filter(pk=job_id).update(
        state=SeatingJob.State.DONE, percent=100, message=f"round {round_.number}: {tables} tables"
    )
    return {"job": job_id, "state": "done", "round": round_.number}
