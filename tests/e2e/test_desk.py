"""The check-in desk on a phone (390 px, Japanese), as an organizer at the venue uses it: the search finds a
player by romaji as the public pages do, a tap on a missing name checks them in (and can be undone), and
closing check-in is set apart, in red, and asks first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from registration import services
from registration.models import Registration, SignUp
from tests.e2e.conftest import sign_in
from tests.e2e.waiting import until_handled
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PEOPLE = (("鈴木 一郎", "すずき いちろう"), ("佐藤 花子", "さとう はなこ"), ("田中 次郎", "たなか じろう"))


def test_the_desk_finds_by_romaji_checks_in_with_one_tap_and_sets_closing_apart(screen, make_event):
    # given: three confirmed players, check-in open, an organizer on a phone in Japanese
    event = make_event(0)
    now = timezone.now()
    Registration.objects.create(
        event=event,
        opens_at=now - timedelta(days=1),
        closes_at=now + timedelta(days=1),
        cap=3,
        checkin_opens_at=now - timedelta(minutes=30),
    )
    for n, (name, reading) in enumerate(PEOPLE):
        services.sign_up_create(event=event, values={"name": name, "reading": reading, "email": f"{n}@example.org"})
    organizer = User.objects.create_user("boss", password="pw")
    role_grant(event=event, user=organizer, kind="organizer")
    page = screen(PHONE, "ja-JP")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, "/accounts/login/", "boss", "pw", submit="#login-form button[type=submit]", then="body")
    desk = f"/console/events/{event.slug}/check-in/"
    page.goto(desk)

    # when: the desk types the romaji of a name
    page.fill("#search input[type=search]", "suzuki")
    page.press("#search input[type=search]", "Enter")
    page.wait_for_url("**q=suzuki**")
    # then: found, as on the public pages
    assert "鈴木 一郎" in page.inner_text("#found")

    # when: a missing name is tapped, once
    page.locator("#missing button", has_text="佐藤 花子").click()
    page.wait_for_selector("#undo")
    # then: checked in, gone from the missing names, and the tap can be undone
    assert SignUp.objects.get(name="佐藤 花子").checked_in_at is not None
    assert "佐藤 花子" not in page.inner_text("#missing") and "佐藤 花子" in page.inner_text("#undo")
    page.click("#undo button")
    page.wait_for_selector("#missing button:has-text('佐藤 花子')")
    assert SignUp.objects.get(name="佐藤 花子").checked_in_at is None

    # then: closing check-in is its own section below the list, in the danger colour, and asks first
    close = page.locator("#close-section #close-check-in")
    missing_bottom = page.locator("#missing").bounding_box()
    assert close.bounding_box()["y"] > missing_bottom["y"] + missing_bottom["height"]
    assert close.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(180, 35, 24)"  # --neg
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    close.click()
    until_handled(page, lambda: asked, "the organizer asked first")
    expect(page.locator("#close-section")).to_be_visible()  # dismissed: check-in stays open on the page
    assert asked and Registration.objects.get(event=event).checkin_closed_at is None
    page.once("dialog", lambda dialog: dialog.accept())
    close.click()
    page.wait_for_selector("#close-section", state="detached")
    assert Registration.objects.get(event=event).checkin_closed_at is not None
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
