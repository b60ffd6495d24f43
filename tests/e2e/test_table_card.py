"""A scorekeeper without an account opens a table card on a phone and keeps that table's score only."""

import pytest

from tests.e2e.conftest import tap
from tournament.models import HandVersion
from tournament.services.roles import scorekeeper_keys_issue

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_table_card_opens_its_table_on_a_phone_and_no_other(chromium_browser, live_server, make_event, seated_round):
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


def test_the_pin_page_names_the_event_round_and_table_and_its_button_is_the_consoles(
    chromium_browser, live_server, make_event, seated_round
):
    event = make_event(8, name="春季リーグ 第3節")
    _, table_2 = seated_round(event).tables.order_by("number")
    [card] = scorekeeper_keys_issue(tables=[table_2])
    context = chromium_browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="ja-JP"
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    thrown = []
    page.on("pageerror", lambda error: thrown.append(str(error)))
    page.goto(f"/k/{card.token}/")
    where = page.inner_text("#card-where")
    assert "春季リーグ 第3節" in where and "第1回戦" in where and "2卓" in where, where
    button = page.locator("#pin-form button[type=submit]")
    assert button.inner_text() == "卓を開く"
    style = button.evaluate(
        "(b) => { const s = getComputedStyle(b); return [s.backgroundColor, s.color, s.borderRadius]; }"
    )
    # the console's accent, like its buttons
    assert style == ["rgb(11, 110, 79)", "rgb(255, 255, 255)", "8px"], style
    assert button.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
    assert not thrown
