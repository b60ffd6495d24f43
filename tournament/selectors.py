"""Reads for the tournament app, with the prefetching the pages need in one place."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Prefetch

from tournament.engine.dealer import next_deal
from tournament.models import Event, HandVersion, Round, Seat, SeatResult, StandingsSnapshot, Table


@dataclass
class HandSheet:
    hands: list[HandVersion]
    running: list[list[int]]  # points per seat after each hand
    deposits: int


def table_hand_sheet(table: Table) -> HandSheet:
    hands = list(
        HandVersion.objects.filter(hand__table=table, version=F("hand__current_version"))
        .select_related("hand", "recorded_by")
        .order_by("hand__number")
    )
    for h in hands:
        h.number = h.hand.number
    players = table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE).count()
    points = [table.round.event.ruleset.start_points] * players
    running = []
    for h in hands:
        points = [p + d for p, d in zip(points, h.deltas, strict=False)]
        running.append(points)
    return HandSheet(hands, running, hands[-1].deposits_out if hands else 0)


def event_public_list():
    return Event.objects.filter(is_public=True).select_related("ruleset").order_by("-starts_on", "name")


def event_get_public(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug, is_public=True).select_related("ruleset").first()


def event_rounds_with_tables(event: Event):
    seats = Seat.objects.select_related("entry__player").order_by("position")
    results = SeatResult.objects.filter(is_current=True)
    return (
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.order_by("number").prefetch_related(
                Prefetch("seats", queryset=seats),
                Prefetch("results", queryset=results, to_attr="current_results"),
            ))
        )
        .order_by("number")
    )  # fmt: skip


def event_standings(event: Event) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(event=event).first()


@dataclass
class StandingsView:
    computed_at: object
    rows: list[dict]  # every row, best first, each with "cells": one [points, advanced] or None per round
    round_numbers: list[int]


_standings_cache: dict[int, StandingsView] = {}
STANDINGS_CACHE_EVENTS = 16


def event_standings_view(event: Event) -> StandingsView | None:
    """The snapshot's rows laid out for the page, parsed once per snapshot and kept in this process.

    A request costs one small query (the snapshot's time) while the snapshot is unchanged; a 10,000-
    player snapshot is several megabytes of JSON, so it is not read and parsed on every page view.
    """
    meta = StandingsSnapshot.objects.filter(event=event).only("computed_at").first()
    if meta is None:
        return None
    cached = _standings_cache.get(event.pk)
    if cached is not None and cached.computed_at == meta.computed_at:
        return cached
    snapshot = StandingsSnapshot.objects.filter(pk=meta.pk).values_list("rows", "computed_at").first()
    if snapshot is None:
        return None
    rows, computed_at = snapshot
    round_numbers = sorted({game[0] for row in rows for game in row["history"]})
    column = {number: i for i, number in enumerate(round_numbers)}
    for row in rows:
        cells = [None] * len(round_numbers)
        for number, points, advanced in row["history"]:
            cells[column[number]] = (points, advanced)
        row["cells"] = cells
    view = StandingsView(computed_at, rows, round_numbers)
    if len(_standings_cache) >= STANDINGS_CACHE_EVENTS:
        _standings_cache.pop(next(iter(_standings_cache)))
    _standings_cache[event.pk] = view
    return view


def player_results_in_event(event: Event, entry_id: int):
    return (
        SeatResult.objects.filter(entry_id=entry_id, table__round__event=event, is_current=True)
        .select_related("table__round")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("entry__player")))
        .order_by("table__round__number")
    )


def event_hand_versions(event: Event):
    """Every version of every hand (corrections included), in play order."""
    return (
        HandVersion.objects.filter(hand__table__round__event=event)
        .select_related("hand__table__round", "recorded_by")
        .order_by("hand__table__round__number", "hand__table__number", "hand__number", "version")
    )


def next_hand_defaults(sheet: HandSheet, *, players: int) -> dict:
    """Dealer and honba the next hand is expected to have, from the last recorded hand."""
    if not sheet.hands:
        return {"dealer_position": 0, "honba": 0}
    last = sheet.hands[-1]
    deal = next_deal(
        players=players, dealer=last.dealer_position, honba=last.honba, outcome=last.outcome,
        winners=tuple(w["winner"] for w in last.wins), tenpai=tuple(last.tenpai_positions),
    )  # fmt: skip
    return {"dealer_position": deal.dealer, "honba": deal.honba}


def overtime_seasons_played(table: Table, *, before_number: int | None = None) -> int:
    """Overtime hands 延長戦 played at the table (before hand ``before_number``, if given). A hand
    stopped and replayed (art. 36 ③) is played again in the same season, so it does not count."""
    hands = HandVersion.objects.filter(hand__table=table, version=F("hand__current_version"), overtime=True)
    if before_number is not None:
        hands = hands.filter(hand__number__lt=before_number)
    return hands.exclude(outcome=HandVersion.Outcome.REPLAYED).count()
