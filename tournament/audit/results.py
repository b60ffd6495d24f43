"""Table results.

* one current version per seat (``result_versions``); final points are the start
  points plus the hands, with the deposits left at the end paid to the top or lost per the ruleset
  (``table_points``), or, without hands, add up to the start total less lost deposits
  (``table_points_sum``); placements follow the points and the tie rule (``placement``);
  ``game_points = point_score + placement_points + oka`` per row (``result_game_points``), the point
  score is (final − return) / 1000 (``result_point_score``), placement points of a table sum to zero
  and oka to (return − start) × starters / 1000 (``placement_points_sum``, ``oka_sum``), the table's
  game points to its forfeits less the lost deposits (``table_game_points_sum``); advancing follows
  the placement (``advanced``); a result belongs to its seat's player (``result_entry``);
* forfeits and placement points: a seat forfeits (不戦敗) exactly when absent (``forfeit``), with the
  last-place placement points of the table size seated × the multiplier and no oka (``forfeit_points``);
  the finishers' placement points are those of their places in the uma of the number who finished,
  shared per the tie rule, × the multiplier (``placement_points``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import partial

from django.utils.translation import gettext as _

from tournament.audit.hands import final_points_from_hands, overtime_year_from_hands
from tournament.audit.records import THOUSAND, EventRecords, Violation, current_results, sums_to
from tournament.models import Seat, SeatResult, Table

NO_POINTS = Fraction(0)


def check_result_versions(records: EventRecords) -> list[Violation]:
    violations = []
    for table_id, table in records.tables.items():
        current = current_results(records, table_id)
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
        by_seat = {r.seat_id: r for r in current_results(records, table_id)}
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


def check_results(records: EventRecords) -> list[Violation]:
    """Each current result row, and each confirmed table as a whole."""
    violations = []
    event = records.event
    ruleset = event.ruleset
    for table_id, table in records.tables.items():
        current = current_results(records, table_id)
        if not current:
            continue
        where = records.table_where(table_id)
        seat_of = {s.id: s for s in records.seats.get(table_id, [])}
        rows = sorted(current, key=lambda r: seat_of[r.seat_id].position if r.seat_id in seat_of else 99)
        for row in rows:
            seat = seat_of.get(row.seat_id)
            row_where = partial(_seat_where, where, seat, row.seat_id)
            if not sums_to((row.point_score, row.placement_points, row.oka), row.game_points):
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
            thousandths = row.final_points - ruleset.return_points if row.final_points is not None else 0
            if row.point_score.numerator * THOUSAND != thousandths * row.point_score.denominator:
                expected_score = Fraction(thousandths, THOUSAND)
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
    if not sums_to((r.placement_points for r in finishers), 0):
        placement_total = sum((r.placement_points for r in finishers), Fraction(0))
        violations.append(
            Violation(
                "placement_points_sum",
                where,
                _("placement points of the finishers sum to %(total)s") % {"total": placement_total},
            )
        )
    starters = [r for r in rows if r.final_points is not None]
    oka_expected = Fraction((ruleset.return_points - ruleset.start_points) * len(starters), THOUSAND)
    if not sums_to((r.oka for r in rows), oka_expected):
        oka_total = sum((r.oka for r in rows), Fraction(0))
        violations.append(
            Violation(
                "oka_sum",
                where,
                _("oka sums to %(total)s, expected %(expected)s") % {"total": oka_total, "expected": oka_expected},
            )
        )
    lost = ruleset.start_points * len(starters) - sum(r.final_points for r in starters)
    forfeits = sum((r.placement_points for r in rows if r.forfeit), NO_POINTS)
    if not sums_to([*(r.game_points for r in rows), Fraction(lost, THOUSAND)], forfeits):
        game_total = sum((r.game_points for r in rows), Fraction(0))
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


def _placement_share(points: list[int], index: int, uma: list[Fraction], tie_rule: str) -> Fraction:
    """The placement points (before the multiplier) of finisher ``index``: under ``split`` the average of
    the places its equal points share, under ``seat_order`` those of its own place."""
    place = expected_placement(points, index, tie_rule)
    shared = sum(1 for p in points if p == points[index]) if tie_rule == "split" else 1
    if shared == 1:
        return uma[place - 1]
    return sum(uma[place - 1 : place - 1 + shared], Fraction(0)) / shared


def _check_placement_points(records, table: Table, finishers: list[SeatResult], where: str) -> list[Violation]:
    if len(finishers) not in (2, 3, 4):
        return [Violation("placement_points", where, _("%(count)s players finished") % {"count": len(finishers)})]
    ruleset = records.event.ruleset
    uma = records.uma(len(finishers))
    multiplier = table_multiplier(records, table)
    points = [r.final_points for r in finishers]
    violations = []
    for index, row in enumerate(finishers):
        expected = _placement_share(points, index, uma, ruleset.tie_rule)
        if multiplier != 1:
            expected *= multiplier
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
    forfeit_value, multiplier = records.uma(seated)[-1], table_multiplier(records, table)
    if multiplier != 1:
        forfeit_value *= multiplier
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
