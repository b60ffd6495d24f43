"""The sign-up page, the check-in desk and a player's own page by keyboard alone, as a person without a pointer (or
with a screen reader) uses them: every control has a name in Chromium's accessibility tree, the focus goes through
the page in its order (top to bottom), never lands on what a person cannot see (the sign-up form's trap for
robots), and Enter does what a tap does. The sheet's hands by keyboard: ``test_keyboard_hand.py``."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

import pytest
from django.utils import timezone

from registration.models import Registration, SignUp
from tests.e2e.conftest import sign_in
from tests.e2e.day import PASSWORD, USERNAME, day_built
from tests.e2e.test_keyboard_hand import unnamed_controls
from tests.e2e.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Where the focus is: its tag, name or id, its place on the page (from the top of the document), and whether a
# person sees it (a zero-size or visually hidden control would be a stop nobody can see).
FOCUSED = r"""() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const r = el.getBoundingClientRect();
  return {key: [...document.querySelectorAll("*")].indexOf(el),
          what: `${el.tagName.toLowerCase()} ${el.name || el.id || ""} `
            + `${el.value || el.textContent.trim().slice(0, 30)}`.replace(/\s+/g, " "),
          top: Math.round(r.top + window.scrollY), seen: r.width > 1 && r.height > 1
            && getComputedStyle(el).visibility !== "hidden" && !el.closest("[aria-hidden=true]")};
}"""


def tab_through(page, stops: int = 80) -> list[dict]:
    """Every stop of the focus from the top of the page, in order, until it leaves the page or comes round."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    seen, order = set(), []
    for _ in range(stops):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or focused["key"] in seen:
            break
        seen.add(focused["key"])
        order.append(focused)
    return order


def out_of_order(order: list[dict]) -> list[str]:
    """Stops whose place is above the stop before them: the focus going back up the page."""
    return [
        f"{b['what']} ({b['top']}) after {a['what']} ({a['top']})" for a, b in pairwise(order) if b["top"] < a["top"]
    ]


def test_a_player_signs_up_by_keyboard_alone(chromium_browser, live_server, make_event):
    # given the day's event with its sign-ups open again
    day = day_built(make_event)
    Registration.objects.filter(event=day.event).update(closes_at=timezone.now() + timedelta(days=1))
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"/events/{day.event.slug}/register/")
        page.wait_for_selector("#sign-up-form")
        # then every control is named, the focus goes down the form and never to the robots' trap
        assert unnamed_controls(page) == []
        order = tab_through(page)
        assert [stop["what"] for stop in order if not stop["seen"]] == []
        assert not any("website" in stop["what"] for stop in order)
        fields = [stop["what"].split()[1] for stop in order if stop["what"].startswith("input")]
        assert fields[:2] == ["name", "reading"] and "email" in fields, fields
        assert out_of_order(order) == []
        # when a person Tabs to the name and the address, types them and presses Enter
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        for name, typed in (("name", "Tanaka Hanako"), ("email", "hanako@example.org")):
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.name") == name:
                    break
            else:
                raise AssertionError(f"{name} never took the focus")
            page.keyboard.type(typed)
        page.keyboard.press("Enter")
        # then they are signed up
        until(lambda: SignUp.objects.filter(event=day.event, name="Tanaka Hanako").exists(), "the sign-up recorded")
    finally:
        context.close()


def test_the_desk_checks_a_player_in_by_keyboard_alone(chromium_browser, live_server, make_event):
    # given the day's event, its check-in open, and its organizer at the desk on a phone
    day = day_built(make_event)
    waiting = SignUp.objects.get(event=day.event, name="Suzuki Ichiro")
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        page.goto(f"/console/events/{day.event.slug}/check-in/")
        # then every control is named and the focus goes down the page
        assert unnamed_controls(page) == []
        order = tab_through(page)
        assert [stop["what"] for stop in order if not stop["seen"]] == []
        assert out_of_order(order) == []
        assert any(stop["what"].startswith("button action check_in") for stop in order), order
        # when the organizer Tabs to the player's check-in and presses Enter
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('#missing button[value=check_in]')"):
                break
        else:
            raise AssertionError("the missing player's check-in never took the focus")
        page.keyboard.press("Enter")
        # then the player is checked in
        until(lambda: SignUp.objects.filter(pk=waiting.pk).exclude(checked_in_at=None).exists(), "checked in")
    finally:
        context.close()


def test_a_players_own_page_is_read_and_used_by_keyboard_alone(chromium_browser, live_server, make_event):
    # given the day's event and a player of the table in play, on their own page
    day = day_built(make_event)
    entry = day.playing.seats.order_by("position").first().entry
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"/me/{entry.link_token}/")
        page.wait_for_load_state("load")
        # then every control is named, each stop is seen, and the focus goes down the page
        assert unnamed_controls(page) == []
        order = tab_through(page)
        assert len(order) >= 3, order
        assert [stop["what"] for stop in order if not stop["seen"]] == []
        assert out_of_order(order) == []
        # and a link of the page (the event's standings) opens with Enter
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('main a[href]')"):
                break
        else:
            raise AssertionError("no link of the page took the focus")
        target = page.evaluate("document.activeElement.getAttribute('href')")
        page.keyboard.press("Enter")
        page.wait_for_url(f"**{target.split('#')[0]}*")
    finally:
        context.close()
