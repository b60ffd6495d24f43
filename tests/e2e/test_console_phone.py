"""The console in a referee's hand: a 390 px phone, in Japanese. My tables reads on one line a table and
says each table's clock; the sheet's sticky banner never covers the seat buttons."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import sign_in, tap
from tests.e2e.day import PASSWORD, USERNAME, day_built
from tournament.services.clock import clock_start
from tournament.services.roles import role_grant
from tournament.services.rounds import round_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ONE_LINE = (
    "(el) => { const r = document.createRange(); r.selectNodeContents(el); "
    "return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size; }"
)


@pytest.fixture
def referee_phone(chromium_browser, live_server):
    contexts = []

    def open_phone():
        context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        thrown = []
        page.on("pageerror", lambda error: thrown.append(f"{page.url}: {error}"))
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page, thrown

    yield open_phone
    for context in contexts:
        context.close()


def test_my_tables_shows_a_table_on_one_line_and_every_tables_clock_on_a_phone(referee_phone, make_event):
    day = day_built(make_event)
    clock_start(table=day.playing, hand_number=2, dealer_position=1)
    # an event without a chess clock, of a long name
    no_clock = make_event(4, name="春季リーグ 第3節 フレンドリーマッチ", slug="friendly")
    role_grant(event=no_clock, user=User.objects.get(username=USERNAME), kind="referee")
    ids = list(no_clock.entries.values_list("id", flat=True))
    casual = round_create(event=no_clock, tables=[ids]).tables.get()

    page, thrown = referee_phone()
    page.wait_for_selector(f"td.clock[data-table='{day.playing.pk}']:has-text('第2局')")
    for link in page.locator("#my-tables a.table-link").all():
        assert link.evaluate(ONE_LINE) == 1, link.inner_text()  # "2卓", not "2" over "卓"

    def cell(table):
        return page.locator(f"td.clock[data-table='{table.pk}']")

    running = cell(day.playing).inner_text()
    assert "秒" in running, running  # the seat on turn and its time
    assert cell(day.finished).inner_text().strip() == "—"  # finished without a clock
    assert cell(casual).inner_text().strip() == "—"  # its event has no clock
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not thrown, thrown


UNCOVERED = """(label) => {
  const box = label.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(hit && (hit === label || label.contains(hit)));
}"""


def test_the_sticky_banner_never_covers_the_seat_buttons_when_the_sheet_is_scrolled(referee_phone, make_event):
    day = day_built(make_event)
    page, thrown = referee_phone()
    page.goto(f"/console/tables/{day.playing.pk}/")
    page.context.set_offline(True)  # the banner at its tallest of every day: offline, in words
    page.wait_for_selector("#outbox[data-state='offline']")
    tap(page, "outcome", "ron")  # a win: the winner's and the discarder's seat buttons
    seat_buttons = page.locator("#hand-form .seatpicks label:visible")
    assert seat_buttons.count() >= 8
    for label in seat_buttons.all():
        # scrolled to from below (the sheet scrolled up to it) and from above (scrolled down to it)
        label.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        assert label.evaluate(UNCOVERED), f"under the banner: {label.inner_text()}"
        label.evaluate("(el) => el.scrollIntoView({block: 'end'})")
        assert label.evaluate(UNCOVERED), f"under the save bar: {label.inner_text()}"
    # the seat buttons reached with the keyboard land clear of the banner too
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.focus("#hand-form .seatpicks input")
    assert page.locator("#hand-form .seatpicks label").first.evaluate(UNCOVERED)
    page.context.set_offline(False)
    assert not thrown, thrown
