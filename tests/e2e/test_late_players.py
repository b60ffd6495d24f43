"""Late players by the clock (art. 42) on a 390 px phone, in Japanese and in English: the minute before the late
players are marked absent, My tables and the table sheet warn the referee and name who is missing; the sheet and
the public round page show the round's start; the referee holds the clock for the table, recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from tests.e2e.conftest import sign_in
from tournament.models import Event, Table
from tournament.services.late import seat_arrive
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install
from tournament.services.rounds import round_start_set

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WORDS = {
    "ja": {"locale": "ja-JP", "late": "遅刻者（第42条）", "starts": "回戦開始", "held": "保留中", "round": "開始"},
    "en": {
        "locale": "en-US",
        "late": "Late players (art. 42)",
        "starts": "Round starts at",
        "held": "is held",
        "round": "Starts at",
    },
}


@pytest.fixture
def phone_for(screen):
    """A phone-sized page per language (the shared fixtures fail the test on any script error)."""
    return lambda language: screen(PHONE, WORDS[language]["locale"])


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("language", ["ja"])  # the English pages: the crawl
def test_the_referee_is_warned_sees_the_start_and_holds_the_clock(phone_for, make_event, seated_round, language):
    staff_groups_install()
    words = WORDS[language]
    event = make_event(4, late_absent_minutes=10, is_public=True)
    round_ = seated_round(event)
    # the round started 9½ minutes ago: its late players are marked absent within the minute
    round_start_set(round_=round_, starts_at=timezone.now() - timedelta(minutes=9, seconds=30))
    table = round_.tables.get()
    seat_arrive(seat=table.seats.get(position=0), how="player")  # one said "I am here"
    referee = User.objects.create_user("mori", password="hall-wifi-pw", is_staff=True)
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=event, user=referee, kind="referee")
    missing = [str(s.entry.player) for s in table.seats.order_by("position")[1:]]

    # given the referee's phone on My tables
    phone = phone_for(language)
    sign_in(
        phone,
        "/accounts/login/?next=/console/",
        "mori",
        "hall-wifi-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )

    # then My tables warns about the table's late players, by name
    warning = phone.inner_text("#late-warnings")
    assert words["late"] in warning and all(name in warning for name in missing)
    assert str(table.seats.get(position=0).entry.player) not in warning
    assert _fits(phone)

    # and the table sheet shows the round's start and the warning
    phone.click(f"#late-warnings a[href='/console/tables/{table.pk}/']")
    phone.wait_for_selector("#late-players.warning")
    assert words["starts"] in phone.inner_text("#round-start")
    assert all(name in phone.inner_text("#late-players") for name in missing)
    assert _fits(phone)

    # when the referee holds the clock for the table
    phone.click("#late-hold button")
    phone.wait_for_selector("#messages .success")

    # then the hold is recorded and the sheet says so, without the warning
    held = Table.objects.get(pk=table.pk)
    assert held.late_held_by == referee and held.late_held_at is not None
    assert words["held"] in phone.inner_text("#late-players")
    assert phone.locator("#late-players.warning").count() == 0

    # and the public round page shows the start
    phone.goto(f"/events/{Event.objects.get(pk=event.pk).slug}/rounds/1/")
    assert words["round"] in phone.inner_text("#round-start")
    assert _fits(phone)
