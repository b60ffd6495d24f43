"""Rounds 回戦 and their tables: which rounds exist or are published, a round's tables by page, and the
version of a set of tables that names the cached part of a page."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, Sum

from players.reading import search_needle
from tournament.models import (
    SEAT_WIND_CHOICES,
    Event,
    Round,
    RoundGuardOverride,
    Seat,
    SeatResult,
    Table,
)


def event_next_round_number(event: Event) -> int:
    return (Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first() or 0) + 1


def event_unfinished_round_numbers(event: Event) -> list[int]:
    return list(
        Round.objects.filter(event=event).exclude(status=Round.Status.COMPLETED).values_list("number", flat=True)
    )


def event_first_unchecked_round_number(event: Event) -> int | None:
    """The first round past its draft whose results are not checked yet (None: every such round is checked)."""
    return (
        Round.objects.filter(event=event, checked_at__isnull=True)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )


def event_completed_round_count(event: Event) -> int:
    return Round.objects.filter(event=event, status=Round.Status.COMPLETED).count()


def event_round(event: Event, number: int) -> Round | None:
    return Round.objects.filter(event=event, number=number).first()


def event_final_game_number(round_: Round) -> int:
    """Which game of the final (決勝戦) ``round_`` is: 1 for the first final round, 2 for the next, …"""
    return Round.objects.filter(event_id=round_.event_id, is_final=True, number__lte=round_.number).count()


def event_published_round_states(event: Event) -> list[tuple[int, int, str]]:
    """(id, number, status) of each round published or later, by number."""
    rounds = Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("number")
    return list(rounds.values_list("pk", "number", "status"))


def round_open_table_numbers(round_: Round) -> list[int]:
    return list(round_.tables.filter(status=Table.Status.PLAYING).values_list("number", flat=True))


def round_playing_tables(round_: Round) -> list[Table]:
    return list(round_.tables.filter(status=Table.Status.PLAYING).select_related("round__event").order_by("number"))


def round_tables_with_seats(round_: Round) -> list[Table]:
    return list(round_.tables.prefetch_related("seats__entry__player").order_by("number"))


def event_published_round(event: Event, number: int) -> Round | None:
    return Round.objects.filter(event=event, number=number).exclude(status=Round.Status.DRAFT).first()


def event_latest_published_round(event: Event) -> Round | None:
    return Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("-number").first()


def round_tables_page(round_: Round, *, start: int, stop: int) -> list[Table]:
    """Tables ``start``..``stop`` - 1 of the round (in table order) with their seats and current results:
    a page reads the rows it shows."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return list(
        Table.objects.filter(round=round_)
        .order_by("number")[start:stop]
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch("results", queryset=SeatResult.objects.current(), to_attr="current_results"),
        )
    )


def round_tables_page_hands(round_: Round, *, start: int, stop: int) -> int:
    """How many hand writes tables ``start``..``stop`` - 1 of the round have seen: a record, correction or
    void at one of them changes it (their running scores are cached for it). One aggregate over the page's
    table rows."""
    page = Table.objects.filter(round=round_).order_by("number").values("pk")[start:stop]
    return Table.objects.filter(pk__in=page).aggregate(writes=Sum("running_version"))["writes"] or 0


def tables_running_points(tables: list[Table]) -> None:
    """The score of each game in progress after its last recorded hand (provisional until the table's
    result is confirmed), read from the tables' own rows: sets ``running`` on each seat in the game of a
    playing table with hands."""
    for table in tables:
        if table.status != Table.Status.PLAYING or not table.running_hands:
            continue
        seats = [seat for seat in table.seats.all() if seat.in_game]
        for seat, running in zip(seats, table.running_points, strict=False):
            seat.running = running


def round_tables_by_id(round_id: int):
    return Table.objects.filter(round_id=round_id)


def round_tables(round_: Round):
    return Table.objects.filter(round=round_)


@dataclass(frozen=True)
class TablesVersion:
    """What a list of tables shows, summed up by the database in one query. For one set of tables (a
    round's), a confirmed result adds to ``results`` (result versions only grow) and a reopened table takes
    one from ``finished``, so two states of the tables never share a version; ``tables`` and the sum of
    their ids change when the set does (a round published or completed). It names the cached part of a
    page and goes into its ETag."""

    tables: int
    finished: int
    results: int
    ids: int

    def __str__(self) -> str:
        return f"{self.tables}.{self.finished}.{self.results}.{self.ids}"


def tables_version(tables) -> TablesVersion:
    """The ``TablesVersion`` of a queryset of tables (its order and slicing ignored)."""
    counts = tables.order_by().aggregate(
        tables=Count("pk"),
        finished=Count("pk", filter=Q(status=Table.Status.FINISHED)),
        results=Sum("result_version"),
        ids=Sum("pk"),
    )
    return TablesVersion(counts["tables"], counts["finished"], counts["results"] or 0, counts["ids"] or 0)


def round_find_seats(round_: Round, query: str, *, limit: int = 20) -> list[tuple[int, str, str]]:
    """Find your table: (table number, wind, name) of the players whose name or reading (kana or romaji)
    contains ``query``, at most ``limit``: the database matches the players' search keys."""
    needle = search_needle(query)
    if not needle:
        return []
    rows = (
        Seat.objects.filter(round=round_, entry__player__search__contains=needle)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry__player__display_name")[:limit]
    )
    return [(number, str(SEAT_WIND_CHOICES[position][1]), name) for number, position, name in rows]


def event_rounds(event: Event, *, drafts: bool = False) -> list[Round]:
    rounds = Round.objects.filter(event=event).order_by("number")
    return list(rounds if drafts else rounds.exclude(status=Round.Status.DRAFT))


def event_round_any(event: Event, number: int, *, drafts: bool = False) -> Round | None:
    rounds = Round.objects.filter(event=event, number=number)
    return (rounds if drafts else rounds.exclude(status=Round.Status.DRAFT)).first()


def round_tables_full(round_: Round):
    """The round's tables in order with their seats (players) and current results: a queryset the caller
    pages, three queries a page."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return (
        Table.objects.filter(round=round_)
        .select_related("round__event")
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch(
                "results",
                queryset=SeatResult.objects.current().select_related("seat").order_by("seat__position"),
                to_attr="current_results",
            ),
        )
    )


def round_guard_overrides_of(round_: Round) -> list[RoundGuardOverride]:
    """The guards an organizer overrode to seat ``round_``, in order (who, when, which, why)."""
    return list(
        RoundGuardOverride.objects.filter(event_id=round_.event_id, round_number=round_.number).select_related(
            "by", "by_token"
        )
    )
