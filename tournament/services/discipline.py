"""Seed 004 at the table: penalties (arts. 35–37, 38 ⑤, 43), disqualification (art. 43), rulings
(art. 44) and absences (art. 42). Nothing is deleted: a cancelled penalty keeps who cancelled it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.penalties import is_disqualifying, penalty_effect, penalty_points
from tournament.models import Entry, Event, Penalty, Ruling, Seat, Table
from tournament.services.common import recorder
from tournament.services.locks import lock_entry, lock_penalty, lock_seat, lock_table
from tournament.services.standings import standings_schedule_recompute


@transaction.atomic
def penalty_log(
    *, event: Event, entry: Entry, kind: str, reason: str, table: Table | None = None,
    hand_number: int | None = None, user=None,
) -> Penalty:  # fmt: skip
    """Log a foul. Art. 37 penalty points are the event's unit × the players at the table; a
    disqualifying foul in tournament play disqualifies the player at once (art. 43)."""
    effect = penalty_effect(kind)
    if entry.event_id != event.id:
        raise TaikaiError("entry_not_in_event", f"{entry.player} is not in {event}", field="entry")
    if not reason.strip():
        raise TaikaiError("reason_required", "say what happened", field="reason")
    seats = None
    if table is not None:
        if table.round.event_id != event.id:
            raise TaikaiError("table_not_in_event", "the table belongs to another event", field="table")
        seats = selectors.table_game_seats(table)
        if not any(s.entry_id == entry.id for s in selectors.table_seats(table)):
            raise TaikaiError(
                "player_not_at_table", f"{entry.player} is not seated at {table}", field="entry"
            )
    if effect.applies_to_hand and (table is None or hand_number is None):
        raise TaikaiError(
            "hand_required",
            f"art. {effect.article} applies to a hand: give the table and hand",
            field="hand_number",
        )
    players = event.table_size if seats is None else len(seats)
    points = penalty_points(kind, players, unit=event.penalty_unit) if effect.has_penalty_points else 0
    penalty = Penalty.objects.create(
        event=event, entry=entry, table=table, hand_number=hand_number, kind=effect.kind.value, points=points,
        reason=reason.strip(), logged_by=recorder(user),
        round_number=table.round.number if table is not None else None,
    )  # fmt: skip
    if is_disqualifying(kind, tournament_play=event.tournament_play):
        entry_disqualify(entry=entry, reason=f"art. {effect.article}: {reason.strip()}")
    standings_schedule_recompute(event_id=event.id)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, user=None) -> Penalty:
    penalty = lock_penalty(penalty.pk)
    if penalty.cancelled_at is not None:
        raise TaikaiError("already_cancelled", "this penalty was cancelled already", field="penalty")
    if not reason.strip():
        raise TaikaiError("reason_required", "say why the penalty is cancelled", field="reason")
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = recorder(user)
    penalty.cancel_reason = reason.strip()
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    standings_schedule_recompute(event_id=penalty.event_id)
    return penalty


@transaction.atomic
def entry_disqualify(*, entry: Entry, reason: str) -> Entry:
    """Art. 43: the player stays in the records but loses award eligibility."""
    entry = lock_entry(entry.pk)
    entry.status = Entry.Status.DISQUALIFIED
    entry.status_reason = reason[:200]
    entry.save(update_fields=["status", "status_reason"])
    standings_schedule_recompute(event_id=entry.event_id)
    return entry


@transaction.atomic
def ruling_record(
    *, event: Event, decision: str, table: Table | None = None, entry: Entry | None = None, user=None
) -> Ruling:
    """Art. 44: a director's decision, attached to the event and optionally a table or a player."""
    if not decision.strip():
        raise TaikaiError("decision_required", "write the decision", field="decision")
    return Ruling.objects.create(
        event=event, table=table, entry=entry, decision=decision.strip(), decided_by=recorder(user)
    )


@transaction.atomic
def seat_mark_absent(*, seat: Seat, during: bool, user=None) -> Seat:
    """Art. 42. Before the game: the table plays with the others (three- or two-player). During the
    game: the hand in progress is void, the game goes on from the shuffle without the player, and the
    points already exchanged stand. Either way the player forfeits (不戦敗) when the table is confirmed."""
    table = lock_table(seat.table_id)
    seat = lock_seat(seat.pk)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", "the table's result is confirmed", field="seat")
    if seat.absence != Seat.Absence.PRESENT:
        raise TaikaiError("already_absent", f"{seat.entry.player} is already marked absent", field="seat")
    recorded = selectors.table_hands_recorded(table)
    present = sum(1 for s in selectors.table_seats(table) if s.absence == Seat.Absence.PRESENT)
    if present - 1 < 2:
        raise TaikaiError("too_few_players", "a game needs at least two players", field="seat")
    if not during:
        if recorded:
            raise TaikaiError(
                "game_started", "hands are recorded already: the player left during the game", field="seat"
            )
        seat.absence = Seat.Absence.ABSENT_BEFORE
        seat.save(update_fields=["absence"])
    else:
        seat.absence = Seat.Absence.ABSENT_DURING
        seat.left_after_hand = recorded
        seat.save(update_fields=["absence", "left_after_hand"])
    return seat


@transaction.atomic
def seat_mark_present(*, seat: Seat, user=None) -> Seat:
    """Undo an absence marked by mistake (art. 42), while no hand has been recorded since: the hands
    after it would have been played without the player."""
    table = lock_table(seat.table_id)
    seat = lock_seat(seat.pk)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", "the table's result is confirmed", field="seat")
    if seat.absence == Seat.Absence.PRESENT:
        raise TaikaiError("not_absent", f"{seat.entry.player} is not marked absent", field="seat")
    recorded = selectors.table_hands_recorded(table)
    if recorded != (seat.left_after_hand or 0):
        raise TaikaiError("hands_recorded_since", f"hands were recorded without {seat.entry.player} since; "
                          "void them first", field="seat")  # fmt: skip
    seat.absence, seat.left_after_hand = Seat.Absence.PRESENT, None
    seat.save(update_fields=["absence", "left_after_hand"])
    return seat
