"""Late players by the clock (art. 42): when a round's late players are marked absent, which seats of a table are
still not checked in, and whether its referee is being warned (the minute before)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from tournament.models import Event, Hand, Round, Seat, Table, TableClock

WARNING_SECONDS = 60  # the referee is warned this long before the late players are marked absent


def round_late_deadline(round_: Round, event: Event) -> datetime | None:
    """When the round's late players are marked absent: its announced start plus the event's minutes (None: the
    event has no such setting, or the round no start)."""
    if event.late_absent_minutes is None or round_.starts_at is None:
        return None
    return round_.starts_at + timedelta(minutes=event.late_absent_minutes)


def table_started(table: Table) -> bool:
    """The table's first action is recorded (a hand, any version, or its clock started): everyone seated came."""
    return Hand.objects.filter(table=table).exists() or TableClock.objects.filter(table=table).exists()


@dataclass
class TableLate:
    """Where a table stands with the late players' clock."""

    deadline: datetime | None = None
    missing: list[Seat] = field(default_factory=list)  # seated, present, not checked in
    marked: list[Seat] = field(default_factory=list)  # marked absent by the clock
    held: bool = False
    warning: bool = False  # the minute before the deadline, with someone missing
    due: bool = False  # the deadline passed, with someone missing and no hold

    @property
    def active(self) -> bool:
        return self.deadline is not None


def table_late(table: Table, *, now: datetime, seats: list[Seat] | None = None) -> TableLate:
    """The table's late players' clock at ``now``: the deadline, who is missing, the warning."""
    round_ = table.round
    deadline = round_late_deadline(round_, round_.event)
    if deadline is None or round_.status not in (Round.Status.PUBLISHED, Round.Status.PLAYING):
        return TableLate()
    seats = list(seats if seats is not None else table.seats.select_related("entry__player").order_by("position"))
    marked = [seat for seat in seats if seat.late_marked_at is not None]
    if table.status != Table.Status.PLAYING or table_started(table):
        return TableLate(deadline=deadline, marked=marked, held=table.late_held_at is not None)
    missing = [seat for seat in seats if seat.absence == Seat.Absence.PRESENT and seat.arrived_at is None]
    held = table.late_held_at is not None
    return TableLate(
        deadline=deadline,
        missing=missing,
        marked=marked,
        held=held,
        warning=bool(missing) and not held and deadline - timedelta(seconds=WARNING_SECONDS) <= now < deadline,
        due=bool(missing) and not held and now >= deadline,
    )


def tables_late_due(now: datetime) -> list[int]:
    """The tables whose late players are due to be marked absent at ``now`` (ids): rounds in play, not checked,
    past their deadline; tables playing, not held."""
    rounds = Round.objects.filter(
        status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING),
        starts_at__isnull=False,
        checked_at__isnull=True,
        event__late_absent_minutes__isnull=False,
    ).select_related("event")
    due_rounds = [r.pk for r in rounds if round_late_deadline(r, r.event) <= now]
    return list(
        Table.objects.filter(round_id__in=due_rounds, status=Table.Status.PLAYING, late_held_at__isnull=True)
        .filter(seats__absence=Seat.Absence.PRESENT, seats__arrived_at__isnull=True)
        .exclude(hands__isnull=False)
        .exclude(clock__isnull=False)
        .distinct()
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def tables_late_warnings(tables, *, now: datetime, limit: int = 50) -> list[tuple[Table, TableLate]]:
    """Of ``tables`` (a query of tables), those whose referee is warned now (the minute before their late players
    are marked absent, or past it while the marking runs), with where each stands."""
    candidates = (
        tables.filter(
            status=Table.Status.PLAYING,
            round__status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING),
            round__starts_at__isnull=False,
            round__event__late_absent_minutes__isnull=False,
            late_held_at__isnull=True,
        )
        .filter(seats__absence=Seat.Absence.PRESENT, seats__arrived_at__isnull=True)
        .select_related("round__event")
        .distinct()
    )
    warned = []
    for table in candidates[: limit * 4]:
        deadline = round_late_deadline(table.round, table.round.event)
        if now < deadline - timedelta(seconds=WARNING_SECONDS):
            continue
        late = table_late(table, now=now)
        if late.warning or late.due:
            warned.append((table, late))
        if len(warned) >= limit:
            break
    return warned


def entry_seat_to_check_in(entry) -> Seat | None:
    """The player's seat to check in at: in the latest round in play with an announced start, present, not
    checked in yet, at a table not started (the player's page offers it where the event has the late clock)."""
    seat = (
        Seat.objects.filter(
            entry=entry,
            round__status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING),
            round__starts_at__isnull=False,
            round__checked_at__isnull=True,
        )
        .select_related("table__round__event", "entry__player")
        .order_by("-round__number")
        .first()
    )
    if (
        seat is None
        or seat.absence != Seat.Absence.PRESENT
        or seat.arrived_at is not None
        or seat.table.status != Table.Status.PLAYING
        or table_started(seat.table)
    ):
        return None
    return seat
