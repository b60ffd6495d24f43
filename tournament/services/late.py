"""Late players by the clock 遅刻 (art. 42): an event's ``late_absent_minutes`` after a round's announced start, a
seated player not checked in at their table is marked absent before the game, through the absence service (so
the table plays without them and they forfeit, as art. 42 says). Checked in means: the table's first action (a
hand, any version, or its clock started), the player's own link ("I am here"), or the referee seeing them. The
table's referee is warned the minute before and may hold the clock for the table (recorded: who, when).

The marking (``late_players_mark``) is run by beat (``tournament.late_players_mark``) and, on the embedded default,
in-process; it is idempotent: each table is marked under its lock, and a seat marked once is absent, so a
second run marks nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Seat, Table
from tournament.services.checks import require_table_unlocked, table_announce
from tournament.services.common import recorder, require_published
from tournament.services.discipline import seat_mark_absent
from tournament.services.locks import lock_seat, lock_table

LATE_PLAYERS_MARK = "tournament.late_players_mark"  # the task's pinned name (tournament.tasks)


def _require_playing(table: Table, *, field: str) -> None:
    require_table_unlocked(table, field=field)
    require_published(table, field=field)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field=field)


@transaction.atomic
def seat_arrive(*, seat: Seat, how: str, user=None) -> Seat:
    """The player is at their table ("I am here" from their own link, or the referee saw them): never marked
    absent as late. Saying it again changes nothing."""
    if how not in Seat.Arrival.values:
        raise TaikaiError("invalid_arrival", _("checked in by the referee or the player"), field="how")
    table = lock_table(seat.table_id)
    _require_playing(table, field="seat")
    seat = lock_seat(seat.pk)
    if seat.absence != Seat.Absence.PRESENT:
        raise TaikaiError(
            "already_absent",
            _("%(player)s is marked absent: the referee undoes the absence first") % {"player": seat.entry.player},
            field="seat",
        )
    if seat.arrived_at is None:
        seat.arrived_at, seat.arrived_how = timezone.now(), how
        seat.save(update_fields=["arrived_at", "arrived_how"])
    return seat


@transaction.atomic
def table_late_hold(*, table: Table, user=None) -> Table:
    """The referee holds the late players' clock for this table: nobody of it is marked absent by the clock
    (the referee decides). Recorded with who and when; holding again changes nothing."""
    table = lock_table(table.pk)
    _require_playing(table, field="table")
    if table.late_held_at is None:
        table.late_held_at, table.late_held_by = timezone.now(), recorder(user)
        table.save(update_fields=["late_held_at", "late_held_by"])
    return table


@dataclass
class LateReport:
    """What one run of the marking did."""

    marked: list[int] = field(default_factory=list)  # seats marked absent
    left: list[int] = field(default_factory=list)  # seats late but not marked: the table would be under two


def table_late_mark(*, table_id: int, now: datetime | None = None) -> LateReport:
    """Mark the late players of one table absent (art. 42, before the game), under the table's lock: those still
    missing at the deadline, in seat order, while two players at least are left to play."""
    now = now or timezone.now()
    report = LateReport()
    with transaction.atomic():
        table = lock_table(table_id)
        if table.round.checked_at is not None:
            return report
        late = selectors.table_late(table, now=now)
        if not late.due:
            return report
        present = sum(1 for seat in table.seats.all() if seat.absence == Seat.Absence.PRESENT)
        for seat in late.missing:
            if present - 1 < 2:  # a game needs two players: the referee decides about the rest
                report.left.append(seat.pk)
                continue
            seat_mark_absent(seat=seat, during=False)
            Seat.objects.filter(pk=seat.pk).update(late_marked_at=now)
            present -= 1
            report.marked.append(seat.pk)
        if report.marked:
            _announce_table(table)
    return report


def _announce_table(table: Table) -> None:
    """The live pages following the table hear of it (its warning, or its players marked absent)."""
    table_announce(table)


def late_warnings_announce(*, now: datetime) -> list[int]:
    """Announce each table whose warning minute has begun, once (``late_warned_at``): the live pages following it
    show the warning at once. The tables announced (ids)."""
    announced = []
    tables = Table.objects.filter(late_warned_at__isnull=True)
    for table, _late in selectors.tables_late_warnings(tables, now=now):
        with transaction.atomic():
            if Table.objects.filter(pk=table.pk, late_warned_at__isnull=True).update(late_warned_at=now):
                _announce_table(table)
                announced.append(table.pk)
    return announced


def late_players_mark(*, now: datetime | None = None) -> LateReport:
    """Announce the tables whose warning minute has begun, then mark every table's late players absent whose
    deadline has passed (beat's task); one table at a time, each in its own transaction. Run twice, it marks once."""
    now = now or timezone.now()
    report = LateReport()
    late_warnings_announce(now=now)
    for table_id in selectors.tables_late_due(now):
        done = table_late_mark(table_id=table_id, now=now)
        report.marked += done.marked
        report.left += done.left
    return report
