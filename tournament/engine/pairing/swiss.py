"""Swiss draw (スイスドロー, seed 004 art. 41): players of similar standing at one table, top first.

What a table costs (``search.CostModel``), most important first: repeated meetings; then, in fields
up to ``STRICT_SEATS_MAX_PLAYERS``, players whose seat would put an even count of winds by the end of
the event out of reach although another seat at the table would not (a *cross*, ``winds.SeatBook``),
a pair's later meetings, and the spread of standings ranks with the lighter seat terms. Larger fields
weigh a cross as ``CROSS_RANKS`` places of rank spread: there the players needing each seat are
scattered through the standings at random, so keeping every one of them even would cost a spread
that grows with the field.

1. Top-down grouping: each table is led by the best player still unseated and takes its other
   members from a short window of ranks below. Up to ``BEAM_MAX_PLAYERS`` players a beam search
   weighs the choices (``beam_top_down``; past its share of the time, its best state is completed
   greedily); larger fields choose table by table the cheapest companions in the window
   (``greedy_by_cost``).
2. Repair: swaps between neighbouring tables lower the cost; a table still holding a repeat (or a
   cross, when crosses come first) looks further and further away (``search.improve_by_swaps``).
3. Annealing (fields up to ``ANNEAL_MAX_PLAYERS``): exchanges between ANY two tables, half of them
   proposed between players a few ranks apart, with a step budget (reproducible for a seed) and the
   deadline as a safety net; crosses left after it get min-conflicts moves (``search.min_conflicts``).
   Tables are then listed by their best player.

Seats aim at an even count by the end of the event (``rounds_left``), not after every round: in an
8-round event at tables of four only rounds 7 and 8 are tight (each player needs one of two seats,
then one exact seat); earlier, a player may sit a seat twice before another at a small cost (a
*detour*), which keeps the standings tight.

Ranks are positions among the players seated this round, so strict top-down grouping of full tables
has a spread of exactly ``table_size - 1``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

from .groups import GroupBook
from .search import (
    CostModel,
    anneal,
    improve_by_swaps,
    keep_groups_apart,
    meeting_cost,
    min_conflicts,
    window_neighbours,
)
from .winds import SeatBook, short_tables_weigh_as_crosses

GREEDY_WINDOW = 16
COST_WINDOW = 8  # ranks below the leader that ``greedy_by_cost`` considers
SWAP_REACH = 2
BEAM_MAX_PLAYERS = 1500
BEAM_TIME_SHARE = 0.6  # of the search time; the rest stays for the repair swaps
BEAM_WINDOW = 8
BEAM_WIDTH = 24
BEAM_WIDE_MAX_PLAYERS = 400  # larger fields keep BEAM_NARROW states per rank, to stay in time
BEAM_NARROW = 8
ANNEAL_MAX_PLAYERS = 600
ANNEAL_STEPS_PER_PLAYER = 1000
ANNEAL_MAX_STEPS = 120_000
ANNEAL_TEMPERATURES = (3.0, 0.05)
ANNEAL_ANYBODY_SHARE = 0.5
ANNEAL_NEAR_RANKS = 12
REPAIR_STEPS = 2_000  # min-conflicts steps against crosses left after the annealing
STRICT_SEATS_MAX_PLAYERS = 256  # larger fields weigh a cross against CROSS_RANKS places of spread
CROSS_RANKS = 8


def greedy_top_down(order: Sequence[int], sizes: Sequence[int], meetings: Sequence[dict[int, int]]) -> list[list[int]]:
    """Group players top-down by repeats alone; ``order`` is best first. Each table takes the next
    players who have met nobody at it yet, else the one costing the fewest repeats."""
    remaining = list(order)
    groups: list[list[int]] = []
    for size in sizes:
        members = [remaining.pop(0)]
        while len(members) < size:
            window = min(GREEDY_WINDOW, len(remaining))
            chosen = None
            least = None
            for position in range(window):
                met = meetings[remaining[position]]
                cost = sum(meeting_cost(met.get(member, 0)) for member in members) if met else 0
                if cost == 0:
                    chosen = position
                    break
                if least is None or cost < least:
                    least, chosen = cost, position
            members.append(remaining.pop(chosen))
        groups.append(members)
    return groups


def greedy_by_cost(
    order: Sequence[int], sizes: Sequence[int], model: CostModel, window: int = COST_WINDOW, slack: int = 1
) -> list[list[int]]:
    """Group players top-down, each table taking the cheapest companions among the next ``window``.

    Companion sets are tried by increasing worst rank, up to ``slack`` ranks past the first set that
    holds no repeat and no cross; a later set must be strictly cheaper to win.
    """
    remaining = list(order)
    groups: list[list[int]] = []
    table_cost = model.table_cost
    clean_below = model.clean_below
    rank = model.rank
    for size in sizes:
        leader = remaining[0]
        candidates = remaining[1 : 1 + window]
        if len(candidates) < size - 1:
            candidates = remaining[1:]
        best_cost = None
        best: tuple[int, ...] = ()
        clean_last = None
        for last in range(size - 2, len(candidates)):
            if clean_last is not None and last > clean_last + slack:
                break
            for head in itertools.combinations(range(last), size - 2):
                chosen = (*head, last)
                members = [leader, *(candidates[index] for index in chosen)]
                cost = table_cost(members)
                if best_cost is None or cost < best_cost:
                    best_cost, best = cost, chosen
                if clean_last is None:
                    spread = 0 if rank is None else rank[members[-1]] - rank[leader]
                    if cost - spread < clean_below:
                        clean_last = last
        groups.append([leader, *(candidates[index] for index in best)])
        for index in sorted(best, reverse=True):
            del remaining[1 + index]
        del remaining[0]
    return groups


def seat_swiss(
    order: Sequence[int],
    sizes: Sequence[int],
    meetings: Sequence[dict[int, int]],
    deadline: float,
    seat_counts: Sequence[Sequence[int]] | None = None,
    seed: int | str = 0,
    rounds_left: int = 0,
    rules: GroupBook | None = None,
) -> list[list[int]]:
    """Swiss groups in table order (table 1 = the top); ``order`` lists the seated players best first.

    With ``seat_counts`` (per player, per seat) the search also keeps seat counts even by the end of
    the event, ``rounds_left`` rounds after this one (see the module docstring). ``seed`` fixes the
    annealing's random choices. ``rules`` (groups and forbidden pairs) weigh in every table's cost;
    never pairs still together at the end get ``search.keep_groups_apart``.
    """
    rank = [0] * len(meetings)
    for position, player in enumerate(order):
        rank[player] = position
    seats = None if seat_counts is None else SeatBook(seat_counts, rounds_left, short_tables_weigh_as_crosses(sizes))
    model = CostModel.for_players(meetings, rank, seats, cross_ranks(len(order)), groups=rules)
    search_started = time.monotonic()
    if len(order) <= BEAM_MAX_PLAYERS:
        beam_deadline = search_started + max(0.0, deadline - search_started) * BEAM_TIME_SHARE
        width = BEAM_WIDTH if len(order) <= BEAM_WIDE_MAX_PLAYERS else BEAM_NARROW
        groups = beam_top_down(order, sizes, model, beam_deadline, BEAM_WINDOW, width)
    else:
        groups = greedy_by_cost(order, sizes, model)
    improve_by_swaps(groups, model, window_neighbours(len(groups), SWAP_REACH), deadline)
    if len(order) <= ANNEAL_MAX_PLAYERS and len(groups) > 1:
        rng = random.Random(f"taikai-swiss:{seed}")
        steps = min(ANNEAL_MAX_STEPS, ANNEAL_STEPS_PER_PLAYER * len(order))
        floor = sum(model.minimal_cost(len(group)) for group in groups)
        anneal(groups, model, _rank_partner(order, rank), rng, deadline, steps, ANNEAL_TEMPERATURES, floor)
        if model.crosses_first and any(model.table_cost(group) >= model.widen_from for group in groups):
            groups = min_conflicts(groups, model, rng, deadline, REPAIR_STEPS, model.widen_from)
    if rules is not None:
        groups = keep_groups_apart(model, groups, deadline, random.Random(f"taikai-groups:{seed}"))
    for group in groups:
        group.sort(key=rank.__getitem__)
    groups.sort(key=lambda group: rank[group[0]])
    return groups


def cross_ranks(player_count: int) -> int | None:
    """Places of rank spread a crossed player weighs in a field this size; None: crosses come before
    the standings (fields up to ``STRICT_SEATS_MAX_PLAYERS``, where only repeats outweigh them)."""
    return None if player_count <= STRICT_SEATS_MAX_PLAYERS else CROSS_RANKS


def _rank_partner(order: Sequence[int], rank: Sequence[int]):
    """Exchange partners for the annealing: half the time anybody, else someone within a few ranks."""
    count = len(order)

    def partner(player: int, rng: random.Random) -> int:
        if rng.random() < ANNEAL_ANYBODY_SHARE:
            return order[rng.randrange(count)]
        position = rank[player] + rng.randint(-ANNEAL_NEAR_RANKS, ANNEAL_NEAR_RANKS)
        return order[min(count - 1, max(0, position))]

    return partner


def beam_top_down(
    order: Sequence[int],
    sizes: Sequence[int],
    model: CostModel,
    deadline: float,
    window: int,
    beam: int,
    slack: int = 1,
) -> list[list[int]]:
    """Top-down grouping by a beam search over rank windows; past the deadline, the best state
    reached so far is completed by ``greedy_by_cost``.

    Each table is led by the best unseated player (every grouping can be listed that way) and takes
    its other members from the next ``window`` ranks, tried by increasing worst rank up to ``slack``
    ranks past the first set without a repeat or a cross. A state is (that leader's rank, the players
    below him already seated); states reaching the same one are merged, keeping the cheapest; per
    leader rank the ``beam`` best states survive, judged by cost so far minus the share of cost the
    players seated ahead have already paid. ``model`` ranks must be positions in ``order``.
    """
    n = len(order)
    size_after: dict[int, int] = {}
    seated = 0
    for size in sizes:
        size_after[seated] = size
        seated += size
    table_cost = model.table_cost
    clean_below = model.clean_below

    # A state: bit i of ``taken`` = rank leader + i already seated (bit 0, the leader, never is);
    # its value: (cost so far, node of the table that led to it, that table's ranks).
    nodes: list[tuple[int, tuple[int, ...]]] = []  # (parent node, table ranks), for states expanded
    levels: dict[int, dict[int, tuple[int, int, tuple[int, ...]]]] = {0: {0: (0, -1, ())}}
    final: tuple[int, int, tuple[int, ...]] | None = None
    for leader in range(n):
        states = levels.pop(leader, None)
        if not states:
            continue
        ranked = sorted(states.items(), key=lambda item: 4 * item[1][0] - 3 * item[0].bit_count())[:beam]
        if time.monotonic() > deadline:
            return _finish_greedily(order, sizes, model, nodes, leader, ranked[0])
        reach = min(n - 1 - leader, window)
        leader_player = order[leader]
        for taken, (cost, parent, table) in ranked:
            node = parent
            if table:
                nodes.append((parent, table))
                node = len(nodes) - 1
            done = leader + taken.bit_count()
            size = size_after[done]
            offsets = [offset for offset in range(1, reach + 1) if not taken >> offset & 1]
            clean_last = None
            last_table = done + size == n
            for position in range(size - 2, len(offsets)):
                last = offsets[position]
                if clean_last is not None and last > clean_last + slack:
                    break
                last_player = order[leader + last]
                for head in itertools.combinations(offsets[:position], size - 2):
                    here = table_cost([leader_player, *[order[leader + o] for o in head], last_player])
                    if clean_last is None and here - last < clean_below:
                        clean_last = last
                    new_cost = cost + here
                    if last_table:
                        if final is None or new_cost < final[0]:
                            final = (new_cost, node, (leader, *[leader + o for o in head], leader + last))
                        continue
                    now_taken = taken | 1 | (1 << last)
                    for offset in head:
                        now_taken |= 1 << offset
                    shift = (~now_taken & (now_taken + 1)).bit_length() - 1  # lowest free bit
                    level = levels.get(leader + shift)
                    if level is None:
                        level = levels[leader + shift] = {}
                    new_taken = now_taken >> shift
                    known = level.get(new_taken)
                    if known is None or new_cost < known[0]:
                        level[new_taken] = (
                            new_cost,
                            node,
                            (leader, *[leader + o for o in head], leader + last),
                        )
    if final is None:
        return greedy_by_cost(order, sizes, model)
    return _tables_of(order, nodes, final[1], final[2])


def _tables_of(order, nodes, node: int, table: tuple[int, ...]) -> list[list[int]]:
    """The groups on the path to a beam state, top first."""
    groups = [[order[rank] for rank in table]] if table else []
    while node >= 0:
        parent, members = nodes[node]
        groups.append([order[rank] for rank in members])
        node = parent
    groups.reverse()
    return groups


def _finish_greedily(order, sizes, model: CostModel, nodes, leader: int, state) -> list[list[int]]:
    """The beam's best state so far, completed by ``greedy_by_cost`` (the beam ran out of time)."""
    taken, (_, parent, table) = state
    groups = _tables_of(order, nodes, parent, table)
    rest = [order[rank] for rank in range(leader, len(order)) if not taken >> (rank - leader) & 1]
    return groups + greedy_by_cost(rest, sizes[len(groups) :], model)
