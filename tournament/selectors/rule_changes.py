"""Rules frozen at the start: whether an event's rules are frozen yet, and the changes recorded since."""

from __future__ import annotations

from django.db.models import Max, Q

from tournament.models import Event, Round, RuleChange


def event_rules_frozen_after(event: Event) -> int | None:
    """The last round with a result (a hand or a seat result) once round 1 has one: the event's rules are frozen
    from then on. None while round 1 has no result (its settings change freely)."""
    with_results = Round.objects.filter(event=event).filter(
        Q(tables__results__isnull=False) | Q(tables__hands__isnull=False)
    )
    if not with_results.filter(number=1).exists():
        return None
    return with_results.aggregate(last=Max("number"))["last"]


def event_rule_changes(event: Event) -> list[RuleChange]:
    """The changes of a started event's rules, oldest first."""
    return list(RuleChange.objects.filter(event=event).order_by("at", "id"))
