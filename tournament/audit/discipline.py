"""Penalties and disqualification.

* no win by a seat whose foul took that right for the hand (``win_despite_penalty``), a
  hand with a wrecked wall is recorded as replayed (``hand_not_replayed``), and its offender does not win
  the replay (``win_despite_penalty``); art. 37 penalty points are the unit × the players at the table in
  the foul's hand, a player who left not counted (``penalty_points``); a penalty-point foul in tournament
  play (or egregious conduct) disqualifies (``not_disqualified``), a disqualified player is not seated
  in a later round (``seated_after_disqualification``), and an automatic disqualification whose penalty
  was cancelled is lifted unless an organizer confirmed it (``disqualification_not_lifted``,
  ``disqualification_record``).
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from tournament.audit.records import (
    CARRIED_KINDS,
    LOST_WINS,
    PENALTY_POINT_KINDS,
    REPLAY_KINDS,
    EventRecords,
    Violation,
    current_hands,
)
from tournament.engine.penalties import PenaltyKind, is_disqualifying
from tournament.models import Entry, Event, Penalty, Seat


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
        for hand, version in current_hands(records, table_id):
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
    violations += _check_disqualification(records, [p for p in active if disqualifies(event, p.kind)])
    return violations


def disqualifies(event: Event, kind: str) -> bool:
    """Art. 43: egregious conduct always, a penalty-point foul in tournament play 大会戦."""
    return is_disqualifying(kind, tournament_play=event.tournament_play)


def _check_penalty_points(records: EventRecords, penalty: Penalty) -> list[Violation]:
    where = _("penalty %(penalty)s") % {"penalty": penalty.id}
    if penalty.kind == PenaltyKind.CHOMBO:  # 錯和: the ruleset's chombo points, whoever plays the hand
        expected = records.event.ruleset.chombo_points
        if penalty.points != expected:
            return [
                Violation(
                    "penalty_points",
                    where,
                    _("a chombo of %(points)s points, the ruleset's chombo is %(expected)s")
                    % {"points": penalty.points, "expected": expected},
                )
            ]
        return []
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
        if cause is None or cause.entry_id != entry.id or not disqualifies(records.event, cause.kind):
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
