"""The chess clock of a table (art. 38), as last committed."""

from __future__ import annotations

from tournament.models import (
    Table,
    TableClock,
)


def table_clock(table: Table) -> TableClock | None:
    """The table's clock as last committed, without a lock (``None`` before the dealer starts it)."""
    return TableClock.objects.filter(table=table).first()


def table_clocks(tables) -> list[TableClock]:
    return list(TableClock.objects.filter(table__in=list(tables)))
