"""Every row lock the services take, in one order: event → round → table → hand → clock, then the
event's other rows (entry, seat, penalty, seating job). A transaction that needs two of them takes
them in that order, so two writers never wait on each other in a circle.

Each lock is ``SELECT … FOR NO KEY UPDATE OF`` the row itself only (``of=("self",)``): rows joined to
read along (an event's ruleset, a table's round) are not locked, so events sharing a ruleset, or readers
of a table's round, do not queue behind a writer. *No key*: no service changes a primary key, and a
plain ``FOR UPDATE`` would also block the foreign-key checks of rows that only point at the locked row
(PostgreSQL checks them at commit, ``FOR KEY SHARE``). A standings recompute holding its event while a
withdrawal holding its entry registers a waiting player for that event then waited in a circle. Reads
through the selectors take no lock, the clock's
included: a clock read locks (table, then clock) only when it has a seat out of time to flag.
"""

from __future__ import annotations

from tournament.models import Entry, Event, Hand, Penalty, Round, Seat, SeatingJob, Table, TableClock


def _for_update(queryset):
    return queryset.select_for_update(no_key=True, of=("self",))


def lock_event(event_id: int) -> Event:
    return _for_update(Event.objects.select_related("ruleset")).get(pk=event_id)


def lock_round(round_id: int) -> Round:
    return _for_update(Round.objects.select_related("event")).get(pk=round_id)


def lock_table(table_id: int) -> Table:
    return _for_update(Table.objects.select_related("round__event__ruleset")).get(pk=table_id)


def lock_round_tables(round_: Round) -> list[Table]:
    """Every table of a round, in id order (the round's lock is held already): a round's check waits for the
    writes at its tables, and they wait for it."""
    return list(_for_update(Table.objects.filter(round=round_).order_by("pk")))


def lock_hand(table: Table, number: int) -> Hand:
    """The hand's row, created when it is the first version (the table's lock is held already)."""
    hand, _ = Hand.objects.get_or_create(table=table, number=number)
    return _for_update(Hand.objects).get(pk=hand.pk)


def lock_clock(table: Table) -> TableClock | None:
    return _for_update(TableClock.objects).filter(table=table).first()


def lock_entry(entry_id: int) -> Entry:
    return _for_update(Entry.objects.select_related("event", "player")).get(pk=entry_id)


def lock_seat(seat_id: int) -> Seat:
    return _for_update(Seat.objects.select_related("entry__player")).get(pk=seat_id)


def lock_penalty(penalty_id: int) -> Penalty:
    return _for_update(Penalty.objects.select_related("event")).get(pk=penalty_id)


def lock_seating_job(job_id: int) -> SeatingJob:
    return _for_update(SeatingJob.objects).get(pk=job_id)
