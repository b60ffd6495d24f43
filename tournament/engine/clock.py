"""The chess clock of art. 38 (持ち時間) as a pure state machine.

Seed 004, art. 38:

* ① a time bank (持ち時間) is set per hand (一局ごと) when the event needs one;
* ② the clock runs from the moment the player opening the hand (開局者, the dealer) presses it;
* ③ the time used is from the previous press to one's own press after discarding (捨札後);
* ④ every move adds a fixed increment (Fischer rule, フィッシャールール), but never above the bank's
  initial value (初期に設定された時間以上には加算されない);
* ⑤ at 0 the player loses the right to claim (拾) and to win (和) for that hand and discards every drawn
  tile until the hand ends.

Time is injected: every transition takes ``now_ms``, an integer timestamp in milliseconds, so the
service passes its clock and the tests a fake one. A transition returns the new state and the events
it caused; ``ClockFlagged`` becomes an art. 38 ⑤ penalty in the service.

Reading of ④: the increment is added after a move, and only while time is left. A flagged player
stays at 0 for the rest of the hand: the loss of rights is for the whole hand (その局の).

Art. 42: a player who left the game (欠員) keeps their seat number but is ``absent``: the turn passes
over them, they never claim, never flag. A player who lost the right to claim (拾) by a foul is refused
by the service before ``press``; every claim is kept in the state (``claims``) for the audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from taikai.i18n import _

from .errors import InvariantViolation, TournamentConflict, TournamentError
from .penalties import PenaltyKind

STATE_FORMAT_VERSION = 2  # 2: absent seats and claims (1 is read as neither)
STATUSES = ("running", "paused", "finished")


@dataclass(frozen=True)
class ClockSettings:
    """Event settings: the bank per hand and the Fischer increment per move, in milliseconds; the
    seats of the game (``players``) and those of them that have left it (``absent``, art. 42)."""

    bank_ms: int  # 持ち時間
    increment_ms: int  # 一手ごとの加算時間
    players: int = 4
    absent: frozenset[int] = frozenset()  # 欠員: seats that left the game

    def __post_init__(self) -> None:
        for name in ("bank_ms", "increment_ms", "players"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TournamentError(
                    "invalid_clock_settings",
                    # Translators: name is a setting's field name (bank_ms, increment_ms, players).
                    _("%(name)s must be an integer") % {"name": name},
                    field=name,
                )
        if self.bank_ms <= 0:
            raise TournamentError("invalid_clock_settings", _("the time bank must be positive"), field="bank_ms")
        if self.increment_ms < 0:
            raise TournamentError(
                "invalid_clock_settings", _("the increment must not be negative"), field="increment_ms"
            )
        if self.players not in (2, 3, 4):
            # Translators: players is the number of seats of the game.
            raise TournamentError("invalid_clock_settings", _("players must be 2, 3 or 4"), field="players")
        absent = frozenset(self.absent)
        if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < self.players for s in absent):
            # Translators: the seats given as left the game (art. 42) must be seat numbers of this game.
            raise TournamentError("invalid_clock_settings", _("absent seats must be seats"), field="absent")
        if self.players - len(absent) < 2:
            raise TournamentError("invalid_clock_settings", _("a hand needs two players"), field="absent")
        object.__setattr__(self, "absent", absent)

    def seat_after(self, seat: int) -> int:
        """The next seat still playing after ``seat``, in turn order (an absent seat never has the turn)."""
        following = (seat + 1) % self.players
        while following in self.absent:
            following = (following + 1) % self.players
        return following


@dataclass(frozen=True)
class ClockState:
    """The clock of one hand.

    ``mark_ms`` is the instant from which the seat on turn is charged: the previous press, or the
    resume after a pause (time spent paused is charged to nobody). ``turn_number`` counts presses from 1
    (the opener's turn) so a late or repeated press for an old turn is recognised.
    """

    settings: ClockSettings
    status: str
    seat_on_turn: int
    turn_number: int
    banks_ms: tuple[int, ...]
    mark_ms: int
    flagged: frozenset[int] = frozenset()
    claims: tuple[tuple[int, int, int], ...] = ()  # (turn number it opened, claiming seat, at ms)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise InvariantViolation(f"unknown clock status {self.status!r}")
        if len(self.banks_ms) != self.settings.players:
            raise InvariantViolation("one bank per seat")
        if any(not 0 <= bank <= self.settings.bank_ms for bank in self.banks_ms):
            raise InvariantViolation("a bank left the range 0..initial bank")
        if not 0 <= self.seat_on_turn < self.settings.players or self.turn_number < 1:
            raise InvariantViolation("seat on turn or turn number out of range")
        if any(self.banks_ms[seat] != 0 for seat in self.flagged):
            raise InvariantViolation("a flagged seat has time left")
        if any(not 0 <= seat < self.settings.players for seat in self.flagged):
            raise InvariantViolation("flagged seat out of range")
        absent = self.settings.absent
        if self.seat_on_turn in absent or self.flagged & absent:
            raise InvariantViolation("a seat that left the game is on turn or flagged")
        if any(seat in absent for _, seat, _ in self.claims):
            raise InvariantViolation("a seat that left the game claimed")


@dataclass(frozen=True)
class ClockFlagged:
    """Art. 38 ⑤: ``seat`` ran out of time on ``turn_number``; it loses claim and win for the hand."""

    seat: int
    turn_number: int
    at_ms: int
    penalty_kind: PenaltyKind = PenaltyKind.CLOCK_FLAG


@dataclass(frozen=True)
class ClockTransition:
    state: ClockState
    events: tuple[ClockFlagged, ...] = ()


def start_hand(settings: ClockSettings, opener_seat: int, now_ms: int) -> ClockState:
    """Art. 38 ②: the opener (開局者, the dealer) presses the clock; its own time starts running."""
    _check_seat(settings, opener_seat, "opener_seat")
    _check_playing(settings, opener_seat, "opener_seat")
    return ClockState(
        settings=settings,
        status="running",
        seat_on_turn=opener_seat,
        turn_number=1,
        banks_ms=(settings.bank_ms,) * settings.players,
        mark_ms=now_ms,
    )


def remaining_ms(state: ClockState, seat: int, now_ms: int) -> int:
    """The time ``seat`` has left at ``now_ms`` (the running seat's bank minus the time since the mark)."""
    _check_seat(state.settings, seat, "seat")
    bank = state.banks_ms[seat]
    if state.status == "running" and seat == state.seat_on_turn:
        return max(0, bank - _elapsed(state, now_ms))
    return bank


def press(
    state: ClockState, *, seat: int, turn_number: int, now_ms: int, claim_by: int | None = None
) -> ClockTransition:
    """Art. 38 ③④: ``seat`` presses after discarding; its time is charged and the turn passes on.

    The turn goes to the next seat, or to ``claim_by`` when a seat claims the discard. A press by a
    seat not on turn raises ``clock_wrong_seat``; a press for an old turn ``clock_stale_turn`` (both
    conflicts: another press got there first). A flagged seat cannot claim (``claim_forbidden``), nor
    a seat that has left the game (``player_left``); the turn passes over an absent seat (art. 42).
    """
    _require_status(state, "running")
    if turn_number != state.turn_number:
        raise TournamentConflict(
            "clock_stale_turn",
            _("the press is for turn %(turn)s, the clock is on turn %(current)s")
            % {"turn": turn_number, "current": state.turn_number},
            field="turn_number",
        )
    if seat != state.seat_on_turn:
        raise TournamentConflict(
            "clock_wrong_seat",
            _("seat %(seat)s is not on turn (seat %(on_turn)s is)") % {"seat": seat, "on_turn": state.seat_on_turn},
            field="seat",
        )
    claims = state.claims
    if claim_by is None:
        next_seat = state.settings.seat_after(seat)
    else:
        _check_seat(state.settings, claim_by, "claim_by")
        _check_playing(state.settings, claim_by, "claim_by")
        if claim_by == seat:
            raise TournamentError("invalid_claim", _("a seat cannot claim its own discard"), field="claim_by")
        if claim_by in state.flagged:
            raise TournamentError(
                "claim_forbidden",
                _("seat %(seat)s ran out of time and lost the right to claim this hand (art. 38 ⑤)")
                % {"seat": claim_by},
                field="claim_by",
            )
        next_seat = claim_by
        claims = (*claims, (state.turn_number + 1, claim_by, now_ms))
    charged = _charge_seat_on_turn(state, now_ms)
    banks = list(charged.state.banks_ms)
    if seat not in charged.state.flagged:
        # Fischer increment, capped at the initial bank (38条④ 初期に設定された時間以上には加算されない)
        banks[seat] = min(state.settings.bank_ms, banks[seat] + state.settings.increment_ms)
    new_state = replace(
        charged.state,
        banks_ms=tuple(banks),
        seat_on_turn=next_seat,
        turn_number=state.turn_number + 1,
        mark_ms=now_ms,
        claims=claims,
    )
    return ClockTransition(new_state, charged.events)


def observe(state: ClockState, now_ms: int) -> ClockTransition:
    """Flag the seat on turn the moment its bank reaches 0, without waiting for its press."""
    if state.status != "running" or state.seat_on_turn in state.flagged:
        return ClockTransition(state)
    if remaining_ms(state, state.seat_on_turn, now_ms) > 0:
        return ClockTransition(state)
    return _charge_seat_on_turn(state, now_ms)


def pause(state: ClockState, now_ms: int) -> ClockTransition:
    """A referee pauses the clock; the time so far is charged, the paused time to nobody."""
    _require_status(state, "running")
    charged = _charge_seat_on_turn(state, now_ms)
    return ClockTransition(replace(charged.state, status="paused", mark_ms=now_ms), charged.events)


def resume(state: ClockState, now_ms: int) -> ClockState:
    """A referee resumes the clock; the seat on turn is charged from now on."""
    _require_status(state, "paused")
    _check_time(state, now_ms)
    return replace(state, status="running", mark_ms=now_ms)


def end_hand(state: ClockState, now_ms: int) -> ClockTransition:
    """The hand is over (終局): the last running time is charged and the clock stops for good."""
    if state.status == "finished":
        raise TournamentError("clock_finished", _("the clock of this hand has already stopped"))
    charged = _charge_seat_on_turn(state, now_ms) if state.status == "running" else ClockTransition(state)
    return ClockTransition(replace(charged.state, status="finished", mark_ms=now_ms), charged.events)


def stop(state: ClockState) -> ClockState:
    """The hand is over and recorded (or the table's result confirmed): the clock stops where the last
    press left it. The time since that press is nobody's: writing the hand down is not a turn. Stopping a
    stopped clock changes nothing."""
    return state if state.status == "finished" else replace(state, status="finished")


def void(state: ClockState) -> ClockState:
    """The hand is void (art. 42: a player left; it restarts from the shuffle): the clock stops and
    nobody is charged for the time since the last press."""
    if state.status == "finished":
        raise TournamentError("clock_finished", _("the clock of this hand has already stopped"))
    return replace(state, status="finished")


# The device's measurable error: how far a replayed log may be moved, in all, to fit the time the server
# saw (see ``place_log``).
LOG_TOLERANCE_MS = 1000


def place_log(
    device_ms: Sequence[int], *, sent_at_ms: int, server_now_ms: int, floor_ms: int | None
) -> tuple[tuple[int, int], ...]:
    """The server's time of each entry of a log a device kept offline, with the time the log was moved
    by so far to fit it; past ``LOG_TOLERANCE_MS`` the log is refused (``log_implausible``).

    The device's clock is trusted for the time between its entries (``device_ms``), never for where they
    lie: the log is laid on the server's clock by its end, the device's time when it sent the log
    (``sent_at_ms``) being the server's now. Each entry is then kept between the server's last mark of
    the clock (``floor_ms``: no entry before what the server saw; ``None``, no mark) or the entry before
    it, and the server's now. An honest log needs no such move: the device went offline after the mark
    and sent its log before it arrived, so its entries span at most the real time between the two.

    A move shortens or lengthens a turn, and so moves time between seats: a press kept at the mark
    charges nothing to the seat on turn, and the time its device claims passes to the turns after. The
    moves of all entries added up bound the time any seat gains or loses by them.

    ``LOG_TOLERANCE_MS`` is the device's measurable error, 1 s: a phone's clock drifts up to about
    100 ppm (0.7 s over a two-hour hand offline), and a clock set by the network steps by a few hundred
    milliseconds. Beyond it a forged or broken log would choose who runs out of time (art. 38 ⑤); a
    referee decides instead. The time the log took to arrive is not measured (the device's time when it
    sent it is the arrival); it only delays the log, charging the seat on turn at the mark for it.
    """
    offset = server_now_ms - sent_at_ms
    placed: list[tuple[int, int]] = []
    moved = 0
    for at in device_ms:
        claimed = at + offset
        lower = placed[-1][0] if placed else floor_ms
        now_ms = min(claimed, server_now_ms)
        now_ms = now_ms if lower is None else max(now_ms, lower)
        moved += abs(now_ms - claimed)
        placed.append((now_ms, moved))
    return tuple(placed)


def log_implausible(index: int, moved_ms: int) -> TournamentConflict:
    """The refusal of a log whose entry ``index`` is the first that moves it beyond the device's error."""
    return TournamentConflict(
        "clock_log_implausible",
        # Translators: index is the entry's place in the device's log (from 0); seconds the time by which
        # the device's times miss the server's, tolerance how far a device's clock may be off.
        _(
            "log entry %(index)s: the device's times do not fit the time the server saw (%(seconds)s s off, "
            "a device may be %(tolerance)s s off); nothing was recorded: a referee sets the clock"
        )
        % {"index": index, "seconds": _seconds(moved_ms), "tolerance": _seconds(LOG_TOLERANCE_MS)},
        field=f"log[{index}]",
    )


def _seconds(ms: int) -> str:
    return f"{ms // 1000}.{ms % 1000 // 100}"


def _charge_seat_on_turn(state: ClockState, now_ms: int) -> ClockTransition:
    """Charge the seat on turn for the time since the mark; flag it when its bank reaches 0."""
    elapsed = _elapsed(state, now_ms)
    seat = state.seat_on_turn
    if seat in state.flagged:
        return ClockTransition(replace(state, mark_ms=now_ms))
    left = state.banks_ms[seat] - elapsed
    banks = list(state.banks_ms)
    banks[seat] = max(0, left)
    flagged = state.flagged | {seat} if left <= 0 else state.flagged
    new_state = replace(state, banks_ms=tuple(banks), flagged=flagged, mark_ms=now_ms)
    return ClockTransition(new_state, _flag_events(state, new_state, now_ms))


def _flag_events(before: ClockState, after: ClockState, now_ms: int) -> tuple[ClockFlagged, ...]:
    return tuple(
        ClockFlagged(seat=seat, turn_number=before.turn_number, at_ms=now_ms)
        for seat in sorted(after.flagged - before.flagged)
    )


def _elapsed(state: ClockState, now_ms: int) -> int:
    _check_time(state, now_ms)
    return now_ms - state.mark_ms


def _check_time(state: ClockState, now_ms: int) -> None:
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise TournamentError("invalid_timestamp", _("timestamps are integers of milliseconds"), field="now_ms")
    if now_ms < state.mark_ms:
        raise InvariantViolation(f"the time source went backwards ({now_ms} < {state.mark_ms})")


def _require_status(state: ClockState, status: str) -> None:
    if state.status == status:
        return
    codes = {"paused": "clock_paused", "finished": "clock_finished", "running": "clock_not_paused"}
    messages = {
        ("paused", "running"): _("the clock is paused, not running"),
        ("finished", "running"): _("the clock is finished, not running"),
        ("running", "paused"): _("the clock is running, not paused"),
        ("finished", "paused"): _("the clock is finished, not paused"),
    }
    raise TournamentError(codes[state.status], messages[state.status, status])


def _check_seat(settings: ClockSettings, seat: Any, field: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < settings.players:
        raise TournamentError(
            "invalid_seat", _("seat must be 0 to %(last)s") % {"last": settings.players - 1}, field=field
        )


def _check_playing(settings: ClockSettings, seat: int, field: str) -> None:
    if seat in settings.absent:
        raise TournamentError(
            "player_left", _("seat %(seat)s has left the game (art. 42)") % {"seat": seat}, field=field
        )


def state_to_dict(state: ClockState) -> dict[str, Any]:
    """A JSON-able dict the service stores; ``state_from_dict`` reads it back."""
    return {
        "version": STATE_FORMAT_VERSION,
        "bank_ms": state.settings.bank_ms,
        "increment_ms": state.settings.increment_ms,
        "players": state.settings.players,
        "status": state.status,
        "seat_on_turn": state.seat_on_turn,
        "turn_number": state.turn_number,
        "banks_ms": list(state.banks_ms),
        "mark_ms": state.mark_ms,
        "flagged": sorted(state.flagged),
        "absent": sorted(state.settings.absent),
        "claims": [list(claim) for claim in state.claims],
    }


def state_from_dict(data: dict[str, Any]) -> ClockState:
    """Rebuild a state stored by ``state_to_dict``; a damaged record raises ``invalid_clock_state``."""
    if not isinstance(data, dict) or data.get("version") not in (1, STATE_FORMAT_VERSION):
        raise TournamentError("invalid_clock_state", _("unknown clock state format"))
    try:
        absent = data["absent"] if data["version"] > 1 else []
        claims = [tuple(claim) for claim in data["claims"]] if data["version"] > 1 else []
        values = (
            data["seat_on_turn"],
            data["turn_number"],
            data["mark_ms"],
            *data["banks_ms"],
            *data["flagged"],
            *absent,
            *(value for claim in claims for value in claim),
        )
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise TournamentError("invalid_clock_state", _("clock state values must be integers"))
        if any(len(claim) != 3 for claim in claims):
            raise TournamentError("invalid_clock_state", _("a claim is (turn, seat, time)"))
        settings = ClockSettings(
            bank_ms=data["bank_ms"],
            increment_ms=data["increment_ms"],
            players=data["players"],
            absent=frozenset(absent),
        )
        return ClockState(
            settings=settings,
            status=data["status"],
            seat_on_turn=data["seat_on_turn"],
            turn_number=data["turn_number"],
            banks_ms=tuple(data["banks_ms"]),
            mark_ms=data["mark_ms"],
            flagged=frozenset(data["flagged"]),
            claims=tuple(claims),
        )
    except (KeyError, TypeError) as error:
        raise TournamentError(
            "invalid_clock_state",
            # Translators: error names the missing or bad key of the stored clock state.
            _("clock state is missing or has a bad %(error)s") % {"error": error},
        ) from None
    except InvariantViolation as error:
        raise TournamentError(
            "invalid_clock_state",
            # Translators: error is an internal check's message (in English).
            _("clock state is inconsistent: %(error)s") % {"error": error},
        ) from None


def state_reseated(state: ClockState, moved: Sequence[int]) -> ClockState:
    """The clock once the table's players sit in their real seats (a re-seat): each seat's bank, flag, claims,
    absence (art. 42) and the turn follow its player, ``moved[seat]`` being that player's real seat."""
    if sorted(moved) != list(range(state.settings.players)):
        raise InvariantViolation("a re-seat moves every seat of the game to another")
    banks = [0] * state.settings.players
    for seat, bank in enumerate(state.banks_ms):
        banks[moved[seat]] = bank
    settings = replace(state.settings, absent=frozenset(moved[seat] for seat in state.settings.absent))
    return replace(
        state,
        settings=settings,
        seat_on_turn=moved[state.seat_on_turn],
        banks_ms=tuple(banks),
        flagged=frozenset(moved[seat] for seat in state.flagged),
        claims=tuple((turn, moved[seat], at_ms) for turn, seat, at_ms in state.claims),
    )
