"""The table when the hall's network drops, in Chromium on a phone, in English and Japanese: the console's
pages load from the device, what the referee records is kept there and shown, and when the network is back
every record lands once, in order, with the points it would have had online. Two devices that record the
same hand: the conflict is shown and nothing is lost."""

from __future__ import annotations

import contextlib

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import sign_in, tap
from tests.e2e.waiting import kept_on_device, until_handled
from tournament.models import HandVersion, Penalty, TableClock
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
# (winner, discarder, han, fu) as seat numbers from the game's East: ron by a non-dealer, by the dealer, tsumo
HANDS = [("ron", 1, 2, 2, 30), ("ron", 1, 3, 3, 40), ("tsumo", 2, None, 1, 30)]


@pytest.fixture
def referee(chromium_browser, live_server):
    """Opens a signed-in referee's phone (a browser context of its own) in a language."""
    staff_groups_install()
    user = User.objects.create_user("mori", password="hall-wifi-pw")
    user.groups.add(Group.objects.get(name=REFEREES_GROUP))
    contexts = []

    def open_phone(event, locale="en-US"):
        role_grant(event=event, user=user, kind="referee")
        context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            "mori",
            "hall-wifi-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page

    yield open_phone
    for context in contexts:
        context.close()


CACHED_BYTES = """async () => {
  let files = 0, pages = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const size = (await (await cache.match(request)).blob()).size;
      if (name === "taikai-console-pages") pages += size; else files += size;
    }
  }
  return [files, pages];
}"""


def waiting_are(page, count: int) -> None:
    """Wait until the banner counts ``count`` writes waiting on the device."""
    page.wait_for_function("(n) => Number(document.getElementById('outbox').dataset.waiting) === n", arg=count)


def record(page, outcome, winner, discarder, han, fu) -> None:
    tap(page, "outcome", outcome)
    tap(page, "winner_1", winner)
    if discarder is not None:
        tap(page, "discarder", discarder)
    tap(page, "han_1", han)
    tap(page, "fu_1", fu)
    page.click("#save-hand")


def give_the_first_penalty(page) -> None:
    """On the penalty page: the first seat, the first foul (confirmed if it disqualifies), sent."""
    tap(page, "seat", page.locator("#penalty-form input[name='seat']").first.get_attribute("value"))
    tap(page, "kind", page.locator("#penalty-form input[name='kind']").first.get_attribute("value"))
    if page.locator("#dq-confirm").is_visible():
        page.check("#dq-confirm input")
    page.fill("#penalty-form [name='reason']", "offline")
    page.click("#penalty-form button[type=submit]")


def current_deltas(table) -> list[list[int]]:
    return [list(v.deltas) for v in HandVersion.objects.in_force().filter(hand__table=table).order_by("hand__number")]


@pytest.mark.once  # the browser and the device's queue: the same on either database
@pytest.mark.parametrize("language", ["ja"])  # the other flow below runs in English
def test_a_referee_records_hands_a_penalty_and_a_clock_offline_and_all_land_once_in_order(
    referee, make_event, seated_round, language
):
    event = make_event(8, clock_bank_seconds=60, clock_increment_seconds=5)
    offline_table, online_table = seated_round(event).tables.order_by("number")
    page = referee(event, LOCALES[language])
    sheet = f"/console/tables/{offline_table.pk}/"
    for path in (sheet, sheet + "clock/", sheet + "penalty/"):
        kept_on_device(page, path)  # fetched for the referee from My tables
    page.goto(sheet)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']")
    files, pages = page.evaluate(CACHED_BYTES)
    print(f"\n[{language}] kept on the device: files {files} bytes, 3 pages of one table {pages} bytes")

    page.context.set_offline(True)
    page.reload()  # from the device
    page.wait_for_selector("#hand-form")
    page.wait_for_selector("#outbox[data-state='offline']")
    for number, hand in enumerate(HANDS, start=1):
        assert page.input_value("#hand-form input[name='hand']") == str(number)
        record(page, *hand)
        waiting_are(page, number)
        page.wait_for_selector(f"#outbox-queued li:nth-child({number})")
    assert page.get_attribute("#outbox", "data-state") == "waiting"
    assert page.input_value("#hand-form input[name='hand']") == "4"
    # hand 1 a non-dealer ron (South deals next), hand 2 won by the dealer (South again, 1 honba), hand 3 a
    # non-dealer tsumo: West deals hand 4 with no honba, as the server would say
    assert page.locator("#hand-form input[name='dealer_position'][value='2']").is_checked()
    assert page.input_value("#hand-form input[name='honba']") == "0"

    page.goto(sheet + "penalty/")  # from the device
    give_the_first_penalty(page)
    page.wait_for_selector("#hand-form")
    waiting_are(page, 4)

    page.click("#clock-link")  # from the device: this device runs the clock, for hand 4
    page.click("#start")
    page.wait_for_selector(".zone.on-turn[data-seat='2']")  # hand 4's dealer is West
    for seat in (2, 3, 0):
        page.click(f".zone[data-seat='{seat}']")
        page.wait_for_selector(f".zone.on-turn[data-seat='{(seat + 1) % 4}']")
    waiting_are(page, 5)
    assert not HandVersion.objects.filter(hand__table=offline_table).exists()

    page.context.set_offline(False)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    page.goto(sheet)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']")
    assert current_deltas(offline_table) and len(current_deltas(offline_table)) == 3
    assert [v.hand.number for v in HandVersion.objects.filter(hand__table=offline_table).order_by("pk")] == [
        1,
        2,
        3,
    ]
    assert Penalty.objects.filter(table=offline_table, reason="offline").count() == 1
    clock = TableClock.objects.get(table=offline_table)
    assert clock.hand_number == 4 and clock.state["turn_number"] == 4 and clock.state["seat_on_turn"] == 1

    # the same hands recorded online at the other table give the same points
    page.goto(f"/console/tables/{online_table.pk}/")
    for number, hand in enumerate(HANDS, start=1):
        record(page, *hand)
        page.wait_for_function(
            # null-safe: polled while the next sheet is still arriving, the form may not be there yet
            "(n) => (document.querySelector('#hand-form input[name=hand]') || {}).value === n",
            arg=str(number + 1),
        )
    assert current_deltas(offline_table) == current_deltas(online_table)


@pytest.mark.parametrize("language", ["en"])  # the flow above runs in Japanese
def test_two_devices_record_hand_3_and_the_offline_one_sees_both_and_keeps_nothing_lost(
    referee, make_event, seated_round, language
):
    table = seated_round(make_event(4)).tables.get()
    sheet = f"/console/tables/{table.pk}/"
    offline, online = (
        referee(table.round.event, LOCALES[language]),
        referee(table.round.event, LOCALES[language]),
    )
    kept_on_device(offline, sheet)
    offline.goto(sheet)
    for hand in HANDS[:2]:
        record(offline, *hand)
        offline.wait_for_selector("#messages .success")
    online.goto(sheet)

    offline.context.set_offline(True)
    offline.reload()
    record(offline, "ron", 3, 0, 1, 30)  # hand 3 as this device saw it
    offline.wait_for_selector("#outbox[data-state='waiting']")
    record(online, "ron", 2, 3, 4, 30)  # hand 3 as the other device saw it, recorded first
    online.wait_for_selector("#messages .success")

    offline.context.set_offline(False)
    offline.wait_for_selector("#outbox[data-state='refused'] table.outbox-compare")
    compare = offline.inner_text("#outbox table.outbox-compare")
    assert ("(version 1)" if language == "en" else "版 1") in compare
    versions = HandVersion.objects.filter(hand__table=table, hand__number=3)
    assert versions.count() == 1  # theirs, and mine still on the device
    offline.click("#outbox button.primary")  # keep mine: a new version
    offline.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    kept = list(versions.order_by("version").values_list("version", "is_current", "wins"))
    assert [(v, c) for v, c, _ in kept] == [(1, False), (2, True)]
    assert kept[0][2][0]["han"] == 4 and kept[1][2][0]["han"] == 1  # both kept: theirs as version 1


@pytest.mark.once  # the browser and the device's queue: the same on either database
def test_offline_a_referee_corrects_a_hand_recorded_before_and_records_a_draw(referee, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    sheet = f"/console/tables/{table.pk}/"
    page = referee(table.round.event)
    page.goto(sheet)
    record(page, *HANDS[0])
    page.wait_for_selector("#messages .success")
    kept_on_device(page, sheet + "?hand=1")  # the correction of hand 1, fetched for the referee

    page.context.set_offline(True)
    page.click("a.correct")  # from the device
    page.wait_for_selector("#hand-form[data-correcting='1']")
    tap(page, "han_1", 4)
    tap(page, "fu_1", 30)
    page.click("#save-hand")
    waiting_are(page, 1)
    assert page.input_value("#hand-form input[name='hand']") == "2"  # a correction does not move the hand on
    page.click("a.correct")  # the same kept page again: made on the correction queued before it
    page.wait_for_selector("#hand-form[data-correcting='1']")
    assert page.input_value("#hand-form input[name='expected_version']") == "2"
    tap(page, "han_1", 3)
    tap(page, "fu_1", 30)
    page.click("#save-hand")
    waiting_are(page, 2)
    tap(page, "outcome", "exhaustive_draw")
    tap(page, "tenpai_positions", 1)
    page.click("#save-hand")
    waiting_are(page, 3)

    page.context.set_offline(False)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    first = list(HandVersion.objects.filter(hand__table=table, hand__number=1).order_by("version"))
    assert [(v.version, v.is_current, v.wins[0]["han"]) for v in first] == [
        (1, False, 2),
        (2, False, 4),
        (3, True, 3),
    ]
    draw = HandVersion.objects.current().get(hand__table=table, hand__number=2)
    assert draw.outcome == "exhaustive_draw" and draw.tenpai_positions == [1]


@pytest.mark.once  # the browser and the device's queue: the same on either database
def test_the_queue_outlives_a_browser_restart(chromium_browser, live_server, make_event, seated_round, tmp_path):
    from tests.e2e.conftest import CHROMIUM_ARGS, CHROMIUM_FULL, require_browser

    require_browser(CHROMIUM_FULL)

    staff_groups_install()
    table = seated_round(make_event(4)).tables.get()
    user = User.objects.create_user("ueda", password="restart-pw")
    user.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=table.round.event, user=user, kind="referee")
    sheet = f"/console/tables/{table.pk}/"

    def phone():  # a browser of its own, its profile on disk: what a phone keeps across a restart
        # the full browser, not the other tests' headless shell: its profile and service worker as installed
        context = chromium_browser.browser_type.launch_persistent_context(
            str(tmp_path),
            executable_path=CHROMIUM_FULL,
            args=CHROMIUM_ARGS,
            base_url=live_server.url,
            viewport=PHONE,
        )
        chromium_browser.exceptions.watch_context(context)  # its pages' script errors fail the test too
        context.set_default_timeout(15000)
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = phone()  # the browser as the referee left it
    try:
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            "ueda",
            "restart-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        kept_on_device(page, sheet)
        page.goto(sheet)
        context.set_offline(True)
        record(page, *HANDS[0])
        waiting_are(page, 1)
    finally:
        context.close()
    assert not HandVersion.objects.exists()
    context, page = phone()  # started again, the network back
    try:
        page.goto(sheet)
        page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    finally:
        context.close()
    assert HandVersion.objects.get().hand.number == 1


def phone_signed_in(chromium_browser, live_server, name: str):
    """A phone of its own (a browser context) signed in as ``name``, failing the test on any script error."""
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        name,
        "hall-wifi-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    return context, page, errors


def referees_of(event, *names):
    staff_groups_install()
    for name in names:
        user = User.objects.create_user(name, password="hall-wifi-pw")
        user.groups.add(Group.objects.get(name=REFEREES_GROUP))
        role_grant(event=event, user=user, kind="referee")


def session_ends(context) -> None:
    """The session ends (timed out, or signed out elsewhere): its cookie goes, the CSRF cookie stays, as in a
    browser. Clearing every cookie instead let the page's requests and the service worker's race to set a new
    CSRF cookie while the sign-in form held the old one's token: the sign-in then failed its CSRF check."""
    context.clear_cookies(name=settings.SESSION_COOKIE_NAME)


def sign_in_again(page, name: str) -> None:
    """The phone's session ends (handed over, or timed out) and ``name`` signs in on it."""
    page.goto("about:blank")  # the console's page left first: nothing of it is sending meanwhile
    session_ends(page.context)
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        name,
        "hall-wifi-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )


def sent_from_device(page, path: str) -> None:
    """Wait until no write to ``path`` waits on the device any more."""
    page.wait_for_function(
        "(path) => window.taikaiOutbox.all().then((items) => !items.some((i) => i.url === path))", arg=path
    )


def test_two_referees_share_a_phone_and_each_hand_is_stored_under_the_one_who_made_it(
    chromium_browser, live_server, make_event, seated_round
):
    event = make_event(8)
    first, second = seated_round(event).tables.order_by("number")
    referees_of(event, "mori", "ueda")
    context, page, errors = phone_signed_in(chromium_browser, live_server, "mori")
    try:
        sheet = f"/console/tables/{first.pk}/"
        kept_on_device(page, sheet)
        page.goto(sheet)
        context.set_offline(True)
        record(page, *HANDS[0])  # mori's hand 1, kept on the phone
        waiting_are(page, 1)
        session_ends(context)  # mori's session ends before the phone could send it
        context.set_offline(False)
        page.wait_for_selector("#outbox[data-state='held']")
        assert "mori" in page.inner_text("#outbox .outbox-stuck")  # whose write waits, and why
        sign_in_again(page, "ueda")  # and ueda signs in on the phone
        page.wait_for_selector("#outbox[data-state='held']")
        assert "mori" in page.inner_text("#outbox .outbox-stuck")
        page.goto(f"/console/tables/{second.pk}/")
        record(page, *HANDS[1])  # ueda's own hand at the other table is not held back by mori's
        page.wait_for_function("() => (document.querySelector('#hand-form input[name=hand]') || {}).value === '2'")
        sent_from_device(page, f"/console/tables/{second.pk}/")
        page.wait_for_selector("#outbox[data-state='held']")
        assert not HandVersion.objects.filter(hand__table=first).exists()  # never recorded as ueda's

        sign_in_again(page, "mori")  # My tables sends mori's hand, as mori's
        page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
        makers = {v.hand.table_id: v.recorded_by.username for v in HandVersion.objects.all()}
        assert makers == {first.pk: "mori", second.pk: "ueda"}
        assert errors == []
    finally:
        context.close()


def test_an_offline_call_and_three_hands_all_land_once_after_the_session_is_renewed_and_the_penalty_takes_hand_4(
    chromium_browser, live_server, make_event, seated_round
):
    from live.models import RefereeCall

    table = seated_round(make_event(4)).tables.get()
    referees_of(table.round.event, "mori")
    context, page, errors = phone_signed_in(chromium_browser, live_server, "mori")
    try:
        sheet = f"/console/tables/{table.pk}/"
        for path in (sheet, sheet + "penalty/"):
            kept_on_device(page, path)
        page.goto(sheet)
        context.set_offline(True)
        page.reload()  # from the device
        page.click("#call-referee summary")
        page.click("#call-referee button[type=submit]")  # the call, first in the queue
        waiting_are(page, 1)
        for number, hand in enumerate(HANDS, start=2):
            record(page, *hand)
            waiting_are(page, number)
        page.goto(sheet + "penalty/")  # kept on the device before the three hands
        waiting_are(page, 4)  # the page has read the device's queue (it does so after loading)
        assert page.input_value("#penalty-form input[name='hand_number']") == "4"
        give_the_first_penalty(page)
        waiting_are(page, 5)

        lost = []

        def recorded_then_lost(route):  # the server records the call, then the network drops its answer
            lost.append(route.fetch().status)
            session_ends(context)  # and the session ends
            # the page may have given up waiting first (a slow machine): the answer is lost all the same
            with contextlib.suppress(PlaywrightError):
                route.abort()

        page.route("**/call", recorded_then_lost)
        context.set_offline(False)
        until_handled(page, lambda: lost, "the call recorded, its answer lost")
        assert lost == [200]
        page.unroute("**/call")
        page.evaluate("window.taikaiOutbox.flush()")
        page.wait_for_selector("#outbox[data-state='held']")  # the hands wait for mori; the call is done
        assert page.get_attribute("#outbox", "data-waiting") == "4"
        assert not HandVersion.objects.filter(hand__table=table).exists()

        sign_in_again(page, "mori")  # the session renewed: My tables sends the rest
        page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
        assert RefereeCall.objects.filter(table=table).count() == 1
        assert [v.hand.number for v in HandVersion.objects.filter(hand__table=table).order_by("pk")] == [
            1,
            2,
            3,
        ]
        assert Penalty.objects.get(table=table).hand_number == 4
        assert errors == []
    finally:
        context.close()
