"""The row locks of an event's play, in one order: event → round → table → hand → clock, then the
event's other rows (entry, seat, penalty, seating job). A transaction that needs two of them takes
them in that order, so two writers never wait on each other in a circle.

The other row locks (``select_for_update``) are taken by the service that writes the row, not here: rows
outside an event's play (a role, a token, a player, the outbox), rows of the apps built on the tournament or
below it, and two of the order above that ask for their rows with a filter of their own:

* in ``tournament/services``: ``seating`` (a seating draft's round, only while a draft, after its event; two
  seats of a draft swapped, after their round), ``roles`` (a role revoked, after its event; a table card's key opened or
  revoked), ``tokens`` (an API token revoked), ``entries`` (a player linked to an account), ``queue`` (the
  outbox's rows, ``skip_locked``: two flushes share the rows rather than wait);
* in the apps built on the tournament, their own rows: ``registration`` (an event's registration, a message,
  a player's details), ``profiles`` (the players merged, in id order, then their entries; a merge undone),
  ``gamelogs`` (a disagreement), ``seasons`` (a series), ``live`` (a referee call);
* in the apps below it, which cannot import this module: ``players`` (a CSV import's job), ``accounts`` (a
  sign-in code).

Each lock here is ``SELECT … FOR NO KEY UPDATE OF`` the row itself only (``of=("self",)``): rows joined to
read along (an event's ruleset, a table's round) are not locked, so events sharing a ruleset, or readers
of a table's round, do not queue behind a writer. *No key*: no service changes a primary key, and a
plain ``FOR UPDATE`` would also block the foreign-key checks of rows that only point at the locked row
(PostgreSQL checks them at commit, ``FOR KEY SHARE``). A standings recompute holding its event while a
withdrawal holding its entry registers a waiting player for that event then waited in a circle. Reads
through the selectors take no lock, the clock's
included: a clock read locks (table, then clock) only when it has a seat out of time to flag.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from core.prepared import PreparedRead
from scoring.models import Ruleset
from tournament.models import Entry, Event, Hand, Penalty, Round, Seat, SeatingJob, Table, TableClock

# Ruleset id → the row as first read, while a caller reads each ruleset once (``rulesets_read_once``).
_rulesets_held: ContextVar[dict[int, Ruleset] | None] = ContextVar("rulesets_held", default=None)


def _for_update(queryset):
    return queryset.select_for_update(no_key=True, of=("self",))


def lock_event(event_id: int) -> Event:
    return _for_update(Event.objects.select_related("ruleset")).get(pk=event_id)


def lock_round(round_id: int) -> Round:
    return _for_update(Round.objects.select_related("event")).get(pk=round_id)


# The locks a hand write takes every time, compiled once (``core.prepared``).
_table_locked = PreparedRead(
    lambda table_id: _for_update(Table.objects.select_related("round__event__ruleset")).filter(pk=table_id)
)
_table_locked_ruleset_held = PreparedRead(
    lambda table_id: _for_update(Table.objects.select_related("round__event")).filter(pk=table_id)
)
_hand_locked = PreparedRead(lambda table_id, number: _for_update(Hand.objects).filter(table_id=table_id, number=number))
_clock_locked = PreparedRead(lambda table_id: _for_update(TableClock.objects).filter(table_id=table_id))


def lock_table(table_id: int) -> Table:
    """The table, locked, read with its round, event and ruleset (inside ``rulesets_read_once``, the ruleset as
    first read there)."""
    held = _rulesets_held.get()
    if held is None:
        return _table_locked.get(table_id)
    table = _table_locked_ruleset_held.get(table_id)
    event = table.round.event
    if event.ruleset_id not in held:
        held[event.ruleset_id] = Ruleset.objects.get(pk=event.ruleset_id)
    event.ruleset = held[event.ruleset_id]
    return table


@contextmanager
def rulesets_read_once() -> Iterator[None]:
    """Inside, a table locked takes its event's ruleset as first read in the block instead of reading it again
    with every lock: for a caller that writes many hands in one transaction (a rehearsal's round, every hand of
    sixteen tables). A ruleset saved meanwhile is read again at the next lock."""
    token = _rulesets_held.set({})
    try:
        yield
    finally:
        _rulesets_held.reset(token)


def ruleset_read_again(sender, instance: Ruleset, **kwargs) -> None:
    """A ruleset saved (``post_save``, connected in the app's ``ready``) is read afresh by the next lock."""
    held = _rulesets_held.get()
    if held is not None:
        held.pop(instance.pk, None)


def lock_round_tables(round_: Round) -> list[Table]:
    """Every table of a round, in id order (the round's lock is held already): a round's check waits for the
    writes at its tables, and they wait for it."""
    return list(_for_update(Table.objects.filter(round=round_).order_by("pk")))


def lock_hand(table: Table, number: int) -> Hand:
    """The hand's row, locked; a hand not recorded yet is a new row, not saved (``current_version`` 0), that its
    first version writes. The table's lock is held already, so no other writer creates it meanwhile: the row
    is read once (no savepoint for a race that cannot happen)."""
    try:
        return _hand_locked.get(table.pk, number)
    except Hand.DoesNotExist:
        return Hand(table=table, number=number)


def lock_clock(table: Table) -> TableClock | None:
    """The table's clock (one at most), or None when it has none."""
    try:
        return _clock_locked.get(table.pk)
    except TableClock.DoesNotExist:
        return None


def lock_entry(entry_id: int) -> Entry:
    return _for_update(Entry.objects.select_related("event", "player")).get(pk=entry_id)


def lock_seat(seat_id: int) -> Seat:
    return _for_update(Seat.objects.select_related("entry__player")).get(pk=seat_id)


def lock_penalty(penalty_id: int) -> Penalty:
    return _for_update(Penalty.objects.select_related("event")).get(pk=penalty_id)


def lock_seating_job(job_id: int) -> SeatingJob:
    return _for_update(SeatingJob.objects).get(pk=job_id)
