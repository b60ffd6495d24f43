"""Seat an event's next round with the pairing engine: build the protocol request from the database,
run the engine, write the round and all its tables in one transaction (idempotent per round number)."""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable

from django.db import IntegrityError, transaction

from tournament.engine.pairing.protocol import seat_round
from tournament.errors import ServiceError
from tournament.models import Entry, Event, Round, Seat, SeatingJob
from tournament.services import round_create
from tournament.standings import standings_rows

Progress = Callable[[int, str], None]


def next_round_number(event: Event) -> int:
    return (event.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1


def seating_request_for(event: Event, *, round_number: int, time_limit_s: float = 4.0) -> dict:
    """The ``shared/seating-protocol.md`` request for ``round_number`` of ``event``."""
    entries = list(Entry.objects.filter(event=event).order_by("id").values_list("id", "status"))
    history = []
    seats = Seat.objects.filter(round__event=event, round__number__lt=round_number).order_by(
        "round__number", "table__number", "position"
    )
    current_round = current_table = None
    for round_no, table_id, entry_id in seats.values_list("round__number", "table_id", "entry_id"):
        if round_no != current_round:
            history.append([])
            current_round, current_table = round_no, None
        if table_id != current_table:
            history[-1].append([])
            current_table = table_id
        history[-1][-1].append(entry_id)
    standings = [row["entry"] for row in standings_rows(event)] if history else []
    mode = event.seating_method if (standings or event.seating_method != "swiss") else "random"
    request = {
        "players": [entry_id for entry_id, _ in entries],
        "history": history,
        "standings": standings,
        "absent": [entry_id for entry_id, status in entries if status != Entry.Status.ACTIVE],
        "table_size": event.table_size,
        "mode": mode,
        "remainder": event.seating_remainder,
        "round": round_number,
        "total_rounds": max(event.planned_rounds, round_number),
        "seed": zlib.crc32(f"{event.slug}:{round_number}".encode()),
        "time_limit_s": time_limit_s,
    }
    if mode == "interval":
        request["step"] = max(1, len(request["players"]) // event.table_size)
    return request


def round_seat_next(*, event: Event, round_number: int, progress: Progress | None = None) -> Round:
    """Seat ``round_number`` (the next round) as a draft with its quality report.

    Idempotent: if that round exists already, it is returned unchanged. The engine runs outside the
    transaction; the round and its tables are written in one transaction, so a crash leaves nothing.
    """
    report = progress or (lambda percent, message: None)
    existing = Round.objects.filter(event=event, number=round_number).first()
    if existing is not None:
        return existing
    if round_number != next_round_number(event):
        raise ServiceError(
            "not_the_next_round", f"the next round of {event} is {next_round_number(event)}", field="round"
        )
    report(10, "reading standings and history")
    request = seating_request_for(event, round_number=round_number)
    report(30, f"seating {len(request['players']) - len(request['absent'])} players")
    started = time.monotonic()
    response = seat_round(request)
    if "error" in response:
        raise ServiceError(response["error"]["code"], response["error"]["message"], field="seating")
    report(80, "writing the round")
    quality = response["report"] | {"byes": response["byes"], "mode": request["mode"],
                                    "seconds": round(time.monotonic() - started, 3)}  # fmt: skip
    try:
        with transaction.atomic():
            Event.objects.select_for_update().get(pk=event.pk)  # serialise with other seatings of the event
            existing = Round.objects.filter(event=event, number=round_number).first()
            if existing is not None:
                return existing
            round_ = round_create(
                event=event, tables=response["tables"], report=quality, status=Round.Status.DRAFT
            )
    except IntegrityError:  # another run wrote the same round first
        return Round.objects.get(event=event, number=round_number)
    report(100, "done")
    return round_


def seating_job_request(*, event: Event, user=None) -> SeatingJob:
    """Ask for the next round's seating; a second request for the same round returns the same job."""
    from tournament.tasks import seat_next_round_task

    round_number = next_round_number(event)
    if event.rounds.exclude(status=Round.Status.COMPLETED).exists():
        raise ServiceError(
            "round_in_progress", "complete the current round before seating the next", field="event"
        )
    with transaction.atomic():
        job, created = SeatingJob.objects.get_or_create(
            event=event, round_number=round_number,
            defaults={"requested_by": user if getattr(user, "is_authenticated", False) else None},
        )  # fmt: skip
        if not created and job.state == SeatingJob.State.FAILED:
            SeatingJob.objects.filter(pk=job.pk).update(state=SeatingJob.State.QUEUED, percent=0, message="")
            created = True
        if created:
            transaction.on_commit(lambda: seat_next_round_task.delay(job.pk))
    return job
