"""What every check reads, loaded once (``EventRecords``, by ``event_records``), the ``Violation`` each
check reports (a stable ``code``, where, a message), each table's current hands (voided ones left out) and
current result rows, and seed 004's fouls as the engine's table states them (arts. 35–38, 43)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _

from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.models import Event, Hand, HandVersion, Penalty, Seat, SeatResult, Table

THOUSAND = 1000
SEASONS_PER_YEAR = 4  # art. 39: a year of overtime is four hands, spring to winter

# Seed 004's fouls as the engine's table states them (arts. 35–38, 43); the checks count and sum the
# records with their own arithmetic.
LOST_WINS = {kind.value: set(effect.lost_wins) for kind, effect in PENALTY_EFFECTS.items() if effect.lost_wins}
REPLAY_KINDS = {kind.value for kind, effect in PENALTY_EFFECTS.items() if effect.replays_hand}  # 36条③
PENALTY_POINT_KINDS = {kind.value for kind, effect in PENALTY_EFFECTS.items() if effect.has_penalty_points}  # 37条①
CLAIM_LOST_KINDS = {kind.value for kind, effect in PENALTY_EFFECTS.items() if effect.loses_claim}  # 拾
CARRIED_KINDS = {kind.value for kind, effect in PENALTY_EFFECTS.items() if effect.carries_to_replay}  # 36条③


@dataclass(frozen=True)
class Violation:
    code: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"[{self.code}] {self.where}: {self.message}"


@dataclass
class EventRecords:
    """Everything the checks read, loaded once."""

    event: Event
    tables: dict[int, Table]
    seats: dict[int, list[Seat]]  # by table id, in position order
    hands: dict[int, list[Hand]]  # by table id, in number order
    versions: dict[int, list[HandVersion]]  # by hand id, in version order
    results: dict[int, list[SeatResult]]  # by table id, current and older
    penalties: list[Penalty] = field(default_factory=list)
    _where: dict[int, str] = field(default_factory=dict)  # each table's, read by several checks
    _where_text: str = ""  # how a table's place is said, translated once per audit
    _uma: dict[int, tuple] = field(default_factory=dict)  # by table size, read for every table

    def uma(self, table_size: int) -> tuple[Fraction, ...]:
        """The ruleset's placement points 順位点 (uma) for ``table_size`` players, read once per audit."""
        uma = self._uma.get(table_size)
        if uma is None:
            uma = self._uma[table_size] = tuple(self.event.ruleset.uma_for(table_size))
        return uma

    def table_where(self, table_id: int) -> str:
        where = self._where.get(table_id)
        if where is None:
            table = self.tables[table_id]
            if not self._where_text:
                self._where_text = _("round %(round)s table %(table)s")
            where = self._where[table_id] = self._where_text % {"round": table.round.number, "table": table.number}
        return where

    def playing_seats(self, table_id: int) -> list[Seat]:
        return [s for s in self.seats.get(table_id, []) if s.in_game]

    def seats_in_hand(self, table_id: int, number: int) -> list[int]:
        """Positions among the game's seats that play hand ``number`` (art. 42: not one who left before)."""
        return [i for i, s in enumerate(self.playing_seats(table_id)) if s.plays_hand(number)]

    def replayed_before(self, table_id: int, number: int) -> list[int]:
        """The hands just before hand ``number`` that were stopped and replayed (art. 36 ③), nearest first."""
        outcomes = {hand.number: version.outcome for hand, version in current_hands(self, table_id)}
        chain, previous = [], number - 1
        while outcomes.get(previous) == "replayed":
            chain.append(previous)
            previous -= 1
        return chain


def event_records(event: Event) -> EventRecords:
    tables = {t.id: t for t in Table.objects.filter(round__event=event).select_related("round")}
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round__event=event).order_by("table_id", "position"):
        seats[seat.table_id].append(seat)
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(table__round__event=event).order_by("table_id", "number"):
        hands[hand.table_id].append(hand)
    versions: dict[int, list[HandVersion]] = defaultdict(list)
    for version in HandVersion.objects.filter(hand__table__round__event=event).order_by("hand_id", "version"):
        versions[version.hand_id].append(version)
    results: dict[int, list[SeatResult]] = defaultdict(list)
    for result in SeatResult.objects.filter(table__round__event=event).order_by("table_id", "version"):
        results[result.table_id].append(result)
    penalties = list(Penalty.objects.filter(event=event).order_by("id"))
    return EventRecords(event, tables, seats, hands, versions, results, penalties)


def current_hands(records: EventRecords, table_id: int) -> list[tuple[Hand, HandVersion]]:
    """Each hand of the game with its current version, in order (hands without one, and hands voided as
    entered by mistake, left out)."""
    current = []
    for hand in records.hands.get(table_id, []):
        version = next((v for v in records.versions.get(hand.id, []) if v.version == hand.current_version), None)
        if version is not None and version.outcome != HandVersion.Outcome.VOID:
            current.append((hand, version))
    return current


def current_versions(records: EventRecords, table_id: int) -> list[HandVersion]:
    return [version for _, version in current_hands(records, table_id)]


def sums_to(parts, total) -> bool:
    """Whether the fractions ``parts`` add up to ``total``, exactly: summed as one numerator over the product of
    their denominators, then compared crosswise (``Fraction``'s own addition reduces after every step, the
    bulk of an audit of 100,000 results)."""
    numerator, denominator = 0, 1
    for part in parts:
        part_denominator = part.denominator
        if part_denominator == 1:  # a whole number (most placement points and oka): nothing to multiply out
            numerator += part.numerator * denominator
        else:
            numerator = numerator * part_denominator + part.numerator * denominator
            denominator *= part_denominator
    return numerator * total.denominator == total.numerator * denominator


def current_results(records: EventRecords, table_id: int) -> list[SeatResult]:
    return [r for r in records.results.get(table_id, []) if r.is_current]
