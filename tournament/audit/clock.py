"""The clock of each table's current hand (arts. 38, 42, 36).

* the seats that left the game are the clock's absent seats (``clock_absent_seats``), never on turn or
  flagged (``clock_turn_to_absent``), and no claim 拾 was taken after a foul took that right for the hand,
  the art. 36 ③ wall wrecker's in the replay included (``claim_despite_penalty``); a stored state the
  engine cannot read is ``clock_state``.
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from tournament.audit.records import CARRIED_KINDS, CLAIM_LOST_KINDS, EventRecords, Violation
from tournament.engine import clock as clock_engine
from tournament.engine.errors import TournamentError
from tournament.models import Penalty, TableClock


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
