"""Seat order at each table (East 東, South 南, West 西, North 北) keeping every player's seat counts even.

* ``order_seats``: one round at a time. Each table tries every seat order (24 at most) and keeps the
  one that leaves the members' counts most even: smallest worst (max − min) first, then the smallest
  sum of those spreads, then the smallest sum of squared counts.
* ``open_seats`` / ``seat_shortfall``: the grouping's view of winds. A player's open seats are those
  at his lowest count (sitting anywhere else cannot narrow his spread and may widen it); a table's
  shortfall is how many of its members cannot all get an open seat at once (size − a maximum
  matching of players to seats). The Swiss search weighs it, so tables are formed whose members lack
  different seats: in round 4 of an event at tables of four every player lacks exactly one seat.
* ``plan_seats``: a known schedule, block by block. Over ``seats`` consecutive rounds every table
  needs each seat once and every player may take each seat once: that is an edge colouring of a
  bipartite graph (players × tables) with ``seats`` colours, which always exists (König's theorem);
  the alternating-path method finds it. Each player then sits once in every seat per block.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

from ..errors import InvariantViolation


def _permutations(size: int) -> list[tuple[int, ...]]:
    return list(itertools.permutations(range(size)))


_PERMUTATIONS = {size: _permutations(size) for size in (2, 3, 4)}


def order_table(members: Sequence[int], seat_counts: Sequence[list[int]], rng: random.Random) -> list[int]:
    """Return ``members`` in seat order for this round (see the module docstring)."""
    size = len(members)
    if all(not any(seat_counts[player]) for player in members):
        ordered = list(members)
        rng.shuffle(ordered)
        return ordered
    best_key = None
    best: tuple[int, ...] = ()
    permutations = _PERMUTATIONS[size][:]
    rng.shuffle(permutations)
    for permutation in permutations:
        worst = 0
        spread_sum = 0
        squares = 0
        for seat, slot in enumerate(permutation):
            counts = seat_counts[members[slot]]
            current = counts[seat] + 1
            high = max(max(counts), current)
            low = min(min(count for index, count in enumerate(counts) if index != seat), current)
            spread = high - low
            worst = max(worst, spread)
            spread_sum += spread
            squares += current * current
        key = (worst, spread_sum, squares)
        if best_key is None or key < best_key:
            best_key, best = key, permutation
    return [members[slot] for slot in best]


def open_seats(counts: Sequence[int]) -> int:
    """Bit mask of the seats (bit 0 = East) at which a player's count is lowest."""
    low = min(counts)
    mask = 0
    for seat, count in enumerate(counts):
        if count == low:
            mask |= 1 << seat
    return mask


@cache
def seat_shortfall(masks: tuple[int, ...]) -> int:
    """Members of a table who cannot sit at an open seat: ``len(masks)`` − the best matching of the
    members (their ``open_seats`` masks, in any order) to the seats ``0 .. len(masks) - 1``."""
    size = len(masks)
    best = 0
    for permutation in _PERMUTATIONS[size]:
        matched = sum(1 for mask, seat in zip(masks, permutation, strict=True) if mask >> seat & 1)
        best = max(best, matched)
        if best == size:
            break
    return size - best


def order_seats(
    groups: Sequence[Sequence[int]], seat_counts: Sequence[list[int]], rng: random.Random
) -> list[list[int]]:
    """Seat order for every table of one round."""
    return [order_table(group, seat_counts, rng) for group in groups]


def plan_seats(rounds: Sequence[Sequence[Sequence[int]]], seats: int) -> list[list[list[int]]]:
    """Seat orders for a whole known schedule (every table of size ``seats``); see the docstring."""
    planned: list[list[list[int]]] = []
    for start in range(0, len(rounds), seats):
        planned.extend(_colour_block(rounds[start : start + seats], seats))
    return planned


def _colour_block(block: Sequence[Sequence[Sequence[int]]], seats: int) -> list[list[list[int]]]:
    """Edge-colour one block: table node ``("t", round, table)``, player node ``("p", player)``."""
    at: dict[tuple, dict[int, tuple]] = {}

    def free_colour(node: tuple) -> int:
        used = at.setdefault(node, {})
        return next(colour for colour in range(seats) if colour not in used)

    def flip_path(start: tuple, alpha: int, beta: int) -> None:
        """Swap colours alpha/beta along the path leaving ``start`` by its alpha edge."""
        path = []
        node, colour = start, alpha
        while colour in at.setdefault(node, {}):
            nxt = at[node][colour]
            path.append((node, nxt, colour))
            node, colour = nxt, (beta if colour == alpha else alpha)
        for first, second, colour in path:
            del at[first][colour]
            del at[second][colour]
        for first, second, colour in path:
            other = beta if colour == alpha else alpha
            at[first][other] = second
            at[second][other] = first

    for round_index, tables in enumerate(block):
        for table_index, table in enumerate(tables):
            if len(table) != seats:
                raise InvariantViolation("planned seats need full tables")
            table_node = ("t", round_index, table_index)
            for player in table:
                player_node = ("p", player)
                alpha = free_colour(table_node)
                beta = free_colour(player_node)
                if alpha not in at[player_node]:
                    colour = alpha
                else:
                    flip_path(player_node, alpha, beta)
                    colour = alpha
                at[table_node][colour] = player_node
                at[player_node][colour] = table_node
    coloured = []
    for round_index, tables in enumerate(block):
        ordered_tables = []
        for table_index in range(len(tables)):
            by_seat = at[("t", round_index, table_index)]
            ordered_tables.append([by_seat[seat][1] for seat in range(seats)])
        coloured.append(ordered_tables)
    return coloured
