"""Substitutes 代走.

* each plays for an entry of the same event (``substitute_event``) who is not a substitute
  (``substitute_chain``), never in a round where that player is seated too (``substitute_with_absent``),
  and is never ranked in the published standings (``substitute_ranked``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.audit.records import EventRecords, Violation
from tournament.models import Entry, Seat, StandingsRow


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
