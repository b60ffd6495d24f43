"""The hall in Chromium: a table calls a referee from its sheet, the board shows it at once, one referee takes
it and closes it with a note that stays on the table's sheet; a director gives a table more time."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from tests.e2e.conftest import sign_in
from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _person(chromium_browser, live_server, viewport, locale, username):
    context = chromium_browser.new_context(base_url=live_server.url, viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        username,
        "pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    return context, page


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "en-US"), (DESKTOP, "ja-JP")], ids=["phone-en", "desktop-ja"])
def test_a_table_calls_a_referee_who_takes_it_and_closes_it_with_a_note(
    chromium_browser, live_server, make_event, seated_round, viewport, locale
):
    staff_groups_install()
    table = seated_round(make_event(4)).tables.get()
    event = table.round.event
    scorer = User.objects.create_user("scorer", password="pw")
    referee = User.objects.create_user("kato", password="pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    organizer = User.objects.create_user("boss", password="pw")
    organizer.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
    role_grant(event=event, user=scorer, kind="referee")
    role_grant(event=event, user=referee, kind="referee")
    role_grant(event=event, user=organizer, kind="organizer")
    contexts = []
    try:
        # the table calls
        context, table_page = _person(chromium_browser, live_server, PHONE, locale, "scorer")
        contexts.append(context)
        table_page.goto(reverse("console:table", args=[table.pk]))
        table_page.click("#call-referee summary")
        table_page.select_option("#call-reason", "dispute")
        table_page.fill("#call-note", "chombo?")
        table_page.click("#call-referee button[type=submit]")
        table_page.wait_for_selector("#call-open")
        # the referee sees it on the board, takes it
        context, board = _person(chromium_browser, live_server, viewport, locale, "kato")
        contexts.append(context)
        board.goto(reverse("live:board") + f"?event={event.slug}")
        assert board.get_attribute(f".tcard[data-table='{table.number}']", "data-flags") == "call"
        assert "chombo?" in board.inner_text("#open-calls")
        assert board.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        board.click("#open-calls form button")
        board.wait_for_selector("#open-calls >> text=kato")
        # the table sees who is coming
        table_page.reload()
        assert "kato" in table_page.inner_text("#call-open")
        # closed with a note, which stays on the table's sheet
        board.click("#open-calls a.button")
        board.fill("#close-note", "no chombo: play on")
        board.click("#close-call button")
        board.wait_for_selector("#board")
        assert board.locator("#open-calls").count() == 0
        table_page.reload()
        assert "no chombo: play on" in table_page.inner_text("#calls")
        # the organizer gives the table five more minutes: a ruling shown on the sheet
        context, director = _person(chromium_browser, live_server, viewport, locale, "boss")
        contexts.append(context)
        director.goto(reverse("live:board") + f"?event={event.slug}")
        director.select_option("#give-table", str(table.number))
        director.fill("#give-minutes", "5")
        director.fill("#give-reason", "a long dispute")
        director.click("#give button[type=submit]")
        director.wait_for_selector("#messages")
        table_page.reload()
        assert "a long dispute" in table_page.inner_text("#allowances")
    finally:
        for context in contexts:
            context.close()
