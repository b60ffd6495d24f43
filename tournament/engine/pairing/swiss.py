"""Swiss draw (スイスドロー, seed 004 art. 41): players of similar standing at one table, top first.

1. Top-down grouping: each table is led by the best player still unseated and takes its other
   members from a short window of ranks below. Up to ``BEAM_MAX_PLAYERS`` players a beam search
   weighs the choices (``beam_top_down``); larger fields, or a beam out of time, use the greedy rule:
   the next players who have met nobody at the table yet, else the one costing the fewest repeats.
2. Repair: swaps between neighbouring tables remove the remaining repeats first, then tighten the
   standings spread; a table still holding a repeat looks further and further away (``search``).
3. Annealing (fields up to ``ANNEAL_MAX_PLAYERS``): exchanges between ANY two tables, half of them
   proposed between players a few ranks apart, with a step budget (reproducible for a seed) and the
   deadline as a safety net; tables are then listed by their best player. Repeats stay first; fields up
   to ``SEAT_SEARCH_MAX_PLAYERS`` also weigh the seat shortfall (members who cannot all sit at a
   seat they lack, ``SEAT_UNIT`` ranks each), so fewer players drift off an even seat count.

Seat balance and standings pull apart every ``table_size``-th round: after rounds 1-3 at tables of
four with counts kept within 1, each player lacks exactly one seat, so round 4 (and 8) could keep
everybody within 1 only with tables holding one player lacking each seat. Measured on simulated
events that costs some 60-80 % more rank spread in those rounds, so the search weighs seats as a
secondary term rather than a hard rule.

Ranks are positions among the players seated this round, so strict top-down grouping of full tables
has a spread of exactly ``table_size - 1``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

from .search import CostModel, anneal, improve_by_swaps, meeting_cost, window_neighbours
from .winds import open_seats

GREEDY_WINDOW = 16
SWAP_REACH = 2
BEAM_MAX_PLAYERS = 600
BEAM_TIME_SHARE = 0.5  # of the search time; the rest stays for the repair swaps
BEAM_WINDOW = 8
BEAM_WIDTH = 24
SEAT_UNIT = 2  # ranks of spread one member without an open seat weighs
SEAT_SEARCH_MAX_PLAYERS = 128  # larger fields: the search ignores seats (they cost spread there)
ANNEAL_MAX_PLAYERS = 600
ANNEAL_STEPS_PER_PLAYER = 1000
ANNEAL_MAX_STEPS = 120_000
ANNEAL_TEMPERATURES = (3.0, 0.05)
ANNEAL_ANYBODY_SHARE = 0.5
ANNEAL_NEAR_RANKS = 12


def greedy_top_down(
    order: Sequence[int], sizes: Sequence[int], meetings: Sequence[dict[int, int]]
) -> list[list[int]]:
    """Group players top-down (see the module docstring); ``order`` is best first."""
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


def seat_swiss(
    order: Sequence[int],
    sizes: Sequence[int],
    meetings: Sequence[dict[int, int]],
    deadline: float,
    seat_counts: Sequence[Sequence[int]] | None = None,
    seed: int | str = 0,
) -> list[list[int]]:
    """Swiss groups in table order (table 1 = the top); ``order`` lists the seated players best first.

    With ``seat_counts`` (per player, per seat) the search also forms tables whose members can all
    take a seat they lack (``winds.seat_shortfall``). ``seed`` fixes the annealing's random choices.
    """
    rank = [0] * len(meetings)
    for position, player in enumerate(order):
        rank[player] = position
    search_started = time.monotonic()
    groups = None
    if len(order) <= BEAM_MAX_PLAYERS:
        beam_deadline = search_started + max(0.0, deadline - search_started) * BEAM_TIME_SHARE
        groups = beam_top_down(order, sizes, meetings, beam_deadline, BEAM_WINDOW, BEAM_WIDTH)
    if groups is None:
        groups = greedy_top_down(order, sizes, meetings)
    masks = None
    if seat_counts is not None and len(order) <= SEAT_SEARCH_MAX_PLAYERS:
        masks = [open_seats(counts) for counts in seat_counts]
    model = CostModel.for_players(meetings, rank, masks, SEAT_UNIT)
    improve_by_swaps(groups, model, window_neighbours(len(groups), SWAP_REACH), deadline)
    if len(order) <= ANNEAL_MAX_PLAYERS and len(groups) > 1:
        rng = random.Random(f"taikai-swiss:{seed}")
        steps = min(ANNEAL_MAX_STEPS, ANNEAL_STEPS_PER_PLAYER * len(order))
        floor = sum(model.minimal_cost(len(group)) for group in groups)
        anneal(groups, model, _rank_partner(order, rank), rng, deadline, steps, ANNEAL_TEMPERATURES, floor)
    for group in groups:
        group.sort(key=rank.__getitem__)
    groups.sort(key=lambda group: rank[group[0]])
    return groups


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
    meetings: Sequence[dict[int, int]],
    deadline: float,
    window: int,
    beam: int,
    slack: int = 1,
) -> list[list[int]] | None:
    """Top-down grouping by a beam search over rank windows; None if the deadline passes first.

    Each table is led by the best unseated player (every grouping can be listed that way) and takes
    its other members from the next ``window`` ranks. A state is (that leader's rank, the players
    below him already seated); states reaching the same one are merged, keeping the cheapest; per
    leader rank the ``beam`` best states survive, judged by cost so far minus the share of cost the
    players seated ahead have already paid.
    """
    n = len(order)
    size_after: dict[int, int] = {}
    seated = 0
    for size in sizes:
        size_after[seated] = size
        seated += size
    repeat_unit = 2 * n + 2

    def pair_repeat(a: int, b: int) -> int:
        return meeting_cost(meetings[order[a]].get(order[b], 0))

    # state: (cost, overhang frozenset, parent index, table ranks); states are stored in ``nodes``
    nodes: list[tuple[int, int, tuple[int, ...]]] = []  # (parent node, leader rank, table)
    levels: dict[int, dict[frozenset, tuple[int, int]]] = {0: {frozenset(): (0, -1)}}
    final: tuple[int, int] | None = None
    for leader in range(n):
        states = levels.pop(leader, None)
        if not states:
            continue
        if time.monotonic() > deadline:
            return None
        ranked = sorted(states.items(), key=lambda item: 4 * item[1][0] - 3 * len(item[0]))[:beam]
        for overhang, (cost, node) in ranked:
            done = leader + len(overhang)
            size = size_after[done]
            candidates = [r for r in range(leader + 1, min(n, leader + window + 1)) if r not in overhang]
            for combo in _combos_by_last(candidates, size - 1, leader, pair_repeat, slack):
                members = (leader, *combo)
                repeats = 0
                for i in range(size):
                    for j in range(i + 1, size):
                        repeats += pair_repeat(members[i], members[j])
                new_cost = cost + repeats * repeat_unit + combo[-1] - leader
                nodes.append((node, leader, members))
                new_node = len(nodes) - 1
                taken = overhang.union(combo)
                if done + size == n:
                    if final is None or new_cost < final[0]:
                        final = (new_cost, new_node)
                    continue
                next_leader = leader + 1
                while next_leader in taken:
                    next_leader += 1
                new_overhang = frozenset(r for r in taken if r > next_leader)
                level = levels.setdefault(next_leader, {})
                known = level.get(new_overhang)
                if known is None or new_cost < known[0]:
                    level[new_overhang] = (new_cost, new_node)
    if final is None:
        return None
    groups = []
    node = final[1]
    while node >= 0:
        parent, _, members = nodes[node]
        groups.append([order[rank] for rank in members])
        node = parent
    groups.reverse()
    return groups


def _combos_by_last(candidates: list[int], count: int, leader: int, pair_repeat, slack: int):
    """Companion sets by increasing last (worst) rank, stopping ``slack`` ranks past the first one
    without a repeat; when none is repeat-free, every set (the cost model picks the least bad)."""
    clean_last = None
    for position in range(count - 1, len(candidates)):
        last = candidates[position]
        if clean_last is not None and last > clean_last + slack:
            return
        for head in itertools.combinations(candidates[:position], count - 1):
            combo = (*head, last)
            if clean_last is None and _repeat_free(leader, combo, pair_repeat):
                clean_last = last
            yield combo


def _repeat_free(leader: int, combo: tuple[int, ...], pair_repeat) -> bool:
    members = (leader, *combo)
    return not any(
        pair_repeat(members[i], members[j]) for i in range(len(members)) for j in range(i + 1, len(members))
    )
