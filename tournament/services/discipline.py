"""Seed 004 at the table: penalties (arts. 35–37, 38 ⑤, 43), disqualification (art. 43), rulings
(art. 44) and absences (art. 42). Nothing is deleted: a cancelled penalty keeps who cancelled it.

Disqualification (失格, art. 43) comes two ways. A penalty-point foul in tournament play (or egregious
conduct) disqualifies at once, and the entry names that penalty: cancelling it lifts the
disqualification, unless another disqualifying penalty is still in force or an organizer confirmed the
disqualification (``entry_disqualification_confirm``), which then stays. A director's decision
(``entry_disqualify`` without a penalty) names none and stays.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine import clock as clock_engine
from tournament.engine.game_end import game_over_message
from tournament.engine.penalties import is_disqualifying, penalty_effect, penalty_points
from tournament.models import Entry, Event, Penalty, Ruling, Seat, Table
from tournament.options import game_end_rules
from tournament.services.checks import require_table_unlocked
from tournament.services.common import recorder, require_published, token_of
from tournament.services.locks import lock_clock, lock_entry, lock_event, lock_penalty, lock_seat, lock_table
from tournament.services.standings import standings_schedule_recompute


@transaction.atomic
def penalty_log(
    *,
    event: Event,
    entry: Entry,
    kind: str,
    reason: str,
    table: Table | None = None,
    hand_number: int | None = None,
    user=None,
) -> Penalty:
    """Log a foul. Art. 37 penalty points are the event's unit × the players at the table in the foul's
    hand (art. 42: 300 at a table a player left, three-player from then on); a disqualifying foul in
    tournament play disqualifies the player at once (art. 43).

    A foul at a table happens in a hand: without one given, the hand being played (the one after the
    last recorded). The player must be playing that hand."""
    effect = penalty_effect(kind)
    if entry.event_id != event.id:
        raise TaikaiError(
            "entry_not_in_event",
            _("%(player)s is not in %(event)s") % {"player": entry.player, "event": event},
            field="entry",
        )
    if not reason.strip():
        raise TaikaiError("reason_required", _("say what happened"), field="reason")
    disqualifies = is_disqualifying(kind, tournament_play=event.tournament_play)
    if disqualifies:
        lock_event(event.pk)  # the champion may have to go (art. 43); the event is locked first
    players = event.table_size
    if table is not None:
        if table.round.event_id != event.id:
            raise TaikaiError("table_not_in_event", _("the table belongs to another event"), field="table")
        table = lock_table(table.pk)
        require_table_unlocked(table, field="table")
        require_published(table)
        if not any(s.entry_id == entry.id for s in selectors.table_seats(table)):
            raise TaikaiError(
                "player_not_at_table",
                _("%(player)s is not seated at %(table)s") % {"player": entry.player, "table": table},
                field="entry",
            )
        if hand_number is None:
            hand_number = selectors.table_hands_recorded(table) + 1
        game_seats = selectors.table_game_seats(table)
        playing = selectors.seats_playing_hand(game_seats, hand_number)
        if not any(game_seats[i].entry_id == entry.id for i in playing):
            raise TaikaiError(
                "player_not_in_hand",
                _("%(player)s does not play hand %(hand)s (art. 42: absent or left the game)")
                % {"player": entry.player, "hand": hand_number},
                field="entry",
            )
        players = len(playing)
    if effect.applies_to_hand and (table is None or hand_number is None):
        raise TaikaiError(
            "hand_required",
            # Translators: number and paragraph make the article ("36", "①").
            _("art. %(number)s%(paragraph)s applies to a hand: give the table and hand") % effect.article_fields,
            field="hand_number",
        )
    points = penalty_points(kind, players, unit=event.penalty_unit) if effect.has_penalty_points else 0
    if effect.ruleset_points:
        points = _chombo_checked(event, table, hand_number)
    penalty = Penalty.objects.create(
        event=event,
        entry=entry,
        table=table,
        hand_number=hand_number,
        kind=effect.kind.value,
        points=points,
        reason=reason.strip(),
        logged_by=recorder(user),
        logged_by_token=token_of(user),
        round_number=table.round.number if table is not None else None,
    )
    if disqualifies:
        # Translators: the reason a disqualification records: the article ("37", "①") and the foul's reason.
        cause = _("art. %(number)s%(paragraph)s: %(reason)s") % {
            **effect.article_fields,
            "reason": reason.strip(),
        }
        entry_disqualify(entry=entry, reason=cause, penalty=penalty)
    standings_schedule_recompute(event_id=event.id)
    return penalty


def _chombo_checked(event: Event, table: Table, hand_number: int) -> int:
    """A chombo 錯和 at ``table`` in hand ``hand_number``: the ruleset's points it takes from the offender's overall
    total (nothing is paid at the table). Refused under a ruleset without chombo points, in a hand after the
    game's end, and, when a chombo ends the game, while that hand or a later one is recorded."""
    ruleset = event.ruleset
    if not ruleset.chombo_points:
        raise TaikaiError(
            "chombo_not_played",
            _("the event's ruleset sets no chombo 錯和 penalty (its chombo points are 0)"),
            field="kind",
        )
    end = selectors.table_game_end(table)
    if end is not None and hand_number > end.last_hand + 1:
        raise TaikaiError("game_over", game_over_message(end), field="hand_number")
    if game_end_rules(event).chombo_ends_game:
        recorded = [h.hand.number for h in selectors.table_hands_in_force(table) if h.hand.number >= hand_number]
        if recorded:
            raise TaikaiError(
                "hands_after_chombo",
                # Translators: hand is the hand of the chombo, last the last hand recorded.
                _(
                    "under this ruleset a chombo ends the game with its hand, and hands %(hand)s to %(last)s are "
                    "recorded: void them first"
                )
                % {"hand": hand_number, "last": max(recorded)},
                field="hand_number",
            )
    return ruleset.chombo_points


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, user=None) -> Penalty:
    """Cancel a penalty (it stays, with who and why). The disqualification it caused is lifted unless an
    organizer confirmed it or another disqualifying penalty is in force (art. 43)."""
    entry = lock_entry(penalty.entry_id)  # the entry before the penalty: the documented order
    penalty = lock_penalty(penalty.pk)
    if penalty.table_id is not None:
        require_table_unlocked(penalty.table, field="penalty")
    if penalty.cancelled_at is not None:
        raise TaikaiError("already_cancelled", _("this penalty was cancelled already"), field="penalty")
    if not reason.strip():
        raise TaikaiError("reason_required", _("say why the penalty is cancelled"), field="reason")
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = recorder(user)
    penalty.cancel_reason = reason.strip()
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    if (
        entry.status == Entry.Status.DISQUALIFIED
        and entry.disqualified_by_penalty_id == penalty.pk
        and not entry.disqualification_confirmed
    ):
        _disqualification_lift(entry, penalty)
    standings_schedule_recompute(event_id=penalty.event_id)
    return penalty


def _disqualification_lift(entry: Entry, cancelled: Penalty) -> None:
    others = selectors.entry_disqualifying_penalties(entry, tournament_play=entry.event.tournament_play)
    if others:
        entry.disqualified_by_penalty = others[0]
        # Translators: the reason a disqualification records: the article ("37", "①") and the foul's reason.
        cause = _("art. %(number)s%(paragraph)s: %(reason)s")
        entry.status_reason = (cause % {**penalty_effect(others[0].kind).article_fields, "reason": others[0].reason})[
            :200
        ]
    else:
        entry.status = Entry.Status.ACTIVE
        entry.disqualified_by_penalty = None
        entry.status_reason = (
            _("disqualification lifted: penalty %(penalty)s cancelled (%(reason)s)")
            % {"penalty": cancelled.pk, "reason": cancelled.cancel_reason}
        )[:200]
    entry.save(update_fields=["status", "status_reason", "disqualified_by_penalty"])


@transaction.atomic
def entry_disqualify(*, entry: Entry, reason: str, penalty: Penalty | None = None) -> Entry:
    """Art. 43: the player stays in the records but loses award eligibility, the title of champion
    included. ``penalty``: the foul that disqualifies automatically (cancelling it can lift it);
    without one, a director's decision, which stays."""
    event = lock_event(entry.event_id)
    entry = lock_entry(entry.pk)
    already = entry.status == Entry.Status.DISQUALIFIED
    if penalty is None:
        entry.disqualified_by_penalty = None
    elif not already:
        entry.disqualified_by_penalty = penalty
    if not already or penalty is None:
        entry.status_reason = reason[:200]
    entry.status = Entry.Status.DISQUALIFIED
    entry.save(update_fields=["status", "status_reason", "disqualified_by_penalty"])
    if event.champion_id == entry.pk:  # 受賞資格も失う: no longer champion; the directors decide (art. 44)
        event.champion = None
        event.save(update_fields=["champion"])
    standings_schedule_recompute(event_id=entry.event_id)
    return entry


@transaction.atomic
def entry_disqualification_confirm(*, entry: Entry, user=None) -> Entry:
    """An organizer confirms a disqualification (art. 43): it stays even if its penalty is cancelled."""
    entry = lock_entry(entry.pk)
    if entry.status != Entry.Status.DISQUALIFIED:
        raise TaikaiError(
            "not_disqualified", _("%(player)s is not disqualified") % {"player": entry.player}, field="entry"
        )
    if entry.disqualification_confirmed:
        raise TaikaiError("already_confirmed", _("this disqualification is confirmed already"), field="entry")
    entry.disqualification_confirmed_by = recorder(user)
    entry.disqualification_confirmed_at = timezone.now()
    entry.save(update_fields=["disqualification_confirmed_by", "disqualification_confirmed_at"])
    return entry


@transaction.atomic
def ruling_record(
    *, event: Event, decision: str, table: Table | None = None, entry: Entry | None = None, user=None
) -> Ruling:
    """Art. 44: a director's decision, attached to the event and optionally a table or a player."""
    if not decision.strip():
        raise TaikaiError("decision_required", _("write the decision"), field="decision")
    if table is not None:
        require_table_unlocked(table, field="table")
        require_published(table)
    return Ruling.objects.create(
        event=event,
        table=table,
        entry=entry,
        decision=decision.strip(),
        decided_by=recorder(user),
        decided_by_token=token_of(user),
    )


@transaction.atomic
def seat_mark_absent(*, seat: Seat, during: bool, user=None) -> Seat:
    """Art. 42. Before the game: the table plays with the others (three- or two-player). During the
    game: the hand in progress is void (its clock stops, charging nobody), the game goes on from the
    shuffle without the player (三人ないし二人戦: payments, deal, clock and penalty points among those
    left), and the points already exchanged stand. Either way the player forfeits (不戦敗) when the table
    is confirmed."""
    table = lock_table(seat.table_id)
    require_table_unlocked(table, field="seat")
    clock = lock_clock(table) if during else None
    seat = lock_seat(seat.pk)
    require_published(table, field="seat")
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field="seat")
    if seat.absence != Seat.Absence.PRESENT:
        raise TaikaiError(
            "already_absent",
            _("%(player)s is already marked absent") % {"player": seat.entry.player},
            field="seat",
        )
    recorded = selectors.table_hands_recorded(table)
    present = sum(1 for s in selectors.table_seats(table) if s.absence == Seat.Absence.PRESENT)
    if present - 1 < 2:
        raise TaikaiError("too_few_players", _("a game needs at least two players"), field="seat")
    if not during:
        if recorded:
            raise TaikaiError(
                "game_started", _("hands are recorded already: the player left during the game"), field="seat"
            )
        seat.absence = Seat.Absence.ABSENT_BEFORE
        seat.save(update_fields=["absence"])
    else:
        seat.absence = Seat.Absence.ABSENT_DURING
        seat.left_after_hand = recorded
        seat.save(update_fields=["absence", "left_after_hand"])
        if clock is not None and clock.hand_number > recorded:
            state = clock_engine.state_from_dict(clock.state)
            if state.status != "finished":  # the hand in progress is void: start the clock again after
                clock.state = clock_engine.state_to_dict(clock_engine.void(state))
                clock.version += 1
                clock.save(update_fields=["state", "version", "updated_at"])
    return seat


@transaction.atomic
def seat_mark_present(*, seat: Seat, user=None) -> Seat:
    """Undo an absence marked by mistake (art. 42), while no hand has been recorded since: the hands
    after it would have been played without the player."""
    table = lock_table(seat.table_id)
    require_table_unlocked(table, field="seat")
    seat = lock_seat(seat.pk)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field="seat")
    if seat.absence == Seat.Absence.PRESENT:
        raise TaikaiError(
            "not_absent", _("%(player)s is not marked absent") % {"player": seat.entry.player}, field="seat"
        )
    recorded = selectors.table_hands_recorded(table)
    if recorded != (seat.left_after_hand or 0):
        raise TaikaiError(
            "hands_recorded_since",
            _("hands were recorded without %(player)s since; void them first") % {"player": seat.entry.player},
            field="seat",
        )
    seat.absence, seat.left_after_hand = Seat.Absence.PRESENT, None
    seat.save(update_fields=["absence", "left_after_hand"])
    return seat
