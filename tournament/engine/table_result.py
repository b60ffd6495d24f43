"""The placement side of a table's result: placement points (順位点), oka, forfeits (不戦敗), advancing.

All amounts are "game points": ``Fraction``s in thousands of points. A seat that played to the end
scores ``(final − return) / 1000 + placement points × multiplier + oka``.

* Placement points (順位点, uma) are given per table size (4, 3 or 2 players) as a tuple from first to
  last; they must sum to zero and not increase. They are multiplied by the overtime multiplier of
  art. 39 ③ (year 1 ×1, year 2 ×2, ...).
* Oka = (return − start) × players who started / 1000, to the top; under ``split`` tied tops share it.
* Ties: ``split`` gives tied players the average of the placement points of the places they share
  (exact Fractions); ``seat_order`` ranks the earlier seat higher.
* Advancing (勝ち進み, art. 41): the seats placed within ``advancing_places`` (default 1, the table's
  winner). Under ``split`` every seat tied for an advancing place advances: they share that place, and
  ranking one of them below the other would need a rule the seed does not give.

Art. 42 (欠員): a player absent before the game does not play; the table plays with 3 or 2. A player
absent during the game leaves; the hand in progress is void and is restarted from the shuffle (洗札から
再開) with those left, and the points exchanged before the absence stand, the absentee's included.
Either way the absentee forfeits (不戦敗): "一人負け相当の順位点を減算する" — the placement points of a sole
last place are subtracted. Reading: the absentee's placement points are the last-place value (a
non-positive number) of the table size they were seated at, times the multiplier — e.g. −30 with
uma (30, 10, −10, −30) at a four-player table. The absentee gets no oka. The players who finish share
the placement points for the size they finished at, so the table sums to the (negative) forfeits.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from taikai.i18n import _

from .errors import InvariantViolation, TournamentError

TIE_RULES = ("split", "seat_order")
ABSENCES = (
    "present",
    "absent_before",  # 対局前の欠員
    "absent_during",  # 対局中の欠員
)
THOUSAND = 1000


def _as_exact(value: object, name: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TournamentError(
            "invalid_table_rules",
            # Translators: name is a field name of the ruleset (uma_4, uma_3, uma_2).
            _("%(name)s must be an integer or a Fraction") % {"name": name},
            field=name,
        )
    return Fraction(value)


@dataclass(frozen=True)
class TableRules:
    """Placement settings of an event's ruleset. Uma tuples run from first place to last."""

    uma_4: tuple[Fraction, ...] = (Fraction(20), Fraction(10), Fraction(-10), Fraction(-20))
    uma_3: tuple[Fraction, ...] = (Fraction(20), Fraction(0), Fraction(-20))
    uma_2: tuple[Fraction, ...] = (Fraction(10), Fraction(-10))
    start_points: int = 25000  # 配給原点
    return_points: int = 25000  # 返し点 (原点)
    tie_rule: str = "split"
    advancing_places: int = 1

    def __post_init__(self) -> None:
        for size in (4, 3, 2):
            name = f"uma_{size}"
            values = tuple(_as_exact(v, name) for v in getattr(self, name))
            if len(values) != size:
                raise TournamentError(
                    "invalid_table_rules",
                    # Translators: name is a field name of the ruleset (uma_4: the placement points at 4).
                    _("%(name)s needs %(size)s values") % {"name": name, "size": size},
                    field=name,
                )
            if sum(values) != 0:
                raise TournamentError(
                    "invalid_table_rules", _("%(name)s must sum to zero") % {"name": name}, field=name
                )
            if any(a < b for a, b in pairwise(values)):
                raise TournamentError(
                    "invalid_table_rules", _("%(name)s must not increase") % {"name": name}, field=name
                )
            object.__setattr__(self, name, values)
        for name in ("start_points", "return_points", "advancing_places"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TournamentError(
                    "invalid_table_rules",
                    # Translators: name is a field name of the ruleset (start_points, return_points, ...).
                    _("%(name)s must be a whole number") % {"name": name},
                    field=name,
                )
        if self.tie_rule not in TIE_RULES:
            raise TournamentError(
                "invalid_table_rules",
                _("tie rule must be one of %(rules)s") % {"rules": ", ".join(TIE_RULES)},
                field="tie_rule",
            )

    def uma_for(self, players: int) -> tuple[Fraction, ...]:
        return {4: self.uma_4, 3: self.uma_3, 2: self.uma_2}[players]


@dataclass(frozen=True)
class SeatOutcome:
    """One seat as the table ended: final points (None when absent before the game) and absence."""

    player_id: Hashable
    final_points: int | None
    absence: str = "present"

    def __post_init__(self) -> None:
        if self.absence not in ABSENCES:
            raise TournamentError(
                "invalid_seat_outcome",
                _("unknown absence %(absence)s") % {"absence": repr(self.absence)},
                field="absence",
            )
        if self.absence == "absent_before":
            if self.final_points is not None:
                raise TournamentError(
                    "invalid_seat_outcome",
                    _("a player absent before the game has no points"),
                    field="final_points",
                )
        elif isinstance(self.final_points, bool) or not isinstance(self.final_points, int):
            raise TournamentError("invalid_seat_outcome", _("final points must be an integer"), field="final_points")


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player_id: Hashable
    placement: int | None  # 1-based among the players who finished; None for a forfeit
    final_points: int | None
    point_score: Fraction  # (final − return) / 1000
    placement_points: Fraction  # 順位点 × multiplier (the forfeit's negative value for an absentee)
    oka: Fraction
    game_points: Fraction
    advanced: bool
    forfeit: bool  # 不戦敗


@dataclass(frozen=True)
class TableResult:
    seats: tuple[SeatResult, ...]
    multiplier: int
    players_seated: int
    players_finished: int
    forfeit_total: Fraction = field(default=Fraction(0))  # sum of the forfeits' placement points (≤ 0)
    deposits_lost: int = 0  # riichi deposits left on the table at the end and lost (not paid to anyone)


def table_result(
    seats: tuple[SeatOutcome, ...] | list[SeatOutcome],
    rules: TableRules,
    *,
    multiplier: int = 1,
    deposits_lost: int = 0,
) -> TableResult:
    """Placements, placement points, oka and game points of one table, in seat order.

    Raises ``points_not_zero_sum`` when the final points of the players who started do not add up to
    start points × starters minus ``deposits_lost`` (riichi deposits 供託 left on the table at the end
    under a ruleset where they are lost; under "to the top" they are in the top's points already).
    """
    seats = tuple(seats)
    if len(seats) not in (2, 3, 4):
        raise TournamentError("invalid_table_size", _("a table seats 2, 3 or 4 players"), field="seats")
    if isinstance(multiplier, bool) or not isinstance(multiplier, int) or multiplier < 1:
        raise TournamentError("invalid_multiplier", _("the multiplier is a whole number from 1"), field="multiplier")
    starters = [i for i, s in enumerate(seats) if s.absence != "absent_before"]
    finishers = [i for i, s in enumerate(seats) if s.absence == "present"]
    if len(finishers) < 2:
        raise TournamentError("too_few_players", _("a game needs at least two players who finish"), field="seats")
    total_final = sum(seats[i].final_points for i in starters)
    if isinstance(deposits_lost, bool) or not isinstance(deposits_lost, int) or deposits_lost < 0:
        raise TournamentError("invalid_deposits", _("lost deposits are a whole number ≥ 0"), field="deposits_lost")
    if total_final != rules.start_points * len(starters) - deposits_lost:
        if deposits_lost:
            message = _("final points add up to %(total)s, expected %(start)s × %(players)s − %(lost)s lost deposits")
        else:
            message = _("final points add up to %(total)s, expected %(start)s × %(players)s")
        figures = {
            "total": total_final,
            "start": rules.start_points,
            "players": len(starters),
            "lost": deposits_lost,
        }
        raise TournamentError("points_not_zero_sum", message % figures, field="seats")

    placements, shares, oka_shares = _place_finishers(seats, finishers, rules)
    oka_total = Fraction((rules.return_points - rules.start_points) * len(starters), THOUSAND)
    forfeit_value = rules.uma_for(len(seats))[-1] * multiplier  # 一人負け相当の順位点

    results = []
    for index, seat in enumerate(seats):
        forfeit = seat.absence != "present"
        played = seat.final_points is not None  # an absentee before the game exchanged no points
        point_score = Fraction(seat.final_points - rules.return_points, THOUSAND) if played else Fraction(0)
        placement_points = forfeit_value if forfeit else shares[index] * multiplier
        oka = oka_total * oka_shares.get(index, 0)
        placement = None if forfeit else placements[index]
        results.append(
            SeatResult(
                seat=index,
                player_id=seat.player_id,
                placement=placement,
                final_points=seat.final_points,
                point_score=point_score,
                placement_points=placement_points,
                oka=oka,
                game_points=point_score + placement_points + oka,
                advanced=placement is not None and placement <= rules.advancing_places,
                forfeit=forfeit,
            )
        )
    forfeit_total = sum((r.placement_points for r in results if r.forfeit), Fraction(0))
    if sum(r.game_points for r in results) != forfeit_total - Fraction(deposits_lost, THOUSAND):
        raise InvariantViolation("a table result does not sum to its forfeits")
    return TableResult(
        seats=tuple(results),
        multiplier=multiplier,
        players_seated=len(seats),
        players_finished=len(finishers),
        forfeit_total=forfeit_total,
        deposits_lost=deposits_lost,
    )


def _place_finishers(
    seats: tuple[SeatOutcome, ...], finishers: list[int], rules: TableRules
) -> tuple[dict[int, int], dict[int, Fraction], dict[int, Fraction]]:
    """Placement, placement-point share (before the multiplier) and oka fraction per finishing seat."""
    uma = rules.uma_for(len(finishers))
    order = sorted(finishers, key=lambda i: (-seats[i].final_points, i))
    placements: dict[int, int] = {}
    shares: dict[int, Fraction] = {}
    oka_shares: dict[int, Fraction] = {}
    place = 0
    while place < len(order):
        group_end = place + 1
        if rules.tie_rule == "split":
            points = seats[order[place]].final_points
            while group_end < len(order) and seats[order[group_end]].final_points == points:
                group_end += 1
        group = order[place:group_end]
        share = sum(uma[place:group_end], Fraction(0)) / len(group)
        for seat_index in group:
            placements[seat_index] = place + 1
            shares[seat_index] = share
            if place == 0:
                oka_shares[seat_index] = Fraction(1, len(group))
        place = group_end
    return placements, shares, oka_shares
