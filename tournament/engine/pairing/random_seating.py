"""Random (no-repeat) seating for events without standings.

When the whole field plays at full tables and a known schedule exists for its size (``designs``:
16 × 5, 32 × 10, 64 × 21, 256 × 85 at tables of four; 9, 27, 81 at tables of three), the engine derives the
whole schedule from (players, seed): a seeded relabelling of the design's points and a seeded order
of its rounds, with seat orders planned block by block (``winds.plan_seats``). Each call returns the
slice for this round as long as the history is the plan so far; otherwise (absences, a different
player count, rounds beyond the design, history edited by hand) it plans the rounds left by search
(``planner``) and returns the first; when the pairs not met yet are too few to hold the rounds left,
repeats cannot be avoided and this round alone is searched (greedy grouping of a seeded shuffle,
then min-conflicts swaps).

With groups (``groups.GroupBook``) the design's points are relabelled so that groups meet as little as
possible in the rounds the event will play (``groups.place_on_design``; all but one round of the
design when the request does not say how many rounds there are); a design that would still seat a
never pair together is left for the search, which weighs the rules in every planned round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .designs import known_schedule
from .groups import GroupBook, place_on_design
from .history import IndexedHistory
from .planner import plan_random
from .search import CostModel, min_conflicts
from .swiss import greedy_top_down
from .tables import choose_byes
from .winds import SeatBook, plan_seats, short_tables_weigh_as_crosses

MAX_PLANNED_ROUNDS = 16
SEARCH_STEPS_BASE = 4000
CROWDED_SHARE = 0.1


@dataclass(frozen=True)
class RandomSeating:
    """Groups for this round; ``seat_ordered`` when they already are in planned seat order."""

    groups: list[list[int]]
    seat_ordered: bool


def planned_schedule(
    players: Sequence[int],
    table_size: int,
    seed: int,
    rounds_needed: int,
    rules: GroupBook | None = None,
    event_rounds: int | None = None,
) -> list[list[list[int]]] | None:
    """The first ``rounds_needed`` rounds of the seeded plan for ``players``, seat-ordered, or None
    (with ``rules``, also when the design cannot keep never pairs apart over ``event_rounds``)."""
    design = known_schedule(len(players), table_size)
    if design is None or rounds_needed > len(design):
        return None
    rng = random.Random(f"taikai-plan:{seed}:{len(players)}:{table_size}")
    labels = list(players)
    rng.shuffle(labels)
    round_order = list(range(len(design)))
    rng.shuffle(round_order)
    if rules is not None:
        played = len(design) - 1 if event_rounds is None else event_rounds  # unknown: keep one spare
        played = min(len(design), max(played, rounds_needed))
        spare = design[round_order[played]] if played < len(design) else None
        labels, breaks = place_on_design(
            [design[index] for index in round_order[:played]],
            spare,
            labels,
            rules,
            random.Random(f"taikai-plan-groups:{seed}:{len(players)}"),
        )
        if breaks:
            return None
    block_end = min(len(design), -(-rounds_needed // table_size) * table_size)
    rounds = [[[labels[point] for point in line] for line in design[index]] for index in round_order[:block_end]]
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
    rules: GroupBook | None,
    event_rounds: int | None,
) -> RandomSeating | None:
    if len(active) != len(all_players) or any(size != table_size for size in sizes):
        return None
    done = len(history.rounds)
    plan = planned_schedule(all_players, table_size, seed, done + 1, rules, event_rounds)
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


def _seated_by_round(
    ordered_active: Sequence[int], seated: Sequence[int], bye_counts: Sequence[int], rounds: int
) -> list[list[int]]:
    """Who plays in each of ``rounds`` rounds, the first being ``seated``: later byes go to the
    players with the fewest (``tables.choose_byes``)."""
    byes = len(ordered_active) - len(seated)
    seated_by_round = [list(seated)]
    counts = list(bye_counts)
    sitting_out = set(ordered_active) - set(seated)
    for _ in range(rounds - 1):
        for player in sitting_out:
            counts[player] += 1
        sitting_out = set(choose_byes(ordered_active, counts, byes))
        seated_by_round.append([player for player in ordered_active if player not in sitting_out])
    return seated_by_round


def _horizon(rounds_left: int) -> int:
    return 1 + min(rounds_left, MAX_PLANNED_ROUNDS - 1)


def _first_round_plan(
    ordered_active: Sequence[int],
    seated: Sequence[int],
    sizes: Sequence[int],
    history: IndexedHistory,
    seed: int,
    deadline: float,
    rounds_left: int,
    rules: GroupBook | None,
) -> list[list[list[int]]] | None:
    """The rest of the plan made in round 1 (this round first), if the same players were active then
    and the history so far is that plan; else None. Round 1's plan is computed again here exactly as
    it was then (same seeded order, byes and step budget)."""
    done = len(history.rounds)
    if not done or done + 1 > _horizon(done + rounds_left):
        return None
    active = sorted(ordered_active)
    random.Random(f"taikai-seat:{seed}:0").shuffle(active)
    byes = len(ordered_active) - sum(sizes)
    first_seated = [
        player for player in active if player not in set(choose_byes(active, [0] * len(history.bye_counts), byes))
    ]
    seated_by_round = _seated_by_round(
        active, first_seated, [0] * len(history.bye_counts), _horizon(done + rounds_left)
    )
    no_history = [{} for _ in history.meetings]
    rng = random.Random(f"taikai-plan-search:{seed}:0")
    plan = plan_random(seated_by_round, sizes, no_history, None, rng, deadline, rules=rules)
    for past, planned in zip(history.rounds, plan.rounds, strict=False):
        if _as_round_set(past, False) != _as_round_set(planned, False):
            return None
    if sorted(player for table in plan.rounds[done] for player in table) != sorted(seated):
        return None
    return plan.rounds[done:]


def seat_random(
    all_players: Sequence[int],
    ordered_active: Sequence[int],
    seated: Sequence[int],
    sizes: Sequence[int],
    table_size: int,
    history: IndexedHistory,
    seed: int,
    deadline: float,
    rounds_left: int = 0,
    rules: GroupBook | None = None,
    event_rounds: int | None = None,
) -> RandomSeating:
    """Groups for this round. ``ordered_active`` is the active players in a seeded random order and
    ``seated`` those of them who play this round (the others have a bye); later rounds are assumed to
    have the same active players, byes going to those with the fewest. ``rules``: groups and forbidden
    pairs; ``event_rounds``: the event's rounds, when the request says."""
    planned = _follow_plan(all_players, seated, sizes, table_size, history, seed, rules, event_rounds)
    if planned is not None:
        return planned
    seats = SeatBook(history.seat_counts, rounds_left, short_tables_weigh_as_crosses(sizes)) if history.rounds else None
    horizon = _horizon(rounds_left)
    if not _room_for_new_pairs(ordered_active, sizes, history, horizon):
        return RandomSeating(
            groups=_this_round_only(seated, sizes, history, seats, seed, deadline, rules), seat_ordered=False
        )
    rest = _first_round_plan(ordered_active, seated, sizes, history, seed, deadline, rounds_left, rules)
    rng = random.Random(f"taikai-plan-search:{seed}:{len(history.rounds)}")
    if rest is not None:
        # the plan goes on; the search only looks after this round's seats (and any repeat left)
        seated_by_round = [[player for table in tables for player in table] for tables in rest]
        plan = plan_random(seated_by_round, sizes, history.meetings, seats, rng, deadline, start=rest, rules=rules)
        return RandomSeating(groups=plan.groups, seat_ordered=False)
    seated_by_round = _seated_by_round(ordered_active, seated, history.bye_counts, horizon)
    plan = plan_random(seated_by_round, sizes, history.meetings, seats, rng, deadline, rules=rules)
    return RandomSeating(groups=plan.groups, seat_ordered=False)


def _room_for_new_pairs(active: Sequence[int], sizes: Sequence[int], history: IndexedHistory, horizon: int) -> bool:
    """Whether nearly every player (all but ``CROWDED_SHARE``) has enough opponents not met yet for the
    meetings of the rounds planned; otherwise repeats cannot be avoided, and this round is searched
    alone (a plan's search would be spent on the far rounds for nothing)."""
    active_set = set(active)
    count = len(active)
    seated = sum(sizes)
    per_round = sum(size * (size - 1) for size in sizes) / seated  # meetings a seated player has
    need = horizon * per_round
    crowded = 0
    for player in active:
        met = sum(1 for other in history.meetings[player] if other in active_set)
        if met + need > count - 1:
            crowded += 1
    return crowded <= CROWDED_SHARE * count


def _this_round_only(
    seated: Sequence[int],
    sizes: Sequence[int],
    history: IndexedHistory,
    seats: SeatBook | None,
    seed: int,
    deadline: float,
    rules: GroupBook | None,
) -> list[list[int]]:
    """Greedy grouping of the seeded order, then min-conflicts moves against this round's cost."""
    groups = greedy_top_down(seated, sizes, history.meetings)
    model = CostModel.for_players(history.meetings, None, groups=rules)
    if any(model.table_cost(group) for group in groups):
        rng = random.Random(f"taikai-search:{seed}:{len(history.rounds)}")
        steps = SEARCH_STEPS_BASE + 20 * len(seated)
        groups = min_conflicts(groups, model, rng, deadline, steps)
    return groups
