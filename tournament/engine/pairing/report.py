"""The seating quality report: the event so far, this round included.

* ``repeat_pairs``: extra meetings summed over pairs (a pair met three times counts 2);
* ``max_meetings``: the most times any pair has met;
* ``seat_imbalance_max``: the largest (max − min) of any player's East/South/West(/North) counts;
* ``same_table_as_last_round``: players at the same table number as in the previous round;
* ``rank_spread_mean``: mean over this round's tables of (max rank − min rank), ranks being positions
  among the active players in standings order; None without standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .history import IndexedHistory

SPREAD_DECIMALS = 4


@dataclass(frozen=True)
class QualityReport:
    repeat_pairs: int
    max_meetings: int
    seat_imbalance_max: int
    same_table_as_last_round: int
    rank_spread_mean: Fraction | None

    def as_dict(self) -> dict:
        spread = (
            None if self.rank_spread_mean is None else round(float(self.rank_spread_mean), SPREAD_DECIMALS)
        )
        return {
            "repeat_pairs": self.repeat_pairs,
            "max_meetings": self.max_meetings,
            "seat_imbalance_max": self.seat_imbalance_max,
            "same_table_as_last_round": self.same_table_as_last_round,
            "rank_spread_mean": spread,
        }


def quality_report(
    history: IndexedHistory, tables: Sequence[Sequence[int]], rank: Sequence[int | None] | None
) -> QualityReport:
    """Report on ``history`` plus this round's ``tables`` (seat order, in table-number order)."""
    this_round: dict[int, dict[int, int]] = {}
    for table in tables:
        for player in table:
            this_round[player] = {other: 1 for other in table if other != player}
    repeat_pairs = 0
    max_meetings = 0
    for player, met in enumerate(history.meetings):
        new = this_round.get(player, {})
        for other, times in met.items():
            if other > player:
                total = times + new.get(other, 0)
                repeat_pairs += total - 1
                max_meetings = max(max_meetings, total)
        for other in new:
            if other > player and other not in met:
                max_meetings = max(max_meetings, 1)

    seat_counts = [list(counts) for counts in history.seat_counts]
    for table in tables:
        for seat, player in enumerate(table):
            seat_counts[player][seat] += 1
    imbalance = max((max(counts) - min(counts) for counts in seat_counts), default=0)

    same_table = sum(
        1
        for number, table in enumerate(tables, start=1)
        for player in table
        if history.last_table[player] == number
    )

    spread_mean = None
    if rank is not None and tables:
        spreads = []
        for table in tables:
            ranks = [rank[player] for player in table]
            spreads.append(max(ranks) - min(ranks))
        spread_mean = Fraction(sum(spreads), len(spreads))
    return QualityReport(repeat_pairs, max_meetings, imbalance, same_table, spread_mean)
