"""The table as people use it, in Chromium: a referee's whole hanchan in taps, a clock run until a flag,
a player following their seat from one round to the next. On a 390 × 844 phone and on a desktop (the player's
pages in one browser context, its window resized from the one to the other)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in, tap
from tests.e2e.waiting import until_handled
from tournament.models import HandVersion, SeatResult
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TAPS_PER_PLAIN_RON = 5


@pytest.fixture
def referee_page(chromium_browser, live_server):
    staff_groups_install()
    referee = User.objects.create_user("kato", password="table-1-pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    contexts = []

    def open_as(viewport, event):
        role_grant(event=event, user=referee, kind="referee")
        context = chromium_browser.new_context(base_url=live_server.url, viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            "kato",
            "table-1-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page

    yield open_as
    for context in contexts:
        context.close()


def page_weight(page) -> int:
    """Bytes the page and everything it loaded took over the wire."""
    return page.evaluate(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0)"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_referee_records_a_whole_hanchan_in_five_taps_a_ron(referee_page, make_event, seated_round, viewport):
    table = seated_round(make_event(4)).tables.get()
    page = referee_page(viewport, table.round.event)
    page.click("a.table-link")
    page.wait_for_selector("#hand-form")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    save = page.locator("#save-hand")
    assert save.is_visible() and save.bounding_box()["y"] + save.bounding_box()["height"] <= viewport["height"]
    weight = page_weight(page)
    sizes = page.evaluate(
        "[...document.querySelectorAll('#hand-form label')].filter(l => l.offsetParent)"
        ".map(l => Math.min(l.getBoundingClientRect().width, l.getBoundingClientRect().height))"
    )
    small = page.evaluate(
        "[...document.querySelectorAll('#hand-form label')].filter(l => l.offsetParent "
        "&& l.getBoundingClientRect().height < 44).map(l => l.outerHTML)"
    )
    assert min(sizes) >= 44, f"a tap target is {min(sizes)} px: {small}"
    # East 1 … South 4: each hand a non-dealer wins by ron, so the deal moves on
    for hand in range(8):
        dealer = hand % 4
        taps = 0
        for name, value in (
            ("winner_1", (dealer + 1) % 4),
            ("discarder", (dealer + 2) % 4),
            ("han_1", 2),
            ("fu_1", 30),
        ):
            tap(page, name, value)
            taps += 1
        page.click("#save-hand")
        taps += 1
        page.wait_for_selector(f"text=Hand {hand + 1} saved.")
        assert taps <= TAPS_PER_PLAIN_RON
    page.click("text=Confirm the result from these hands")
    page.wait_for_selector("text=The table's result is confirmed.")
    labels = list(
        HandVersion.objects.in_force()
        .filter(hand__table=table)
        .order_by("hand__number")
        .values_list("label", flat=True)
    )
    assert labels[0].startswith("East 1") and labels[-1].startswith("South 4") and len(labels) == 8
    assert SeatResult.objects.current().filter(table=table).count() == 4
    print(f"\n[{viewport['width']} px] taps per plain ron: {TAPS_PER_PLAIN_RON}; table sheet weight: {weight} bytes")


def test_a_clock_runs_until_a_seat_flags_at_a_three_player_table(referee_page, make_event, seated_round):
    event = make_event(3, clock_bank_seconds=2, clock_increment_seconds=0, table_size=3)
    table = seated_round(event, size=3).tables.get()
    page = referee_page(PHONE, event)
    answers = []  # the clock's answers to the page, in order: (verb or "read", the state answered)
    page.on("response", lambda response: answers.append(clock_answer(response)) if CLOCK_API in response.url else None)
    page.goto(f"/console/tables/{table.pk}/clock/")
    assert page.locator(".zone").count() == 3
    page.wait_for_selector("text=not started")
    page.click("#start")
    page.wait_for_selector(".zone.on-turn[data-seat='0']")
    page.click(".zone[data-seat='0']")  # East discards: South is on turn
    page.wait_for_selector(".zone.on-turn[data-seat='1']")
    page.wait_for_selector(".zone.flagged[data-seat='1']", timeout=10000)
    assert "no claim 拾 and no win 和" in page.inner_text(".zone[data-seat='1']")
    # the clock page records the flag (a write: reads never do), once: its write lands a moment after the read
    # that showed the flag, and a read after it says no flag is due any more
    until_handled(page, lambda: flag_then_read(answers), "the flag written, then the clock read again")
    assert event.penalties.filter(kind="art38_clock_flag").count() == 1
    # a reload resyncs from the server
    page.reload()
    page.wait_for_selector(".zone.flagged[data-seat='1']")


CLOCK_API = "/api/tables/"


def clock_answer(response) -> tuple[str, dict]:
    verb = response.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    return ("read" if verb == "clock" else verb), (response.json() if response.ok else {})


def flag_then_read(answers: list[tuple[str, dict]]) -> bool:
    """The flag written, then the clock read with no flag due."""
    verbs = [verb for verb, _state in answers]
    if "flag" not in verbs:
        return False
    return any(verb == "read" and not state.get("flag_due") for verb, state in answers[verbs.index("flag") + 1 :])


def test_a_player_follows_their_seat_across_two_rounds_on_a_phone_and_on_a_desktop(
    chromium_browser, live_server, task_worker, make_event, seated_round
):
    from tournament.services.results import table_finish
    from tournament.services.rounds import round_complete, round_create

    event = make_event(8)
    round_1 = seated_round(event)
    entry = event.entries.order_by("id")[5]  # table 2, South in round 1
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE)
    page = context.new_page()
    page.goto(f"/me/{entry.link_token}/")
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert "round 1, table 2, S" in page.inner_text("#next-seat")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for table in round_1.tables.all():
        table_finish(table=table, final_points=[40000, 30000, 20000, 10000])
    round_complete(round_=round_1)
    ids = list(event.entries.order_by("-id").values_list("id", flat=True))
    round_create(event=event, tables=[ids[:4], ids[4:]])  # entry 6 of 8 is now table 1, West
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"/me/{entry.link_token}/")
        assert "round 2, table 1, W" in page.inner_text("#next-seat")
        page.click("text=Standings")
        page.wait_for_selector("#standings")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    context.close()


def test_the_tiles_entered_at_the_table_give_han_and_fu_to_the_hand(referee_page, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    page = referee_page(PHONE, table.round.event)
    page.goto(f"/console/tables/{table.pk}/")
    tap(page, "winner_1", 1)
    tap(page, "discarder", 2)
    page.click("text=Or enter the winning hand's tiles")
    page.fill("#tiles-input", "234m456m678p345s88s")  # all simples, waiting on the pair: 1 han 40 fu
    assert page.locator("#tiles-preview img").count() == 14
    page.click("#tiles-evaluate")
    page.wait_for_selector("text=1 han 40 fu")
    assert page.is_checked("input[name=han_1][value='1']") and page.is_checked("input[name=fu_1][value='40']")
    page.click("#save-hand")
    page.wait_for_selector("text=Hand 1 saved.")
    win = HandVersion.objects.get(hand__table=table).wins[0]
    assert (win["han"], win["fu"]) == (1, 40) and win["yaku"] == [["tanyao", 1]]
