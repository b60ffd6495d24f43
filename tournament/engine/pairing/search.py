"""Cost of a grouping and the local searches that improve one by swapping players between tables.

The cost is lexicographic, folded into one integer (``CostModel``). First, repeated meetings: every
pair seated together again weighs the same, since the figure people count is the number of repeated
meetings. Then, when a ``winds.SeatBook`` is given and crosses come first (``cross_unit`` None):
players whose seat puts an even count of winds by the end out of reach (*crosses*), then a pair's
third and later meetings (so the most meetings of any pair stays low), then the spread of standings
ranks together with the lighter seat terms (detours, deficit). With ``cross_unit`` a number, a cross
weighs that many places of rank spread instead, after the later meetings. Each unit is larger than
anything the terms after it can change in one exchange of two players.

``meeting_cost`` (used by the greedy grouping and the random-event planner) folds the first two into
one scale: ``REPEAT_STEP`` for a second meeting, one more for each later one.

Searches are bounded twice: by a move budget, which keeps them deterministic for a seed, and by a
``time.monotonic()`` deadline, a safety net that only bites on oversized inputs or tiny limits.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .groups import GroupBook
from .winds import DEFICIT_CAP, SeatBook, split_cost

REPEAT_STEP = 4
DETOUR_UNIT = 1  # ranks of spread one detour weighs
DEFICIT_UNIT = 1  # ranks of spread one game of seat deficit weighs
ANNEAL_CHECK_EVERY = 256  # steps between two looks at the clock and two temperature updates
CLOCK_EVERY = 16  # min-conflicts steps between two looks at the clock
STALL_STEPS = 200  # min-conflicts steps without a new best before a few random exchanges
SHAKE_SWAPS = 2
LARGEST_TABLE = 4
EXACT_MAX_PLAYERS = 12  # ``exact_grouping`` tries every grouping up to this many players
GROUP_REPAIR_STEPS = 2_000


def meeting_cost(times_met: int) -> int:
    """Repeat units for seating together a pair that has already met ``times_met`` times."""
    return 0 if times_met == 0 else REPEAT_STEP + times_met - 1


@dataclass(frozen=True)
class CostModel:
    """Scores tables: ``repeat_unit`` per pair that met before + ``growth_unit`` per earlier meeting
    beyond the first + (with a seat book) ``cross_unit`` × crosses + ``detour_unit`` × detours +
    ``deficit_unit`` × seat deficit + (with ranks) rank spread.
    ``table_cost`` is compiled once per model: it runs inside every search step."""

    meetings: Sequence[dict[int, int]]
    rank: Sequence[int] | None
    repeat_unit: int
    seats: SeatBook | None = None
    cross_unit: int = 0
    detour_unit: int = 0
    deficit_unit: int = 0
    growth_unit: int = 0  # for each meeting of a pair beyond its second
    groups: GroupBook | None = None  # the rules keeping players apart (``groups``)
    avoid_unit: int = 0  # per avoid group holding a pair seated together
    never_unit: int = 0  # per never pair seated together: above everything else
    table_cost: Callable[[Sequence[int]], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_cost", self._compile())

    @classmethod
    def for_players(
        cls,
        meetings: Sequence[dict[int, int]],
        rank: Sequence[int] | None,
        seats: SeatBook | None = None,
        cross_unit: int | None = None,
        detour_unit: int = DETOUR_UNIT,
        deficit_unit: int = DEFICIT_UNIT,
        groups: GroupBook | None = None,
    ) -> CostModel:
        """Units so that each term outweighs whatever the terms after it can change in one exchange
        of two players (two tables: spread ``2 × players``, seat terms of ``2 × 4`` members, the
        meetings of ``2 × 6`` pairs). The order: repeated meetings; then, with ``cross_unit`` None,
        crosses, a pair's third and later meetings, the standings with detours and deficit; with a
        number (the places of rank spread one cross is worth), third and later meetings, then the
        standings weighed against all the seat terms. With ``groups``, an avoid pair weighs
        ``groups.weight`` repeats and a never pair more than anything one exchange can change."""
        spread_room = 2 * len(meetings) + 2 if rank is not None else 1
        if seats is None:
            cross_unit, detour_unit, deficit_unit = 0, 0, 0
        most = 1 + max((max(met.values()) for met in meetings if met), default=0)
        pairs = 2 * LARGEST_TABLE * (LARGEST_TABLE - 1) // 2
        small_room = 2 * LARGEST_TABLE * (detour_unit + DEFICIT_CAP * deficit_unit) + spread_room
        if cross_unit is None:
            growth_unit = small_room
            cross_unit = pairs * most * growth_unit + small_room if seats is not None else 0
            top_room = 2 * LARGEST_TABLE * cross_unit + pairs * most * growth_unit + small_room
        else:
            growth_unit = 2 * LARGEST_TABLE * cross_unit + small_room
            top_room = pairs * most * growth_unit + 2 * LARGEST_TABLE * cross_unit + small_room
        avoid_unit = never_unit = 0
        if groups is not None:
            avoid_unit = round(groups.weight * top_room)
            most_avoids = max(pair.avoids for pair in groups.classes)
            never_unit = pairs * (top_room + most * growth_unit + most_avoids * avoid_unit) + top_room
        return cls(
            meetings=meetings,
            rank=rank,
            repeat_unit=top_room,
            seats=seats,
            cross_unit=cross_unit,
            detour_unit=detour_unit,
            deficit_unit=deficit_unit,
            growth_unit=growth_unit,
            groups=groups,
            avoid_unit=avoid_unit,
            never_unit=never_unit,
        )

    @property
    def crosses_first(self) -> bool:
        """Whether crosses come before the standings (they outweigh a pair's later meetings)."""
        return self.seats is not None and self.cross_unit > self.growth_unit

    @property
    def widen_from(self) -> int:
        """Tables costing this much hold what the swaps must look far for: a repeat, or a cross when
        crosses come before the standings."""
        return self.cross_unit if self.crosses_first else self.repeat_unit

    @property
    def clean_below(self) -> int:
        """A table costing less than this (spread aside) holds no repeat and, with seats, no cross."""
        return self.cross_unit if self.seats is not None else self.repeat_unit

    def minimal_cost(self, size: int) -> int:
        """The best a table of ``size`` can score: no repeat, no seat cost, consecutive ranks."""
        return size - 1 if self.rank is not None else 0

    def _compile(self) -> Callable[[Sequence[int]], int]:
        """The table cost as a closure. The seat term is looked up by a multiset hash of the
        members' kinds (a sum of random 60-bit numbers, one per kind), so no sorting happens in the
        hot path; the exact cost is computed from the sorted kinds the first time a hash is seen."""
        meetings, rank, seats = self.meetings, self.rank, self.seats
        most = max((max(met.values()) for met in meetings if met), default=0)
        pair = [0] + [self.repeat_unit + (times - 1) * self.growth_unit for times in range(1, most + 1)]
        if self.groups is not None:
            meetings, pair = self.groups.coded(meetings, pair, self.avoid_unit, self.never_unit)
        seat_costs: dict[int, int] = {}
        cross_unit, detour_unit, deficit_unit = self.cross_unit, self.detour_unit, self.deficit_unit
        mark: list[int] | None = None
        if seats is not None:
            kind = seats.kind
            marks = random.Random("taikai-seat-kinds")
            kind_mark = [marks.getrandbits(60) for _ in seats.counts_of_kind]
            mark = [kind_mark[kind_of] for kind_of in kind]

        def seat_cost(key: int, members: Sequence[int]) -> int:
            crosses, detours, deficit = split_cost(seats.cost(members))
            value = seat_costs[key] = crosses * cross_unit + detours * detour_unit + deficit * deficit_unit
            return value

        def table_cost(members: Sequence[int]) -> int:
            size = len(members)
            if size == 4:
                a, b, c, d = members
                met_a, met_b, met_c = meetings[a], meetings[b], meetings[c]
                total = (
                    pair[met_a.get(b, 0)]
                    + pair[met_a.get(c, 0)]
                    + pair[met_a.get(d, 0)]
                    + pair[met_b.get(c, 0)]
                    + pair[met_b.get(d, 0)]
                    + pair[met_c.get(d, 0)]
                )
                if rank is not None:
                    ra, rb, rc, rd = rank[a], rank[b], rank[c], rank[d]
                    total += max(ra, rb, rc, rd) - min(ra, rb, rc, rd)
                if mark is not None:
                    key = mark[a] + mark[b] + mark[c] + mark[d]
                    known = seat_costs.get(key)
                    total += seat_cost(key, members) if known is None else known
                return total
            if size == 3:
                a, b, c = members
                met_a = meetings[a]
                total = pair[met_a.get(b, 0)] + pair[met_a.get(c, 0)] + pair[meetings[b].get(c, 0)]
                if rank is not None:
                    ra, rb, rc = rank[a], rank[b], rank[c]
                    total += max(ra, rb, rc) - min(ra, rb, rc)
                if mark is not None:
                    key = mark[a] + mark[b] + mark[c]
                    known = seat_costs.get(key)
                    total += seat_cost(key, members) if known is None else known
                return total
            total = 0
            for index, player in enumerate(members):
                met = meetings[player]
                for other in members[index + 1 :]:
                    total += pair[met.get(other, 0)]
            if rank is not None:
                ranks = [rank[player] for player in members]
                total += max(ranks) - min(ranks)
            if mark is not None:
                key = sum(mark[player] for player in members)
                known = seat_costs.get(key)
                total += seat_cost(key, members) if known is None else known
            return total

        return table_cost


def _best_swap(model: CostModel, first: list[int], second: list[int], cost_first: int, cost_second: int):
    """The best improving exchange of one player between two tables, or None."""
    best = None
    best_delta = 0
    before = cost_first + cost_second
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            new_first = [*first[:i], b, *first[i + 1 :]]
            new_second = [*second[:j], a, *second[j + 1 :]]
            delta = model.table_cost(new_first) + model.table_cost(new_second) - before
            if delta < best_delta:
                best_delta = delta
                best = (i, j)
    return best


def improve_by_swaps(
    groups: list[list[int]],
    model: CostModel,
    neighbours: Callable[[int, int], Iterable[int]],
    deadline: float,
    max_passes: int = 50,
) -> None:
    """First-improvement swaps between a table and its ``neighbours(i, reach)`` until none helps.

    Only tables above their minimal cost start a move. ``reach`` doubles for tables that still hold a
    repeat after a pass, so a stuck repeat can be traded with tables further away.
    """
    costs = [model.table_cost(group) for group in groups]
    reach = [1] * len(groups)
    for _ in range(max_passes):
        improved = False
        widened = False
        for index, group in enumerate(groups):
            if costs[index] <= model.minimal_cost(len(group)):
                continue
            if time.monotonic() > deadline:
                return
            for other in neighbours(index, reach[index]):
                if other == index:
                    continue
                swap = _best_swap(model, group, groups[other], costs[index], costs[other])
                if swap is None:
                    continue
                i, j = swap
                group[i], groups[other][j] = groups[other][j], group[i]
                costs[index] = model.table_cost(group)
                costs[other] = model.table_cost(groups[other])
                improved = True
                if costs[index] <= model.minimal_cost(len(group)):
                    break
            if costs[index] >= model.widen_from and reach[index] < len(groups):
                reach[index] = min(reach[index] * 2, len(groups))
                widened = True
        if not improved and not widened:
            return


def window_neighbours(count: int, base: int) -> Callable[[int, int], Iterable[int]]:
    """Tables within ``base × reach`` positions, nearest first (Swiss: swap with similar standings)."""

    def neighbours(index: int, reach: int) -> Iterable[int]:
        span = base * reach
        for distance in range(1, span + 1):
            if index - distance >= 0:
                yield index - distance
            if index + distance < count:
                yield index + distance

    return neighbours


def min_conflicts(
    groups: list[list[int]],
    model: CostModel,
    rng: random.Random,
    deadline: float,
    max_steps: int,
    conflict_from: int = 1,
    floor: int = 0,
) -> list[list[int]]:
    """Lower the cost by min-conflicts moves; returns the best grouping seen.

    A step takes a table costing at least ``conflict_from`` (holding a conflict: a repeat, or a cross
    when crosses come first) and, among exchanges of one of its members with a player at any other
    table, makes the one that lowers the total cost most: sideways and uphill moves allowed, a
    player just moved tabu for the next step unless the move beats the best seen, a few random
    exchanges after ``STALL_STEPS`` steps without a new best. So the search walks off plateaus that
    stop plain descent. It stops when no table holds a conflict or the total reaches ``floor``.
    """
    costs = [model.table_cost(group) for group in groups]
    total = sum(costs)
    best_total = total
    best = [list(group) for group in groups]
    tabu: dict[int, int] = {}
    since_best = 0
    table_cost = model.table_cost
    for step in range(max_steps):
        if best_total <= floor or (step % CLOCK_EVERY == 0 and time.monotonic() > deadline):
            break
        conflicted = [index for index, cost in enumerate(costs) if cost >= conflict_from]
        if not conflicted:
            break
        table_index = rng.choice(conflicted)
        group = groups[table_index]
        before_here = costs[table_index]
        best_move = None
        best_delta = None
        for position, player in enumerate(group):
            player_tabu = tabu.get(player, -1) > step
            for other_index, other in enumerate(groups):
                if other_index == table_index:
                    continue
                before = before_here + costs[other_index]
                for j, candidate in enumerate(other):
                    new_here = [*group[:position], candidate, *group[position + 1 :]]
                    new_there = [*other[:j], player, *other[j + 1 :]]
                    delta = table_cost(new_here) + table_cost(new_there) - before
                    if (player_tabu or tabu.get(candidate, -1) > step) and total + delta >= best_total:
                        continue
                    if best_delta is None or delta < best_delta or (delta == best_delta and rng.random() < 0.3):
                        best_delta = delta
                        best_move = (position, other_index, j)
        if best_move is None:
            continue
        position, other_index, j = best_move
        other = groups[other_index]
        player, candidate = group[position], other[j]
        group[position], other[j] = candidate, player
        costs[table_index] = table_cost(group)
        costs[other_index] = table_cost(other)
        total += best_delta
        tabu[player] = tabu[candidate] = step + 1
        since_best += 1
        if total < best_total:
            best_total = total
            best = [list(g) for g in groups]
            since_best = 0
        elif since_best >= STALL_STEPS:
            since_best = 0
            for _ in range(SHAKE_SWAPS):
                first, second = rng.sample(range(len(groups)), 2)
                i, j = rng.randrange(len(groups[first])), rng.randrange(len(groups[second]))
                groups[first][i], groups[second][j] = groups[second][j], groups[first][i]
                for index in (first, second):
                    total -= costs[index]
                    costs[index] = table_cost(groups[index])
                    total += costs[index]
    return best


def anneal(
    groups: list[list[int]],
    model: CostModel,
    partner: Callable[[int, random.Random], int],
    rng: random.Random,
    deadline: float,
    steps: int,
    temperatures: tuple[float, float],
    floor: int = 0,
) -> int:
    """Simulated annealing over exchanges of two players at ANY two tables, in place; returns the cost.

    A step takes a random seated player and the player ``partner(player, rng)`` proposes; the
    exchange is kept if it does not raise the total cost, or else with probability
    ``exp(-rise / temperature)``, the temperature falling geometrically from ``temperatures[0]`` to
    ``temperatures[1]`` over ``steps``. Temperatures are in cost units (one rank of spread), far
    below the repeat unit, so a repeat is practically never bought. The groups end as the best
    grouping seen: exchanges made after the last best are undone. The search stops early once the
    total reaches ``floor`` (a lower bound: nothing can do better).
    """
    table_of: dict[int, int] = {}
    for index, group in enumerate(groups):
        for player in group:
            table_of[player] = index
    players = list(table_of)
    costs = [model.table_cost(group) for group in groups]
    total = sum(costs)
    best_total = total
    since_best: list[tuple[int, int, int, int]] = []
    hot, cold = temperatures
    cooling = (cold / hot) ** (1 / max(1, steps))
    temperature = hot
    for step in range(steps):
        if step % ANNEAL_CHECK_EVERY == 0:
            if best_total <= floor or time.monotonic() > deadline:
                break
            temperature = hot * cooling**step
        player = players[rng.randrange(len(players))]
        other = partner(player, rng)
        first, second = table_of[player], table_of.get(other, -1)
        if second < 0 or first == second:
            continue
        group, other_group = groups[first], groups[second]
        i, j = group.index(player), other_group.index(other)
        group[i], other_group[j] = other, player
        new_first, new_second = model.table_cost(group), model.table_cost(other_group)
        rise = new_first + new_second - costs[first] - costs[second]
        if rise > 0 and rng.random() >= math.exp(-rise / temperature):
            group[i], other_group[j] = player, other
            continue
        costs[first], costs[second] = new_first, new_second
        table_of[player], table_of[other] = second, first
        total += rise
        since_best.append((first, i, second, j))
        if total < best_total:
            best_total = total
            since_best.clear()
    for first, i, second, j in reversed(since_best):
        groups[first][i], groups[second][j] = groups[second][j], groups[first][i]
    return best_total


def exact_grouping(players: Sequence[int], sizes: Sequence[int], model: CostModel) -> list[list[int]]:
    """The cheapest grouping of ``players`` at tables of ``sizes`` (in the order of ``sizes``), by
    branch and bound over every grouping: for up to ``EXACT_MAX_PLAYERS`` players."""
    table_cost = model.table_cost
    order = sorted(players)
    best: list = [None, []]

    def place(remaining: list[int], sizes_left: list[int], cost: int, tables: list[list[int]]) -> None:
        if best[0] is not None and cost >= best[0]:
            return
        if not remaining:
            best[0], best[1] = cost, [list(table) for table in tables]
            return
        leader, rest = remaining[0], remaining[1:]
        for size in sorted(set(sizes_left)):
            left = list(sizes_left)
            left.remove(size)
            for others in itertools.combinations(rest, size - 1):
                table = [leader, *others]
                taken = set(others)
                tables.append(table)
                place([p for p in rest if p not in taken], left, cost + table_cost(table), tables)
                tables.pop()

    place(order, list(sizes), 0, [])
    groups: list[list[int]] = []
    by_size: dict[int, list[list[int]]] = {}
    for table in best[1]:
        by_size.setdefault(len(table), []).append(table)
    for size in sizes:
        groups.append(by_size[size].pop())
    return groups


def keep_groups_apart(
    model: CostModel, groups: list[list[int]], deadline: float, rng: random.Random, *, conflict_from=None
) -> list[list[int]]:
    """``groups`` with never pairs kept apart as far as the searches can: when more never pairs sit
    together than ``GroupBook.never_bound``, every grouping is tried (small fields, ``exact_grouping``)
    or min-conflicts moves start from the tables holding one (or costing ``conflict_from``)."""
    book = model.groups
    if book is None:
        return groups
    seated = [player for group in groups for player in group]
    sizes = [len(group) for group in groups]
    too_many = book.has_never and book.never_count(groups) > book.never_bound(seated, sizes)
    if not too_many and conflict_from is None:
        return groups
    if too_many and len(seated) <= EXACT_MAX_PLAYERS:
        exact = exact_grouping(seated, sizes, model)
        if sum(map(model.table_cost, exact)) < sum(map(model.table_cost, groups)):
            return exact
        return groups
    threshold = model.never_unit if too_many else conflict_from
    if not any(model.table_cost(group) >= threshold for group in groups) or len(groups) < 2:
        return groups
    return min_conflicts(groups, model, rng, deadline, GROUP_REPAIR_STEPS, threshold)
