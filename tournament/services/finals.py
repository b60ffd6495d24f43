"""The final 決勝戦 (art. 40): after each confirmed final game, what happens next, and applying it.

The final lasts the event's ``final_games`` games (40① 規定対局): after an earlier one the same
finalists play the next; the decision (overtime, elimination, champion) comes after the last of them,
and after every game or overtime hand that follows. It is taken among the finalists not disqualified
(art. 43): a disqualified finalist is never champion and leaves the final. ``decision.reason`` says why,
for the referee's screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.finals import FinalistTotal, FinalsDecision, FinalsHandOutcome, decide_final
from tournament.engine.overtime import overtime_hand_at
from tournament.models import Entry, Event, Table
from tournament.services.locks import lock_event
from tournament.services.results import table_reopen
from tournament.services.rounds import round_complete, round_create
from tournament.services.standings import standings_rows


@dataclass(frozen=True)
class FinalsSituation:
    decision: FinalsDecision  # its ``reason`` is what the table screen shows
    totals: dict[int, Fraction]  # entry id -> overall total after the game
    names: dict[int, str]
    game: int = 1  # the final's game this table played (1, 2, …)
    games: int = 1  # the games prescribed (40① 規定対局)


def final_situation(*, table: Table) -> FinalsSituation:
    """Art. 40 applied to the table's last hand, with the finalists' overall totals (総合点)."""
    table = selectors.table_with_event(table.pk)
    if not table.round.is_final:
        raise TaikaiError("not_a_final", _("this table is not part of the final"), field="table")
    if table.status != Table.Status.FINISHED:
        raise TaikaiError("table_playing", _("confirm the game's result first"), field="table")
    event = table.round.event
    seats = selectors.table_game_seats(table)
    rows = {row["entry"]: row for row in standings_rows(event)}
    totals = {s.entry_id: Fraction(rows[s.entry_id]["total_points"]) for s in seats}
    eligible = {s.entry_id: s.entry.status != Entry.Status.DISQUALIFIED for s in seats}  # art. 43
    last = selectors.table_last_hand_in_force(table)
    winner = win_kind = None
    overtime_hand = None
    if last is not None and last.wins:
        first_win = last.wins[0]
        winner = seats[first_win["winner"]].entry_id
        win_kind = "tsumo" if first_win["discarder"] is None else "ron"
    if last is not None and last.overtime:
        overtime_count = selectors.overtime_seasons_played(table)
        overtime_hand = overtime_hand_at(overtime_count - 1)
    game = selectors.event_final_game_number(table.round)
    try:
        decision = decide_final(
            FinalsHandOutcome(
                totals=tuple(FinalistTotal(entry_id, total, eligible[entry_id]) for entry_id, total in totals.items()),
                winner=winner,
                win_kind=win_kind,
                overtime_hand=overtime_hand,
            ),
            mode=event.finals_mode,
            game=game,
            games=event.final_games,
        )
    except TaikaiError as exc:
        raise exc.at("table") from exc
    names = {s.entry_id: s.entry.player.display_name for s in seats}
    return FinalsSituation(decision, totals, names, game=game, games=event.final_games)


@transaction.atomic
def final_apply(*, table: Table, user=None) -> str:
    """Carry out the decision: seat the next prescribed game, reopen for overtime, seat the remaining
    finalists, or crown the champion (never a disqualified finalist, art. 43)."""
    situation = final_situation(table=table)
    decision = situation.decision
    names = situation.names
    event = lock_event(table.round.event_id)
    if decision.kind == "overtime":
        if not event.overtime_enabled:
            event.overtime_enabled = True
            event.save(update_fields=["overtime_enabled"])
        table_reopen(table=table)
        # Translators: hand names the overtime hand (1年春); reason is the rule's decision.
        return _("Overtime: play %(hand)s (%(reason)s).") % {
            "hand": decision.next_overtime_hand.label_ja,
            "reason": decision.reason,
        }
    if decision.kind == "directors_ruling":
        raise TaikaiError(
            "directors_ruling",
            _("a tie the rules do not settle: %(reason)s (art. 44)") % {"reason": decision.reason},
            field="table",
        )
    if decision.kind == "champion":
        champion = selectors.event_entries_by_id(event, [decision.player_id])[decision.player_id]
        if not champion.award_eligible:  # the engine never names one; a disqualification raced it
            raise TaikaiError(
                "champion_disqualified",
                _("%(player)s is disqualified (art. 43)") % {"player": champion.player},
                field="table",
            )
        round_complete(round_=table.round)
        event.champion_id = decision.player_id
        event.status = Event.Status.FINISHED
        event.save(update_fields=["champion", "status"])
        return _("%(player)s is the champion (%(reason)s).") % {
            "player": names[decision.player_id],
            "reason": decision.reason,
        }
    round_complete(round_=table.round)
    seats = [seat.entry_id for seat in selectors.table_seats(table)]
    remaining = [entry_id for entry_id in seats if entry_id in set(decision.remaining)]
    report = {"final": True, "game": situation.game + 1, "after": decision.kind}
    new_round = round_create(event=event, tables=[remaining], report=report, is_final=True)
    left = [
        _("%(player)s is disqualified (art. 43) and leaves the final.") % {"player": names[d]}
        for d in decision.disqualified
    ]
    if decision.kind == "next_game":
        over = _("Game %(game)s of %(games)s of the final is over; the next is seated in round %(round)s.") % {
            "game": situation.game,
            "games": situation.games,
            "round": new_round.number,
        }
        return " ".join([over, *left])
    sentences = []
    if decision.player_id not in decision.disqualified:
        sentences.append(_("%(player)s is eliminated.") % {"player": names[decision.player_id]})
    # Translators: count is the number of finalists who play on (2 or 3).
    play_on = _("%(count)s play on in round %(round)s.") % {
        "count": len(remaining),
        "round": new_round.number,
    }
    return " ".join([*sentences, *left, play_on])
