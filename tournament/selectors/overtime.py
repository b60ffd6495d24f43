"""Overtime 延長戦 outside the finals (art. 39): the engine's reading of a table's overtime hands, and what
the referee's screen says of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from tournament.engine.overtime import OvertimeHandResult, OvertimeProgress, overtime_progress
from tournament.hand_names import overtime_hand_label_read
from tournament.models import (
    HandVersion,
    Seat,
    Table,
)
from tournament.selectors.hands import table_hands_in_force
from tournament.selectors.tables import seats_playing_hand, table_game_seats


def table_overtime_progress(table: Table, *, closed: bool | None = None) -> OvertimeProgress:
    """The engine's reading of the table's overtime hands (art. 39 ②③): going on, or how it ended.
    ``closed`` (default: as the table records) says the directors closed it (art. 44)."""
    return game_overtime_progress(table, table_game_seats(table), table_hands_in_force(table), closed=closed)


def game_overtime_progress(
    table: Table, seats: Sequence[Seat], hands: Sequence[HandVersion], *, closed: bool | None = None
) -> OvertimeProgress:
    """``table_overtime_progress`` from the game's ``seats`` and its ``hands`` in force, in play order, read
    already (a hand write has them): no query."""
    points = [table.round.event.ruleset.start_points] * len(seats)
    results = []
    for version in hands:
        points = [p + d for p, d in zip(points, version.deltas, strict=False)]
        if version.overtime:
            results.append(
                OvertimeHandResult(
                    winners=tuple(w["winner"] for w in version.wins),
                    points_after=tuple(points),
                    playing=tuple(seats_playing_hand(seats, version.hand.number)),
                    replayed=version.outcome == HandVersion.Outcome.REPLAYED,
                )
            )
    if closed is None:
        closed = table.overtime_state == Table.Overtime.CLOSED
    return overtime_progress(results, closed_by_organizer=closed)


@dataclass(frozen=True)
class OvertimeStatus:
    """What the referee's screen says about a table's overtime 延長戦 (art. 39), as the engine decided."""

    state: str  # a Table.Overtime value
    label: str  # the state for people
    sentence: str
    year: int = 0  # the year of the last overtime hand played (0: none)
    multiplier: int = 1  # placement points × this (art. 39 ③)
    next_hand: str = ""  # the next overtime hand, e.g. "1年夏 (Y1 Summer)", while it goes on
    winner: str = ""  # the player who met the win condition

    @property
    def playing(self) -> bool:
        return self.state == Table.Overtime.PLAYING


def _overtime_hand_name(hand) -> str:
    """An overtime hand by its Japanese name (1年春), with its year and season in the reader's words after it
    where the reader does not read kanji (1年春 (Y1 Spring))."""
    return overtime_hand_label_read(hand.label_ja, hand.label_en)


OVERTIME_SENTENCES = {
    "none": gettext_lazy("No overtime (art. 39) at this table."),
    "playing": gettext_lazy(
        "Overtime (art. 39) goes on: next is %(next_hand)s, placement points ×%(multiplier)s so far. It ends "
        "when a winner ends a hand above every other player, or a hand ends without a winner."
    ),
    "won_with_condition": gettext_lazy(
        "Overtime over after %(last)s: %(winner)s won it above every other player (art. 39 ②). "
        "Placement points ×%(multiplier)s."
    ),
    "no_winner": gettext_lazy(
        "Overtime over after %(last)s: the hand ended without a winner (art. 39 ②). Placement points ×%(multiplier)s."
    ),
    "closed_by_organizer": gettext_lazy(
        "Overtime closed by the directors after %(last)s (art. 44). Placement points ×%(multiplier)s."
    ),
    "final": gettext_lazy(
        "Overtime of the final: after each overtime hand, confirm the result; the final's decision "
        "(art. 40) says whether it goes on."
    ),
}


def table_overtime_status(table: Table) -> OvertimeStatus:
    """The table's overtime as the referee's screen shows it: its state and one sentence."""
    if table.round.is_final:
        state = Table.Overtime.FINAL if table.overtime_year else Table.Overtime.NONE
        return OvertimeStatus(
            state,
            Table.Overtime(state).label,
            str(OVERTIME_SENTENCES[state]),
            year=table.overtime_year,
            multiplier=table.multiplier,
        )
    progress = table_overtime_progress(table)
    winner = ""
    if progress.winner is not None:
        winner = str(table_game_seats(table)[progress.winner].entry.player)
    last = progress.last_hand
    next_hand = _overtime_hand_name(progress.next_hand) if progress.next_hand else ""
    sentence = str(OVERTIME_SENTENCES[progress.state]) % {
        "next_hand": next_hand,
        "multiplier": progress.multiplier,
        "winner": winner,
        "last": _overtime_hand_name(last) if last else "",
    }
    return OvertimeStatus(
        progress.state,
        Table.Overtime(progress.state).label,
        sentence,
        year=last.year if last else 0,
        multiplier=progress.multiplier,
        next_hand=next_hand,
        winner=winner,
    )
