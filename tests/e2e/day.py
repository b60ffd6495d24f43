"""A small event on the day, for the browser tests that walk the console and the site: round 1 played and
complete, round 2 in play (table 1 finished, table 2 playing, with a hand, a penalty and a referee's call
open), sign-ups with check-in open, a table card for table 2, and one person who is the event's organizer
and referee."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import Group, User
from django.utils import timezone

from live.models import RefereeCall
from live.services.calls import referee_call
from registration.models import Registration
from registration.services import sign_up_create
from tournament.models import PENALTY_KIND_CHOICES, Event, Table
from tournament.services.discipline import penalty_log
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.roles import (
    ORGANIZERS_GROUP,
    REFEREES_GROUP,
    role_grant,
    scorekeeper_keys_issue,
    staff_groups_install,
)
from tournament.services.rounds import round_complete, round_create

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
USERNAME, PASSWORD = "mori", "hall-wifi-pw"


@dataclass(frozen=True)
class Day:
    event: Event
    finished: Table  # round 2, table 1: its result confirmed
    playing: Table  # round 2, table 2: in play, a hand recorded, a call open
    call: RefereeCall
    card_token: str
    card_pin: str


def _tables(event: Event) -> list[list[int]]:
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    return [ids[i : i + 4] for i in range(0, len(ids), 4)]


def day_built(make_event) -> Day:
    """The event as it stands in round 2 (``make_event``: the fixture of tests/fixtures/tournament.py)."""
    event = make_event(8, clock_bank_seconds=60, clock_increment_seconds=5)
    staff_groups_install()
    user = User.objects.create_user(USERNAME, password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=REFEREES_GROUP), Group.objects.get(name=ORGANIZERS_GROUP))
    role_grant(event=event, user=user, kind="organizer")
    role_grant(event=event, user=user, kind="referee")

    first = round_create(event=event, tables=_tables(event))
    for table in first.tables.all():
        hand_record(table=table, number=1, expected_version=0, data={**RON, "number": 1})
        table_finish(table=table, end_reason="time")
    round_complete(round_=first)

    second = round_create(event=event, tables=_tables(event))
    finished, playing = second.tables.order_by("number")
    for table in (finished, playing):
        hand_record(table=table, number=1, expected_version=0, data={**RON, "number": 1})
    table_finish(table=finished, end_reason="time")
    penalty_log(
        event=event,
        table=playing,
        entry=playing.seats.order_by("position").first().entry,
        kind=PENALTY_KIND_CHOICES[0][0],
        hand_number=2,
        reason="wrong tsumo",
        user=user,
    )
    call = referee_call(table=playing, reason=RefereeCall.Reason.values[0], note="a ruling")
    [card] = scorekeeper_keys_issue(tables=[playing])

    now = timezone.now()
    registration = Registration.objects.create(
        event=event,
        opens_at=now - timedelta(days=2),
        closes_at=now + timedelta(days=1),
        cap=20,
        checkin_opens_at=now - timedelta(hours=1),
    )
    sign_up_create(event=event, values={"name": "Suzuki Ichiro", "email": "suzuki@example.org"}, by=user)
    registration.closes_at = now - timedelta(minutes=1)
    registration.save(update_fields=["closes_at"])
    return Day(event=event, finished=finished, playing=playing, call=call, card_token=card.token, card_pin=card.pin)
