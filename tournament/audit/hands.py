"""Hands and seed 004 at the table.

* hands: every version sums to zero with the deposits 供託 (``hand_zero_sum``), has one change per
  seat (``hand_seat_count``); current versions exist, are the only ones marked current
  (``hand_current_flag``) and are numbered 1, 2, … (``hand_version``,
  ``hand_numbering``); each hand's deposits in are the previous hand's deposits out (``deposits_chain``);
* seed 004 at the table: a replayed hand (art. 36 ③) moves no points (``replayed_hand``); a player who
  left during the game (art. 42) has no change (``left_seat_change``) and no role (``left_seat_role``)
  in the hands after the one they left after, which is a recorded hand (``absence_record``); overtime
  hands (art. 39) come after the regular ones (``overtime_order``), only in events with overtime
  (``overtime_disabled``), and the table's overtime year is that of its last one (``overtime_year``);
  outside the finals the table's overtime state is the engine's decision over its hands
  (``overtime_state``), no overtime hand follows its end (``overtime_after_end``), and no table is
  confirmed with its overtime still going (``overtime_unfinished``).

``final_points_from_hands`` and ``overtime_year_from_hands`` are the hands' sums the results are checked
against.
"""

from __future__ import annotations

from itertools import pairwise

from django.utils.translation import gettext as _

from tournament.audit.records import SEASONS_PER_YEAR, EventRecords, Violation, current_hands, current_versions
from tournament.engine.errors import TournamentError
from tournament.engine.overtime import OvertimeHandResult, overtime_progress
from tournament.models import HandVersion, Seat, Table


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


def final_points_from_hands(records: EventRecords, table_id: int) -> tuple[list[int], int]:
    """Start points plus every current hand, the deposits left at the end settled per the ruleset;
    returns the points and the deposits lost."""
    ruleset = records.event.ruleset
    points = [ruleset.start_points] * len(records.playing_seats(table_id))
    deposits = 0
    for version in current_versions(records, table_id):
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
        flags = [v.overtime for v in current_versions(records, table_id)]
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


def overtime_year_from_hands(records: EventRecords, table_id: int) -> int:
    """The year of the last overtime hand: hands 1–4 of the overtime are year 1, 5–8 year 2, … (a hand
    stopped and replayed, art. 36 ③, is played again in the same season)."""
    overtime = sum(1 for v in current_versions(records, table_id) if v.overtime and v.outcome != "replayed")
    return -(-overtime // SEASONS_PER_YEAR)


def _check_overtime_state(records: EventRecords, table: Table) -> list[Violation]:
    """Art. 39 ②: the state the table records is the engine's reading of its overtime hands; nothing
    follows its end, and the result is not confirmed while it goes on."""
    where = records.table_where(table.id)
    current = current_hands(records, table.id)
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
