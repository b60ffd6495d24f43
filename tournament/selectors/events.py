"""Events: the public list, one event by its slug, the events a caller may read."""

from __future__ import annotations

from django.db.models import Q

from tournament.models import (
    Event,
)


def event_public_list():
    return Event.objects.filter(is_public=True).select_related("ruleset").order_by("-starts_on", "name")


def event_get_public(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug, is_public=True).select_related("ruleset").first()


def event_get(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug).select_related("ruleset").first()


def events_open_for_entries():
    """Events players may still be registered in (not finished)."""
    return Event.objects.exclude(status=Event.Status.FINISHED).order_by("-starts_on", "name")


def events_readable(where: Q):
    """Public events and those ``where`` (an event filter; empty: every event) names, newest first."""
    events = Event.objects.filter(Q(is_public=True) | where) if where else Event.objects.all()
    return events.select_related("ruleset").order_by("-starts_on", "name")


def event_slug(event_id: int) -> str | None:
    return Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()


def event_schedule(event_id: int) -> dict:
    """The event's fixed schedule as stored (``{}``: none)."""
    return Event.objects.filter(pk=event_id).values_list("schedule", flat=True).first() or {}
