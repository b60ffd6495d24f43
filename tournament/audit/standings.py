"""The standings snapshot.

* present once results exist (``standings_missing``), one row per entry
  (``standings_entries``) at positions 0, 1, … as many as the snapshot counts (``standings_positions``),
  totals = current game points − penalty points / 1000 (``standings_total``),
  advances and games counted (``standings_advances``, ``standings_games``), rows ordered and ranked
  by the event's precedence with shared ranks (``standings_order``), completed rounds counted
  (``standings_rounds``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

from django.utils.translation import gettext as _

from tournament.audit.records import THOUSAND, EventRecords, Violation
from tournament.models import Entry, Round, StandingsRow, StandingsSnapshot
from tournament.options import standings_lots


def _sort_key(precedence: tuple[str, ...], advances: int, total: Fraction, lot: int | None = None) -> tuple:
    values = {"advances": advances, "total_points": total, "lot": -(lot or 0)}  # lot 1 first
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
    # the public snapshot stops before a hidden round, or before the first round still being checked: the
    # games and penalties of that round and the later ones are not in its rows
    bounds = [n for n in (snapshot.hidden_from_round, snapshot.checking_from_round) if n is not None]
    before = min(bounds) if bounds else None
    if before is not None:
        current = [r for r in current if records.tables[r.table_id].round.number < before]
    violations = []
    totals: dict[int, Fraction] = defaultdict(Fraction)
    advances: Counter = Counter()
    games: Counter = Counter()
    for row in current:
        totals[row.entry_id] += row.game_points
        advances[row.entry_id] += row.advanced
        games[row.entry_id] += 1
    for penalty in records.penalties:
        shown = before is None or (penalty.round_number is not None and penalty.round_number < before)
        if penalty.cancelled_at is None and penalty.points and shown:  # art. 37 penalty points 反則点
            totals[penalty.entry_id] -= Fraction(penalty.points, THOUSAND)
    entries = set(Entry.objects.filter(event=event).values_list("id", flat=True))
    rows = list(StandingsRow.objects.filter(event=event).order_by("position"))
    lots = standings_lots(event, entries) or {}
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
        keys.append(_sort_key(event.precedence, row.advances, total, lots.get(entry_id)))
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
