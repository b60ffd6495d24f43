"""What goes on the live streams: the tournament's announcements (``core/announce.py``) and the hall's
own (a referee called), turned into messages of the event's channel and the table's channel.

The event's channel is read by anyone who may read the event, so it carries only what its public pages
show: table numbers, hand labels, versions, states. A message marked ``staff`` (a referee call, or a hand or
a result of a round still being checked where the event publishes results once checked) is left out of the
streams of people without a role in the event. A table's channel is read by its scorekeeper
and the event's referees and organizers.

Publishing never fails a write: it runs after the commit, and a bus that cannot be reached is logged and
left alone for ``REST_SECONDS`` (the pages poll meanwhile).
"""

from __future__ import annotations

import logging
import time

from live import bus as live_bus
from live.bus import BusDown

logger = logging.getLogger(__name__)

REST_SECONDS = 5.0
_resting_until = 0.0

# The announcement's facts each channel's message keeps.
EVENT_FACTS = {
    "hand": ("table_number", "number", "version", "label"),
    "table": ("table_number", "status", "result_version"),
    "standings": ("computed_at",),
    "seating": ("round",),
    "clock": ("table_number", "state"),
    "checkin": ("checked_in",),  # registration: the count only, never a name
}
TABLE_SUBJECTS = {"hand", "table", "clock"}


def event_channel(event_id: int) -> str:
    return f"event:{event_id}"


def table_channel(table_id: int) -> str:
    return f"table:{table_id}"


def publish(channel: str, type_: str, data: dict) -> str | None:
    """Put a message on ``channel``; ``None`` when the bus is down (logged, then rested)."""
    global _resting_until
    if time.monotonic() < _resting_until:
        return None
    try:
        return live_bus.the_bus().publish(channel, type_, data)
    except BusDown:
        _resting_until = time.monotonic() + REST_SECONDS
        logger.warning("the live bus is down: %s on %s not pushed (the pages poll)", type_, channel)
        return None


def on_announcement(subject: str, event_id: int, facts: dict) -> None:
    """The subscriber to the tournament's announcements. A hand or a result of a round still being checked (the
    event publishes results once checked) goes on the event's channel for the staff only."""
    data = {key: facts[key] for key in EVENT_FACTS[subject] if key in facts}
    if facts.get("being_checked"):
        data["staff"] = True
    publish(event_channel(event_id), subject, data)
    if subject in TABLE_SUBJECTS:
        publish(table_channel(facts["table"]), subject, dict(facts))


def call_announce(call, *, state: str) -> None:
    """A referee call opened, taken or closed: on the directors' streams and the table's."""
    table = call.table
    data = {"table_number": table.number, "reason": call.reason, "state": state, "staff": True}
    publish(event_channel(table.round.event_id), "call", data)
    publish(table_channel(table.pk), "call", data)
