"""Check every invariant of an event's records; each check returns the violations it finds.

The checks recompute from the stored rows with their own arithmetic (sums, sorts), so a row edited
behind the services' back, or a service that went wrong, shows up as a violation with a stable code:

* hands: every version sums to zero with the deposits 供託 (``hand_zero_sum``), has one change per
  seat (``hand_seat_count``); current versions exist, are the only ones marked current
  (``hand_current_flag``) and are numbered 1, 2, … (``hand_version``,
  ``hand_numbering``); each hand's deposits in are the previous hand's deposits out (``deposits_chain``);
* table results: one current version per seat (``result_versions``); final points are the start
  points plus the hands, with the deposits left at the end paid to the top or lost per the ruleset
  (``table_points``), or, without hands, add up to the start total less lost deposits
  (``table_points_sum``); placements follow the points and the tie rule (``placement``);
  ``game_points = point_score + placement_points + oka`` per row (``result_game_points``), the point
  score is (final − return) / 1000 (``result_point_score``), placement points of a table sum to zero
  and oka to (return − start) × starters / 1000 (``placement_points_sum``, ``oka_sum``), the table's
  game points to its forfeits less the lost deposits (``table_game_points_sum``); advancing follows
  the placement (``advanced``); a result belongs to its seat's player (``result_entry``);
* seating: nobody seated twice in a round (``seated_twice``), a seat's round is its table's round
  (``seat_round_mismatch``), positions 0.. without gaps (``seat_positions``); a round marked completed
  has every table confirmed (``round_completed_while_playing``);
* seed 004 at the table: a replayed hand (art. 36 ③) moves no points (``replayed_hand``); a player who
  left during the game (art. 42) has no change (``left_seat_change``) and no role (``left_seat_role``)
  in the hands after the one they left after, which is a recorded hand (``absence_record``); overtime
  hands (art. 39) come after the regular ones (``overtime_order``), only in events with overtime
  (``overtime_disabled``), and the table's overtime year is that of its last one (``overtime_year``);
  outside the finals the table's overtime state is the engine's decision over its hands
  (``overtime_state``), no overtime hand follows its end (``overtime_after_end``), and no table is
  confirmed with its overtime still going (``overtime_unfinished``);
* the clock of each table's current hand (arts. 38, 42, 36): the seats that left the game are the
  clock's absent seats (``clock_absent_seats``), never on turn or flagged (``clock_turn_to_absent``),
  and no claim 拾 was taken after a foul took that right for the hand, the art. 36 ③ wall wrecker's in
  the replay included (``claim_despite_penalty``); a stored state the engine cannot read is
  ``clock_state``;
* forfeits and placement points: a seat forfeits (不戦敗) exactly when absent (``forfeit``), with the
  last-place placement points of the table size seated × the multiplier and no oka (``forfeit_points``);
  the finishers' placement points are those of their places in the uma of the number who finished,
  shared per the tie rule, × the multiplier (``placement_points``);
* penalties: no win by a seat whose foul took that right for the hand (``win_despite_penalty``), a
  hand with a wrecked wall is recorded as replayed (``hand_not_replayed``), and its offender does not win
  the replay (``win_despite_penalty``); art. 37 penalty points are the unit × the players at the table in
  the foul's hand, a player who left not counted (``penalty_points``); a penalty-point foul in tournament
  play (or egregious conduct) disqualifies (``not_disqualified``), a disqualified player is not seated
  in a later round (``seated_after_disqualification``), and an automatic disqualification whose penalty
  was cancelled is lifted unless an organizer confirmed it (``disqualification_not_lifted``,
  ``disqualification_record``);
* the final (art. 40, 43): the champion is not disqualified (``champion_disqualified``) and played the
  last final game (``champion_not_finalist``); before the last of the event's ``final_games`` games
  nothing is decided: the same finalists play on, less the disqualified (``final_decided_early``);
* standings snapshot: present once results exist (``standings_missing``), one row per entry
  (``standings_entries``) at positions 0, 1, … as many as the snapshot counts (``standings_positions``),
  totals = current game points − penalty points / 1000 (``standings_total``),
  advances and games counted (``standings_advances``, ``standings_games``), rows ordered and ranked
  by the event's precedence with shared ranks (``standings_order``), completed rounds counted
  (``standings_rounds``);
* teams (団体戦): a team's members and reserves are entries of its event (``team_member_event``), no entry
  is in two teams (``team_member_twice``), a captain is one of the team (``team_captain``), a reserve in
  for a round is a reserve of the team and the player replaced a member (``team_swap_roles``); with no
  round hidden, the team standings made from the current results (penalty points deducted) are those
  made from the published standings (``team_standings``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from itertools import pairwise

from django.utils.translation import gettext as _

from tournament.engine import clock as clock_engine
from tournament.engine.errors import TournamentError
from tournament.engine.overtime import OvertimeHandResult, overtime_progress
from tournament.engine.penalties import PENALTY_EFFECTS, is_disqualifying
from tournament.models import (
    Entry,
    Event,
    Hand,
    HandVersion,
    Penalty,
    Round,
    Seat,
    SeatResult,
    StandingsRow,
    StandingsSnapshot,
    Table,
    TableClock,
    Team,
    TeamMember,
    TeamSwap,
)
from tournament.services.teams import team_standings_for, team_standings_from

THOUSAND = 1000
SEASONS_PER_YEAR = 4  # art. 39: a year of overtime is four hands, spring to winter

# Seed 004's fouls as the engine's table states them (arts. 35–38, 43); the checks below count and sum
# the records with their own arithmetic.
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

    def table_where(self, table_id: int) -> str:
        where = self._where.get(table_id)
        if where is None:
            table = self.tables[table_id]
            where = self._where[table_id] = _("round %(round)s table %(table)s") % {
                "round": table.round.number,
                "table": table.number,
            }
        return where

    def playing_seats(self, table_id: int) -> list[Seat]:
        return [s for s in self.seats.get(table_id, []) if s.in_game]

    def seats_in_hand(self, table_id: int, number: int) -> list[int]:
        """Positions among the game's seats that play hand ``number`` (art. 42: not one who left before)."""
        return [i for i, s in enumerate(self.playing_seats(table_id)) if s.plays_hand(number)]

    def replayed_before(self, table_id: int, number: int) -> list[int]:
        """The hands just before hand ``number`` that were stopped and replayed (art. 36 ③), nearest first."""
        outcomes = {hand.number: version.outcome for hand, version in _current_hands(self, table_id)}
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


# --- Hands --------------------------------------------------------------------------------------


def check_hands(records: EventRecords) -> list[Violation]:
    """Zero sum with deposits, one change per seat, current versions, numbering and the deposit chain."""
    violations = []
    for table_id, hands in records.hands.items():
        seat_count = len(records.playing_seats(table_id))
        table_where = records.table_where(table_id)
        numbers = [hand.number for hand in hands]
        if numbers != list(range(1, len(hands) + 1)):
            violations.append(
                Violation("hand_numbering", table_where, _("hands are numbered %(numbers)s") % {"numbers": numbers})
            )
        deposits = 0
        for hand in hands:
            hand_where = _("%(where)s hand %(hand)s") % {"where": table_where, "hand": hand.number}
            by_version = {v.version: v for v in records.versions.get(hand.id, [])}
            for version in by_version.values():
                where = _("%(where)s v%(version)s") % {"where": hand_where, "version": version.version}
                balance = sum(version.deltas) - (version.deposits_in - version.deposits_out)
                if balance:
                    violations.append(
                        Violation(
                            "hand_zero_sum",
                            where,
                            _("changes %(changes)s sum to %(sum)s, deposits in %(in)s − out %(out)s = %(net)s")
                            % {
                                "changes": version.deltas,
                                "sum": sum(version.deltas),
                                "in": version.deposits_in,
                                "out": version.deposits_out,
                                "net": version.deposits_in - version.deposits_out,
                            },
                        )
                    )
                if len(version.deltas) != seat_count:
                    violations.append(
                        Violation(
                            "hand_seat_count",
                            where,
                            _("%(changes)s changes for %(seats)s seats")
                            % {"changes": len(version.deltas), "seats": seat_count},
                        )
                    )
            flagged = [v.version for v in records.versions.get(hand.id, []) if v.is_current]
            if hand.current_version and flagged != [hand.current_version]:
                violations.append(
                    Violation(
                        "hand_current_flag",
                        hand_where,
                        _("versions marked current %(flagged)s, but the hand's current version is %(current)s")
                        % {"flagged": flagged, "current": hand.current_version},
                    )
                )
            current = by_version.get(hand.current_version)
            if current is None:
                violations.append(
                    Violation(
                        "hand_version",
                        hand_where,
                        _("the current version %(version)s does not exist") % {"version": hand.current_version},
                    )
                )
                continue
            if current.deposits_in != deposits:
                violations.append(
                    Violation(
                        "deposits_chain",
                        _("%(where)s v%(version)s") % {"where": hand_where, "version": current.version},
                        _("%(in)s deposits in, but the previous hand left %(left)s")
                        % {"in": current.deposits_in, "left": deposits},
                    )
                )
            deposits = current.deposits_out
    return violations


def _current_hands(records: EventRecords, table_id: int) -> list[tuple[Hand, HandVersion]]:
    """Each hand of the game with its current version, in order (hands without one, and hands voided as
    entered by mistake, left out)."""
    current = []
    for hand in records.hands.get(table_id, []):
        version = next((v for v in records.versions.get(hand.id, []) if v.version == hand.current_version), None)
        if version is not None and version.outcome != HandVersion.Outcome.VOID:
            current.append((hand, version))
    return current


def _current_versions(records: EventRecords, table_id: int) -> list[HandVersion]:
    return [version for _, version in _current_hands(records, table_id)]


def final_points_from_hands(records: EventRecords, table_id: int) -> tuple[list[int], int]:
    """Start points plus every current hand, the deposits left at the end settled per the ruleset;
    returns the points and the deposits lost."""
    ruleset = records.event.ruleset
    points = [ruleset.start_points] * len(records.playing_seats(table_id))
    deposits = 0
    for version in _current_versions(records, table_id):
        if len(version.deltas) == len(points):
            points = [p + d for p, d in zip(points, version.deltas, strict=True)]
        deposits = version.deposits_out
    if not deposits or not points:
        return points, 0
    if ruleset.deposits_at_end == "lost":
        return points, deposits
    top = max(points)
    points[points.index(top)] += deposits  # to the top; on a tie, the earliest seat
    return points, 0


# --- Table results ------------------------------------------------------------------------------


def _current_results(records: EventRecords, table_id: int) -> list[SeatResult]:
    return [r for r in records.results.get(table_id, []) if r.is_current]


def check_result_versions(records: EventRecords) -> list[Violation]:
    violations = []
    for table_id, table in records.tables.items():
        current = _current_results(records, table_id)
        if not current and table.status != Table.Status.FINISHED:
            continue
        where = records.table_where(table_id)
        seat_ids = [s.id for s in records.seats.get(table_id, [])]
        per_seat = Counter(r.seat_id for r in current)
        versions = {r.version for r in current}
        if sorted(per_seat) != sorted(seat_ids) or any(n != 1 for n in per_seat.values()):
            violations.append(
                Violation(
                    "result_versions",
                    where,
                    _("%(results)s current results for %(seats)s seats")
                    % {"results": len(current), "seats": len(seat_ids)},
                )
            )
        elif versions != {table.result_version}:
            violations.append(
                Violation(
                    "result_versions",
                    where,
                    _("current results of version %(versions)s, the table is at version %(version)s")
                    % {"versions": sorted(versions), "version": table.result_version},
                )
            )
    return violations


def check_table_points(records: EventRecords) -> list[Violation]:
    """Confirmed final points against the hands (or, without hands, against the start total)."""
    violations = []
    ruleset = records.event.ruleset
    for table_id, table in records.tables.items():
        if table.status != Table.Status.FINISHED:
            continue  # open (or reopened) tables have no confirmed result to compare yet
        where = records.table_where(table_id)
        by_seat = {r.seat_id: r for r in _current_results(records, table_id)}
        seats = records.playing_seats(table_id)
        recorded = [by_seat[s.id].final_points if s.id in by_seat else None for s in seats]
        if records.hands.get(table_id):
            expected, _lost = final_points_from_hands(records, table_id)
            if recorded != expected:
                violations.append(
                    Violation(
                        "table_points",
                        where,
                        _("final points %(recorded)s, the hands give %(expected)s")
                        % {"recorded": recorded, "expected": expected},
                    )
                )
            continue
        if None in recorded:
            violations.append(Violation("table_points_sum", where, _("a seat has no final points")))
            continue
        lost = ruleset.start_points * len(seats) - sum(recorded)
        if lost < 0 or lost % ruleset.riichi_stick:
            violations.append(
                Violation(
                    "table_points_sum",
                    where,
                    _(
                        "final points add up to %(total)s, not %(start)s × %(seats)s "
                        "less deposits in sticks of %(stick)s"
                    )
                    % {
                        "total": sum(recorded),
                        "start": ruleset.start_points,
                        "seats": len(seats),
                        "stick": ruleset.riichi_stick,
                    },
                )
            )
    return violations


def expected_placement(points: list[int], index: int, tie_rule: str) -> int:
    """Place of seat ``index`` among finishers with ``points`` (seat order): ``split`` shares the place
    of equal points, ``seat_order`` puts the earlier seat first."""
    mine = points[index]
    above = sum(1 for p in points if p > mine)
    if tie_rule == "seat_order":
        above += sum(1 for i, p in enumerate(points) if p == mine and i < index)
    return above + 1


def _seat_where(where: str, seat: Seat | None, seat_id: int | None = None) -> str:
    """Where a seat's row is, in words (its wind; its id when the seat is missing): worded only for a
    violation, since most rows have none."""
    return _("%(where)s seat %(seat)s") % {"where": where, "seat": seat.wind if seat else seat_id}


def check_results(records: EventRecords) -> list[Violation]:
    """Each current result row, and each confirmed table as a whole."""
    violations = []
    event = records.event
    ruleset = event.ruleset
    for table_id, table in records.tables.items():
        current = _current_results(records, table_id)
        if not current:
            continue
        where = records.table_where(table_id)
        seat_of = {s.id: s for s in records.seats.get(table_id, [])}
        rows = sorted(current, key=lambda r: seat_of[r.seat_id].position if r.seat_id in seat_of else 99)
        for row in rows:
            seat = seat_of.get(row.seat_id)
            row_where = partial(_seat_where, where, seat, row.seat_id)
            if row.game_points != row.point_score + row.placement_points + row.oka:
                violations.append(
                    Violation(
                        "result_game_points",
                        row_where(),
                        _("game points %(game)s ≠ point score %(score)s + placement points %(placement)s + oka %(oka)s")
                        % {
                            "game": row.game_points,
                            "score": row.point_score,
                            "placement": row.placement_points,
                            "oka": row.oka,
                        },
                    )
                )
            expected_score = (
                Fraction(row.final_points - ruleset.return_points, THOUSAND)
                if row.final_points is not None
                else Fraction(0)
            )
            if row.point_score != expected_score:
                violations.append(
                    Violation(
                        "result_point_score",
                        row_where(),
                        _("point score %(score)s, expected %(expected)s")
                        % {"score": row.point_score, "expected": expected_score},
                    )
                )
            if seat is not None and row.entry_id != seat.entry_id:
                violations.append(
                    Violation(
                        "result_entry",
                        row_where(),
                        _("result of entry %(entry)s on entry %(seat_entry)s's seat")
                        % {"entry": row.entry_id, "seat_entry": seat.entry_id},
                    )
                )
            if row.multiplier != table.multiplier:
                violations.append(
                    Violation(
                        "result_multiplier",
                        row_where(),
                        _("multiplier %(multiplier)s, the table's is %(table)s")
                        % {"multiplier": row.multiplier, "table": table.multiplier},
                    )
                )
        violations += _check_table_placements(records, table, rows, where)
    return violations


def _check_table_placements(records, table: Table, rows: list[SeatResult], where: str) -> list[Violation]:
    violations = []
    event = records.event
    ruleset = event.ruleset
    finishers = [r for r in rows if not r.forfeit]
    points = [r.final_points for r in finishers]
    if None in points:
        return [Violation("placement", where, _("a finishing seat has no final points"))]
    for index, row in enumerate(finishers):
        expected = expected_placement(points, index, ruleset.tie_rule)
        if row.placement != expected:
            violations.append(
                Violation(
                    "placement",
                    where,
                    # Translators: tie_rule is the ruleset's tie rule as stored (split, seat_order).
                    _("%(points)s points placed %(placement)s, expected %(expected)s (%(tie_rule)s ties)")
                    % {
                        "points": row.final_points,
                        "placement": row.placement,
                        "expected": expected,
                        "tie_rule": ruleset.tie_rule,
                    },
                )
            )
        advanced = row.placement is not None and row.placement <= event.advancing_places
        if row.advanced != advanced:
            violations.append(
                Violation(
                    "advanced",
                    where,
                    _("placed %(placement)s: advanced should be %(advanced)s")
                    % {"placement": row.placement, "advanced": advanced},
                )
            )
    for row in rows:
        if row.forfeit and (row.placement is not None or row.advanced):
            violations.append(Violation("placement", where, _("a forfeit 不戦敗 has a placement or advances")))
    violations += _check_placement_points(records, table, finishers, where)
    violations += _check_forfeits(records, table, rows, where)
    placement_total = sum((r.placement_points for r in finishers), Fraction(0))
    if placement_total != 0:
        violations.append(
            Violation(
                "placement_points_sum",
                where,
                _("placement points of the finishers sum to %(total)s") % {"total": placement_total},
            )
        )
    starters = [r for r in rows if r.final_points is not None]
    oka_expected = Fraction((ruleset.return_points - ruleset.start_points) * len(starters), THOUSAND)
    oka_total = sum((r.oka for r in rows), Fraction(0))
    if oka_total != oka_expected:
        violations.append(
            Violation(
                "oka_sum",
                where,
                _("oka sums to %(total)s, expected %(expected)s") % {"total": oka_total, "expected": oka_expected},
            )
        )
    lost = ruleset.start_points * len(starters) - sum(r.final_points for r in starters)
    forfeits = sum((r.placement_points for r in rows if r.forfeit), Fraction(0))
    game_total = sum((r.game_points for r in rows), Fraction(0))
    if game_total != forfeits - Fraction(lost, THOUSAND):
        violations.append(
            Violation(
                "table_game_points_sum",
                where,
                _("game points sum to %(total)s, expected forfeits %(forfeits)s − lost deposits %(lost)s/1000")
                % {"total": game_total, "forfeits": forfeits, "lost": lost},
            )
        )
    return violations


def table_multiplier(records: EventRecords, table: Table) -> int:
    """Art. 39 ③: placement points × the year of the game's last overtime hand (×1 without overtime).
    Worked out from the hands when the table has any, else the table's own year (final scores)."""
    if records.hands.get(table.id):
        return max(1, overtime_year_from_hands(records, table.id))
    return max(1, table.overtime_year)


def overtime_year_from_hands(records: EventRecords, table_id: int) -> int:
    """The year of the last overtime hand: hands 1–4 of the overtime are year 1, 5–8 year 2, … (a hand
    stopped and replayed, art. 36 ③, is played again in the same season)."""
    overtime = sum(1 for v in _current_versions(records, table_id) if v.overtime and v.outcome != "replayed")
    return -(-overtime // SEASONS_PER_YEAR)


def _check_overtime_state(records: EventRecords, table: Table) -> list[Violation]:
    """Art. 39 ②: the state the table records is the engine's reading of its overtime hands; nothing
    follows its end, and the result is not confirmed while it goes on."""
    where = records.table_where(table.id)
    current = _current_hands(records, table.id)
    if table.round.is_final:
        expected = "final" if any(v.overtime and v.outcome != "replayed" for _, v in current) else "none"
        if table.overtime_state != expected:
            return [
                Violation(
                    "overtime_state",
                    where,
                    # Translators: state and expected are overtime states as stored (none, final, playing, ...).
                    _("%(state)s, a final table's is %(expected)s")
                    % {"state": table.overtime_state, "expected": expected},
                )
            ]
        return []
    seats = records.playing_seats(table.id)
    points = [records.event.ruleset.start_points] * len(seats)
    results = []
    for hand, version in current:
        if len(version.deltas) == len(points):
            points = [p + d for p, d in zip(points, version.deltas, strict=True)]
        if version.overtime:
            results.append(
                OvertimeHandResult(
                    winners=tuple(w.get("winner") for w in version.wins),
                    points_after=tuple(points),
                    playing=tuple(records.seats_in_hand(table.id, hand.number)),
                    replayed=version.outcome == "replayed",
                )
            )
    try:
        progress = overtime_progress(results, closed_by_organizer=table.overtime_state == "closed_by_organizer")
    except TournamentError as exc:
        return [Violation("overtime_state", where, exc.message)]
    violations = []
    if table.overtime_state != progress.state:
        violations.append(
            Violation(
                "overtime_state",
                where,
                _("the table says %(table)s, its hands say %(hands)s")
                % {"table": table.overtime_state, "hands": progress.state},
            )
        )
    if progress.hands_after_end:
        violations.append(
            Violation(
                "overtime_after_end",
                where,
                _("%(count)s overtime hands after it ended (%(state)s)")
                % {"count": progress.hands_after_end, "state": progress.state},
            )
        )
    if progress.state == "playing" and table.status == Table.Status.FINISHED:
        violations.append(
            Violation("overtime_unfinished", where, _("the result is confirmed while the overtime goes on (art. 39 ②)"))
        )
    return violations


def _placement_share(points: list[int], index: int, uma: list[Fraction], tie_rule: str) -> Fraction:
    """The placement points (before the multiplier) of finisher ``index``: under ``split`` the average of
    the places its equal points share, under ``seat_order`` those of its own place."""
    place = expected_placement(points, index, tie_rule)
    shared = sum(1 for p in points if p == points[index]) if tie_rule == "split" else 1
    return sum(uma[place - 1 : place - 1 + shared], Fraction(0)) / shared


def _check_placement_points(records, table: Table, finishers: list[SeatResult], where: str) -> list[Violation]:
    if len(finishers) not in (2, 3, 4):
        return [Violation("placement_points", where, _("%(count)s players finished") % {"count": len(finishers)})]
    ruleset = records.event.ruleset
    uma = list(ruleset.uma_for(len(finishers)))
    multiplier = table_multiplier(records, table)
    points = [r.final_points for r in finishers]
    violations = []
    for index, row in enumerate(finishers):
        expected = _placement_share(points, index, uma, ruleset.tie_rule) * multiplier
        if row.placement_points != expected:
            violations.append(
                Violation(
                    "placement_points",
                    where,
                    _(
                        "%(points)s points have placement points %(placement)s, expected %(expected)s "
                        "(uma of %(finishers)s finishers × %(multiplier)s)"
                    )
                    % {
                        "points": row.final_points,
                        "placement": row.placement_points,
                        "expected": expected,
                        "finishers": len(finishers),
                        "multiplier": multiplier,
                    },
                )
            )
    return violations


def _check_forfeits(records, table: Table, rows: list[SeatResult], where: str) -> list[Violation]:
    """Art. 42: an absentee forfeits 不戦敗 with the placement points of a sole last place at the table
    size seated (一人負け相当の順位点), × the multiplier, and no oka."""
    seat_of = {s.id: s for s in records.seats.get(table.id, [])}
    seated = len(seat_of)
    forfeit_value = list(records.event.ruleset.uma_for(seated))[-1] * table_multiplier(records, table)
    violations = []
    for row in rows:
        seat = seat_of.get(row.seat_id)
        if seat is None:
            continue
        absent = seat.absence != Seat.Absence.PRESENT
        row_where = partial(_seat_where, where, seat)
        if row.forfeit != absent:
            but_forfeit = {
                Seat.Absence.PRESENT: _("present, but forfeit is %(forfeit)s"),
                Seat.Absence.ABSENT_BEFORE: _("absent before the game, but forfeit is %(forfeit)s"),
                Seat.Absence.ABSENT_DURING: _("left during the game, but forfeit is %(forfeit)s"),
            }
            violations.append(Violation("forfeit", row_where(), but_forfeit[seat.absence] % {"forfeit": row.forfeit}))
        if not absent:
            continue
        if row.placement_points != forfeit_value or row.oka:
            violations.append(
                Violation(
                    "forfeit_points",
                    row_where(),
                    _(
                        "placement points %(placement)s and oka %(oka)s, expected %(expected)s (the last place of "
                        "%(seated)s seated) and no oka"
                    )
                    % {"placement": row.placement_points, "oka": row.oka, "expected": forfeit_value, "seated": seated},
                )
            )
        if not seat.in_game and row.final_points is not None:
            violations.append(
                Violation(
                    "forfeit_points",
                    row_where(),
                    _("absent before the game, yet %(points)s final points") % {"points": row.final_points},
                )
            )
    return violations


# --- Seed 004 at the table: replays, absences, overtime ------------------------------------------


def check_replayed_hands(records: EventRecords) -> list[Violation]:
    """Art. 36 ③: a hand stopped and replayed moves no points and leaves the deposits as they were."""
    violations = []
    for table_id, hands in records.hands.items():
        for hand in hands:
            for version in records.versions.get(hand.id, []):
                if version.outcome != "replayed":
                    continue
                if any(version.deltas) or version.deposits_out != version.deposits_in or version.wins:
                    violations.append(
                        Violation(
                            "replayed_hand",
                            _("%(where)s hand %(hand)s v%(version)s")
                            % {"where": records.table_where(table_id), "hand": hand.number, "version": version.version},
                            _("a replayed hand with changes %(changes)s, wins %(wins)s, deposits %(in)s → %(out)s")
                            % {
                                "changes": version.deltas,
                                "wins": len(version.wins),
                                "in": version.deposits_in,
                                "out": version.deposits_out,
                            },
                        )
                    )
    return violations


def _roles(version: HandVersion) -> set[int]:
    """Every seat position a hand names: dealer, winners, discarders, riichi and tenpai seats."""
    roles = {version.dealer_position, *version.riichi_positions, *version.tenpai_positions}
    for win in version.wins:
        roles.add(win.get("winner"))
        if win.get("discarder") is not None:
            roles.add(win["discarder"])
    return roles


def check_absences(records: EventRecords) -> list[Violation]:
    """Art. 42 during the game: after the hand they left after, a player changes no points and plays no
    part (the hand in progress is void; the game goes on without them)."""
    violations = []
    for table_id, seats in records.seats.items():
        where = records.table_where(table_id)
        playing = records.playing_seats(table_id)
        hands = records.hands.get(table_id, [])
        for seat in seats:

            def seat_where(seat=seat, where=where) -> str:  # said only for a violation: most seats have none
                return _("%(where)s seat %(seat)s") % {"where": where, "seat": seat.wind}

            if seat.absence != Seat.Absence.ABSENT_DURING:
                if seat.left_after_hand is not None:
                    violations.append(
                        Violation(
                            "absence_record",
                            seat_where(),
                            # Translators: absence is the seat's absence as stored (present, absent_before).
                            _("%(absence)s, yet left after hand %(hand)s")
                            % {"absence": seat.absence, "hand": seat.left_after_hand},
                        )
                    )
                continue
            if seat.left_after_hand is None or seat.left_after_hand > len(hands):
                violations.append(
                    Violation(
                        "absence_record",
                        seat_where(),
                        _("left during the game after hand %(hand)s, %(count)s hands recorded")
                        % {"hand": seat.left_after_hand, "count": len(hands)},
                    )
                )
                continue
            position = playing.index(seat)
            for hand in hands[seat.left_after_hand :]:
                for version in records.versions.get(hand.id, []):
                    hand_where = _("%(where)s hand %(hand)s v%(version)s") % {
                        "where": where,
                        "hand": hand.number,
                        "version": version.version,
                    }
                    if position < len(version.deltas) and version.deltas[position]:
                        violations.append(
                            Violation(
                                "left_seat_change",
                                hand_where,
                                _("seat %(seat)s left after hand %(hand)s but changes by %(change)s")
                                % {"seat": seat.wind, "hand": seat.left_after_hand, "change": version.deltas[position]},
                            )
                        )
                    if position in _roles(version):
                        violations.append(
                            Violation(
                                "left_seat_role",
                                hand_where,
                                _("seat %(seat)s left after hand %(hand)s but takes part")
                                % {"seat": seat.wind, "hand": seat.left_after_hand},
                            )
                        )
    return violations


def check_overtime(records: EventRecords) -> list[Violation]:
    """Art. 39: overtime hands follow the regular ones, only where the event has overtime, and the
    table's year is that of its last overtime hand (its placement-point multiplier). Outside the finals
    the table's overtime state is the engine's decision over its hands (the points summed here)."""
    violations = []
    for table_id, table in records.tables.items():
        violations += _check_overtime_state(records, table)
        if not records.hands.get(table_id):
            continue
        where = records.table_where(table_id)
        flags = [v.overtime for v in _current_versions(records, table_id)]
        if any(flags) and not records.event.overtime_enabled:
            violations.append(
                Violation(
                    "overtime_disabled",
                    where,
                    _("%(count)s overtime hands in an event without overtime") % {"count": sum(flags)},
                )
            )
        if any(before and not after for before, after in pairwise(flags)):
            violations.append(Violation("overtime_order", where, _("a regular hand follows an overtime hand")))
        year = overtime_year_from_hands(records, table_id)
        if table.overtime_year != year:
            violations.append(
                Violation(
                    "overtime_year",
                    where,
                    _("overtime year %(table_year)s, the %(count)s overtime hands end in year %(year)s")
                    % {"table_year": table.overtime_year, "count": sum(flags), "year": year},
                )
            )
    return violations


# --- Penalties and disqualification ---------------------------------------------------------------


def check_penalties(records: EventRecords) -> list[Violation]:
    """Fouls against the hands they concern (arts. 35, 36, 38 ⑤), art. 37 penalty points, and the
    disqualification of art. 43."""
    violations = []
    event = records.event
    active = [p for p in records.penalties if p.cancelled_at is None]
    lost: dict[tuple[int, int, int], set[str]] = defaultdict(set)
    carried: dict[tuple[int, int, int], set[str]] = defaultdict(set)  # 36条③: lost again in the replay
    replays: set[tuple[int, int]] = set()
    for penalty in active:
        if penalty.table_id is None or penalty.hand_number is None:
            continue
        lost[penalty.table_id, penalty.hand_number, penalty.entry_id] |= LOST_WINS.get(penalty.kind, set())
        if penalty.kind in CARRIED_KINDS:
            carried[penalty.table_id, penalty.hand_number, penalty.entry_id] |= LOST_WINS[penalty.kind]
        if penalty.kind in REPLAY_KINDS:
            replays.add((penalty.table_id, penalty.hand_number))
    for table_id in records.tables:
        playing = records.playing_seats(table_id)
        for hand, version in _current_hands(records, table_id):
            number = hand.number
            chain = records.replayed_before(table_id, number) if version.wins else []
            hand_where = _("%(where)s hand %(hand)s v%(version)s") % {
                "where": records.table_where(table_id),
                "hand": number,
                "version": version.version,
            }
            if (table_id, number) in replays and version.outcome != "replayed":
                violations.append(
                    Violation(
                        "hand_not_replayed",
                        hand_where,
                        # Translators: outcome is the hand's outcome as stored (ron, tsumo, exhaustive_draw, ...).
                        _("the wall was wrecked (art. 36 ③), recorded as %(outcome)s") % {"outcome": version.outcome},
                    )
                )
            for win in version.wins:
                position = win.get("winner")
                if not isinstance(position, int) or not 0 <= position < len(playing):
                    continue
                kind = "tsumo" if win.get("discarder") is None else "ron"
                entry_id = playing[position].entry_id
                in_force = lost.get((table_id, number, entry_id), set()).union(
                    *(carried.get((table_id, earlier, entry_id), set()) for earlier in chain)
                )
                if kind in in_force:
                    violations.append(
                        Violation(
                            "win_despite_penalty",
                            hand_where,
                            (
                                _("seat %(seat)s wins by ron, a right its foul took for this hand")
                                if kind == "ron"
                                else _("seat %(seat)s wins by tsumo, a right its foul took for this hand")
                            )
                            % {"seat": playing[position].wind},
                        )
                    )
    for penalty in records.penalties:
        violations += _check_penalty_points(records, penalty)
    violations += _check_disqualification(records, [p for p in active if _disqualifies(event, p.kind)])
    return violations


def _disqualifies(event: Event, kind: str) -> bool:
    """Art. 43: egregious conduct always, a penalty-point foul in tournament play 大会戦."""
    return is_disqualifying(kind, tournament_play=event.tournament_play)


def _check_penalty_points(records: EventRecords, penalty: Penalty) -> list[Violation]:
    where = _("penalty %(penalty)s") % {"penalty": penalty.id}
    if penalty.kind not in PENALTY_POINT_KINDS:
        if penalty.points:
            return [
                Violation(
                    "penalty_points",
                    where,
                    # Translators: kind is the foul's kind as stored (art35_revealed_hand, ...).
                    _("%(kind)s carries %(points)s points") % {"kind": penalty.kind, "points": penalty.points},
                )
            ]
        return []
    if penalty.table_id is None or penalty.table_id not in records.tables:
        players = records.event.table_size
    elif penalty.hand_number is None:
        players = len(records.playing_seats(penalty.table_id))
    else:  # art. 42: those playing the foul's hand (a player who left before it is not counted)
        players = len(records.seats_in_hand(penalty.table_id, penalty.hand_number))
    expected = records.event.penalty_unit * players
    if penalty.points != expected:
        return [
            Violation(
                "penalty_points",
                where,
                _("%(points)s penalty points, expected %(unit)s × %(players)s players")
                % {"points": penalty.points, "unit": records.event.penalty_unit, "players": players},
            )
        ]
    return []


def _check_disqualification(records: EventRecords, disqualifying: list[Penalty]) -> list[Violation]:
    """A disqualifying foul leaves the entry disqualified, and unseated in every later round: one whose
    number is above the foul's round, or, for a foul logged away from a table, created after it. An
    automatic disqualification names its penalty; once that is cancelled it is lifted, unless an
    organizer confirmed it."""
    violations = _check_disqualification_records(records)
    statuses = dict(Entry.objects.filter(event=records.event).values_list("id", "status"))
    rounds = {t.round.id: t.round for t in records.tables.values()}
    seated: dict[int, list[Seat]] = defaultdict(list)
    for seats in records.seats.values():
        for seat in seats:
            seated[seat.entry_id].append(seat)
    reported: set[tuple[int, int]] = set()
    for penalty in disqualifying:
        if statuses.get(penalty.entry_id) != Entry.Status.DISQUALIFIED:
            violations.append(
                Violation(
                    "not_disqualified",
                    _("penalty %(penalty)s") % {"penalty": penalty.id},
                    # Translators: kind is the foul's kind as stored; status the entry's status as stored (active, ...).
                    _("%(kind)s in tournament play, but entry %(entry)s is %(status)s")
                    % {"kind": penalty.kind, "entry": penalty.entry_id, "status": statuses.get(penalty.entry_id)},
                )
            )
        for seat in seated[penalty.entry_id]:
            round_ = rounds.get(seat.round_id)
            if round_ is None or (penalty.entry_id, round_.number) in reported:
                continue
            later = (
                round_.number > penalty.round_number
                if penalty.round_number is not None
                else round_.created_at > penalty.logged_at
            )
            if later:
                reported.add((penalty.entry_id, round_.number))
                violations.append(
                    Violation(
                        "seated_after_disqualification",
                        _("round %(round)s") % {"round": round_.number},
                        _("entry %(entry)s is seated after their disqualification (penalty %(penalty)s)")
                        % {"entry": penalty.entry_id, "penalty": penalty.id},
                    )
                )
    return violations


def _check_disqualification_records(records: EventRecords) -> list[Violation]:
    violations = []
    penalties = {p.id: p for p in records.penalties}
    entries = Entry.objects.filter(event=records.event).exclude(
        disqualified_by_penalty__isnull=True, disqualification_confirmed_at__isnull=True
    )
    for entry in entries:
        where = _("entry %(entry)s") % {"entry": entry.id}
        disqualified = entry.status == Entry.Status.DISQUALIFIED
        cause = penalties.get(entry.disqualified_by_penalty_id)
        if not disqualified:
            violations.append(
                Violation(
                    "disqualification_record",
                    where,
                    # Translators: status is the entry's status as stored (active, withdrawn, ...).
                    _("%(status)s, yet names a disqualifying penalty or a confirmation") % {"status": entry.status},
                )
            )
            continue
        if entry.disqualified_by_penalty_id is None:
            continue
        if cause is None or cause.entry_id != entry.id or not _disqualifies(records.event, cause.kind):
            violations.append(
                Violation(
                    "disqualification_record",
                    where,
                    _("disqualified by penalty %(penalty)s, not a disqualifying foul of this player")
                    % {"penalty": entry.disqualified_by_penalty_id},
                )
            )
        elif cause.cancelled_at is not None and entry.disqualification_confirmed_at is None:
            violations.append(
                Violation(
                    "disqualification_not_lifted",
                    where,
                    _(
                        "penalty %(penalty)s that disqualified the player was cancelled and nobody confirmed the "
                        "disqualification"
                    )
                    % {"penalty": cause.id},
                )
            )
    return violations


# --- The clock (arts. 38, 42, 36) ------------------------------------------------------------------


def check_clocks(records: EventRecords) -> list[Violation]:
    """Each table's stored clock (that of its current hand): the seats that left the game are absent
    from it, never on turn, never flagged; no claim came after a foul took that right for the hand."""
    violations = []
    claim_fouls: dict[tuple[int, int, int], list[Penalty]] = defaultdict(list)
    for penalty in records.penalties:
        if penalty.cancelled_at is None and penalty.kind in CLAIM_LOST_KINDS and penalty.table_id:
            claim_fouls[penalty.table_id, penalty.hand_number, penalty.entry_id].append(penalty)
    for clock in TableClock.objects.filter(table_id__in=list(records.tables)):
        table_id = clock.table_id
        where = _("%(where)s clock of hand %(hand)s") % {
            "where": records.table_where(table_id),
            "hand": clock.hand_number,
        }
        try:
            state = clock_engine.state_from_dict(clock.state)
        except TournamentError as exc:
            violations.append(Violation("clock_state", where, exc.message))
            continue
        seats = records.playing_seats(table_id)
        left = set(range(len(seats))) - set(records.seats_in_hand(table_id, clock.hand_number))
        absent = set(state.settings.absent)
        running = state.status != "finished"
        if absent - left or (running and left - absent):  # a void hand's clock may predate the leave
            violations.append(
                Violation(
                    "clock_absent_seats",
                    where,
                    _("absent seats %(absent)s, seats that left %(left)s")
                    % {"absent": sorted(absent), "left": sorted(left)},
                )
            )
        if running and (state.seat_on_turn in left or state.flagged & left):
            violations.append(
                Violation(
                    "clock_turn_to_absent",
                    where,
                    _("seat %(seat)s on turn, %(flagged)s flagged; %(left)s left the game")
                    % {"seat": state.seat_on_turn, "flagged": sorted(state.flagged), "left": sorted(left)},
                )
            )
        for turn, seat, at_ms in state.claims:
            if not 0 <= seat < len(seats):
                continue
            entry_id = seats[seat].entry_id
            hands = [clock.hand_number, *records.replayed_before(table_id, clock.hand_number)]
            for number in hands:
                for foul in claim_fouls.get((table_id, number, entry_id), []):
                    if number != clock.hand_number and foul.kind not in CARRIED_KINDS:
                        continue
                    if int(foul.logged_at.timestamp() * 1000) <= at_ms:
                        violations.append(
                            Violation(
                                "claim_despite_penalty",
                                where,
                                _("seat %(seat)s claimed on turn %(turn)s after penalty %(penalty)s took the right")
                                % {"seat": seats[seat].wind, "turn": turn, "penalty": foul.id},
                            )
                        )
    return violations


# --- The final (arts. 40, 43) -----------------------------------------------------------------------


def check_final(records: EventRecords) -> list[Violation]:
    """Art. 43: the champion keeps award eligibility and played the last final game; art. 40 ①: before
    the last prescribed game nothing is decided (the same finalists play on, less the disqualified)."""
    violations = []
    event = records.event
    statuses = dict(Entry.objects.filter(event=event).values_list("id", "status"))
    # disqualified then or now: a disqualification lifted later does not make the final's past wrong
    was_disqualified = {e for e, status in statuses.items() if status == Entry.Status.DISQUALIFIED} | {
        p.entry_id for p in records.penalties if _disqualifies(event, p.kind)
    }
    rounds = sorted({t.round for t in records.tables.values() if t.round.is_final}, key=lambda r: r.number)
    players = {
        round_.id: {
            s.entry_id
            for t in records.tables.values()
            if t.round_id == round_.id
            for s in records.seats.get(t.id, [])
            if s.in_game
        }
        for round_ in rounds
    }
    for earlier, later in list(pairwise(rounds))[: max(0, event.final_games - 1)]:
        gone = players[earlier.id] - players[later.id]
        if players[later.id] - players[earlier.id] or gone - was_disqualified:
            violations.append(
                Violation(
                    "final_decided_early",
                    _("round %(round)s") % {"round": later.number},
                    _(
                        "final game %(game)s of %(games)s: entries %(entries)s left the final "
                        "before its last prescribed game"
                    )
                    % {"game": rounds.index(later) + 1, "games": event.final_games, "entries": sorted(gone)},
                )
            )
    if event.champion_id is None:
        return violations
    where = _("champion (entry %(entry)s)") % {"entry": event.champion_id}
    if statuses.get(event.champion_id) == Entry.Status.DISQUALIFIED:
        violations.append(Violation("champion_disqualified", where, _("the champion is disqualified (art. 43)")))
    if not rounds or event.champion_id not in players[rounds[-1].id]:
        violations.append(Violation("champion_not_finalist", where, _("the champion did not play the last final game")))
    elif len(rounds) < event.final_games:
        others = players[rounds[-1].id] - {event.champion_id}
        if others - was_disqualified:
            violations.append(
                Violation(
                    "final_decided_early",
                    where,
                    _("crowned after %(played)s of the %(games)s prescribed final games")
                    % {"played": len(rounds), "games": event.final_games},
                )
            )
    return violations


# --- Seating ------------------------------------------------------------------------------------


def check_seating(records: EventRecords) -> list[Violation]:
    violations = []
    seated: dict[int, Counter] = defaultdict(Counter)
    for table_id, seats in records.seats.items():
        table = records.tables[table_id]
        where = records.table_where(table_id)
        positions = [s.position for s in seats]
        if positions != list(range(len(seats))):
            violations.append(
                Violation("seat_positions", where, _("seat positions %(positions)s") % {"positions": positions})
            )
        for seat in seats:
            seated[table.round.number][seat.entry_id] += 1
            if seat.round_id != table.round_id:
                violations.append(
                    Violation(
                        "seat_round_mismatch",
                        _("%(where)s seat %(seat)s") % {"where": where, "seat": seat.wind},
                        _("the seat names round id %(seat_round)s, its table is in round id %(table_round)s")
                        % {"seat_round": seat.round_id, "table_round": table.round_id},
                    )
                )
    still_playing: dict[int, list[int]] = defaultdict(list)
    for table in records.tables.values():
        if table.round.status == Round.Status.COMPLETED and table.status != Table.Status.FINISHED:
            still_playing[table.round.number].append(table.number)
    for round_number, numbers in sorted(still_playing.items()):
        violations.append(
            Violation(
                "round_completed_while_playing",
                f"round {round_number}",
                f"the round is completed while tables {', '.join(map(str, sorted(numbers)))} are still playing",
            )
        )
    names = dict(Entry.objects.filter(event=records.event).values_list("id", "player__display_name"))
    for round_number, counts in sorted(seated.items()):
        for entry_id, times in sorted(counts.items()):
            if times > 1:
                violations.append(
                    Violation(
                        "seated_twice",
                        _("round %(round)s") % {"round": round_number},
                        _("%(name)s (entry %(entry)s) is seated %(times)s times")
                        % {
                            "name": names[entry_id]
                            if entry_id in names
                            else _("entry %(entry)s") % {"entry": entry_id},
                            "entry": entry_id,
                            "times": times,
                        },
                    )
                )
    return violations


# --- Standings ----------------------------------------------------------------------------------


def _sort_key(precedence: tuple[str, ...], advances: int, total: Fraction) -> tuple:
    values = {"advances": advances, "total_points": total}
    return tuple(values[key] for key in precedence)


def check_standings(records: EventRecords) -> list[Violation]:
    """The snapshot against the current results, summed here (penalty points deducted)."""
    event = records.event
    # Translators: where a violation is: the standings snapshot.
    where = _("standings")
    current = [r for rows in records.results.values() for r in rows if r.is_current]
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is None:
        return [Violation("standings_missing", where, _("results exist but no standings"))] if current else []
    violations = []
    totals: dict[int, Fraction] = defaultdict(Fraction)
    advances: Counter = Counter()
    games: Counter = Counter()
    for row in current:
        totals[row.entry_id] += row.game_points
        advances[row.entry_id] += row.advanced
        games[row.entry_id] += 1
    for penalty in records.penalties:
        if penalty.cancelled_at is None and penalty.points:  # art. 37 penalty points 反則点
            totals[penalty.entry_id] -= Fraction(penalty.points, THOUSAND)
    entries = set(Entry.objects.filter(event=event).values_list("id", flat=True))
    rows = list(StandingsRow.objects.filter(event=event).order_by("position"))
    listed = [row.entry_id for row in rows]
    if sorted(listed) != sorted(entries):
        violations.append(
            Violation(
                "standings_entries",
                where,
                _("%(rows)s rows (%(listed)s entries) for %(entries)s entries")
                % {"rows": len(listed), "listed": len(set(listed)), "entries": len(entries)},
            )
        )
    if len(rows) != snapshot.row_count or [row.position for row in rows] != list(range(len(rows))):
        violations.append(
            Violation(
                "standings_positions", where, f"{len(rows)} rows at positions other than 0..{snapshot.row_count - 1}"
            )
        )
    keys = []
    for row in rows:
        entry_id = row.entry_id
        row_where = _("%(where)s: %(name)s (entry %(entry)s)") % {
            "where": where,
            "name": row.name,
            "entry": entry_id,
        }
        total = row.total_points
        if total != totals[entry_id]:
            violations.append(
                Violation(
                    "standings_total",
                    row_where,
                    _("total %(total)s, the current results give %(expected)s")
                    % {"total": total, "expected": totals[entry_id]},
                )
            )
        if row.advances != advances[entry_id]:
            violations.append(
                Violation(
                    "standings_advances",
                    row_where,
                    _("%(advances)s advances, counted %(counted)s")
                    % {"advances": row.advances, "counted": advances[entry_id]},
                )
            )
        if row.games != games[entry_id]:
            violations.append(
                Violation(
                    "standings_games",
                    row_where,
                    _("%(games)s games, counted %(counted)s") % {"games": row.games, "counted": games[entry_id]},
                )
            )
        keys.append(_sort_key(event.precedence, row.advances, total))
    expected_rank = 0
    for position, (row, key) in enumerate(zip(rows, keys, strict=True)):
        if position == 0 or keys[position - 1] != key:
            expected_rank = position + 1  # equal keys share a rank; the next rank skips (1, 2, 2, 4)
        out_of_order = position > 0 and keys[position - 1] < key
        if out_of_order or row.rank != expected_rank:
            violations.append(
                Violation(
                    "standings_order",
                    _("%(where)s row %(row)s") % {"where": where, "row": position + 1},
                    (
                        _("rank %(rank)s for %(key)s, expected rank %(expected)s (listed below a lower row)")
                        if out_of_order
                        else _("rank %(rank)s for %(key)s, expected rank %(expected)s")
                    )
                    % {"rank": row.rank, "key": key, "expected": expected_rank},
                )
            )
    completed = event.rounds.filter(status=Round.Status.COMPLETED).count()
    if snapshot.rounds_included != completed:
        violations.append(
            Violation(
                "standings_rounds",
                where,
                _("includes %(included)s rounds, %(completed)s are completed")
                % {"included": snapshot.rounds_included, "completed": completed},
            )
        )
    return violations


# --- Teams (団体戦) ---------------------------------------------------------------------------------


def check_teams(records: EventRecords) -> list[Violation]:
    event = records.event
    teams = {team.pk: team for team in Team.objects.filter(event=event)}
    if not teams:
        return []
    violations = []
    rows = list(
        TeamMember.objects.filter(team__event=event).values_list("team_id", "entry_id", "role", "entry__event_id")
    )
    in_teams: dict[int, set[int]] = defaultdict(set)
    roles: dict[tuple[int, int], str] = {}
    for team_id, entry_id, role, entry_event in rows:
        in_teams[entry_id].add(team_id)
        roles[team_id, entry_id] = role
        if entry_event != event.pk:
            violations.append(
                Violation(
                    "team_member_event",
                    _("team %(team)s") % {"team": teams[team_id].name},
                    _("entry %(entry)s is an entry of another event") % {"entry": entry_id},
                )
            )
    for entry_id, team_ids in sorted(in_teams.items()):
        if len(team_ids) > 1:
            violations.append(
                Violation(
                    "team_member_twice",
                    _("entry %(entry)s") % {"entry": entry_id},
                    _("in %(count)s teams: %(teams)s")
                    % {"count": len(team_ids), "teams": ", ".join(sorted(teams[t].name for t in team_ids))},
                )
            )
    for team in teams.values():
        if team.captain_id is not None and (team.pk, team.captain_id) not in roles:
            violations.append(
                Violation(
                    "team_captain",
                    _("team %(team)s") % {"team": team.name},
                    _("the captain (entry %(entry)s) is not in the team") % {"entry": team.captain_id},
                )
            )
    for swap in TeamSwap.objects.filter(team__event=event):
        if (roles.get((swap.team_id, swap.reserve_id)), roles.get((swap.team_id, swap.member_id))) != (
            TeamMember.Role.RESERVE,
            TeamMember.Role.MEMBER,
        ):
            violations.append(
                Violation(
                    "team_swap_roles",
                    _("team %(team)s round %(round)s") % {"team": teams[swap.team_id].name, "round": swap.round_number},
                    _("entry %(reserve)s in for entry %(member)s: not a reserve and a member of the team")
                    % {"reserve": swap.reserve_id, "member": swap.member_id},
                )
            )
    return violations + _check_team_standings(records)


def _check_team_standings(records: EventRecords) -> list[Violation]:
    """The team standings from the current results, summed here, against those from the published rows."""
    event = records.event
    if not event.team_rule:
        return []
    current = [r for rows in records.results.values() for r in rows if r.is_current]
    hidden_from = event.standings_hidden_from_round
    if hidden_from is not None and any(records.tables[r.table_id].round.number >= hidden_from for r in current):
        return []  # the published standings leave the hidden rounds out: nothing to compare
    round_points: dict[int, dict[int, Fraction]] = defaultdict(dict)
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for row in current:
        number = records.tables[row.table_id].round.number
        round_points[row.entry_id][number] = round_points[row.entry_id].get(number, Fraction(0)) + row.game_points
        totals[row.entry_id] += row.game_points
    for penalty in records.penalties:
        if penalty.cancelled_at is None and penalty.points:  # art. 37 penalty points 反則点
            totals[penalty.entry_id] -= Fraction(penalty.points, THOUSAND)
    expected = {row.team.pk: row for row in team_standings_from(event, dict(round_points), dict(totals))}
    violations = []
    for row in team_standings_for(event):
        want = expected.get(row.team.pk)
        if want is None or (row.rank, row.score, row.rounds) != (want.rank, want.score, want.rounds):
            violations.append(
                Violation(
                    "team_standings",
                    _("team %(team)s") % {"team": row.team.name},
                    _(
                        "rank %(rank)s, score %(score)s; "
                        "the current results give rank %(expected_rank)s, score %(expected)s"
                    )
                    % {
                        "rank": row.rank,
                        "score": row.score,
                        "expected_rank": want.rank if want else "-",
                        "expected": want.score if want else "-",
                    },
                )
            )
    return violations


def check_substitutes(records: EventRecords) -> list[Violation]:
    """Substitutes 代走: each plays for a player of the same event who is not a substitute, never in a round
    where that player is seated too, and is never ranked in the published standings."""
    event = records.event
    substitutes = list(
        Entry.objects.filter(event=event, substitute_for__isnull=False).values_list(
            "pk", "substitute_for_id", "substitute_for__event_id", "substitute_for__substitute_for_id"
        )
    )
    if not substitutes:
        return []
    violations = []
    seated = set(Seat.objects.filter(round__event=event).values_list("round_id", "entry_id"))
    ranked = set(StandingsRow.objects.filter(event=event).values_list("entry_id", flat=True))
    for pk, absent, absent_event, chained in substitutes:
        where = _("entry %(entry)s") % {"entry": pk}
        if absent_event != event.pk:
            violations.append(Violation("substitute_event", where, _("plays for an entry of another event")))
        if chained is not None:
            violations.append(Violation("substitute_chain", where, _("plays for a substitute")))
        rounds = {r for r, e in seated if e == pk} & {r for r, e in seated if e == absent}
        if rounds:
            violations.append(
                Violation("substitute_with_absent", where, _("seated in a round with the player they replace"))
            )
        if pk in ranked:
            violations.append(Violation("substitute_ranked", where, _("ranked in the standings")))
    return violations


CHECKS = (
    check_seating,
    check_hands,
    check_replayed_hands,
    check_absences,
    check_overtime,
    check_result_versions,
    check_table_points,
    check_results,
    check_penalties,
    check_clocks,
    check_final,
    check_standings,
    check_teams,
    check_substitutes,
)


def event_audit(event: Event) -> list[Violation]:
    """Every violation of every check, in the order of ``CHECKS``."""
    records = event_records(event)
    violations: list[Violation] = []
    for check in CHECKS:
        violations += check(records)
    return violations
