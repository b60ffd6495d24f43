"""Every page of the console works when the words of its scripts (the JavaScript catalog, /jsi18n/) do not
arrive: a phone offline whose device never kept them, a network that drops that one request. The scripts fall
back on their English words; no page throws, and the offline banner still says what it should."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import sign_in, tap
from tests.e2e.day import PASSWORD, USERNAME, day_built

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
CATALOG = re.compile(r"/jsi18n/")
SOME_TEXT = re.compile(r"\S")


def console_pages(day) -> list[str]:
    """Every page of the console a referee, an organizer at the desk or a scorekeeper opens."""
    event, finished, playing = day.event, day.finished, day.playing
    sheet = f"/console/tables/{playing.pk}/"
    return [
        "/console/",  # My tables
        f"/console/tables/{finished.pk}/",  # a finished sheet
        f"/console/tables/{finished.pk}/penalty/",
        sheet,  # a sheet in play
        sheet + "?hand=1",  # a correction
        sheet + "?confirm=absent_during&seat=1",  # an absence during the game, asked first
        sheet + "penalty/",
        sheet + "clock/",
        f"/console/board/?event={event.slug}",
        f"/console/calls/{day.call.pk}/close",
        f"/console/events/{event.slug}/check-in/",
        f"/k/{day.card_token}/",  # the table card's PIN page
    ]


def test_every_console_page_works_without_the_javascript_catalog(chromium_browser, live_server, make_event):
    day = day_built(make_event)
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
    context.route(CATALOG, lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(15000)
    thrown = []
    page.on("pageerror", lambda error: thrown.append(f"{page.url}: {error}"))
    try:
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        for path in console_pages(day):
            response = page.goto(path)
            assert response.status == 200, path
            assert page.evaluate("typeof window.gettext") == "undefined", f"{path}: the catalog arrived"
            # the scripts' first work after the page loaded (the banner, the clocks)
            if page.locator("#outbox").count():
                expect(page.locator("#outbox .outbox-text"), path).to_have_text(SOME_TEXT)
            if page.locator("#zones").count():
                expect(page.locator("#settings"), path).to_have_text(SOME_TEXT)  # the clock read and drawn

        # offline: the banner says so, in the words the script has
        page.goto(f"/console/tables/{day.playing.pk}/penalty/")
        context.set_offline(True)
        page.wait_for_selector("#outbox[data-state='offline']")
        context.set_offline(False)
        page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']")

        # the sheet's taps and its Save, the clock's buttons
        page.goto(f"/console/tables/{day.playing.pk}/")
        tap(page, "outcome", "ron")
        tap(page, "winner_1", 1)
        tap(page, "discarder", 2)
        tap(page, "han_1", 2)
        tap(page, "fu_1", 30)
        with page.expect_navigation():
            page.click("#save-hand")
        page.goto(f"/console/tables/{day.playing.pk}/clock/")
        page.click("#start")
        expect(page.locator("#status")).to_have_text(re.compile("running"))
        page.click("#pause")
        expect(page.locator("#status")).to_have_text(re.compile("paused"))
    finally:
        context.close()
    assert not thrown, "JavaScript exceptions without the catalog:\n" + "\n".join(thrown)
