"""A series (a league or a season) 通算: its standings from each event's final results.

Each event gives each of its ranked players a place (1 is first; tied players share the better place) and
total points (game points, exact). The series rule makes one value of each result and sums them:

* ``sum``: the points of every event;
* ``best_n``: the points of the player's best ``n`` events (of however many they played);
* ``place_points``: a table of points by place (``(25, 18, 15, …)``: first 25, second 18, …; a place past the
  table's end scores 0), summed over every event.

Players are ranked by their series total, best first; equal totals share the rank (1, 2, 2, 4) and are
listed by player id so that the order is reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

SUM, BEST_N, PLACE_POINTS = "sum", "best_n", "place_points"
RULES = (SUM, BEST_N, PLACE_POINTS)
MAX_PLACE_POINTS = 1000  # places in a table of points by place, at most


class SeriesError(ValueError):
    """A rule that cannot be applied (the caller's to fix): ``code`` is stable."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True, slots=True)
class SeriesRule:
    kind: str
    best_n: int | None = None
    place_points: tuple[int | Fraction, ...] = ()

    def __post_init__(self):
        if self.kind not in RULES:
            raise SeriesError("invalid_rule", f"the rule is one of {', '.join(RULES)}")
        if self.kind == BEST_N and (
            isinstance(self.best_n, bool) or not isinstance(self.best_n, int) or self.best_n < 1
        ):
            raise SeriesError("invalid_best_n", "best N needs N, a whole number from 1")
        if self.kind == PLACE_POINTS:
            if not self.place_points or len(self.place_points) > MAX_PLACE_POINTS:
                raise SeriesError("invalid_place_points", f"points by place need 1 to {MAX_PLACE_POINTS} values")
            for value in self.place_points:
                if isinstance(value, bool) or not isinstance(value, int | Fraction):
                    raise SeriesError("invalid_place_points", "points by place are whole numbers or fractions")

    def value(self, result: EventResult) -> Fraction:
        """What one result is worth under the rule (before best N picks)."""
        if self.kind == PLACE_POINTS:
            table = self.place_points
            return Fraction(table[result.place - 1]) if result.place <= len(table) else Fraction(0)
        return Fraction(result.points)


@dataclass(frozen=True, slots=True)
class EventResult:
    """One player's final result in one event."""

    event_id: int
    player_id: int
    place: int  # 1 first; tied players share the better place
    points: Fraction  # the event's total points (game points after penalties)


@dataclass(frozen=True, slots=True)
class CountedResult:
    event_id: int
    place: int
    points: Fraction
    value: Fraction  # what the rule makes of it
    counted: bool  # False: left out by best N


@dataclass(frozen=True, slots=True)
class SeriesLine:
    rank: int
    player_id: int
    total: Fraction
    events: int  # events played
    results: tuple[CountedResult, ...]  # in the order of the series' events


def series_standings(
    results: Sequence[EventResult], rule: SeriesRule, *, event_order: Sequence[int] = ()
) -> tuple[SeriesLine, ...]:
    """The series standings, best first. ``event_order`` lists the events in the series' order (by date):
    each line's results follow it (events not in it come after, by id). Among equal values, best N keeps
    the earlier event."""
    order = {event_id: index for index, event_id in enumerate(event_order)}
    by_player: dict[int, list[EventResult]] = {}
    seen: set[tuple[int, int]] = set()
    for result in results:
        if (result.event_id, result.player_id) in seen:
            raise SeriesError("duplicate_result", "a player has two results in one event")
        if isinstance(result.place, bool) or not isinstance(result.place, int) or result.place < 1:
            raise SeriesError("invalid_place", "a place is a whole number from 1")
        seen.add((result.event_id, result.player_id))
        by_player.setdefault(result.player_id, []).append(result)

    def event_key(result: EventResult):
        return (order.get(result.event_id, len(order)), result.event_id)

    lines = []
    for player_id, played in by_player.items():
        played.sort(key=event_key)
        values = [rule.value(result) for result in played]
        counted = set(range(len(played)))
        if rule.kind == BEST_N and len(played) > rule.best_n:
            best = sorted(range(len(played)), key=lambda i: (-values[i], event_key(played[i])))
            counted = set(best[: rule.best_n])
        rows = tuple(
            CountedResult(r.event_id, r.place, Fraction(r.points), v, i in counted)
            for i, (r, v) in enumerate(zip(played, values, strict=True))
        )
        total = sum((row.value for row in rows if row.counted), Fraction(0))
        lines.append((total, player_id, rows))
    lines.sort(key=lambda line: (-line[0], line[1]))
    ranked: list[SeriesLine] = []
    for index, (total, player_id, rows) in enumerate(lines):
        rank = ranked[-1].rank if ranked and ranked[-1].total == total else index + 1
        ranked.append(SeriesLine(rank=rank, player_id=player_id, total=total, events=len(rows), results=rows))
    return tuple(ranked)
