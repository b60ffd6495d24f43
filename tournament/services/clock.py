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

A referee's device that lost the network runs the clock on its own, then sends its log of presses:
``clock_replay`` writes it through the same transitions as the online writes, or refuses it whole if
another device changed the clock meanwhile.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.announce import announce
from taikai.errors import Conflict, TaikaiError
from tournament import selectors
from tournament.engine import clock as engine
from tournament.engine.errors import InvariantViolation
from tournament.engine.penalties import check_claim_allowed
from tournament.models import Table, TableClock
from tournament.options import clock_settings
from tournament.services.checks import require_table_unlocked
from tournament.services.common import require_published
from tournament.services.discipline import penalty_log
from tournament.services.locks import lock_clock, lock_table


def _now_ms() -> int:
    return _ms(timezone.now())


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def _engine_call(call):
    try:
        return call()
    except InvariantViolation as exc:  # e.g. the server clock went backwards
        raise TaikaiError("clock_time_error", str(exc)) from exc


def _save(clock: TableClock, transition, *, table: Table, user, quiet: bool = False) -> TableClock:
    """Write the clock's next version and record each art. 38 ⑤ flag as a penalty; announce it unless
    ``quiet`` (a replay announces once, at its end)."""
    state = transition.state if isinstance(transition, engine.ClockTransition) else transition
    clock.state = engine.state_to_dict(state)
    clock.version += 1
    clock.save(update_fields=["state", "version", "updated_at"])
    if not quiet:
        _announce_clock(table, state.status)
    events = transition.events if isinstance(transition, engine.ClockTransition) else ()
    if events:
        seats = selectors.table_game_seats(table)
        for flagged in events:
            penalty_log(
                event=table.round.event,
                entry=seats[flagged.seat].entry,
                kind=flagged.penalty_kind.value,
                # Translators: the reason written in the penalty log for an art. 38 ⑤ flag.
                reason=_("time bank exhausted on turn %(turn)s") % {"turn": flagged.turn_number},
                table=table,
                hand_number=clock.hand_number,
                user=user,
            )
    return clock


@transaction.atomic
def clock_start(*, table: Table, hand_number: int, dealer_position: int, user=None) -> TableClock:
    """Art. 38 ②: the dealer starts the clock of a hand, every bank full (持ち時間)."""
    table = lock_table(table.pk)
    state = _start_state(table, hand_number=hand_number, dealer_position=dealer_position, now_ms=_now_ms())
    return _store_start(table, lock_clock(table), hand_number=hand_number, state=state)


def _start_state(table: Table, *, hand_number: int, dealer_position: int, now_ms: int) -> engine.ClockState:
    """The checks of a start (the event has a bank, the table is published and playing) and the started
    state, the dealer (開局者) on turn from ``now_ms``. The table's lock is held."""
    event = table.round.event
    if not event.clock_bank_seconds:
        raise TaikaiError("clock_disabled", _("this event has no time bank (art. 38)"), field="event")
    require_table_unlocked(table, field="table")
    require_published(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field="table")
    seats = selectors.table_game_seats(table)
    playing = selectors.seats_playing_hand(seats, hand_number)
    absent = frozenset(range(len(seats))) - frozenset(playing)
    settings = clock_settings(event, players=len(seats), absent=absent)
    return _engine_call(lambda: engine.start_hand(settings, dealer_position, now_ms))


def _store_start(
    table: Table, clock: TableClock | None, *, hand_number: int, state: engine.ClockState, quiet: bool = False
) -> TableClock:
    """Write a started clock: the table's first (version 1), or the next version of its row (locked)."""
    if clock is None:
        clock = TableClock.objects.create(table=table, hand_number=hand_number, state=engine.state_to_dict(state))
    else:
        clock.hand_number = hand_number
        clock.state = engine.state_to_dict(state)
        clock.version += 1
        clock.save()
    clock.table = table
    if not quiet:
        _announce_clock(table, state.status)
    return clock


def _locked_clock(table: Table) -> TableClock:
    """The table's lock first, then the clock's (the documented order of ``locks``)."""
    table = lock_table(table.pk)
    return _require_clock(lock_clock(table), table)


def _require_clock(clock: TableClock | None, table: Table) -> TableClock:
    if clock is None:
        raise TaikaiError("clock_not_started", _("the clock of this table has not been started"), field="table")
    clock.table = table
    return clock


@transaction.atomic
def clock_press(*, table: Table, seat: int, turn_number: int, claim_by: int | None = None, user=None) -> TableClock:
    """Art. 38 ③④: charge the seat on turn, add the increment (加算, never above the bank), pass the turn
    (to ``claim_by`` when that seat claims the discard: refused if a foul took its right to claim)."""
    return _press(
        _locked_clock(table), seat=seat, turn_number=turn_number, claim_by=claim_by, now_ms=_now_ms(), user=user
    )


def _press(
    clock: TableClock,
    *,
    seat: int,
    turn_number: int,
    claim_by: int | None,
    now_ms: int,
    user,
    quiet: bool = False,
) -> TableClock:
    state = engine.state_from_dict(clock.state)
    transition = _engine_call(
        lambda: engine.press(state, seat=seat, turn_number=turn_number, now_ms=now_ms, claim_by=claim_by)
    )
    if claim_by is not None:
        _check_claim(clock, claim_by)
    return _save(clock, transition, table=clock.table, user=user, quiet=quiet)


def _check_claim(clock: TableClock, claim_by: int) -> None:
    """Art. 36 ①② (and 36 ③ in the replayed hand, 38 ⑤): a player who lost the right to claim (拾)
    for the hand cannot take a discard, whatever else the clock says."""
    seats = selectors.table_game_seats(clock.table)
    if isinstance(claim_by, bool) or not isinstance(claim_by, int) or not 0 <= claim_by < len(seats):
        return  # not a seat: the engine says so
    fouls = selectors.table_rights_fouls(clock.table, hand_number=clock.hand_number).get(seats[claim_by].entry_id, [])
    try:
        check_claim_allowed(fouls)
    except TaikaiError as exc:
        raise exc.at("claim_by", about=str(seats[claim_by].entry.player)) from exc


@transaction.atomic
def clock_pause(*, table: Table, user=None) -> TableClock:
    return _pause(_locked_clock(table), now_ms=_now_ms(), user=user)


def _pause(clock: TableClock, *, now_ms: int, user, quiet: bool = False) -> TableClock:
    transition = _engine_call(lambda: engine.pause(engine.state_from_dict(clock.state), now_ms))
    return _save(clock, transition, table=clock.table, user=user, quiet=quiet)


@transaction.atomic
def clock_resume(*, table: Table, user=None) -> TableClock:
    return _resume(_locked_clock(table), now_ms=_now_ms(), user=user)


def _resume(clock: TableClock, *, now_ms: int, user, quiet: bool = False) -> TableClock:
    state = _engine_call(lambda: engine.resume(engine.state_from_dict(clock.state), now_ms))
    return _save(clock, state, table=clock.table, user=user, quiet=quiet)


@transaction.atomic
def clock_observe(*, table: Table, user=None) -> TableClock:
    """Art. 38 ⑤: flag the seat on turn if its time ran out (and record its penalty), under the writers'
    locks; a clock with nobody out of time is left as it is."""
    return _observe(_locked_clock(table), now_ms=_now_ms(), user=user)


def _observe(clock: TableClock, *, now_ms: int, user, quiet: bool = False) -> TableClock:
    transition = _engine_call(lambda: engine.observe(engine.state_from_dict(clock.state), now_ms))
    if transition.events:
        return _save(clock, transition, table=clock.table, user=user, quiet=quiet)
    return clock


REPLAY_VERBS = ("start", "press", "pause", "resume", "flag")
REPLAY_LOG_MAX = 2000  # entries in one log: a long hand offline is a few hundred presses
_REPLAY_FIELDS = {
    "start": ("at_ms", "hand_number", "dealer_position"),
    "press": ("at_ms", "seat", "turn_number"),
}


@transaction.atomic
def clock_replay(*, table: Table, base_version: int, sent_at_ms: int, log: list[dict], user=None) -> TableClock:
    """Art. 38: record what a referee's device did with the clock while it was offline.

    A device that loses the network keeps the clock running on its own: at the table the device decides,
    since the players cannot wait for the server. When the network is back it sends its log of presses
    (``start``, ``press``, ``pause``, ``resume``, ``flag``, each with the device's own time ``at_ms``)
    and the server replays it, entry by entry, through the same engine transitions and checks as the
    online writes, into the record: the banks (持ち時間), the increments (加算), the claims (拾) and the
    art. 38 ⑤ penalties of the seats that ran out of time. While online the server stays the authority:
    the log is taken only if nobody changed the clock since the version the device last had
    (``base_version``, 0 for a table without a clock); otherwise it is refused (409 ``clock_moved_on``)
    and the device takes the server's clock. ``base_version`` None: the log goes on from the device's log
    sent before it (whose answer the device may not have had); its turn numbers guard it instead.

    The server trusts its own time, not the device's: the log is laid on the server's clock by
    ``engine.place_log``, between the clock's last mark (for a table without a clock, the drawing of its
    round) and the server's now. A log that does not fit that real time by more than the device's
    measurable error (``engine.LOG_TOLERANCE_MS``: entries before the mark, spanning more than the time
    since, after its sending, going backwards) would move time between seats: it is refused (409
    ``clock_log_implausible``, the first entry past the error named) and a referee sets the clock. All or
    nothing: an entry refused refuses the whole log (its field ``log[i]``), nothing written.
    """
    _check_replay_input(base_version=base_version, sent_at_ms=sent_at_ms, log=log)
    table = lock_table(table.pk)
    clock = lock_clock(table)
    current = 0 if clock is None else clock.version
    if base_version is not None and current != base_version:
        raise Conflict(
            "clock_moved_on",
            _(
                "another device changed the clock meanwhile (version %(current)s, the log starts from version "
                "%(base)s): reload the clock"
            )
            % {"current": current, "base": base_version},
            field="base_version",
        )
    floor = _ms(table.round.created_at) if clock is None else engine.state_from_dict(clock.state).mark_ms
    placed = engine.place_log(
        [entry["at_ms"] for entry in log], sent_at_ms=sent_at_ms, server_now_ms=_now_ms(), floor_ms=floor
    )
    for index, (entry, (now_ms, moved_ms)) in enumerate(zip(log, placed, strict=True)):
        try:
            clock = _replay_entry(table, clock, entry, now_ms=now_ms, user=user)
        except TaikaiError as exc:
            # Translators: index is the entry's place in the device's log (from 0), verb its action.
            prefix = _("log entry %(index)s (%(verb)s): ") % {"index": index, "verb": entry["verb"]}
            raise exc.at(f"log[{index}]", prefix=prefix) from exc
        if moved_ms > engine.LOG_TOLERANCE_MS:  # after the entry's own checks: a log sent twice is stale
            raise engine.log_implausible(index, moved_ms)  # the transaction is rolled back: nothing written
    _announce_clock(table, clock.state["status"])
    return clock


def _replay_entry(table: Table, clock: TableClock | None, entry: dict, *, now_ms: int, user) -> TableClock:
    """One entry of a replayed log, at the server time ``now_ms``, as the online write of its verb."""
    verb = entry["verb"]
    if verb == "start":
        hand_number = entry["hand_number"]
        state = _start_state(table, hand_number=hand_number, dealer_position=entry["dealer_position"], now_ms=now_ms)
        return _store_start(table, clock, hand_number=hand_number, state=state, quiet=True)
    clock = _require_clock(clock, table)
    if verb == "press":
        return _press(
            clock,
            seat=entry["seat"],
            turn_number=entry["turn_number"],
            claim_by=entry.get("claim_by"),
            now_ms=now_ms,
            user=user,
            quiet=True,
        )
    write = {"pause": _pause, "resume": _resume, "flag": _observe}[verb]
    return write(clock, now_ms=now_ms, user=user, quiet=True)


def _check_replay_input(*, base_version, sent_at_ms, log) -> None:
    """The shape of a replay (the API checks it too; a service is also called from elsewhere)."""
    for name, value in (("base_version", base_version), ("sent_at_ms", sent_at_ms)):
        if not _is_count(value) and not (name == "base_version" and value is None):
            # Translators: name is an input's name (base_version, sent_at_ms, at_ms, seat, ...).
            raise TaikaiError(
                "invalid_input", _("%(name)s must be a whole number, 0 or more") % {"name": name}, field=name
            )
    if not isinstance(log, list) or not log:
        raise TaikaiError("invalid_input", _("the log has no entries"), field="log")
    if len(log) > REPLAY_LOG_MAX:
        raise TaikaiError(
            "invalid_input", _("a log has at most %(max)s entries") % {"max": REPLAY_LOG_MAX}, field="log"
        )
    for index, entry in enumerate(log):
        if not isinstance(entry, dict) or entry.get("verb") not in REPLAY_VERBS:
            raise TaikaiError(
                "invalid_input",
                # Translators: index is the entry's place in the log; verbs lists the possible actions.
                _("log entry %(index)s: the verb is one of %(verbs)s")
                % {"index": index, "verbs": ", ".join(REPLAY_VERBS)},
                field=f"log[{index}]",
            )
        for name in _REPLAY_FIELDS.get(entry["verb"], ("at_ms",)):
            if not _is_count(entry.get(name)):
                raise TaikaiError(
                    "invalid_input",
                    _("log entry %(index)s: %(name)s must be a whole number, 0 or more")
                    % {"index": index, "name": name},
                    field=f"log[{index}]",
                )


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


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
    now = max(_now_ms(), recorded.mark_ms)  # read without a lock: another server may have written a moment ahead
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
    return {
        "table": table.pk,
        "hand_number": None,
        "version": 0,
        "status": "not_started",
        "seat_on_turn": None,
        "turn_number": 0,
        "remaining_ms": [settings.bank_ms] * len(seats),
        "flagged": [],
        "flag_due": False,
        "bank_ms": settings.bank_ms,
        "increment_ms": settings.increment_ms,
        "cap_ms": settings.bank_ms,
        "server_ms": _now_ms(),
    }


def clocks_read(tables) -> dict[int, dict]:
    """The clocks of several tables as they stand, read without locking and without flagging (a list of
    tables refreshes them all; each table's own page observes and flags)."""
    return {clock.table_id: clock_payload(clock) for clock in selectors.table_clocks(tables)}


def clock_reseat(*, table: Table, moved: list[int]) -> None:
    """The table is re-seated: its clock's banks, flags, claims and turn follow the players to their real
    seats (``moved[seat]``), nobody charged. For the writers that hold the table's lock."""
    clock = lock_clock(table)
    if clock is None:
        return
    state = _engine_call(lambda: engine.state_reseated(engine.state_from_dict(clock.state), moved))
    clock.state = engine.state_to_dict(state)
    clock.version += 1
    clock.save(update_fields=["state", "version", "updated_at"])
    _announce_clock(table, state.status)
