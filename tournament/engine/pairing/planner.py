"""Random seating planned over the rounds still to play: fewest repeated meetings over the whole
event, then even seats this round.

A round seated on its own can leave the later rounds no way around a repeat (32 players seated
round by round meet again well before round 10). So this round is seated as the first of a plan for
every round left (``total_rounds`` in the request), and only that first round is returned; the next
request plans again from the history as it then stands.

1. Start: round by round, a seeded shuffle grouped top-down by repeats (``swiss.greedy_top_down``),
   every earlier planned round counting as met.
2. Tabu search (the method that solves social golfer problems by local search): take a pair that
   meets more than once with a meeting in the plan, move one of the two to another table of that
   planned round by exchanging him with the player there who lowers the cost most (in rounds of more
   than ``CANDIDATE_TABLES`` tables, among that many drawn at random); a player
   just moved is tabu for a step unless the move beats the best plan seen; after ``STALL_STEPS``
   steps without a new best, a few random exchanges shake the plan. When no pair repeats,
   the same moves work on this round's seat cost (``winds.SeatBook``), which weighs far less than a
   repeat.
3. Bounded by a step budget (reproducible for a seed) and the deadline.

The cost of a pair meeting ``m`` times is the sum of ``search.meeting_cost`` over its meetings, so
the figure minimised is the number of repeated meetings, a pair's third meeting weighing a little
more than another pair's second. With groups (``groups.GroupBook``) every planned meeting of an avoid
pair adds ``weight`` second meetings and of a never pair ``NEVER_STEP``; a pair's count then carries
its class (``class × MEETING_CODES + times``), and pairs meeting against a rule are moved like
repeated ones.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .groups import GroupBook
from .search import CostModel, meeting_cost
from .swiss import greedy_top_down
from .winds import SeatBook

STEPS_PER_SEAT = 30  # step budget: this × players × planned rounds, within the bounds below
MIN_STEPS = 1_000
MAX_STEPS = 3_000
TABU_STEPS = (0, 1)  # a moved player stays put for at most the next step
STALL_STEPS = 300  # steps without a new best before a shake
SHAKE_SWAPS = 3
CANDIDATE_TABLES = 40  # larger rounds: a move looks at this many tables drawn at random
CLOCK_EVERY = 64
REPEAT_UNIT = 4096  # far above any seat cost of two tables
CROSS_COST = 256
DETOUR_COST = 16
DEFICIT_COST = 1
SEAT_STEPS = 300  # steps spent on this round's seats once no pair meets again
MOST_MEETINGS = 256  # beyond any event: a pair meets at most once a round
_STEP = [meeting_cost(times) * REPEAT_UNIT for times in range(MOST_MEETINGS + 1)]
MEETING_CODES = MOST_MEETINGS + 1  # a pair's count is class × MEETING_CODES + times met
NEVER_STEP = 1 << 48  # a never pair's meeting: above every repeat a plan can hold


def _step_costs(rules: GroupBook | None) -> tuple[list[int], list[bool]]:
    """The cost of one more meeting per coded count, and whether each class is against a rule."""
    if rules is None:
        return _STEP, [False]
    avoid = round(rules.weight * meeting_cost(1) * REPEAT_UNIT)
    extra = rules.class_costs(avoid, NEVER_STEP)
    return [cost + more for more in extra for cost in _STEP], [more > 0 for more in extra]


@dataclass(frozen=True)
class Plan:
    """The planned rounds' groups (not in seat order; ``rounds[0]`` is this round) and the repeated
    meetings of history and plan together."""

    rounds: list[list[list[int]]]
    planned_repeats: int

    @property
    def groups(self) -> list[list[int]]:
        return self.rounds[0]


class _State:
    """The plan and the meeting counts it implies (history + planned rounds)."""

    def __init__(
        self,
        rounds: list[list[list[int]]],
        meetings: Sequence[dict[int, int]],
        seats: SeatBook | None,
        rules: GroupBook | None = None,
    ):
        self.rounds = rounds
        # pairs meeting more than once (or against a rule), once at least in the plan
        self.bad: list[tuple[int, int]] = []
        self.bad_index: dict[tuple[int, int], int] = {}
        self.step, self.against_rule = _step_costs(rules)
        if rules is None:
            self.met = [dict(met) for met in meetings]
        else:
            self.met, _ = rules.coded(meetings, [0] * MEETING_CODES, 0, 0)
            self.met = [dict(met) for met in self.met]
        self.planned: list[dict[int, int]] = [{} for _ in meetings]
        self.table_of: list[dict[int, int]] = []
        for tables in rounds:
            where = {}
            for index, table in enumerate(tables):
                for player in table:
                    where[player] = index
                for i, player in enumerate(table):
                    for other in table[i + 1 :]:
                        self._add(player, other, 1)
            self.table_of.append(where)
        self.seats = seats
        self._seat = None
        if seats is not None:
            self._seat = CostModel(
                meetings=[{} for _ in meetings],
                rank=None,
                repeat_unit=0,
                seats=seats,
                cross_unit=CROSS_COST,
                detour_unit=DETOUR_COST,
                deficit_unit=DEFICIT_COST,
            ).table_cost
        self.seat_cost = [self._seat(table) for table in rounds[0]] if seats is not None else []
        self.cost = self.repeat_cost() + sum(self.seat_cost)

    def repeat_cost(self) -> int:
        step = self.step
        total = 0
        for met in self.met:
            for code in met.values():
                first = code - code % MEETING_CODES
                for earlier in range(first, code):
                    total += step[earlier]
        return total // 2

    def repeated_meetings(self) -> int:
        """Sum over pairs of max(0, meetings − 1), history and plan together."""
        return (
            sum(code % MEETING_CODES - 1 for met in self.met for code in met.values() if code % MEETING_CODES > 1) // 2
        )

    def _mark(self, pair: tuple[int, int]) -> None:
        if pair not in self.bad_index:
            self.bad_index[pair] = len(self.bad)
            self.bad.append(pair)

    def _unmark(self, pair: tuple[int, int]) -> None:
        index = self.bad_index.pop(pair, None)
        if index is None:
            return
        last = self.bad.pop()
        if index < len(self.bad):
            self.bad[index] = last
            self.bad_index[last] = index

    def _add(self, a: int, b: int, change: int) -> None:
        for x, y in ((a, b), (b, a)):
            times = self.met[x].get(y, 0) + change
            if times:
                self.met[x][y] = times
            else:
                del self.met[x][y]
            planned = self.planned[x].get(y, 0) + change
            if planned:
                self.planned[x][y] = planned
            else:
                del self.planned[x][y]
        pair = (a, b) if a < b else (b, a)
        pair_class, times = divmod(self.met[a].get(b, 0), MEETING_CODES)
        if (times > 1 or (times and self.against_rule[pair_class])) and self.planned[a].get(b, 0) > 0:
            self._mark(pair)
        else:
            self._unmark(pair)

    def swap_delta(self, round_index: int, a: int, b: int) -> int:
        """Cost change of exchanging ``a`` and ``b`` (at different tables) in one planned round."""
        tables = self.rounds[round_index]
        where = self.table_of[round_index]
        first, second = where[a], where[b]
        met_a, met_b = self.met[a], self.met[b]
        step = self.step
        delta = 0
        for x in tables[first]:
            if x != a:
                delta += step[met_b.get(x, 0)] - step[met_a[x] - 1]
        for y in tables[second]:
            if y != b:
                delta += step[met_a.get(y, 0)] - step[met_b[y] - 1]
        if round_index == 0 and self.seats is not None:
            delta += self.seat_delta(a, b)
        return delta

    def seat_delta(self, a: int, b: int) -> int:
        """Change of this round's seat cost when ``a`` and ``b`` (at different tables) exchange."""
        tables = self.rounds[0]
        where = self.table_of[0]
        first, second = where[a], where[b]
        new_first = [b if x == a else x for x in tables[first]]
        new_second = [a if y == b else y for y in tables[second]]
        return self._seat(new_first) + self._seat(new_second) - self.seat_cost[first] - self.seat_cost[second]

    def swap(self, round_index: int, a: int, b: int, delta: int) -> None:
        tables = self.rounds[round_index]
        where = self.table_of[round_index]
        first, second = where[a], where[b]
        for x in tables[first]:
            if x != a:
                self._add(a, x, -1)
                self._add(b, x, 1)
        for y in tables[second]:
            if y != b:
                self._add(b, y, -1)
                self._add(a, y, 1)
        tables[first][tables[first].index(a)] = b
        tables[second][tables[second].index(b)] = a
        where[a], where[b] = second, first
        if round_index == 0 and self.seats is not None:
            self.seat_cost[first] = self._seat(tables[first])
            self.seat_cost[second] = self._seat(tables[second])
        self.cost += delta


def _start(
    seated: Sequence[Sequence[int]],
    sizes: Sequence[int],
    meetings: Sequence[dict[int, int]],
    rng: random.Random,
) -> list[list[list[int]]]:
    met = [dict(m) for m in meetings]
    rounds = []
    for players in seated:
        order = list(players)
        rng.shuffle(order)
        groups = greedy_top_down(order, sizes, met)
        for group in groups:
            for i, player in enumerate(group):
                for other in group[i + 1 :]:
                    met[player][other] = met[player].get(other, 0) + 1
                    met[other][player] = met[other].get(player, 0) + 1
        rounds.append(groups)
    return rounds


def plan_random(
    seated: Sequence[Sequence[int]],
    sizes: Sequence[int],
    meetings: Sequence[dict[int, int]],
    seats: SeatBook | None,
    rng: random.Random,
    deadline: float,
    start: list[list[list[int]]] | None = None,
    rules: GroupBook | None = None,
) -> Plan:
    """Plan the rounds whose seated players are ``seated`` (this round first; every round at tables of
    ``sizes``). ``meetings`` are the history's; ``seats``, this round's seat costs. ``start``, when
    given, is the plan to improve (else one is built round by round). ``rules``: groups and
    forbidden pairs, weighed in every planned round."""
    rounds = _copy(start) if start is not None else _start(seated, sizes, meetings, rng)
    state = _State(rounds, meetings, seats, rules)
    marginal = state.step
    best_cost = state.cost
    best = _copy(rounds)
    best_repeats = state.repeated_meetings()
    players = sum(len(round_players) for round_players in seated)
    steps = min(MAX_STEPS, max(MIN_STEPS, STEPS_PER_SEAT * players))
    tabu: dict[tuple[int, int], int] = {}
    since_best = 0
    seat_steps = 0
    for step in range(steps):
        if step % CLOCK_EVERY == 0 and time.monotonic() > deadline:
            break
        chosen = _pick(state, rng)
        if chosen is None:
            break
        if not state.bad:
            seat_steps += 1
            if seat_steps > SEAT_STEPS:
                break
        round_index, movers = chosen
        tables = state.rounds[round_index]
        where = state.table_of[round_index]
        others = range(len(tables))
        if len(tables) > CANDIDATE_TABLES:
            others = rng.sample(others, CANDIDATE_TABLES)
        best_move = None
        best_delta = None
        met = state.met
        seat_round = round_index == 0 and seats is not None
        leaving: dict[int, int] = {}
        for player in movers:
            here = where[player]
            home_rest = [x for x in tables[here] if x != player]
            met_player = met[player]
            leave = 0
            for x in home_rest:
                leave += marginal[met_player[x] - 1]
            player_tabu = tabu.get((round_index, player), -1) > step
            for index in others:
                if index == here:
                    continue
                table = tables[index]
                join = -leave
                for y in table:
                    join += marginal[met_player.get(y, 0)]
                for other in table:
                    met_other = met[other]
                    other_leave = leaving.get(other)
                    if other_leave is None:
                        other_leave = 0
                        for y in table:
                            if y != other:
                                other_leave += marginal[met_other[y] - 1]
                        leaving[other] = other_leave
                    delta = join - marginal[met_player.get(other, 0)] - other_leave
                    for x in home_rest:
                        delta += marginal[met_other.get(x, 0)]
                    if seat_round:
                        delta += state.seat_delta(player, other)
                    if (player_tabu or tabu.get((round_index, other), -1) > step) and (state.cost + delta >= best_cost):
                        continue
                    if best_delta is None or delta < best_delta or (delta == best_delta and rng.random() < 0.5):
                        best_delta, best_move = delta, (player, other)
        if best_move is None:
            continue
        player, other = best_move
        state.swap(round_index, player, other, best_delta)
        tabu[(round_index, player)] = step + rng.randint(*TABU_STEPS)
        tabu[(round_index, other)] = step + rng.randint(*TABU_STEPS)
        since_best += 1
        if state.cost < best_cost:
            best_cost = state.cost
            best = _copy(state.rounds)
            best_repeats = state.repeated_meetings()
            since_best = 0
        elif since_best >= STALL_STEPS:
            _shake(state, rng)
            since_best = 0
    return Plan(rounds=best, planned_repeats=best_repeats)


def _copy(rounds: list[list[list[int]]]) -> list[list[list[int]]]:
    return [[list(table) for table in tables] for tables in rounds]


def _shake(state: _State, rng: random.Random) -> None:
    """A few random exchanges, to leave a region the tabu list cannot leave."""
    for _ in range(SHAKE_SWAPS):
        round_index = rng.randrange(len(state.rounds))
        tables = state.rounds[round_index]
        if len(tables) < 2:
            return
        first, second = rng.sample(range(len(tables)), 2)
        a, b = rng.choice(tables[first]), rng.choice(tables[second])
        state.swap(round_index, a, b, state.swap_delta(round_index, a, b))


def _pick(state: _State, rng: random.Random) -> tuple[int, list[int]] | None:
    """A planned round and the players to try moving in it: those in pairs meeting again there, else
    (no pair meets again) the members of a table of this round with a seat cost."""
    if state.bad:
        a, b = state.bad[rng.randrange(len(state.bad))]
        rounds = [t for t, where in enumerate(state.table_of) if where.get(a, -1) == where.get(b, -2)]
        if rounds:
            round_index = rng.choice(rounds)
            where = state.table_of[round_index]
            movers = {
                player for pair in state.bad for player in pair if where.get(pair[0], -1) == where.get(pair[1], -2)
            }
            return round_index, sorted(movers)
    costly = [index for index, cost in enumerate(state.seat_cost) if cost]
    if not costly:
        return None
    return 0, list(state.rounds[0][rng.choice(costly)])
