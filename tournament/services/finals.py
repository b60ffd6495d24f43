"""The final 決勝戦 (art. 40): after each confirmed final game, what happens next, and applying it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.finals import FinalistTotal, FinalsDecision, FinalsHandOutcome, decide_final
from tournament.engine.overtime import overtime_hand_at
from tournament.models import Event, Table
from tournament.services.locks import lock_event
from tournament.services.results import table_reopen
from tournament.services.rounds import round_complete, round_create
from tournament.services.standings import standings_rows


@dataclass(frozen=True)
class FinalsSituation:
    decision: FinalsDecision
    totals: dict[int, Fraction]  # entry id -> overall total after the game
    names: dict[int, str]


def final_situation(*, table: Table) -> FinalsSituation:
    """Art. 40 applied to the table's last hand, with the finalists' overall totals (総合点)."""
    table = selectors.table_with_event(table.pk)
    if not table.round.is_final:
        raise TaikaiError("not_a_final", "this table is not part of the final", field="table")
    if table.status != Table.Status.FINISHED:
        raise TaikaiError("table_playing", "confirm the game's result first", field="table")
    event = table.round.event
    seats = selectors.table_game_seats(table)
    rows = {row["entry"]: row for row in standings_rows(event)}
    totals = {s.entry_id: Fraction(rows[s.entry_id]["total_points"]) for s in seats}
    last = selectors.table_last_hand(table)
    winner = win_kind = None
    overtime_hand = None
    if last is not None and last.wins:
        first_win = last.wins[0]
        winner = seats[first_win["winner"]].entry_id
        win_kind = "tsumo" if first_win["discarder"] is None else "ron"
    if last is not None and last.overtime:
        overtime_count = selectors.overtime_seasons_played(table)
        overtime_hand = overtime_hand_at(overtime_count - 1)
    try:
        decision = decide_final(
            FinalsHandOutcome(
                totals=tuple(FinalistTotal(entry_id, total) for entry_id, total in totals.items()),
                winner=winner, win_kind=win_kind, overtime_hand=overtime_hand,
            ),
            mode=event.finals_mode,
        )  # fmt: skip
    except TaikaiError as exc:
        raise exc.at("table") from exc
    return FinalsSituation(decision, totals, {s.entry_id: s.entry.player.display_name for s in seats})


@transaction.atomic
def final_apply(*, table: Table, user=None) -> str:
    """Carry out the decision: reopen for overtime, seat the remaining finalists, or crown the champion."""
    situation = final_situation(table=table)
    decision = situation.decision
    event = lock_event(table.round.event_id)
    if decision.kind == "overtime":
        if not event.overtime_enabled:
            event.overtime_enabled = True
            event.save(update_fields=["overtime_enabled"])
        table_reopen(table=table)
        return f"Overtime: play {decision.next_overtime_hand.label_ja} ({decision.reason})."
    if decision.kind == "directors_ruling":
        raise TaikaiError(
            "directors_ruling", f"a tie the rules do not settle: {decision.reason} (art. 44)", field="table"
        )
    round_complete(round_=table.round)
    if decision.kind == "champion":
        event.champion_id = decision.player_id
        event.status = Event.Status.FINISHED
        event.save(update_fields=["champion", "status"])
        return f"{situation.names[decision.player_id]} is the champion."
    seats = [seat.entry_id for seat in selectors.table_seats(table)]
    remaining = [entry_id for entry_id in seats if entry_id in set(decision.remaining)]
    new_round = round_create(event=event, tables=[remaining], report={"final": True}, is_final=True)
    return f"{situation.names[decision.player_id]} is eliminated; {len(remaining)} play on in round {new_round.number}."
