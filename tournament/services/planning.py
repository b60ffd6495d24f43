"""Plan the whole event now: a fixed schedule made by Taikai before round 1, from its designs and its
planning search (``tournament.engine.pairing.schedule.event_planned``), kept as the event's schedule and
printable for an event run without devices. Each round is then seated from it, as an imported one is."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.pairing.schedule import event_planned, schedule_checked
from tournament.models import Event
from tournament.options import SEATING_TIME_LIMIT_S
from tournament.services.locks import lock_event
from tournament.services.schedule import schedule_keep, schedule_sizes
from tournament.services.seating import seating_request_for
from tournament.services.teams import seating_groups

PLAN_SECONDS = 30.0  # the search's share of the whole plan, spread over its rounds


@transaction.atomic
def schedule_plan(*, event: Event, seed: int | None = None, user=None) -> dict:
    """Make and keep a fixed schedule for every round of ``event`` (``Event.planned_rounds``): the players
    active now, teams kept apart, fewest repeated meetings over the whole event, seats balanced. The plan
    replaces the event's seating method while it is kept (a Swiss event's tables would follow the
    standings; a plan made before round 1 cannot). Returns the schedule's report."""
    event = lock_event(event.pk)
    if selectors.event_next_round_number(event) != 1:
        raise TaikaiError("event_started", _("a schedule is planned before the first round is seated"), field="rounds")
    rounds = event.planned_rounds
    request = seating_request_for(
        event,
        round_number=1,
        seed=seed,
        time_limit_s=min(SEATING_TIME_LIMIT_S, max(0.2, PLAN_SECONDS / max(rounds, 1))),
    )
    absent = set(request["absent"])
    seated = [player for player in request["players"] if player not in absent]
    if len(seated) < event.table_size:
        raise TaikaiError("too_few_players", _("too few active players to seat a table"), field="rounds")
    planned = event_planned(request, rounds)
    report = schedule_checked(planned, request["players"], seated, schedule_sizes(event), seating_groups(event))
    if report.problems:  # the engine seats everyone once per round: a problem here is a fault of the engine
        raise AssertionError(report.problems)
    return schedule_keep(event, planned, report, winds="planned", user=user, source="planned")
