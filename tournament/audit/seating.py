"""Seating.

* nobody seated twice in a round (``seated_twice``), a seat's round is its table's round
  (``seat_round_mismatch``), positions 0.. without gaps (``seat_positions``); a round marked completed
  has every table confirmed (``round_completed_while_playing``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.utils.translation import gettext as _

from tournament.audit.records import EventRecords, Violation
from tournament.models import Entry, Round, Table


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
