"""Checked rounds: nothing of a round changes after its current check (the round is locked until unlocked).

* no hand version, result version, penalty (logged or cancelled), ruling or absence marked by the late players'
  clock of a round is dated after the round's current check (``changed_after_check``).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit.records import EventRecords, Violation
from tournament.models import Ruling


def _when(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")


def _changes(records: EventRecords, table_id: int):
    """Every dated change of a table: what it is, and when."""
    for hand in records.hands.get(table_id, []):
        for version in records.versions.get(hand.id, []):
            yield (
                _("hand %(hand)s version %(version)s") % {"hand": hand.number, "version": version.version},
                (version.recorded_at),
            )
    for result in records.results.get(table_id, []):
        yield _("result version %(version)s") % {"version": result.version}, result.recorded_at
    for penalty in records.penalties:
        if penalty.table_id == table_id:
            yield _("penalty %(penalty)s") % {"penalty": penalty.pk}, penalty.logged_at
            if penalty.cancelled_at is not None:
                yield _("penalty %(penalty)s cancelled") % {"penalty": penalty.pk}, penalty.cancelled_at
    for seat in records.seats.get(table_id, []):
        if seat.late_marked_at is not None:
            yield _("absence of seat %(seat)s") % {"seat": seat.position}, seat.late_marked_at


def check_after_check(records: EventRecords) -> list[Violation]:
    """Checked rounds: no hand, result, penalty, ruling or absence of a round dated after its current check."""
    checked = {table_id: table for table_id, table in records.tables.items() if table.round.checked_at is not None}
    if not checked:
        return []
    violations = []
    rulings: dict[int, list[Ruling]] = {}
    for ruling in Ruling.objects.filter(table_id__in=list(checked)).order_by("id"):
        rulings.setdefault(ruling.table_id, []).append(ruling)
    for table_id, table in sorted(checked.items(), key=lambda item: (item[1].round.number, item[1].number)):
        check = table.round.checked_at
        changes = list(_changes(records, table_id))
        changes += [(_("ruling %(ruling)s") % {"ruling": r.pk}, r.decided_at) for r in rulings.get(table_id, [])]
        for what, at in changes:
            if at is not None and at > check:
                violations.append(
                    Violation(
                        "changed_after_check",
                        records.table_where(table_id),
                        _("%(what)s is dated %(at)s, after the round's check at %(check)s")
                        % {"what": what, "at": _when(at), "check": _when(check)},
                    )
                )
    return violations
