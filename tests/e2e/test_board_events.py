"""A referee on a phone (390 px, Japanese) finds the directors' board from the console, chooses among the
events of today where they hold a role (never another), and the board's address names the event chosen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.e2e.conftest import sign_in
from tournament.models import Event
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_referee_opens_the_board_of_the_event_they_choose_from_the_console(screen, make_event):
    # given: a referee of two events running today; a third event today is not theirs
    running = dict(status=Event.Status.RUNNING, starts_on=timezone.localdate(), is_public=True)
    north = make_event(0, name="北大会", slug="north-cup", **running)
    south = make_event(0, name="南大会", slug="south-cup", **running)
    make_event(0, name="他人の大会", slug="not-mine", **running)
    referee = User.objects.create_user("kato", password="pw")
    for event in (north, south):
        role_grant(event=event, user=referee, kind="referee")
    page = screen(PHONE, "ja-JP")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "kato",
        "pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    # when: the console's link to the board
    page.click("#directors a")
    # then: today's events of theirs, to choose from
    page.wait_for_selector("#today")
    listed = page.inner_text("#today")
    assert "北大会" in listed and "南大会" in listed and "他人の大会" not in page.inner_text("main")
    # when: they choose the south
    page.locator("#today a", has_text="南大会").click()
    page.wait_for_url("**/console/board/south-cup/")
    # then: the board of that event, with the other of today one tap away
    assert "南大会" in page.inner_text("h1")
    assert "北大会" in page.inner_text("#board-events")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
