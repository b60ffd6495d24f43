"""The directors' board, read: every table of the round with its progress and what needs a director."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from live.models import RefereeCall, TableAllowance
from tournament.models import Event, HandVersion, Round, SeatResult, Table

BEHIND_SHARE = 0.75  # a table with fewer hands than this share of the round's average is behind pace
PACE_FROM_MINUTES = 10  # pace is judged once the round has run this long


@dataclass
class BoardTable:
    table: Table
    hands: int
    last_label: str
    allowance_minutes: int
    allowance_hands: int
    calls: list[RefereeCall]
    total: int | None  # the confirmed result's final points, summed
    flags: list[str] = field(default_factory=list)
    per_minute: float | None = None  # hands per minute of the round so far


@dataclass
class Board:
    event: Event
    round: Round | None
    tables: list[BoardTable]
    minutes: float | None  # since the round's timer started
    average_hands: float | None

    @property
    def average_per_minute(self) -> float | None:
        return self.average_hands / self.minutes if self.minutes and self.average_hands is not None else None

    ends_at: datetime | None


@dataclass(frozen=True)
class BoardEvents:
    """The events whose board an actor may open: those of today first (running, or today within their dates
    in their own time zone), then the others, newest first."""

    today: list[Event]
    others: list[Event]

    def only(self) -> Event | None:
        """The one event to open without asking: the only one today, else the only one at all."""
        if len(self.today) == 1:
            return self.today[0]
        return self.others[0] if not self.today and len(self.others) == 1 else None


OTHER_EVENTS_SHOWN = 20  # the picker lists at most this many events that are not today's


def board_events(where: Q, *, now: datetime | None = None) -> BoardEvents:
    """The events matching ``where`` (the actor's: ``tournament.access.events_where``), today's first."""
    now = now or timezone.now()
    events = list(Event.objects.filter(where).order_by("-starts_on", "name")[: OTHER_EVENTS_SHOWN * 5])
    today = [event for event in events if _is_today(event, now)]
    others = [event for event in events if event not in today][:OTHER_EVENTS_SHOWN]
    return BoardEvents(today, others)


def _is_today(event: Event, now: datetime) -> bool:
    if event.status == Event.Status.RUNNING:
        return True
    if event.starts_on is None or event.status == Event.Status.FINISHED:
        return False
    try:
        local = timezone.localdate(now, zoneinfo.ZoneInfo(event.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        local = now.date()
    return event.starts_on <= local <= (event.ends_on or event.starts_on)


def board_round(event: Event) -> Round | None:
    """The round the hall is playing: the latest published or playing one."""
    return (
        Round.objects.filter(event=event, status__in=[Round.Status.PUBLISHED, Round.Status.PLAYING])
        .order_by("-number")
        .first()
    )


def open_calls(event: Event) -> list[RefereeCall]:
    return list(
        RefereeCall.objects.filter(table__round__event=event, closed_at__isnull=True)
        .select_related("table__round", "taken_by", "called_by")
        .order_by("called_at")
    )


def call_for(call_id: int) -> RefereeCall | None:
    return RefereeCall.objects.select_related("table__round__event", "taken_by").filter(pk=call_id).first()


def table_calls(table: Table) -> list[RefereeCall]:
    return list(RefereeCall.objects.filter(table=table).select_related("taken_by", "closed_by", "called_by"))


def table_allowances(table: Table) -> list[TableAllowance]:
    return list(TableAllowance.objects.filter(table=table).select_related("given_by", "ruling"))


def board(event: Event, *, now: datetime | None = None) -> Board:
    """The board of ``event``'s current round: one row per table (a constant number of queries)."""
    now = now or timezone.now()
    round_ = board_round(event)
    if round_ is None:
        return Board(event, None, [], None, None, None)
    last_label = (
        HandVersion.objects.in_force().filter(hand__table=OuterRef("pk")).order_by("-hand__number").values("label")[:1]
    )
    tables = list(
        Table.objects.filter(round=round_)
        .annotate(
            last_label=Subquery(last_label),
            allowance_minutes=Sum("allowances__minutes"),
            allowance_hands=Sum("allowances__hands"),
        )
        .order_by("number")
    )
    calls: dict[int, list[RefereeCall]] = {}
    for call in open_calls(event):
        calls.setdefault(call.table_id, []).append(call)
    results = {
        table_id: (total, seats)
        for table_id, total, seats in SeatResult.objects.current()
        .filter(table__round=round_, final_points__isnull=False)
        .values("table_id")
        .annotate(total=Sum("final_points"), seats=Count("pk"))
        .values_list("table_id", "total", "seats")
    }
    started = round_.timer_started_at
    minutes = (now - started).total_seconds() / 60 if started else None
    average = sum(t.running_hands for t in tables) / len(tables) if tables else None
    ends_at = started + timedelta(minutes=event.round_minutes) if started else None
    rows = []
    for table in tables:
        row = BoardTable(
            table=table,
            hands=table.running_hands,
            last_label=table.last_label or "",
            allowance_minutes=table.allowance_minutes or 0,
            allowance_hands=table.allowance_hands or 0,
            calls=calls.get(table.pk, []),
            total=results.get(table.pk, (None, 0))[0],
            per_minute=table.running_hands / minutes if minutes else None,
        )
        row.flags = _flags(row, event, results.get(table.pk, (None, 0))[1], minutes, average, ends_at, now)
        rows.append(row)
    return Board(event, round_, rows, minutes, average, ends_at)


def _flags(row: BoardTable, event: Event, seats: int, minutes, average, ends_at, now) -> list[str]:
    """What needs a director at this table: ``call``, ``behind``, ``totals``, ``overdue``."""
    flags = []
    playing = row.table.status == Table.Status.PLAYING
    if row.calls:
        flags.append("call")
    if (
        playing
        and minutes is not None
        and minutes >= PACE_FROM_MINUTES
        and average
        and row.hands < BEHIND_SHARE * average
    ):
        flags.append("behind")
    if row.total is not None and seats and row.total != event.ruleset.start_points * seats:
        flags.append("totals")
    if playing and ends_at is not None and now > ends_at + timedelta(minutes=row.allowance_minutes):
        flags.append("overdue")
    return flags
