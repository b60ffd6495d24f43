"""What the audit tests ask of an event: the codes of its violations, a table's current hand versions."""

from django.db.models import F

from tournament.audit import event_audit
from tournament.models import HandVersion


def codes(event) -> set[str]:
    return {v.code for v in event_audit(event)}


def current_versions(table):
    return list(
        HandVersion.objects.filter(hand__table=table, version=F("hand__current_version"))
        .select_related("hand")
        .order_by("hand__number")
    )
