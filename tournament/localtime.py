"""Times on an event's pages are shown in the event's time zone (``Event.time_zone``).

An entry point calls ``event_time_zone_activate`` once it knows the event; ``config.middleware`` resets
the zone at the start of every request, so it never leaks from one request to the next.
"""

from __future__ import annotations

import zoneinfo

from django.utils import timezone


def event_time_zone_activate(event) -> None:
    time_zone_activate(event.time_zone)


def time_zone_activate(name: str) -> None:
    """Times are shown and read in the zone ``name`` (an unknown name: the site's, ``settings.TIME_ZONE``)."""
    try:
        timezone.activate(zoneinfo.ZoneInfo(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()
