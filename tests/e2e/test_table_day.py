"""The table on the day, in Chromium on a 390 px phone in Japanese: the clock page of an event without a
time bank (art. 38), confirming a game that is not over, seating a substitute. A referee's phone goes through
the three, at the three tables of one event; an organizer's opens the clock page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from players.models import Player
from tests.e2e.conftest import sign_in
from tournament.models import Ruling, Table
from tournament.services.hands import hand_record
from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def japanese_phone(chromium_browser, live_server):
    """A phone in Japanese signed in as a new account given ``kind`` in the event; JavaScript errors kept."""
    staff_groups_install()
    contexts = []

    def open_as(event, kind: str):
        group = ORGANIZERS_GROUP if kind == "organizer" else REFEREES_GROUP
        user = User.objects.create_user(f"{kind}-1", password="table-day-pw")
        user.groups.add(Group.objects.get(name=group))
        role_grant(event=event, user=user, kind=kind)
        context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            user.username,
            "table-day-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page

    yield open_as
    for context in contexts:
        context.close()


def test_the_clock_page_of_an_event_without_a_time_bank_says_so_to_an_organizer(
    japanese_phone, make_event, seated_round
):
    event = make_event(4)
    table = seated_round(event).tables.get()
    the_clock_page_of_an_event_without_a_time_bank_says_so(japanese_phone(event, "organizer"), table, "organizer")


def test_a_referees_day_at_three_tables_the_clock_without_a_time_bank_a_game_stopped_at_south_2_and_a_substitute(
    japanese_phone, make_event, seated_round
):
    """One referee's phone at the three tables of one event: each table a case of its own."""
    event = make_event(12)
    clock_table, stopped_table, substitute_table = seated_round(event).tables.order_by("number")
    page = japanese_phone(event, "referee")
    the_clock_page_of_an_event_without_a_time_bank_says_so(page, clock_table, "referee")
    confirming_a_game_stopped_at_south_2_asks_why_first(page, stopped_table)
    a_referee_seats_a_substitute_found_by_romaji_from_the_table_sheet(page, substitute_table)


def the_clock_page_of_an_event_without_a_time_bank_says_so(page, table, kind: str) -> None:
    # given an event with no time bank per hand (art. 38 ①: set only when the event needs one)
    event = table.round.event
    assert event.clock_bank_seconds is None
    # when the referee (or the organizer) opens the table's clock
    page.goto(f"/console/tables/{table.pk}/clock/")
    # then the page says the event has no chess clock, with no raw error and no dead dials
    body = page.inner_text("body")
    assert "この大会は持ち時間（第38条）を設定していないため、対局時計は使いません。" in body
    assert "持ち時間は正の値にしてください" not in body
    assert page.locator(".zone").count() == 0
    assert "–:––.–" not in body
    # the way back to the table sheet is there
    page.click(f"a[href='/console/tables/{table.pk}/']")
    page.wait_for_url(f"**/console/tables/{table.pk}/")
    page.go_back()
    # the organizer is shown where to turn it on; a referee is told whom to ask
    settings_link = page.locator(f"a[href='/admin/tournament/event/{event.pk}/change/#id_clock_bank_seconds']")
    if kind == "organizer":
        assert settings_link.count() == 1
        settings_link.click()
        page.wait_for_selector("#id_clock_bank_seconds")
    else:
        assert settings_link.count() == 0
        assert "主催者" in body
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []


def confirming_a_game_stopped_at_south_2_asks_why_first(page, table) -> None:
    # given a table whose six hands each passed the deal: the game stopped at 南2局 (a hanchan ends after 南4局)
    for number in range(1, 7):
        dealer = (number - 1) % 4
        hand_record(
            table=table,
            number=number,
            expected_version=0,
            data={
                "outcome": "ron",
                "dealer_position": dealer,
                "wins": [{"winner": (dealer + 1) % 4, "discarder": (dealer + 2) % 4, "han": 2, "fu": 40}],
            },
        )
    page.goto(f"/console/tables/{table.pk}/")
    # then the confirmation names where the game stopped and where it ends, before anything is confirmed
    question = page.locator("#game-stop")
    assert "対局は南2局で止まっています。この対局は南4局で終了します。" in question.inner_text()
    # when the referee confirms without saying why, nothing is confirmed and the sheet says why not
    page.click("#finish-form button[type=submit]")
    page.wait_for_selector(".messages li.error")
    assert "ここで終了する理由" in page.inner_text(".messages")
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    # when they tap "the round's time ran out" and confirm
    page.click("label[for='end-reason-time']")
    page.click("#finish-form button[type=submit]")
    page.wait_for_selector("text=卓の結果を確定しました")
    # then the result is confirmed and the reason kept as a ruling on the table
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert "南2局" in Ruling.objects.get(table=table).decision
    assert "対局時間切れ" in Ruling.objects.get(table=table).decision
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []


def a_referee_seats_a_substitute_found_by_romaji_from_the_table_sheet(page, table) -> None:
    # given a table before its first hand, and three stored 鈴木 一郎 of different clubs
    for club in ("大阪麻雀会", "神戸麻雀", "名古屋クラブ"):
        Player.objects.create(display_name="鈴木 一郎", reading="すずき いちろう", club=club)
    page.goto(f"/console/tables/{table.pk}/")
    # when the referee taps "seat a substitute" on West's row and searches in romaji
    west = table.seats.get(position=2)
    page.click(f"#players a.substitute[href$='?seat={west.pk}']")
    page.wait_for_selector("#substitute-search")
    page.fill("#substitute-q", "suzuki")
    page.click("#substitute-search button[type=submit]")
    # then the three namesakes are offered, told apart by their clubs
    offered = page.locator("#substitute-candidates .picks label").all_inner_texts()
    assert sorted(offered) == sorted(
        f"鈴木 一郎 (すずき いちろう · {club})" for club in ("大阪麻雀会", "神戸麻雀", "名古屋クラブ")
    )
    # when they choose the one from Kobe and seat him
    page.click("#substitute-candidates .picks label:has-text('神戸麻雀')")
    page.fill("#id_reason", "電車の遅延")
    page.click("#substitute-form button[type=submit]")
    page.wait_for_url(f"**/console/tables/{table.pk}/")
    # then the sheet shows him at West, marked as a substitute, and the absent player is away
    row = page.locator("#players tr", has_text="鈴木 一郎")
    assert "鈴木 一郎 (代走)" in row.inner_text()
    substitute = table.seats.get(position=2).entry
    assert substitute.player.club == "神戸麻雀" and substitute.substitute_for_id == west.entry_id
    assert Ruling.objects.filter(table=table, entry_id=west.entry_id).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []
