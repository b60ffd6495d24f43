"""Rules frozen at the start (chess arbiters' rule: changing the tie-breaks after the start is a hard warning
and is recorded). Once round 1 has a result, a change of the standings order and tie-breaks or of the seating's
settings needs a reason, and is recorded (who, when, which setting, before, after); the public standings show
it as a note. Before that, the settings change freely and nothing is recorded. The ruleset (placement points
順位点 and oka among its values) is frozen outright from the start: an event keeps the rules its results were
computed with."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Event, RuleChange
from tournament.services.common import recorder
from tournament.services.locks import lock_event

FROZEN_SETTINGS = tuple(RuleChange.Setting.values)  # the event's fields a change of is recorded once frozen
REASON_FIELD = "rule_change_reason"


def _value(event: Event, setting: str):
    if setting == "standings_precedence":
        return list(event.precedence)  # empty means the article's order: record the order in force
    return getattr(event, setting)


def rule_changes_require_reason(*, event: Event, settings: dict, reason: str) -> int | None:
    """Refuse (``reason_required``, on the reason's field) a change of a frozen setting without a reason.
    ``settings``: the new values by field. Returns the round the rules are frozen after (None: not frozen)."""
    frozen_after = selectors.event_rules_frozen_after(event)
    if frozen_after is None:
        return None
    changed = [name for name in FROZEN_SETTINGS if name in settings and _value(event, name) != settings[name]]
    if changed and not (reason or "").strip():
        names = ", ".join(str(RuleChange.Setting(name).label) for name in changed)
        raise TaikaiError(
            "reason_required",
            _("round 1 has results: say why %(settings)s change (the change is shown on the public standings)")
            % {"settings": names},
            field=REASON_FIELD,
        )
    return frozen_after


@transaction.atomic
def rule_changes_record(*, event: Event, reason: str = "", user=None) -> list[RuleChange]:
    """Record the frozen settings ``event`` (an event whose new values are not saved yet: the admin's form)
    changes against the stored row; refused without ``reason`` once round 1 has a result. The caller then saves
    the event in the same transaction."""
    stored = lock_event(event.pk)
    settings = {name: _value(event, name) for name in FROZEN_SETTINGS}
    frozen_after = rule_changes_require_reason(event=stored, settings=settings, reason=reason)
    if frozen_after is None:
        return []
    by = recorder(user)
    changes = [
        RuleChange(
            event=stored,
            setting=name,
            before=_value(stored, name),
            after=value,
            reason=reason.strip(),
            after_round=frozen_after,
            by=by,
            by_name=_display_name(by),
        )
        for name, value in settings.items()
        if _value(stored, name) != value
    ]
    return RuleChange.objects.bulk_create(changes)


def _display_name(user) -> str:
    if user is None:
        return ""
    return (user.get_full_name() or user.get_username())[:150]
