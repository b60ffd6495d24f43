"""The event's standings as last computed: the snapshot's header and its rows, read a slice at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from players.reading import search_needle
from tournament.models import (
    Event,
    StandingsRow,
    StandingsSnapshot,
)


def event_standings(event: Event) -> StandingsSnapshot | None:
    """The standings' header (when computed, the round columns, the row count); the rows are read apart."""
    return StandingsSnapshot.objects.filter(event=event).first()


def event_standings_computed_at(event_id: int):
    return StandingsSnapshot.objects.filter(event_id=event_id).values_list("computed_at", flat=True).first()


def event_standings_rows(event: Event):
    """Every standings row, best first (the CSV export streams them)."""
    return StandingsRow.objects.filter(event=event).select_related("entry").order_by("position")


class StandingsRows(Sequence):
    """A snapshot's standings rows, or those a search matched, read from the database a slice at a time:
    a page of 100 rows is one query of 100 rows, by position, whatever the size of the field. Each row
    read gets ``round_cells``: one (game points, advanced) or None per round column."""

    def __init__(self, snapshot: StandingsSnapshot, needle: str = ""):
        self.snapshot, self.needle = snapshot, needle
        self.rows = StandingsRow.objects.filter(event_id=snapshot.event_id)
        if needle:
            self.rows = self.rows.filter(search__contains=needle)
        self._count = None if needle else snapshot.row_count

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.rows.count()
        return self._count

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise ValueError("standings rows are read in runs")
        if stop <= start:
            return []
        rows = self.rows.order_by("position")
        rows = rows[start:stop] if self.needle else rows.filter(position__gte=start, position__lt=stop)
        rows = list(rows)
        for row in rows:
            row.round_cells = row.cells(self.snapshot.round_numbers)
        return rows


@dataclass
class StandingsView:
    computed_at: object
    rows: StandingsRows  # best first
    round_numbers: list[int]


def standings_view(snapshot: StandingsSnapshot, *, query: str = "") -> StandingsView:
    """The standings as the page shows them: all rows, or those whose name, reading (kana or romaji) or club
    contains ``query``; read one slice at a time (one query each, and a count for a search)."""
    return StandingsView(snapshot.computed_at, StandingsRows(snapshot, search_needle(query)), snapshot.round_numbers)


def event_standings_count(event: Event, at_most: int) -> int:
    """How many standings rows there are, counting no further than ``at_most``."""
    return StandingsRow.objects.filter(event=event, position__lt=at_most).count()


def event_standings_slice(event: Event, start: int, stop: int) -> list[StandingsRow]:
    """The standings rows from position ``start`` to ``stop`` (one query of at most ``stop - start`` rows)."""
    return list(StandingsRow.objects.filter(event=event, position__gte=start, position__lt=stop).order_by("position"))


def event_standings_top(event: Event, count: int) -> list[StandingsRow]:
    """The first ``count`` rows of the standings (by position: one query of ``count`` rows)."""
    return list(StandingsRow.objects.filter(event=event, position__lt=count).order_by("position"))


def event_standings_points(event: Event) -> list[tuple[int, str, list, str]]:
    """(entry id, total points, history, name) of each row of the event's published standings."""
    return list(StandingsRow.objects.filter(event=event).values_list("entry_id", "total_points", "history", "name"))
