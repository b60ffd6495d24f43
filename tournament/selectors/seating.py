"""Seating: the earlier rounds' tables (the seating protocol's history) and a seating job's progress."""

from __future__ import annotations

from tournament.models import (
    Event,
    Seat,
    SeatingJob,
)


def event_seating_history(event: Event, *, before_round: int | None = None) -> list[list[list[int]]]:
    """Every earlier round's tables as entry ids in seat order: the seating protocol's ``history``."""
    seats = Seat.objects.filter(round__event=event)
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
    history: dict[int, dict[int, list[int]]] = {}
    rows = seats.order_by("round__number", "table__number", "position").values_list(
        "round__number", "table__number", "entry_id"
    )
    for round_number, table_number, entry_id in rows:
        history.setdefault(round_number, {}).setdefault(table_number, []).append(entry_id)
    return [list(tables.values()) for _, tables in sorted(history.items())]


def round_seating_tables(round_) -> list[list[int]]:
    """A round's tables as entry ids in seat order East, South, …, table by table (as the engine answers)."""
    tables: dict[int, list[int]] = {}
    rows = (
        Seat.objects.filter(round=round_).order_by("table__number", "position").values_list("table__number", "entry_id")
    )
    for table_number, entry_id in rows:
        tables.setdefault(table_number, []).append(entry_id)
    return [tables[number] for number in sorted(tables)]


def seating_job_for(event_id: int, job_id: int) -> SeatingJob | None:
    return SeatingJob.objects.select_related("event").filter(pk=job_id, event_id=event_id).first()
