"""A table's result: confirmed from its hands or from final scores, as a new version each time it
changes, and reopened for corrections. Confirming again what is already confirmed changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.services import game_end_deposit_shares
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.dealer import GameStand
from tournament.engine.game_end import TimeUp
from tournament.engine.table_result import SeatOutcome, table_result
from tournament.hand_names import hand_label_read
from tournament.models import Round, Ruling, SeatResult, Table
from tournament.options import table_rules
from tournament.services.checks import require_table_unlocked, table_announce
from tournament.services.clock import clock_stop
from tournament.services.common import authorship, recorder, require_published, status_set, token_of
from tournament.services.locks import lock_round, lock_table
from tournament.services.standings import standings_schedule_recompute

# Sent as a table's result is about to be confirmed (``table``), inside the confirming transaction, the table
# locked: an app built on the tournament that keeps the result waiting (an imported game's open disagreement)
# raises a ``TaikaiError`` from its receiver, and nothing is written.
result_confirming = Signal()


def table_final_points_from_hands(table: Table, sheet: selectors.HandSheet | None = None) -> tuple[list[int], int]:
    """Start points plus every hand's changes, and the deposits left on the table at the end (from the table's
    ``sheet`` when read already)."""
    sheet = sheet if sheet is not None else selectors.table_hand_sheet(table)
    points = [table.round.event.ruleset.start_points] * len(sheet.seats)
    deposits = 0
    for version in sheet.hands:
        if len(version.deltas) != len(points):
            raise TaikaiError(
                "hand_seat_mismatch",
                _("hand %(hand)s has a different number of seats") % {"hand": version.hand.number},
            )
        points = [p + d for p, d in zip(points, version.deltas, strict=True)]
        deposits = version.deposits_out
    return points, deposits


def _final_points_given(final_points: Sequence[int], *, players: int, ruleset) -> tuple[list[int], int]:
    """Final scores entered for the ``players`` of the game, and the deposits they leave unpaid."""
    if len(final_points) != players:
        raise TaikaiError(
            "wrong_seat_count",
            _("give %(players)s final scores") % {"players": players},
            field="final_points",
        )
    points = [int(p) for p in final_points]
    expected_total = ruleset.start_points * players
    lost = expected_total - sum(points)
    if lost < 0 or lost % ruleset.riichi_stick:
        raise TaikaiError(
            "scores_do_not_sum",
            _(
                "final scores add up to %(total)s; expected %(expected)s minus riichi deposits left on the table "
                "(multiples of %(stick)s)"
            )
            % {"total": sum(points), "expected": expected_total, "stick": ruleset.riichi_stick},
            field="final_points",
        )
    return points, lost


def _final_points_from_hands(table: Table, ruleset, sheet: selectors.HandSheet) -> tuple[list[int], int]:
    """The final scores the recorded hands of the table's ``sheet`` give (deposits left go to the top or are
    lost, per the ruleset), and the deposits lost."""
    points, deposits = table_final_points_from_hands(table, sheet)
    end_share = game_end_deposit_shares(points, deposits, ruleset)
    points = [p + d for p, d in zip(points, end_share, strict=True)]
    return points, deposits if ruleset.deposits_at_end == "lost" else 0


def _refuse_scores_unlike_hands(given: list[int], from_hands: list[int], playing) -> None:
    differences = [
        _("%(player)s: %(given)s given, %(hands)s from the hands")
        % {"player": seat.entry.player, "given": g, "hands": h}
        for seat, g, h in zip(playing, given, from_hands, strict=True)
        if g != h
    ]
    if differences:
        raise TaikaiError(
            "scores_contradict_hands",
            # Translators: differences lists each player whose final score differs from the recorded hands.
            _(
                "the final scores differ from the recorded hands (%(differences)s): correct the hands, or "
                "confirm the result from them"
            )
            % {"differences": "; ".join(differences)},
            field="final_points",
        )


# Why a game confirmed from its hands ends before its last hand (the referee's answer, recorded as a ruling).
GAME_CUT_SHORT_REASONS = {
    "time": gettext_lazy("the round's time ran out"),
    "other": gettext_lazy("another reason"),
}


def game_stop_words(stand: GameStand) -> dict[str, str]:
    """Where a game cut short stopped (``hand``: 南2局) and its last hand (``end``: 南4局), in the active language."""
    return {"hand": hand_label_read(stand.last_hand_label("en")), "end": hand_label_read(stand.end_label("en"))}


def one_more_hand_words(time_up: TimeUp) -> str:
    """The round's time ran out during a hand and the ruleset plays one more: which, in the active language."""
    # Translators: hand is the hand in play when the round's time ran out, next the one more hand played.
    return _(
        "The round's time ran out during hand %(hand)s: under this ruleset one more hand is played, hand %(next)s, "
        "and the game ends after it."
    ) % {"hand": time_up.hand_in_play, "next": time_up.last_hand}


def _game_cut_short_ruling(
    table: Table, end_reason: str | None, end_note: str, sheet: selectors.HandSheet
) -> str | None:
    """The ruling to record when the hands of the table's ``sheet`` stop before the game's end (the engine's
    ``regular_game_stand``), None when they play it to its end. Refused without a reason: the message
    names where the game stopped and where it ends."""
    stand = selectors.table_game_cut_short(table, sheet)
    if stand is None:
        return None
    where = game_stop_words(stand)
    if not end_reason:
        raise TaikaiError(
            "game_not_finished",
            # Translators: hand is where the game stopped (南2局), end its last hand (南4局).
            _(
                "The game stopped at %(hand)s: it ends after %(end)s. To confirm the result all the same, say "
                "why it ends here (the round's time ran out, or another reason)."
            )
            % where,
            field="end_reason",
        )
    if end_reason not in GAME_CUT_SHORT_REASONS:
        raise TaikaiError(
            "invalid_end_reason",
            _("the reason is one of %(reasons)s") % {"reasons": ", ".join(GAME_CUT_SHORT_REASONS)},
            field="end_reason",
        )
    time_up = selectors.table_time_up(table, sheet) if end_reason == "time" else None
    if time_up is not None and time_up.one_more_hand and len(sheet.hands) < time_up.last_hand:
        raise TaikaiError(
            "one_more_hand",
            one_more_hand_words(time_up) + " " + _("Record it, then confirm the result."),
            field="end_reason",
        )
    note = (end_note or "").strip()
    if end_reason == "other" and not note:
        raise TaikaiError("end_note_required", _("write why the game ends before %(end)s") % where, field="end_note")
    reason = str(GAME_CUT_SHORT_REASONS[end_reason])
    # Translators: the ruling recorded (art. 44); hand is where the game stopped, end its last hand, reason
    # why ("the round's time ran out"), followed by the referee's note when one was written.
    decision = _("Result confirmed with the game stopped at %(hand)s, before its end after %(end)s: %(reason)s") % {
        **where,
        "reason": reason,
    }
    return f"{decision} — {note}" if note else decision


def _record_game_cut_short(table: Table, decision: str | None, user) -> None:
    if decision:
        Ruling.objects.create(
            event=table.round.event,
            table=table,
            decision=decision,
            decided_by=recorder(user),
            decided_by_token=token_of(user),
        )


@transaction.atomic
def table_finish(
    *,
    table: Table,
    final_points: Sequence[int] | None = None,
    user=None,
    end_reason: str | None = None,
    end_note: str = "",
) -> list[SeatResult]:
    """Confirm a table's result: from its hands (hand-by-hand events) or from the final scores given.

    A result the same as the one in force makes no new version and no recompute.
    Riichi deposits still on the table go to the top player or are lost, per the ruleset. Given final
    scores must add up to the start total minus the deposits left on the table. An overtime still going
    (art. 39 ②, as the engine decided it) is played out, or closed by the directors, first. Hands that stop
    before the game's end (a hanchan played to South 4) are confirmed only with ``end_reason`` (a key of
    ``GAME_CUT_SHORT_REASONS``; ``other`` with ``end_note``), recorded as a ruling on the table (art. 44).
    """
    table = lock_table(table.pk)
    require_table_unlocked(table)
    require_published(table)
    result_confirming.send(sender=Table, table=table)
    if table.overtime_state == Table.Overtime.PLAYING:
        status = selectors.table_overtime_status(table)
        raise TaikaiError(
            "overtime_in_progress",
            # Translators: status is a sentence on the overtime's state; hand names the next overtime hand.
            _("%(status)s Record %(hand)s, or the directors close the overtime (art. 44).")
            % {"status": status.sentence, "hand": status.next_hand},
            field="table",
        )
    event = table.round.event
    ruleset = event.ruleset
    seats = selectors.table_seats(table)
    playing = [s for s in seats if s.in_game]
    cut_short = None
    if final_points is None:
        sheet = selectors.table_hand_sheet(table, seats=playing)  # the hands in force, read once for the checks
        if not sheet.hands and selectors.table_game_end(table, sheet) is None:  # a chombo may end it in hand 1
            raise TaikaiError("no_hands", _("no hand has been recorded at this table"), field="final_points")
        if table.status != Table.Status.FINISHED:
            cut_short = _game_cut_short_ruling(table, end_reason, end_note, sheet)
        points, lost = _final_points_from_hands(table, ruleset, sheet)
    else:
        points, lost = _final_points_given(final_points, players=len(playing), ruleset=ruleset)
        if selectors.table_hands_recorded(table) and event.entry_mode == event.EntryMode.HANDS:
            # hand by hand, the hands decide: scores given must be theirs
            sheet = selectors.table_hand_sheet(table, seats=playing)
            _refuse_scores_unlike_hands(points, _final_points_from_hands(table, ruleset, sheet)[0], playing)
    # Deposits lost at the end leave the table: placement uses the points as they stand, and the
    # engine is told how much left so that the table still balances.
    iter_points = iter(points)
    outcomes = [
        SeatOutcome(
            player_id=seat.entry_id, absence=seat.absence, final_points=next(iter_points) if seat.in_game else None
        )
        for seat in seats
    ]
    try:
        result = table_result(outcomes, table_rules(event), multiplier=table.multiplier, deposits_lost=lost)
    except TaikaiError as exc:
        raise exc.at("final_points") from exc
    clock_stop(table=table)  # the game is over: a clock still running stops, and nothing more is charged
    current = selectors.table_results_in_force(table)
    if current and all(
        _same_result(current.get(seat.pk), seat, r, result.multiplier)
        for seat, r in zip(seats, result.seats, strict=True)
    ):
        # confirmed already with this result (again, or after a reopening that changed nothing)
        if table.status != Table.Status.FINISHED:
            status_set(table, Table.Status.FINISHED)
            _record_game_cut_short(table, cut_short, user)
            _announce_table(table)
        return [current[seat.pk] for seat in seats]
    version = table.result_version + 1
    if current:  # the result in force is one no more (a first confirmation has none)
        SeatResult.objects.filter(table=table, is_current=True).update(is_current=False)
    rows = SeatResult.objects.bulk_create(
        SeatResult(
            table=table,
            seat=seat,
            entry=seat.entry,
            version=version,
            final_points=r.final_points,
            placement=r.placement,
            point_score=r.point_score,
            placement_points=r.placement_points,
            oka=r.oka,
            game_points=r.game_points,
            multiplier=result.multiplier,
            advanced=r.advanced,
            forfeit=r.forfeit,
            **authorship(user),
        )
        for seat, r in zip(seats, result.seats, strict=True)
    )
    table.result_version = version
    table.status = Table.Status.FINISHED
    table.save(update_fields=["result_version", "status"])
    _record_game_cut_short(table, cut_short, user)
    if table.round.status == Round.Status.PUBLISHED:
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.PLAYING)
    standings_schedule_recompute(event_id=event.id)
    _announce_table(table)
    return rows


def _announce_table(table: Table) -> None:
    table_announce(table)


RESULT_FIELDS = (
    "final_points",
    "placement",
    "point_score",
    "placement_points",
    "oka",
    "game_points",
    "advanced",
    "forfeit",
)


def _same_result(row: SeatResult | None, seat, computed, multiplier: int) -> bool:
    """Is the seat's result in force the one just computed?"""
    return (
        row is not None
        and row.entry_id == seat.entry_id
        and row.multiplier == multiplier
        and all(getattr(row, name) == getattr(computed, name) for name in RESULT_FIELDS)
    )


@transaction.atomic
def table_reopen(*, table: Table) -> Table:
    """Open a confirmed table for corrections; its confirmed results stay until the next confirmation.

    A completed round goes back to playing until it is completed again; later rounds keep their seating.
    """
    round_ = lock_round(table.round_id)
    table = lock_table(table.pk)
    require_table_unlocked(table)
    if round_.status == Round.Status.COMPLETED:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLAYING)
    status_set(table, Table.Status.PLAYING)
    _announce_table(table)
    return table
