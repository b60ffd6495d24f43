"""Tables 卓 and their seats: the game's seats (art. 42), who plays which hand, a table for the API."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch

from tournament.models import (
    Seat,
    SeatResult,
    Table,
)


def table_number(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("number", flat=True).first()


def tables_with_events(table_ids) -> list[Table]:
    return list(Table.objects.select_related("round__event").filter(pk__in=list(table_ids)))


def table_with_event(table_id: int) -> Table | None:
    return Table.objects.select_related("round__event__ruleset").filter(pk=table_id).first()


def table_game_seats(table: Table) -> list[Seat]:
    """The seats of the table's game (art. 42: a player absent before the game is not one), E first."""
    return list(Seat.objects.filter(table=table).playing().select_related("entry__player"))


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("entry__player").order_by("position"))


def seats_playing_hand(game_seats: Sequence[Seat], number: int) -> list[int]:
    """The positions (0.. among the game's seats) that play hand ``number``: art. 42, a player who left
    during the game is not in the hands after the one they left after (三人ないし二人戦)."""
    return [i for i, seat in enumerate(game_seats) if seat.plays_hand(number)]


def table_api(table_id: int) -> Table | None:
    """A table with its event, seats (players) and current results."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return (
        Table.objects.select_related("round__event__ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch(
                "results",
                queryset=SeatResult.objects.current().select_related("seat").order_by("seat__position"),
                to_attr="current_results",
            ),
        )
        .filter(pk=table_id)
        .first()
    )


def tables_event_ids(table_ids) -> list[int]:
    """The events of these tables (none asked: none read)."""
    if not table_ids:
        return []
    return list(Table.objects.filter(pk__in=table_ids).values_list("round__event_id", flat=True).distinct())
