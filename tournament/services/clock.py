"""The chess clock of art. 38, server-authoritative: every press is serialised on the clock's row.

Locks: every write takes the table's row, then the clock's (the order of :mod:`tournament.services.locks`),
each ``FOR UPDATE OF`` itself only. Reading a clock takes no lock and writes nothing: it reads the row as
last committed and shows a seat whose bank ran out since as flagged (``flag_due``). The flag and its art. 38
⑤ penalty are recorded by a write: the clock's next press or pause, or its ``flag`` (the clock page sends it
when a read says a flag is due). Recording the hand, or confirming the table's result, stops the clock.

Seats are numbered like hands: 0.. from the game's East (art. 42: a player absent before the game is
not one). A player who left during the game keeps their number but is absent from the clock of every
later hand: the turn passes over them and they never flag. A seat that runs out of time is recorded at
once as an art. 38 ⑤ penalty, so it loses claim and win for the hand. A claim (拾) by a seat whose foul
took that right for the hand (arts. 36 ①②, 36 ③ in the replay, 38 ⑤) is refused.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.announce import announce
from tournament.engine import clock as engine
from tournament.engine.errors import InvariantViolation
from tournament.engine.penalties import check_claim_allowed
from tournament.models import Table, TableClock
from tournament.options import clock_settings
from tournament.services.common import require_published
from tournament.services.discipline import penalty_log
from tournament.services.locks import lock_clock, lock_table


def _now_ms() -> int:
    return int(timezone.now().timestamp() * 1000)


def _engine_call(call):
    try:
        return call()
    except InvariantViolation as exc:  # e.g. the server clock went backwards
        raise TaikaiError("clock_time_error", str(exc)) from exc


def _save(clock: TableClock, transition, *, table: Table, user) -> TableClock:
    state = transition.state if isinstance(transition, engine.ClockTransition) else transition
    clock.state = engine.state_to_dict(state)
    clock.version += 1
    clock.save(update_fields=["state", "version", "updated_at"])
    _announce_clock(table, state.status)
    events = transition.events if isinstance(transition, engine.ClockTransition) else ()
    if events:
        seats = selectors.table_game_seats(table)
        for flagged in events:
            penalty_log(event=table.round.event, entry=seats[flagged.seat].entry, kind=flagged.penalty_kind.value,
                        # Translators: the reason written in the penalty log for an art. 38 ⑤ flag.
                        reason=_("time bank exhausted on turn %(turn)s") % {"turn": flagged.turn_number}, table=table,
                        hand_number=clock.hand_number, user=user)  # fmt: skip
    return clock


@transaction.atomic
def clock_start(*, table: Table, hand_number: int, dealer_position: int, user=None) -> TableClock:
    """Art. 38 ②: the dealer starts the clock of a hand, every bank full."""
    table = lock_table(table.pk)
    event = table.round.event
    if not event.clock_bank_seconds:
        raise TaikaiError("clock_disabled", _("this event has no time bank (art. 38)"), field="event")
    require_published(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field="table")
    seats = selectors.table_game_seats(table)
    playing = selectors.seats_playing_hand(seats, hand_number)
    absent = frozenset(range(len(seats))) - frozenset(playing)
    settings = clock_settings(event, players=len(seats), absent=absent)
    state = _engine_call(lambda: engine.start_hand(settings, dealer_position, _now_ms()))
    clock = lock_clock(table)
    if clock is None:
        clock = TableClock.objects.create(
            table=table, hand_number=hand_number, state=engine.state_to_dict(state)
        )
    else:
        clock.hand_number = hand_number
        clock.state = engine.state_to_dict(state)
        clock.version += 1
        clock.save()
    _announce_clock(table, state.status)
    return clock


def _locked_clock(table: Table) -> TableClock:
    """The table's lock first, then the clock's (the documented order of ``locks``)."""
    table = lock_table(table.pk)
    clock = lock_clock(table)
    if clock is None:
        raise TaikaiError(
            "clock_not_started", _("the clock of this table has not been started"), field="table"
        )
    clock.table = table
    return clock


@transaction.atomic
def clock_press(
    *, table: Table, seat: int, turn_number: int, claim_by: int | None = None, user=None
) -> TableClock:
    """Art. 38 ③④: charge the seat on turn, add the increment (never above the bank), pass the turn
    (to ``claim_by`` when that seat claims the discard: refused if a foul took its right to claim)."""
    clock = _locked_clock(table)
    state = engine.state_from_dict(clock.state)
    transition = _engine_call(lambda: engine.press(state, seat=seat, turn_number=turn_number, now_ms=_now_ms(),
                                                   claim_by=claim_by))  # fmt: skip
    if claim_by is not None:
        _check_claim(clock, claim_by)
    return _save(clock, transition, table=clock.table, user=user)


def _check_claim(clock: TableClock, claim_by: int) -> None:
    """Art. 36 ①② (and 36 ③ in the replayed hand, 38 ⑤): a player who lost the right to claim (拾)
    for the hand cannot take a discard, whatever else the clock says."""
    seats = selectors.table_game_seats(clock.table)
    if isinstance(claim_by, bool) or not isinstance(claim_by, int) or not 0 <= claim_by < len(seats):
        return  # not a seat: the engine says so
    fouls = selectors.table_rights_fouls(clock.table, hand_number=clock.hand_number).get(
        seats[claim_by].entry_id, []
    )
    try:
        check_claim_allowed(fouls)
    except TaikaiError as exc:
        raise exc.at("claim_by", about=str(seats[claim_by].entry.player)) from exc


@transaction.atomic
def clock_pause(*, table: Table, user=None) -> TableClock:
    clock = _locked_clock(table)
    transition = _engine_call(lambda: engine.pause(engine.state_from_dict(clock.state), _now_ms()))
    return _save(clock, transition, table=clock.table, user=user)


@transaction.atomic
def clock_resume(*, table: Table, user=None) -> TableClock:
    clock = _locked_clock(table)
    state = _engine_call(lambda: engine.resume(engine.state_from_dict(clock.state), _now_ms()))
    return _save(clock, state, table=clock.table, user=user)


@transaction.atomic
def clock_observe(*, table: Table, user=None) -> TableClock:
    """Art. 38 ⑤: flag the seat on turn if its time ran out (and record its penalty), under the writers'
    locks; a clock with nobody out of time is left as it is."""
    clock = _locked_clock(table)
    transition = _engine_call(lambda: engine.observe(engine.state_from_dict(clock.state), _now_ms()))
    if transition.events:
        return _save(clock, transition, table=clock.table, user=user)
    return clock


def clock_stop(*, table: Table, hand_number: int | None = None) -> None:
    """The hand ``hand_number`` is recorded (``None``: the table's result is confirmed): its clock stops,
    nobody charged for the time since the last press. For the writers that hold the table's lock."""
    clock = lock_clock(table)
    if clock is None or (hand_number is not None and clock.hand_number != hand_number):
        return
    state = engine.state_from_dict(clock.state)
    if state.status != "finished":
        clock.state = engine.state_to_dict(engine.stop(state))
        clock.version += 1
        clock.save(update_fields=["state", "version", "updated_at"])
        _announce_clock(table, "finished")


def _announce_clock(table: Table, state: str) -> None:
    announce("clock", table.round.event_id, table=table.pk, table_number=table.number, state=state)


def clock_view(clock: TableClock) -> dict:
    """The clock as it stands now. A seat whose bank ran out since the last write is shown flagged, with
    ``flag_due`` set: it is recorded by the next write, never by this read."""
    recorded = engine.state_from_dict(clock.state)
    now = max(
        _now_ms(), recorded.mark_ms
    )  # read without a lock: another server may have written a moment ahead
    observed = engine.observe(recorded, now)
    state = observed.state
    return {
        "table": clock.table_id,
        "hand_number": clock.hand_number,
        "version": clock.version,
        "status": state.status,
        "seat_on_turn": state.seat_on_turn,
        "turn_number": state.turn_number,
        "remaining_ms": [engine.remaining_ms(state, s, now) for s in range(state.settings.players)],
        "flagged": sorted(state.flagged),
        "flag_due": bool(observed.events),
        "absent": sorted(state.settings.absent),
        "bank_ms": state.settings.bank_ms,
        "increment_ms": state.settings.increment_ms,
    }


def clock_payload(clock: TableClock) -> dict:
    """The clock as the API and the clock page show it: its view, the cap of a bank (the increment never
    takes a bank above its start, art. 38) and the server's time, so a screen can tick on its own."""
    view = clock_view(clock)
    return {**view, "cap_ms": view["bank_ms"], "server_ms": _now_ms()}


def clock_state(*, table: Table) -> dict:
    """What a clock shows now, written nowhere: its state (a seat out of time shown flagged, ``flag_due``),
    or, before the dealer starts it, every bank full and nobody on turn."""
    clock = selectors.table_clock(table)
    if clock is not None:
        return clock_payload(clock)
    seats = selectors.table_game_seats(table)
    settings = _engine_call(lambda: clock_settings(table.round.event, players=len(seats)))
    return {"table": table.pk, "hand_number": None, "version": 0, "status": "not_started", "seat_on_turn": None,
            "turn_number": 0, "remaining_ms": [settings.bank_ms] * len(seats), "flagged": [], "flag_due": False,
            "bank_ms": settings.bank_ms, "increment_ms": settings.increment_ms, "cap_ms": settings.bank_ms,
            "server_ms": _now_ms()}  # fmt: skip


def clocks_read(tables) -> dict[int, dict]:
    """The clocks of several tables as they stand, read without locking and without flagging (a list of
    tables refreshes them all; each table's own page observes and flags)."""
    return {clock.table_id: clock_payload(clock) for clock in selectors.table_clocks(tables)}
