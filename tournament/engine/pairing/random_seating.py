"""Random (no-repeat) seating for events without standings.

When the whole field plays at full tables and a known schedule exists for its size (``designs``:
16 × 5, 64 × 21, 256 × 85 at tables of four; 9, 27, 81 at tables of three), the engine derives the
whole schedule from (players, seed): a seeded relabelling of the design's points and a seeded order
of its rounds, with seat orders planned block by block (``winds.plan_seats``). Each call returns the
slice for this round as long as the history is the plan so far; otherwise (absences, a different
player count, rounds beyond the design, history edited by hand) it falls back to search: greedy
grouping of a seeded shuffle, then min-conflicts swaps against repeats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .designs import known_schedule
from .history import IndexedHistory
from .search import CostModel, min_conflicts
from .swiss import greedy_top_down
from .winds import plan_seats

SEARCH_STEPS_BASE = 4000


@dataclass(frozen=True)
class RandomSeating:
    """Groups for this round; ``seat_ordered`` when they already are in planned seat order."""

    groups: list[list[int]]
    seat_ordered: bool


def planned_schedule(
    players: Sequence[int], table_size: int, seed: int, rounds_needed: int
) -> list[list[list[int]]] | None:
    """The first ``rounds_needed`` rounds of the seeded plan for ``players``, seat-ordered, or None."""
    design = known_schedule(len(players), table_size)
    if design is None or rounds_needed > len(design):
        return None
    rng = random.Random(f"taikai-plan:{seed}:{len(players)}:{table_size}")
    labels = list(players)
    rng.shuffle(labels)
    round_order = list(range(len(design)))
    rng.shuffle(round_order)
    block_end = min(len(design), -(-rounds_needed // table_size) * table_size)
    rounds = [
        [[labels[point] for point in line] for line in design[index]] for index in round_order[:block_end]
    ]
    return plan_seats(rounds, table_size)[:rounds_needed]


def _as_round_set(tables: Sequence[Sequence[int]], ordered: bool) -> frozenset:
    return frozenset(tuple(table) if ordered else frozenset(table) for table in tables)


def _follow_plan(
    all_players: Sequence[int],
    active: Sequence[int],
    sizes: Sequence[int],
    table_size: int,
    history: IndexedHistory,
    seed: int,
) -> RandomSeating | None:
    if len(active) != len(all_players) or any(size != table_size for size in sizes):
        return None
    done = len(history.rounds)
    plan = planned_schedule(all_players, table_size, seed, done + 1)
    if plan is None:
        return None
    for past, planned in zip(history.rounds, plan, strict=False):
        if _as_round_set(past, False) != _as_round_set(planned, False):
            return None
    seats_followed = all(
        _as_round_set(past, True) == _as_round_set(planned, True)
        for past, planned in zip(history.rounds, plan, strict=False)
    )
    return RandomSeating(groups=[list(table) for table in plan[done]], seat_ordered=seats_followed)


def seat_random(
    all_players: Sequence[int],
    ordered_active: Sequence[int],
    sizes: Sequence[int],
    table_size: int,
    history: IndexedHistory,
    seed: int,
    deadline: float,
) -> RandomSeating:
    """Groups for this round; ``ordered_active`` is the seated players in a seeded random order."""
    planned = _follow_plan(all_players, ordered_active, sizes, table_size, history, seed)
    if planned is not None:
        return planned
    groups = greedy_top_down(ordered_active, sizes, history.meetings)
    model = CostModel.for_players(history.meetings, None)
    if any(model.table_cost(group) for group in groups):
        rng = random.Random(f"taikai-search:{seed}:{len(history.rounds)}")
        steps = SEARCH_STEPS_BASE + 20 * len(ordered_active)
        groups = min_conflicts(groups, model, rng, deadline, steps)
    return RandomSeating(groups=groups, seat_ordered=False)
