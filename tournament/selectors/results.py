"""Table results: each seat's result in force and every version of it, and the event's results as
the standings and the exports read them."""

from __future__ import annotations

from django.db.models import CharField
from django.db.models.functions import Cast

from tournament.models import (
    Event,
    SeatResult,
    Table,
)


def table_results_in_force(table: Table) -> dict[int, SeatResult]:
    """The table's result in force, by seat id."""
    return {row.seat_id: row for row in SeatResult.objects.filter(table=table, is_current=True)}


def table_results_all_versions(table: Table):
    return (
        SeatResult.objects.filter(table=table)
        .select_related("entry__player", "seat")
        .order_by("-version", "seat__position")
    )


def event_results_in_force_text(event: Event):
    """(entry id, round number, game points as stored text, advanced) of every current result. The
    text is parsed by the caller: 100,000 results read without a converter per value."""
    return (
        SeatResult.objects.current()
        .filter(table__round__event=event)
        .annotate(points_text=Cast("game_points", CharField()))
        .values_list("entry_id", "table__round__number", "points_text", "advanced")
    )


def event_entry_final_points(event: Event) -> dict[int, int]:
    """Entry id → the sum of the final points of their current results (a table score, e.g. for a
    ranking body's results file)."""
    totals: dict[int, int] = {}
    rows = SeatResult.objects.current().filter(table__round__event=event).values_list("entry_id", "final_points")
    for entry_id, points in rows:
        totals[entry_id] = totals.get(entry_id, 0) + (points or 0)
    return totals
