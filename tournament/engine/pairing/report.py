"""The seating quality report: the event so far, this round included.

* ``repeat_pairs``: extra meetings summed over pairs (a pair met three times counts 2);
* ``max_meetings``: the most times any pair has met;
* ``seat_imbalance_max``: the largest (max − min) of any player's East/South/West(/North) counts;
* ``same_table_as_last_round``: players at the same table number as in the previous round;
* ``rank_spread_mean``: mean over this round's tables of (max rank − min rank), ranks being positions
  among the active players in standings order; None without standings;
* ``seat_above_ideal``: players whose seat counts are more than 1 apart;
* ``seat_trade``: this round's seats measured against an even count by the end of the event
  (``winds.seat_outcome``): players ``crossed`` (their seat puts an even end out of reach although
  another seat at their table would not), ``short_table`` (only North would have kept it, at a
  three-player table), ``out_of_reach`` (no seat would have: earlier byes, absences or trades),
  ``detoured`` (more than 1 apart for now, to be evened out in the rounds left); and what the grouping
  weighed seats against: ``traded_for`` is ``"repeats"`` (seats come right after repeated meetings,
  before the standings), ``"standings"`` (a crossed player weighs ``cross_ranks`` places of rank
  spread) or ``"interval"`` (the grouping is fixed by the step; only the seat order is chosen);
* ``groups`` (only when the request has groups or forbidden pairs; ``GroupReport``): per kind (team,
  club, country, custom, and ``forbidden`` for forbidden pairs) the pairs of a group seated together
  this round (``pairs``, summed over the groups of the kind), over the event so far, this round
  included (``event_pairs``), and the fewest pairs this round's tables allow (``lower_bound``,
  ``groups.pairs_lower_bound`` summed over the groups); ``breaks``: every never pair seated together
  this round, with the groups (indices in the request's ``groups``) and whether it is a forbidden
  pair; ``never_pairs`` counts them once per rule and ``never_lower_bound`` is its lower bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .groups import FORBIDDEN, GroupBook, pairs_lower_bound, pairs_together
from .history import IndexedHistory
from .winds import seat_outcome, seat_spread

SPREAD_DECIMALS = 4


@dataclass(frozen=True)
class SeatTrade:
    """This round's seats against an even count of winds by the end of the event (module docstring)."""

    crossed: int = 0
    short_table: int = 0
    out_of_reach: int = 0
    detoured: int = 0
    traded_for: str | None = None
    cross_ranks: int | None = None

    def as_dict(self) -> dict:
        return {
            "crossed": self.crossed,
            "short_table": self.short_table,
            "out_of_reach": self.out_of_reach,
            "detoured": self.detoured,
            "traded_for": self.traded_for,
            "cross_ranks": self.cross_ranks,
        }


@dataclass(frozen=True)
class GroupBreak:
    """A never pair seated together: its two players (ids), its groups, whether it is forbidden."""

    players: tuple
    groups: tuple[int, ...]
    forbidden: bool

    def as_dict(self) -> dict:
        return {"players": list(self.players), "groups": list(self.groups), "forbidden": self.forbidden}


@dataclass(frozen=True)
class GroupReport:
    kinds: tuple[tuple[str, int, int, int], ...]  # (kind, pairs, event_pairs, lower_bound)
    breaks: tuple[GroupBreak, ...]
    never_pairs: int
    never_lower_bound: int

    def as_dict(self) -> dict:
        return {
            "kinds": {
                kind: {"pairs": pairs, "event_pairs": event, "lower_bound": bound}
                for kind, pairs, event, bound in self.kinds
            },
            "breaks": [found.as_dict() for found in self.breaks],
            "never_pairs": self.never_pairs,
            "never_lower_bound": self.never_lower_bound,
        }


@dataclass(frozen=True)
class QualityReport:
    repeat_pairs: int
    max_meetings: int
    seat_imbalance_max: int
    same_table_as_last_round: int
    rank_spread_mean: Fraction | None
    seat_above_ideal: int = 0
    seat_trade: SeatTrade = SeatTrade()
    groups: GroupReport | None = None

    def as_dict(self) -> dict:
        spread = None if self.rank_spread_mean is None else round(float(self.rank_spread_mean), SPREAD_DECIMALS)
        answer = {
            "repeat_pairs": self.repeat_pairs,
            "max_meetings": self.max_meetings,
            "seat_imbalance_max": self.seat_imbalance_max,
            "same_table_as_last_round": self.same_table_as_last_round,
            "rank_spread_mean": spread,
            "seat_above_ideal": self.seat_above_ideal,
            "seat_trade": self.seat_trade.as_dict(),
        }
        if self.groups is not None:
            answer["groups"] = self.groups.as_dict()
        return answer


def quality_report(
    history: IndexedHistory,
    tables: Sequence[Sequence[int]],
    rank: Sequence[int | None] | None,
    rounds_left: int = 0,
    traded_for: str | None = None,
    cross_ranks: int | None = None,
) -> QualityReport:
    """Report on ``history`` plus this round's ``tables`` (seat order, in table-number order);
    ``rounds_left`` rounds follow this one, and the grouping put seats after ``traded_for``."""
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
    outcomes = {"crossed": 0, "short_table": 0, "out_of_reach": 0, "detoured": 0}
    for table in tables:
        for seat, player in enumerate(table):
            outcome = seat_outcome(tuple(seat_counts[player]), len(table), seat, rounds_left)
            for name in outcomes:
                outcomes[name] += getattr(outcome, name)
            seat_counts[player][seat] += 1
    spreads_of_seats = [seat_spread(counts) for counts in seat_counts]
    imbalance = max(spreads_of_seats, default=0)
    above_ideal = sum(1 for spread in spreads_of_seats if spread > 1)
    trade = SeatTrade(**outcomes, traded_for=traded_for, cross_ranks=cross_ranks)

    same_table = sum(
        1 for number, table in enumerate(tables, start=1) for player in table if history.last_table[player] == number
    )

    spread_mean = None
    if rank is not None and tables:
        spreads = []
        for table in tables:
            ranks = [rank[player] for player in table]
            spreads.append(max(ranks) - min(ranks))
        spread_mean = Fraction(sum(spreads), len(spreads))
    return QualityReport(repeat_pairs, max_meetings, imbalance, same_table, spread_mean, above_ideal, trade)


def group_report(
    book: GroupBook, history: IndexedHistory, tables: Sequence[Sequence[int]], ids: Sequence
) -> GroupReport:
    """The ``groups`` part of the report (module docstring); ``ids`` maps indices back to ids."""
    sizes = [len(table) for table in tables]
    now = {player: index for index, table in enumerate(tables) for player in table}
    earlier = [
        {player: index for index, table in enumerate(round_tables) for player in table}
        for round_tables in history.rounds
    ]
    rules = [(group.kind, group.members, group.policy == "never") for group in book.groups]
    rules += [(FORBIDDEN, pair, True) for pair in book.forbidden]
    counts: dict[str, list[int]] = {}
    never_pairs = never_bound = 0
    for kind, members, never in rules:
        pairs = pairs_together(members, now)
        bound = pairs_lower_bound(sum(1 for player in members if player in now), sizes)
        total = counts.setdefault(kind, [0, 0, 0])
        total[0] += pairs
        total[1] += pairs + sum(pairs_together(members, table_of) for table_of in earlier)
        total[2] += bound
        if never:
            never_pairs += pairs
            never_bound += bound
    breaks = []
    for first, second in book.never_breaks(tables):
        in_groups = tuple(
            index
            for index, group in enumerate(book.groups)
            if group.policy == "never" and first in group.members and second in group.members
        )
        forbidden = any({first, second} == set(pair) for pair in book.forbidden)
        breaks.append(GroupBreak((ids[first], ids[second]), in_groups, forbidden))
    kinds = tuple((kind, *counts[kind]) for kind in sorted(counts))
    return GroupReport(kinds, tuple(breaks), never_pairs, never_bound)
