"""``seat_round``: one seating request (``shared/seating-protocol.md``) in, the next round's seating out.

The steps: validate the request; number the players by their position in ``players``; plan the
tables (short tables or byes); order the active players (standings first for Swiss and interval, a
seeded shuffle for random seating); give the byes; group; order the seats; number the tables; check
the result; report. A user-fixable problem comes back as ``{"error": {"code", "message"}}``.

Groups and forbidden pairs (``groups``) weigh in every mode's search: Swiss and random seating weigh
them in their costs, interval seating is fixed by the step and then repaired by exchanges between
tables (``search.keep_groups_apart``, which weighs the standings spread against the rules). Every
answer carries the protocol's ``version`` (``request.PROTOCOL_VERSION``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import InvariantViolation, TournamentError
from .groups import Group, GroupBook
from .history import IndexedHistory, index_history
from .interval import seat_interval
from .random_seating import seat_random
from .report import QualityReport, group_report, quality_report
from .request import PROTOCOL_VERSION, PlayerId, SeatingRequest, parse_request
from .search import CostModel, keep_groups_apart
from .swiss import cross_ranks, seat_swiss
from .tables import TablePlan, choose_byes, number_tables, plan_tables
from .winds import order_seats

SEARCH_SHARE = 0.8  # of the time limit, for the search; the rest is for seats, numbers and the report


@dataclass(frozen=True)
class Seating:
    """The next round: tables in table-number order, each in seat order; byes; the quality report."""

    tables: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...]
    report: QualityReport

    def as_dict(self) -> dict:
        return {
            "version": PROTOCOL_VERSION,
            "tables": [list(table) for table in self.tables],
            "byes": list(self.byes),
            "report": self.report.as_dict(),
        }


def seat_round(request: dict) -> dict:
    """Answer one protocol request with the protocol response, or ``{"error": {...}}``."""
    try:
        seating = seat_request(parse_request(request))
    except TournamentError as error:
        return {"error": {"code": error.code, "message": error.message}}
    return seating.as_dict()


def _active_order(request: SeatingRequest, index_of: dict[PlayerId, int], rng: random.Random) -> list[int]:
    """Active players best first (standings, then unlisted players in registration order) or shuffled."""
    active = [index_of[player] for player in request.active_players]
    if request.mode == "random":
        rng.shuffle(active)
        return active
    active_set = set(active)
    listed = [index_of[player] for player in request.standings if index_of[player] in active_set]
    listed_set = set(listed)
    return listed + [player for player in active if player not in listed_set]


def seat_request(request: SeatingRequest) -> Seating:
    """Seat one validated request (see the module docstring)."""
    started = time.monotonic()
    deadline = started + request.time_limit_s * SEARCH_SHARE
    rng = random.Random(f"taikai-seat:{request.seed}:{len(request.history)}")
    players = request.players
    index_of = {player: index for index, player in enumerate(players)}
    history = index_history(
        len(players),
        [[[index_of[player] for player in table] for table in tables] for tables in request.history],
        request.table_size,
    )
    active_order = _active_order(request, index_of, rng)
    plan = plan_tables(len(active_order), request.table_size, request.remainder)
    byes = choose_byes(active_order, history.bye_counts, plan.byes)
    bye_set = set(byes)
    seated_order = [player for player in active_order if player not in bye_set]

    rounds_left = _rounds_left(request)
    rules = _rules(request, index_of)
    groups, seat_ordered = _group(request, history, active_order, seated_order, plan, deadline, rounds_left, rules)
    tables = groups if seat_ordered else order_seats(groups, history.seat_counts, rng, rounds_left)
    numbers = number_tables(tables, history.last_table)
    tables = [table for _, table in sorted(zip(numbers, tables, strict=True))]
    _check(tables, byes, plan, active_order)

    rank = None
    if request.standings:
        rank = [None] * len(players)
        for position, player in enumerate(_ranked_active(request, index_of)):
            rank[player] = position
    traded_for, ranks_per_cross = _seat_priority(request, len(seated_order))
    report = quality_report(history, tables, rank, rounds_left, traded_for, ranks_per_cross)
    if rules is not None:
        report = replace(report, groups=group_report(rules, history, tables, players))
    return Seating(
        tables=tuple(tuple(players[player] for player in table) for table in tables),
        byes=tuple(players[player] for player in sorted(byes)),
        report=report,
    )


def _rules(request: SeatingRequest, index_of: dict[PlayerId, int]) -> GroupBook | None:
    """The request's groups and forbidden pairs on player indices, or None when it has neither."""
    if not request.groups and not request.forbidden_pairs:
        return None
    groups = [
        Group(group.kind, tuple(index_of[player] for player in group.members), group.policy) for group in request.groups
    ]
    forbidden = [(index_of[first], index_of[second]) for first, second in request.forbidden_pairs]
    return GroupBook(len(request.players), groups, forbidden, request.group_weight)


def _seat_priority(request: SeatingRequest, seated: int) -> tuple[str, int | None]:
    """What the grouping weighed seats against (``report.SeatTrade.traded_for``) and, when that is the
    standings, how many places of rank spread one crossed player weighs."""
    if request.mode == "interval":
        return "interval", None
    if request.mode == "swiss":
        ranks = cross_ranks(seated)
        return ("repeats", None) if ranks is None else ("standings", ranks)
    return "repeats", None


def _rounds_left(request: SeatingRequest) -> int:
    """Rounds after this one, when the request says how many the event has (else 0)."""
    if request.total_rounds is None:
        return 0
    return max(0, request.total_rounds - request.round_number)


def _ranked_active(request: SeatingRequest, index_of: dict[PlayerId, int]) -> list[int]:
    ranked = SeatingRequest(players=request.players, standings=request.standings, absent=request.absent, mode="swiss")
    return _active_order(ranked, index_of, random.Random(0))


def _group(
    request: SeatingRequest,
    history: IndexedHistory,
    active_order: list[int],
    seated_order: list[int],
    plan: TablePlan,
    deadline: float,
    rounds_left: int,
    rules: GroupBook | None,
) -> tuple[list[list[int]], bool]:
    if request.mode == "swiss":
        seating = seat_swiss(
            seated_order,
            plan.sizes,
            history.meetings,
            deadline,
            seat_counts=history.seat_counts,
            seed=f"{request.seed}:{len(history.rounds)}",
            rounds_left=rounds_left,
            rules=rules,
        )
        return seating, False
    if request.mode == "interval":
        seating = seat_interval(seated_order, plan.sizes, request.step or 1)
        if rules is not None:
            seating = _interval_kept_apart(seating, seated_order, rules, request.seed, deadline)
        return seating, False
    seating = seat_random(
        range(len(request.players)),
        active_order,
        seated_order,
        plan.sizes,
        request.table_size,
        history,
        request.seed,
        deadline,
        rounds_left,
        rules,
        request.total_rounds,
    )
    if rules is None or seating.seat_ordered:
        return seating.groups, seating.seat_ordered
    model = CostModel.for_players(history.meetings, None, groups=rules)
    rng = random.Random(f"taikai-groups:{request.seed}:{len(history.rounds)}")
    return keep_groups_apart(model, seating.groups, deadline, rng), False


def _interval_kept_apart(
    seating: list[list[int]], seated_order: Sequence[int], rules: GroupBook, seed: int, deadline: float
) -> list[list[int]]:
    """Interval tables with the rules' pairs moved apart by exchanges that cost the least spread."""
    rank = [0] * len(rules.pair_class)
    for position, player in enumerate(seated_order):
        rank[player] = position
    model = CostModel.for_players([{} for _ in rank], rank, groups=rules)
    conflict_from = model.avoid_unit if rules.has_avoid and model.avoid_unit else model.never_unit
    rng = random.Random(f"taikai-interval-groups:{seed}")
    return keep_groups_apart(model, seating, deadline, rng, conflict_from=conflict_from)


def _check(tables: Sequence[Sequence[int]], byes: Sequence[int], plan: TablePlan, active: Sequence[int]) -> None:
    """The seating must place every active player exactly once, at tables of the planned sizes."""
    seated = [player for table in tables for player in table]
    if sorted(seated + list(byes)) != sorted(active):
        raise InvariantViolation("the seating does not place every active player exactly once")
    if sorted(len(table) for table in tables) != sorted(plan.sizes) or len(byes) != plan.byes:
        raise InvariantViolation("the seating does not match the table plan")
