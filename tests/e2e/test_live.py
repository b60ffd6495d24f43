"""The hall sees results as they happen (issue 26), in Chromium: the venue screen and a player's phone show a
hand recorded at a table within 2 s with no reload, the phone shows "your next table" the moment the
seating is published, and a page whose stream is refused polls instead."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from tests.e2e.waiting import until
from tests.fixtures.tournament import round_seated
from tournament.models import Round
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create, round_publish

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
PUSHED_WITHIN_MS = 2000
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


def live_page(page):
    """Wait until the page's stream is open, and mark the page so that a reload would show."""
    page.wait_for_selector("#live[data-live-state=live]", state="attached")
    page.evaluate("window.notReloaded = true")


def still_the_same_page(page) -> bool:
    return page.evaluate("window.notReloaded === true")


@pytest.mark.parametrize("locale", ["ja-JP"])  # the other live flows below run in English
def test_the_venue_and_a_players_phone_show_a_hand_and_the_next_seating_as_they_happen(
    screen, make_event, task_worker, locale
):
    # a slug of its own: a page of another test may still ask for its stream, and the stream keeps an
    # event's id for its slug a minute (live.streams.EVENT_SEEN_SECONDS)
    event = make_event(4, is_public=True, slug=f"live-open-{locale.lower()}")
    table = round_seated(event).tables.get()
    entry = table.seats.get(position=0).entry
    venue = screen(PROJECTOR, locale)
    venue.goto(reverse("tournament:venue", args=[event.slug]) + "?view=seating")
    phone = screen(PHONE, locale)
    phone.goto(reverse("tournament:player_link", args=[entry.link_token]))
    phone.wait_for_selector("#games")
    for page in (venue, phone):
        live_page(page)
    assert venue.locator("#seating .provisional").count() == 0 and phone.locator("tr.in-progress").count() == 0

    hand_record(table=table, number=1, expected_version=0, data=DRAW)  # a referee, on another device

    venue.wait_for_selector("#seating .provisional", timeout=PUSHED_WITHIN_MS)
    phone.wait_for_selector("tr.in-progress", timeout=PUSHED_WITHIN_MS)
    assert still_the_same_page(venue) and still_the_same_page(phone)

    # the round ends; the next is drafted, then published: the phone shows where to sit at once
    # (one transaction: the pages' refreshes come after it, not between its writes)
    with transaction.atomic():
        table_finish(table=table, end_reason="time")
        round_complete(round_=table.round)
        entries = list(event.entries.order_by("-id").values_list("id", flat=True))
        draft = round_create(event=event, tables=[entries], status=Round.Status.DRAFT)
    # the phone has refreshed after that transaction (the game in progress became a result) ...
    phone.wait_for_selector("tr.in-progress", state="detached", timeout=PUSHED_WITHIN_MS)
    assert "2" not in phone.inner_text("#next-seat")  # a draft is the organizers' only
    round_publish(round_=draft)
    phone.wait_for_selector("#next-seat:has-text('2')", timeout=PUSHED_WITHIN_MS)
    assert still_the_same_page(phone)


def test_a_page_whose_stream_is_refused_polls_instead(screen, make_event, task_worker, monkeypatch):
    """The directors' board with its stream refused (the bus is down: 503) polls, and still shows a hand."""
    from django.contrib.auth.models import User

    from live.bus import BusDown, MemoryBus, RedisBus
    from tests.e2e.conftest import sign_in
    from tournament.services.roles import role_grant

    def down(*args):
        raise BusDown("the test's bus is down")

    for kind in (MemoryBus, RedisBus):  # the streams cannot start; the writes still publish
        monkeypatch.setattr(kind, "last_id", down)
    monkeypatch.setattr("live.views.BOARD_POLL_MS", 500)
    event = make_event(4, is_public=True, slug="live-refused", status="running")
    table = round_seated(event).tables.get()
    role_grant(event=event, user=User.objects.create_user("kato", password="board-pw"), kind="referee")
    page = screen(PHONE, "en-US")
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "kato",
        "board-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    page.goto(reverse("live:board") + f"?event={event.slug}")
    page.wait_for_selector("#live[data-live-state=polling]", state="attached")
    page.evaluate("window.notReloaded = true")
    hand_record(table=table, number=1, expected_version=0, data=DRAW)
    page.wait_for_selector(f"[data-table='{table.number}'] >> text=1 hand", timeout=5000)
    assert still_the_same_page(page)


@pytest.mark.embedded  # the smoke set of bin/serve: the live streams on the bus in memory
def test_a_referees_tables_show_a_clock_started_and_a_result_confirmed_elsewhere(screen, make_event, task_worker):
    """ "My tables" follows the event's stream: a clock started at the table and a result confirmed there
    show on the referee's phone without a reload."""
    from django.contrib.auth.models import User

    from tests.e2e.conftest import sign_in
    from tournament.services.clock import clock_start
    from tournament.services.roles import role_grant

    event = make_event(8, is_public=True, slug="live-tables", clock_bank_seconds=60)
    first, second = round_seated(event).tables.order_by("number")
    role_grant(event=event, user=User.objects.create_user("kato", password="tables-pw"), kind="referee")
    page = screen(PHONE, "en-US")
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "kato",
        "tables-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    live_page(page)
    clock_start(table=first, hand_number=1, dealer_position=0)  # at the table, on its own device
    page.wait_for_selector(f"td.clock[data-table='{first.pk}']:has-text('hand 1')", timeout=PUSHED_WITHIN_MS)
    hand_record(table=second, number=1, expected_version=0, data=DRAW)
    table_finish(table=second, end_reason="time")
    page.wait_for_selector("#my-tables tr:has-text('Finished')", timeout=PUSHED_WITHIN_MS)
    assert still_the_same_page(page)


def test_a_page_whose_stream_ended_reconnects_and_gets_what_it_missed(screen, make_event, task_worker, settings):
    """A stream that ends (the server restarted, a proxy cut it, its time was up) is opened again by the
    browser with the id of the last message it had: what happened meanwhile arrives, in order."""
    settings.LIVE_STREAM_SECONDS = 1.0  # each response ends after a second; the browser reconnects 2 s later
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    event = make_event(4, is_public=True, slug="live-again")
    table = round_seated(event).tables.get()
    page = screen(PHONE, "en-US")
    page.goto(reverse("tournament:round", args=[event.slug, 1]))
    live_page(page)
    page.wait_for_selector("#live[data-live-state=reconnecting]", state="attached", timeout=5000)
    hand_record(table=table, number=1, expected_version=0, data=DRAW)  # while the page has no stream
    page.wait_for_selector("#seating .provisional", timeout=5000)
    page.wait_for_selector("#live[data-live-state=live]", state="attached")
    assert still_the_same_page(page)


@pytest.mark.services("postgres", "redis")
def test_pages_reconnect_by_themselves_after_the_server_restarts(chromium_browser, make_event, settings):
    """The site's server stops and starts again (a deploy, a crash): the page finds it again by itself and
    gets the hand recorded while it was down, with no reload. A server of the test's own (``bin/serve``'s
    runserver) on the test database, the bus on the run's Redis."""
    import os
    import socket
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    from tests.fixtures.services import _database_url_for_worker

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(
        os.environ,
        DATABASE_URL=_database_url_for_worker(),
        LIVE_BUS_URL=settings.LIVE_BUS_URL,
        DEBUG="1",
        LIVE_HEARTBEAT_SECONDS="1",
    )
    root = Path(__file__).resolve().parents[2]

    def start() -> subprocess.Popen:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            until(answers, "the test's server answering", timeout_s=30, every_s=0.2)
        except AssertionError:
            server.kill()
            raise
        return server

    def answers() -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
        except OSError:
            return False
        return True

    event = make_event(4, is_public=True, slug="live-restart")
    table = round_seated(event).tables.get()
    server = start()
    context = chromium_browser.new_context(base_url=f"http://127.0.0.1:{port}", viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.goto(reverse("tournament:round", args=[event.slug, 1]))
        live_page(page)
        server.terminate()
        server.wait(timeout=10)
        page.wait_for_selector("#live[data-live-state=reconnecting]", state="attached", timeout=10000)
        hand_record(table=table, number=1, expected_version=0, data=DRAW)  # while the site is down
        server = start()
        page.wait_for_selector("#seating .provisional", timeout=15000)
        page.wait_for_selector("#live[data-live-state=live]", state="attached")
        assert still_the_same_page(page)
    finally:
        context.close()
        server.kill()
        server.wait(timeout=10)
