"""Seat order at each table (East 東, South 南, West 西, North 北) keeping every player's seat counts even.

A player's seat balance is the spread (max − min) of his counts over the event's seats (three in a
three-player event; a three-player table in a four-player event has East, South and West only). The
ideal is a spread of at most 1 at the end of the event: over ``g`` games, ``g mod seats`` seats
``g // seats + 1`` times and the others ``g // seats`` times.

* ``seat_cost_vector``: what each seat of a table would cost a player this round, in three parts:
  a *cross* (``CROSS_WEIGHT``): the seat makes that end unreachable, if he plays every remaining
  round, although another seat at the table would have kept it within reach; a *detour*
  (``DETOUR_WEIGHT``): the seat leaves his counts more than 1 apart for now although another seat
  would not (the rounds left can still even them out); a *deficit* (1 per game, at most
  ``DEFICIT_CAP``): how many more games at his least used seats the seat leaves him short of a spread
  of 1, compared with his best seat. A seat among his least used ones (an *open* seat) costs nothing.
  With no round left after this one, a cross and a detour are the same thing. Each seat is weighed
  against the best seat of a full table, so a short table (no North) costs a player who needs North a
  cross on every seat, while short tables seat at most a third of the round; beyond that, two detours
  (``short_tables_weigh_as_crosses``).
* ``SeatBook``: the seat costs of one round. Players with equal counts share a *kind*; the least total
  cost of a table (every seat order tried: 24 at most) is kept per multiset of kinds, so the grouping
  searches can weigh seats as cheaply as repeats, and ``order`` seats a table in that best order.
* ``open_seats``: the bit mask of a player's least used seats.
* ``plan_seats``: a known schedule, block by block. Over ``seats`` consecutive rounds every table
  needs each seat once and every player may take each seat once: that is an edge colouring of a
  bipartite graph (players × tables) with ``seats`` colours, which always exists (König's theorem);
  the alternating-path method finds it. Each player then sits once in every seat per block.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..errors import InvariantViolation

# A table's seat cost is crosses × CROSS_WEIGHT + detours × DETOUR_WEIGHT + deficit; with at most
# 4 members and DEFICIT_CAP 3 each, the parts never overlap and ``split_cost`` takes them apart.
CROSS_WEIGHT = 256
DETOUR_WEIGHT = 16
DEFICIT_CAP = 3
# A short table costs a player who needs North a cross per seat while short tables seat at most this
# share of the round's players; above it, two detours (see ``short_tables_weigh_as_crosses``).
SHORT_CROSS_MAX_SHARE = (1, 3)
SHORT_LIGHT_WEIGHT = 2 * DETOUR_WEIGHT

_PERMUTATIONS = {size: tuple(itertools.permutations(range(size))) for size in (1, 2, 3, 4)}


def seat_spread(counts: Sequence[int]) -> int:
    return max(counts) - min(counts)


def _deficit(counts: Sequence[int]) -> int:
    """Games at the least used seats needed before the spread is at most 1 (the top count kept)."""
    top = max(counts) - 1
    return sum(top - count for count in counts if count < top)


def can_end_even(counts: Sequence[int], rounds_left: int) -> bool:
    """Whether ``rounds_left`` more games can bring these counts to a spread of at most 1."""
    games = sum(counts) + rounds_left
    low, extra = divmod(games, len(counts))
    high = low + 1 if extra else low
    if any(count > high for count in counts):
        return False
    if extra and sum(1 for count in counts if count == high) > extra:
        return False
    return sum(low - count for count in counts if count < low) <= rounds_left


def short_tables_weigh_as_crosses(sizes: Sequence[int]) -> bool:
    """Whether this round's short tables (fewer seats than the largest) cost a cross to the players
    who need their missing seat.

    While they seat a small share of the round (a 19-player round: 3 of 19), the search can give them
    to players who can do without North, and a cross says so. When they seat many (17 players: tables
    of 4, 4, 3, 3, 3, so 9 of 17), most players sit at one whatever the search does; a cross each would
    crowd out the crosses it can avoid at the full tables, and more players ended above the ideal
    balance (``benchmarks/seating.py --seeds``). Two detours then weigh them below those."""
    if not sizes:
        return True
    largest = max(sizes)
    short = sum(size for size in sizes if size < largest)
    most, of = SHORT_CROSS_MAX_SHARE
    return short * of <= sum(sizes) * most


@lru_cache(maxsize=4096)
def seat_cost_vector(
    counts: tuple[int, ...], size: int, rounds_left: int = 0, short_as_cross: bool = True
) -> tuple[int, ...]:
    """The cost of each of the seats ``0 .. size - 1`` for a player with these seat ``counts`` and
    ``rounds_left`` rounds to play after this one.

    Each seat is weighed against the best seat of a full table (every seat of ``counts``), not only
    against the seats of this table: a three-player table (no North) costs a player who needs North a
    cross on every seat, so the search seats him at a full table and gives the short one to players
    who can do without North. Weighed among its own seats, a short table looked free to exactly the
    players it hurt, and in a Swiss event the same low-ranked players kept getting it. With
    ``short_as_cross`` False, such a table costs two detours a seat instead (``short_tables_weigh_as_crosses``)."""
    afters = []
    for seat in range(len(counts)):
        after = list(counts)
        after[seat] += 1
        afters.append(after)
    reachable = [can_end_even(after, rounds_left) for after in afters]
    spreads = [seat_spread(after) for after in afters]
    deficits = [_deficit(after) for after in afters]
    any_reachable = any(reachable)
    any_even = min(spreads) <= 1
    least = min(deficits)
    if not short_as_cross and any_reachable and not any(reachable[:size]):
        return tuple(SHORT_LIGHT_WEIGHT + min(DEFICIT_CAP, deficit - least) for deficit in deficits[:size])
    return tuple(
        (CROSS_WEIGHT if any_reachable and not ok else 0)
        + (DETOUR_WEIGHT if any_even and spread > 1 else 0)
        + min(DEFICIT_CAP, deficit - least)
        for ok, spread, deficit in zip(reachable[:size], spreads[:size], deficits[:size], strict=True)
    )


@dataclass(frozen=True)
class SeatOutcome:
    """What one seat did to one player this round (see the module docstring)."""

    crossed: bool  # another seat at the table would have kept an even end within reach
    short_table: bool  # only North would have, at a three-player table
    out_of_reach: bool  # no seat would have
    detoured: bool  # counts more than 1 apart for now although another seat at the table avoids it


@lru_cache(maxsize=4096)
def seat_outcome(counts: tuple[int, ...], table_size: int, seat: int, rounds_left: int) -> SeatOutcome:
    """The outcome of ``seat`` at a table of ``table_size`` for a player with these ``counts``."""

    def after(chosen: int) -> list[int]:
        moved = list(counts)
        moved[chosen] += 1
        return moved

    reachable = [can_end_even(after(chosen), rounds_left) for chosen in range(len(counts))]
    at_table = reachable[:table_size]
    even = [seat_spread(after(chosen)) <= 1 for chosen in range(table_size)]
    kept = reachable[seat]
    return SeatOutcome(
        crossed=not kept and any(at_table),
        short_table=not kept and not any(at_table) and any(reachable),
        out_of_reach=not any(reachable),
        detoured=kept and not even[seat] and any(even),
    )


def split_cost(cost: int) -> tuple[int, int, int]:
    """A table's seat cost as (crosses, detours, deficit)."""
    crosses, rest = divmod(cost, CROSS_WEIGHT)
    detours, deficit = divmod(rest, DETOUR_WEIGHT)
    return crosses, detours, deficit


@lru_cache(maxsize=1 << 16)
def _best_assignment(
    kinds_counts: tuple[tuple[int, ...], ...], rounds_left: int, short_as_cross: bool = True
) -> tuple[int, tuple[int, ...]]:
    """(least total cost, seat of each member) for members with these counts, in this order."""
    size = len(kinds_counts)
    vectors = [seat_cost_vector(counts, size, rounds_left, short_as_cross) for counts in kinds_counts]
    best_key = None
    best: tuple[int, ...] = ()
    for permutation in _PERMUTATIONS[size]:
        cost = 0
        squares = 0
        for member, seat in enumerate(permutation):
            cost += vectors[member][seat]
            after = kinds_counts[member][seat] + 1
            squares += after * after
        key = (cost, squares)
        if best_key is None or key < best_key:
            best_key, best = key, permutation
    return best_key[0], best


class SeatBook:
    """Seat costs for one round, from every player's seat counts so far (``seat_counts[p][s]``) and
    the rounds left after this one; ``short_as_cross``: see ``short_tables_weigh_as_crosses``."""

    def __init__(self, seat_counts: Sequence[Sequence[int]], rounds_left: int = 0, short_as_cross: bool = True):
        self.rounds_left = rounds_left
        self.short_as_cross = short_as_cross
        kinds: dict[tuple[int, ...], int] = {}
        self.kind: list[int] = []
        for counts in seat_counts:
            key = tuple(counts)
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = len(kinds)
            self.kind.append(kind)
        self.counts_of_kind: list[tuple[int, ...]] = list(kinds)
        self._tables: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}

    def _table(self, key: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        known = self._tables.get(key)
        if known is None:
            counts = self.counts_of_kind
            known = self._tables[key] = _best_assignment(
                tuple(counts[kind] for kind in key), self.rounds_left, self.short_as_cross
            )
        return known

    def cost(self, members: Sequence[int]) -> int:
        """The least seat cost of a table (``split_cost`` takes it apart)."""
        kind = self.kind
        return self._table(tuple(sorted([kind[player] for player in members])))[0]

    def order(self, members: Sequence[int], rng: random.Random) -> list[int]:
        """``members`` in a least-cost seat order (players of one kind in random order)."""
        shuffled = list(members)
        rng.shuffle(shuffled)
        kind = self.kind
        shuffled.sort(key=kind.__getitem__)
        _, seats = self._table(tuple(kind[player] for player in shuffled))
        ordered = [0] * len(shuffled)
        for player, seat in zip(shuffled, seats, strict=True):
            ordered[seat] = player
        return ordered


def order_table(
    members: Sequence[int], seat_counts: Sequence[Sequence[int]], rng: random.Random, rounds_left: int = 0
) -> list[int]:
    """Return ``members`` in a least-cost seat order for this round (see ``SeatBook``)."""
    book = SeatBook([seat_counts[player] for player in members], rounds_left)
    return [members[index] for index in book.order(range(len(members)), rng)]


def order_seats(
    groups: Sequence[Sequence[int]],
    seat_counts: Sequence[Sequence[int]],
    rng: random.Random,
    rounds_left: int = 0,
) -> list[list[int]]:
    """Seat order for every table of one round."""
    book = SeatBook(seat_counts, rounds_left)
    return [book.order(group, rng) for group in groups]


def open_seats(counts: Sequence[int]) -> int:
    """Bit mask of the seats (bit 0 = East) at which a player's count is lowest."""
    low = min(counts)
    mask = 0
    for seat, count in enumerate(counts):
        if count == low:
            mask |= 1 << seat
    return mask


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
