"""Check every invariant of an event's records: ``event_audit(event)`` runs every check of ``CHECKS``
in order and returns the violations they find.

The checks recompute from the stored rows with their own arithmetic (sums, sorts), so a row edited
behind the services' back, or a service that went wrong, shows up as a violation with a stable code. One
module per subject, each listing its checks and their codes:

* ``records``: what every check reads, loaded once (``EventRecords``), the ``Violation`` they report, each
  table's current hands and results, and seed 004's fouls as the checks count them;
* ``hands``: every version of every hand, and seed 004 at the table (replays, absences, overtime);
* ``results``: the table results, their placements, placement points, oka and forfeits;
* ``seating``: who sits where in each round;
* ``discipline``: penalties and disqualification;
* ``clock``: the stored clock of each table;
* ``finals``: the final;
* ``standings``: the published standings snapshot;
* ``teams``: teams and the team standings;
* ``substitutes``: substitutes 代走;
* ``reseats``: tables re-seated after their players sat in the wrong seats.
* ``checks``: checked rounds, unchanged after their check.
"""

from __future__ import annotations

from tournament.audit.checks import check_after_check
from tournament.audit.clock import check_clocks
from tournament.audit.discipline import check_penalties
from tournament.audit.finals import check_final
from tournament.audit.hands import check_absences, check_hands, check_overtime, check_replayed_hands
from tournament.audit.records import Violation, event_records
from tournament.audit.reseats import check_reseats
from tournament.audit.results import check_result_versions, check_results, check_table_points
from tournament.audit.seating import check_seating
from tournament.audit.standings import check_standings
from tournament.audit.substitutes import check_substitutes
from tournament.audit.teams import check_teams
from tournament.models import Event

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
    check_reseats,
    check_after_check,
)


def event_audit(event: Event) -> list[Violation]:
    """Every violation of every check, in the order of ``CHECKS``."""
    records = event_records(event)
    violations: list[Violation] = []
    for check in CHECKS:
        violations += check(records)
    return violations
