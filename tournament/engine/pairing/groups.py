"""Groups kept apart (teams, clubs, countries, custom groups) and forbidden pairs, on player indices.

A request's ``groups`` each have a ``kind``, ``members`` and a ``policy``: ``never`` (the members must
not share a table wherever a seating exists that keeps them apart; the searches weigh such a pair
above everything else) or ``avoid`` (a cost, ``group_weight`` repeats per pair seated together).
``forbidden_pairs`` are ``never`` rules for one pair each. ``GroupBook`` turns them into per-pair
*classes*: a class is (whether the pair is a ``never`` pair, how many ``avoid`` groups hold both), and
class 0 is "no rule". The searches fold a pair's class into its meeting count (``coded``) so that
a table's cost still takes one look-up per pair.

The lower bound of the pairs of one group seated together: ``m`` members over tables of sizes
``s_1 … s_t`` sit ``k_i`` at table ``i`` with the ``k_i`` as even as the sizes allow (water-filling);
the group then has ``sum C(k_i, 2)`` pairs together, and no seating has fewer. For several groups the
bounds are summed (a lower bound, not always reachable). A forbidden pair has a bound of 0 as soon as
there are two tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

KINDS = ("team", "club", "country", "custom")
POLICIES = ("never", "avoid")
FORBIDDEN = "forbidden"  # the kind a forbidden pair is counted under
DEFAULT_GROUP_WEIGHT = 0.5  # an avoid pair seated together weighs half a repeated meeting


@dataclass(frozen=True)
class Group:
    """One group of player indices."""

    kind: str
    members: tuple[int, ...]
    policy: str


@dataclass(frozen=True)
class PairClass:
    """What a pair of players is under the rules: a ``never`` pair, and in how many avoid groups."""

    never: bool
    avoids: int


class GroupBook:
    """The rules of one request on player indices (see the module docstring)."""

    def __init__(
        self,
        player_count: int,
        groups: Sequence[Group],
        forbidden: Sequence[tuple[int, int]],
        weight: float = DEFAULT_GROUP_WEIGHT,
    ):
        self.groups = tuple(groups)
        self.forbidden = tuple(forbidden)
        self.weight = weight
        never: list[set[int]] = [set() for _ in range(player_count)]
        avoids: list[dict[int, int]] = [{} for _ in range(player_count)]
        for group in self.groups:
            for index, player in enumerate(group.members):
                for other in group.members[index + 1 :]:
                    if group.policy == "never":
                        never[player].add(other)
                        never[other].add(player)
                    else:
                        avoids[player][other] = avoids[player].get(other, 0) + 1
                        avoids[other][player] = avoids[other].get(player, 0) + 1
        for first, second in self.forbidden:
            never[first].add(second)
            never[second].add(first)
        self.never_with = never
        classes: dict[PairClass, int] = {PairClass(False, 0): 0}
        self.pair_class: list[dict[int, int]] = []
        for player in range(player_count):
            mine: dict[int, int] = {}
            for other in never[player] | set(avoids[player]):
                key = PairClass(other in never[player], avoids[player].get(other, 0))
                mine[other] = classes.setdefault(key, len(classes))
            self.pair_class.append(mine)
        self.classes: tuple[PairClass, ...] = tuple(classes)

    @property
    def has_never(self) -> bool:
        return any(self.never_with)

    @property
    def has_avoid(self) -> bool:
        return any(pair.avoids for pair in self.classes)

    def class_costs(self, avoid_unit: int, never_unit: int) -> list[int]:
        """The cost of seating a pair of each class together once."""
        return [never_unit * pair.never + avoid_unit * pair.avoids for pair in self.classes]

    def coded(
        self, meetings: Sequence[dict[int, int]], pair_cost: Sequence[int], avoid_unit: int, never_unit: int
    ) -> tuple[list[dict[int, int]], list[int]]:
        """Meetings whose values are ``class × width + times met`` and the cost of each such code, so
        a table costs one look-up per pair as without rules (``width`` = ``len(pair_cost)``)."""
        width = len(pair_cost)
        costs = [cost + extra for extra in self.class_costs(avoid_unit, never_unit) for cost in pair_cost]
        coded: list[dict[int, int]] = []
        for player, met in enumerate(meetings):
            rules = self.pair_class[player]
            if not rules:
                coded.append(met)
                continue
            mine = dict(met)
            for other, pair in rules.items():
                mine[other] = pair * width + mine.get(other, 0)
            coded.append(mine)
        return coded, costs

    def never_breaks(self, tables: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
        """The ``never`` pairs seated together, each (smaller index, larger)."""
        never = self.never_with
        breaks = []
        for table in tables:
            for index, player in enumerate(table):
                if never[player]:
                    breaks.extend(
                        (min(player, other), max(player, other))
                        for other in table[index + 1 :]
                        if other in never[player]
                    )
        return breaks

    def never_count(self, tables: Sequence[Sequence[int]]) -> int:
        """Never pairs seated together, counted once per rule (a pair in two never groups twice)."""
        table_of = {player: index for index, table in enumerate(tables) for player in table}
        count = sum(pairs_together(group.members, table_of) for group in self.groups if group.policy == "never")
        return count + sum(pairs_together(pair, table_of) for pair in self.forbidden)

    def never_bound(self, seated: Iterable[int], sizes: Sequence[int]) -> int:
        """The fewest never pairs (``never_count``) any grouping of ``seated`` at tables of ``sizes``
        seats together, summed per rule (see the module docstring)."""
        here = set(seated)
        rules = [group.members for group in self.groups if group.policy == "never"] + list(self.forbidden)
        return sum(pairs_lower_bound(sum(1 for player in rule if player in here), sizes) for rule in rules)


def spread_evenly(members: int, sizes: Sequence[int]) -> list[int]:
    """Members per table (in the order of ``sizes``), as even as the table sizes allow
    (water-filling: every table up to level ``L - 1``, then one more at as many tables as needed)."""
    left = min(members, sum(sizes))
    level = 0
    while sum(min(size, level + 1) for size in sizes) <= left and level < max(sizes, default=0):
        level += 1
    counts = [min(size, level) for size in sizes]
    extra = left - sum(counts)
    for index, size in enumerate(sizes):
        if extra and size > level:
            counts[index] += 1
            extra -= 1
    return counts


def pairs_lower_bound(members: int, sizes: Sequence[int]) -> int:
    """The fewest pairs of a group of ``members`` seated together at tables of ``sizes``: with
    ``t = len(sizes)`` equal tables, ``q, r = divmod(members, t)`` gives ``r·C(q+1, 2) + (t−r)·C(q, 2)``."""
    if members <= len(sizes):
        return 0
    return sum(count * (count - 1) // 2 for count in spread_evenly(members, sizes))


def pairs_together(members: Iterable[int], table_of: dict[int, int]) -> int:
    """Pairs of ``members`` at one table, ``table_of`` giving each seated player's table."""
    per_table: dict[int, int] = {}
    for player in members:
        table = table_of.get(player)
        if table is not None:
            per_table[table] = per_table.get(table, 0) + 1
    return sum(count * (count - 1) // 2 for count in per_table.values())


PLACE_STEPS_PER_PLAYER = 20  # the relabelling search's step budget: this × players, at most
PLACE_MAX_STEPS = 2_000


def place_on_design(
    rounds: Sequence[Sequence[Sequence[int]]],
    spare: Sequence[Sequence[int]] | None,
    labels: Sequence[int],
    book: GroupBook,
    rng,
) -> tuple[list[int], int]:
    """A relabelling of a fixed design's points (``labels[point]`` = player) keeping groups apart in
    the ``rounds`` to be played, and the never pairs it still seats together in them.

    Start: when a round of the design will not be played (``spare``), each group (never groups
    first, largest first) fills the tables of that round, so its members meet there and nowhere
    else; the other players take the seats left in the order of ``labels``. Then a search exchanges
    the points of two players, a player with a pair against the rules being moved to the point that
    lowers the cost most (never pairs above avoid pairs), with a seeded step budget."""
    points = len(labels)
    meets = bytearray(points * points)
    for tables in rounds:
        for line in tables:
            for u in line:
                for v in line:
                    meets[u * points + v] = 1
    point_of = {player: point for point, player in enumerate(labels)}
    if spare is not None:
        point_of = _fill_spare_round(spare, labels, book)
    never_weight = 1 + len(book.groups)  # one never pair outweighs every avoid pair of a player
    weight = [never_weight * pair.never + pair.avoids for pair in book.classes]
    rules = book.pair_class
    players = list(point_of)

    def cost_of(player: int, point: int, skip: int = -1) -> int:
        row = point * points
        return sum(
            weight[pair] * meets[row + point_of[other]] for other, pair in rules[player].items() if other != skip
        )

    total = sum(cost_of(player, point_of[player]) for player in players) // 2
    best_total, best = total, dict(point_of)
    for _ in range(min(PLACE_MAX_STEPS, PLACE_STEPS_PER_PLAYER * points)):
        hot = [player for player in players if rules[player] and cost_of(player, point_of[player])]
        if not hot:
            break
        player = hot[rng.randrange(len(hot))]
        here = point_of[player]
        move, move_delta = None, None
        for other in players:
            if other == player:
                continue
            there = point_of[other]
            delta = cost_of(player, there, other) - cost_of(player, here, other)
            if rules[other]:
                delta += cost_of(other, here, player) - cost_of(other, there, player)
            if move_delta is None or delta < move_delta or (delta == move_delta and rng.random() < 0.3):
                move, move_delta = other, delta
        if move is None:
            break
        point_of[player], point_of[move] = point_of[move], here
        total += move_delta
        if total < best_total:
            best_total, best = total, dict(point_of)
    point_of = best
    relabelled = [0] * points
    for player, point in point_of.items():
        relabelled[point] = player
    breaks = book.never_breaks([[relabelled[u] for u in line] for tables in rounds for line in tables])
    return relabelled, len(breaks)


def _fill_spare_round(spare: Sequence[Sequence[int]], labels: Sequence[int], book: GroupBook) -> dict[int, int]:
    """Players onto the points of a round not played: each group onto as few of its tables as it can."""
    free = [list(line) for line in spare]
    point_of: dict[int, int] = {}
    ordered = sorted(book.groups, key=lambda group: (group.policy != "never", -len(group.members)))
    for group in ordered:
        waiting = [player for player in group.members if player not in point_of]
        while waiting:
            line = max(free, key=len)
            if not line:
                break
            while line and waiting:
                point_of[waiting.pop(0)] = line.pop(0)
    rest = [point for line in free for point in line]
    for player in labels:
        if player not in point_of:
            point_of[player] = rest.pop(0)
    return point_of
