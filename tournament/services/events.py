"""An event 大会 as a whole: finishing it."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import selectors
from tournament.models import Event
from tournament.services.common import refuse_while_open, status_set
from tournament.services.locks import lock_event
from tournament.services.standings import standings_schedule_recompute


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """Close the event once every round is completed; standings are recomputed one last time."""
    event = lock_event(event.pk)
    refuse_while_open(
        selectors.event_unfinished_round_numbers(event),
        code="rounds_not_completed",
        # Translators: numbers lists round numbers ("2, 3").
        message=_("rounds %(numbers)s are not completed"),
        field="event",
    )
    status_set(event, Event.Status.FINISHED)
    standings_schedule_recompute(event_id=event.id)
    return event
