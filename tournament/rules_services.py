"""Seed 004 at the table: penalties (arts. 35–37, 43), rulings (art. 44), absences (art. 42)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournament.engine.errors import TournamentError
from tournament.engine.penalties import (
    PenaltyKind,
    check_win_allowed,
    is_disqualifying,
    penalty_effect,
    penalty_points,
)
from tournament.errors import ServiceError
from tournament.models import Entry, Event, Penalty, Ruling, Seat, Table


def _players_at(table: Table | None, event: Event) -> int:
    if table is None:
        return event.table_size
    return table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE).count()


@transaction.atomic
def penalty_log(
    *, event: Event, entry: Entry, kind: str, reason: str, table: Table | None = None,
    hand_number: int | None = None, user=None,
) -> Penalty:  # fmt: skip
    """Log a foul. Art. 37 penalty points are the event's unit × the players at the table; a
    disqualifying foul in tournament play disqualifies the player at once (art. 43)."""
    try:
        effect = penalty_effect(kind)
    except TournamentError as exc:
        raise ServiceError(exc.code, exc.message, field="kind") from exc
    if entry.event_id != event.id:
        raise ServiceError("entry_not_in_event", f"{entry.player} is not in {event}", field="entry")
    if not reason.strip():
        raise ServiceError("reason_required", "say what happened", field="reason")
    if table is not None:
        if table.round.event_id != event.id:
            raise ServiceError("table_not_in_event", "the table belongs to another event", field="table")
        if not table.seats.filter(entry=entry).exists():
            raise ServiceError(
                "player_not_at_table", f"{entry.player} is not seated at {table}", field="entry"
            )
    if (effect.loses_ron or effect.loses_claim or effect.replays_hand) and (
        table is None or hand_number is None
    ):
        raise ServiceError(
            "hand_required",
            f"art. {effect.article} applies to a hand: give the table and hand",
            field="hand_number",
        )
    players = _players_at(table, event)
    points = penalty_points(kind, players, unit=event.penalty_unit) if effect.has_penalty_points else 0
    penalty = Penalty.objects.create(
        event=event, entry=entry, table=table, hand_number=hand_number, kind=PenaltyKind(kind).value, points=points,
        reason=reason.strip(), logged_by=user if getattr(user, "is_authenticated", False) else None,
        round_number=table.round.number if table is not None else None,
    )  # fmt: skip
    if is_disqualifying(kind, tournament_play=event.tournament_play):
        entry_disqualify(entry=entry, reason=f"art. {effect.article}: {reason.strip()}")
    _recompute_standings(event)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, user=None) -> Penalty:
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.cancelled_at is not None:
        raise ServiceError("already_cancelled", "this penalty was cancelled already", field="penalty")
    if not reason.strip():
        raise ServiceError("reason_required", "say why the penalty is cancelled", field="reason")
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = user if getattr(user, "is_authenticated", False) else None
    penalty.cancel_reason = reason.strip()
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    _recompute_standings(penalty.event)
    return penalty


@transaction.atomic
def entry_disqualify(*, entry: Entry, reason: str) -> Entry:
    """Art. 43: the player stays in the records but loses award eligibility."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.status = Entry.Status.DISQUALIFIED
    entry.status_reason = reason[:200]
    entry.save(update_fields=["status", "status_reason"])
    _recompute_standings(entry.event)
    return entry


@transaction.atomic
def ruling_record(
    *, event: Event, decision: str, table: Table | None = None, entry: Entry | None = None, user=None
) -> Ruling:
    if not decision.strip():
        raise ServiceError("decision_required", "write the decision", field="decision")
    return Ruling.objects.create(event=event, table=table, entry=entry, decision=decision.strip(),
                                 decided_by=user if getattr(user, "is_authenticated", False) else None)  # fmt: skip


def _recompute_standings(event: Event) -> None:
    from tournament.services import standings_schedule_recompute

    standings_schedule_recompute(event_id=event.id)


def active_penalty_kinds(*, table: Table, hand_number: int, entry_id: int) -> list[str]:
    return list(
        Penalty.objects.filter(
            table=table, hand_number=hand_number, entry_id=entry_id, cancelled_at__isnull=True
        ).values_list("kind", flat=True)
    )


def check_rights_for_hand(
    *, table: Table, hand_number: int, seats_by_position: dict[int, Seat], hand_input
) -> None:
    """Refuse a win (or a claim) by a player whose penalty took that right away for this hand."""
    replay_required = Penalty.objects.filter(
        table=table, hand_number=hand_number, kind=PenaltyKind.WALL_WRECKED, cancelled_at__isnull=True
    ).exists()
    if replay_required and hand_input.outcome != "replayed":
        raise ServiceError(
            "hand_must_be_replayed",
            "art. 36 ③: this hand was stopped; record it as replayed",
            field="outcome",
        )
    for win in hand_input.wins:
        seat = seats_by_position[win.winner]
        kinds = active_penalty_kinds(table=table, hand_number=hand_number, entry_id=seat.entry_id)
        try:
            check_win_allowed(kinds, "tsumo" if win.discarder is None else "ron")
        except TournamentError as exc:
            raise ServiceError(exc.code, f"{seat.entry.player}: {exc.message}", field="wins") from exc


@transaction.atomic
def seat_mark_absent(*, seat: Seat, during: bool, user=None) -> Seat:
    """Art. 42. Before the game: the table plays with the others (three- or two-player). During the
    game: the hand in progress is void, the game goes on from the shuffle without the player, and the
    points already exchanged stand. Either way the player forfeits (不戦敗) when the table is confirmed."""
    seat = Seat.objects.select_for_update().select_related("table").get(pk=seat.pk)
    table = seat.table
    if table.status != Table.Status.PLAYING:
        raise ServiceError("table_finished", "the table's result is confirmed", field="seat")
    if seat.absence != Seat.Absence.PRESENT:
        raise ServiceError("already_absent", f"{seat.entry.player} is already marked absent", field="seat")
    recorded = table.hands.filter(current_version__gt=0).count()
    present = table.seats.filter(absence=Seat.Absence.PRESENT).count()
    if present - 1 < 2:
        raise ServiceError("too_few_players", "a game needs at least two players", field="seat")
    if not during:
        if recorded:
            raise ServiceError(
                "game_started", "hands are recorded already: the player left during the game", field="seat"
            )
        seat.absence = Seat.Absence.ABSENT_BEFORE
        seat.save(update_fields=["absence"])
    else:
        seat.absence = Seat.Absence.ABSENT_DURING
        seat.left_after_hand = recorded
        seat.save(update_fields=["absence", "left_after_hand"])
    return seat
