"""A scorekeeper without an account opens a table card on a phone and keeps that table's score only."""

import pytest

from tests.e2e.conftest import tap
from tournament.models import HandVersion
from tournament.services.roles import scorekeeper_keys_issue

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_table_card_opens_its_table_on_a_phone_and_no_other(chromium_browser, live_server, make_event,
                                                              seated_round):  # fmt: skip
    table_1, table_2 = seated_round(make_event(8)).tables.order_by("number")
    [card] = scorekeeper_keys_issue(tables=[table_2])
    context = chromium_browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    # the QR code's link asks for the PIN printed on the card
    page.goto(f"/k/{card.token}/")
    page.fill("#id_pin", card.pin)
    page.click("text=Open the table")
    page.wait_for_selector("#hand-sheet")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a ron: South wins 3 han 30 fu off West
    tap(page, "winner_1", 1)
    tap(page, "discarder", 2)
    tap(page, "han_1", 3)
    tap(page, "fu_1", 30)
    page.click("text=Save hand 1")
    page.wait_for_selector("text=Hand 1 saved.")
    assert "3900" in page.inner_text("#hand-sheet") and "table card" in page.inner_text("#hand-sheet")
    assert HandVersion.objects.get(hand__table=table_2).recorded_by_card_id is not None
    # the referee's buttons are not there, and another table is refused
    assert page.locator("text=left during the game…").count() == 0
    response = page.goto(f"/console/tables/{table_1.pk}/")
    assert response.status == 403
    context.close()
