"""A whole schedule known in advance (Pantheon's "prescripted" seating): rounds → tables → players.

``schedule_checked`` reads one as the organizer gives it and says what is wrong (nothing is seated then)
or how good it is: a player seated twice in a round, an unknown player, a table of the wrong size and an
active player left out of a round are problems; repeats (pairs meeting more than once over the schedule)
and the pairs of each group seated together (with the lower bound of ``groups.pairs_lower_bound``) are
counted. ``winds_balanced`` reorders each table's seats so that over every ``seats`` rounds each player
sits once in each seat (``winds.plan_seats``; only when every table is full). ``event_planned`` makes
a whole schedule from a seating request: every round seated in turn by ``protocol.seat_round`` (the
known designs first, then the planning search over the rounds left), each round's tables fed back as
history, so the plan is what seating round by round would give with nobody absent.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from taikai.i18n import _

from ..errors import TournamentError
from .groups import pairs_lower_bound, pairs_together
from .protocol import seat_round
from .winds import plan_seats

Schedule = Sequence[Sequence[Sequence[Hashable]]]  # rounds → tables → players in seat order (East first)


@dataclass(frozen=True)
class ScheduleReport:
    problems: tuple[str, ...]
    rounds: int
    repeat_pairs: int  # pairs of players meeting more than once, each counted once per extra meeting
    max_meetings: int
    groups: dict[str, dict[str, int]] = field(default_factory=dict)  # kind → pairs together, lower bound


def schedule_checked(
    schedule: Schedule,
    players: Sequence[Hashable],
    active: Sequence[Hashable],
    table_sizes: Sequence[int],
    groups: Sequence[dict] = (),
) -> ScheduleReport:
    """``players``: every id the schedule may name; ``active``: those who must play every round;
    ``table_sizes``: the sizes a table may have (4, or 3 and 4 with three-player tables)."""
    known, must = set(players), set(active)
    problems: list[str] = []
    meetings: Counter = Counter()
    for number, tables in enumerate(schedule, start=1):
        seated: Counter = Counter(player for table in tables for player in table)
        for player, times in sorted(seated.items(), key=lambda item: str(item[0])):
            if player not in known:
                problems.append(
                    _("round %(round)s: %(player)s is not a player of the event") % {"round": number, "player": player}
                )
            elif times > 1:
                problems.append(
                    _("round %(round)s: %(player)s is seated %(times)s times")
                    % {"round": number, "player": player, "times": times}
                )
        for index, table in enumerate(tables, start=1):
            if len(table) not in table_sizes:
                problems.append(
                    _("round %(round)s, table %(table)s: %(count)s players")
                    % {"round": number, "table": index, "count": len(table)}
                )
            meetings.update(frozenset(pair) for pair in itertools.combinations(table, 2))
        for player in sorted(must - set(seated), key=str):
            problems.append(_("round %(round)s: %(player)s is not seated") % {"round": number, "player": player})
    repeats = sum(count - 1 for count in meetings.values() if count > 1)
    return ScheduleReport(
        tuple(problems), len(schedule), repeats, max(meetings.values(), default=0), _group_counts(schedule, groups)
    )


def _group_counts(schedule: Schedule, groups: Sequence[dict]) -> dict[str, dict[str, int]]:
    """Per kind: the pairs of a group seated together over the schedule, and the least any schedule of these
    tables could have (the sum of each round's bound)."""
    counts: dict[str, dict[str, int]] = {}
    for group in groups:
        kind = counts.setdefault(group["kind"], {"pairs": 0, "lower_bound": 0})
        members = list(group["members"])
        for tables in schedule:
            table_of = {player: index for index, table in enumerate(tables) for player in table}
            kind["pairs"] += pairs_together(members, table_of)
            playing = sum(1 for m in members if m in table_of)
            kind["lower_bound"] += pairs_lower_bound(playing, [len(t) for t in tables])
    return counts


def winds_balanced(schedule: Schedule, seats: int) -> list[list[list[Hashable]]]:
    """The same tables, each one's seats reordered so that every player sits in each seat once in every
    ``seats`` rounds; a schedule with a table of another size is returned as it is."""
    if any(len(table) != seats for tables in schedule for table in tables):
        return [[list(table) for table in tables] for tables in schedule]
    ids = sorted({p for tables in schedule for table in tables for p in table}, key=str)
    index = {player: n for n, player in enumerate(ids)}
    planned = plan_seats([[[index[p] for p in table] for table in tables] for tables in schedule], seats)
    return [[[ids[n] for n in table] for table in tables] for tables in planned]


def event_planned(request: dict, rounds: int) -> list[list[list[Hashable]]]:
    """Every round of an event planned now, from ``request`` (a ``../shared/seating-protocol.md`` request
    for round 1, in ``random`` or ``interval`` mode; its history, standings and round are replaced). A
    round that would give a player a bye is refused: a fixed schedule seats everyone in every round."""
    if rounds < 1:
        raise TournamentError("invalid_rounds", _("plan at least one round"))
    planned: list[list[list[Hashable]]] = []
    for number in range(1, rounds + 1):
        answer = seat_round(
            {**request, "history": planned, "standings": [], "round": number, "total_rounds": max(rounds, number)}
        )
        if "error" in answer:
            raise TournamentError(answer["error"]["code"], answer["error"]["message"])
        if answer["byes"]:
            raise TournamentError(
                "plan_has_byes",
                _(
                    "%(count)s players would sit out each round: a fixed schedule seats everyone; allow "
                    "three-player tables or change the number of players"
                )
                % {"count": len(answer["byes"])},
            )
        planned.append([list(table) for table in answer["tables"]])
    return planned
