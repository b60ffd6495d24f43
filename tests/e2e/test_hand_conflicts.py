"""Two devices record the same hand, on a 390 px phone in Japanese: the referee never loses what they typed.

Online, the second save is refused (the other device recorded that hand first): the entry is kept and shown
beside the other device's, to keep theirs or to record it as a correction without typing it again (the same two
phones try both, on hands 2 and 3). Offline,
the conflict panel shows both hands in full, in words that agree with its buttons. A hand kept on the device
is listed like a recorded one, and the seat scores at the top count it (marked provisional).

The points expected here are the standard table's (4 players, 30 fu: 1 han 1000, 2 han 2000 (dealer 2900),
3 han 3900; 300 a honba on a ron, 100 from each player on a tsumo; a riichi stick 1000)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in, tap
from tests.e2e.waiting import kept_on_device
from tournament import selectors
from tournament.models import HandVersion
from tournament.services.hands import hand_record
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HAND_1 = {
    "outcome": "ron",
    "dealer_position": 0,
    "honba": 0,
    "wins": [{"winner": 0, "discarder": 2, "han": 2, "fu": 30}],
}


@pytest.fixture
def phones(chromium_browser, live_server):
    """Opens signed-in referees' phones in Japanese (a browser context each), every script error kept."""
    staff_groups_install()
    opened = []

    def open_phone(event, name):
        user = User.objects.filter(username=name).first() or User.objects.create_user(name, password="hall-wifi-pw")
        user.groups.add(Group.objects.get(name=REFEREES_GROUP))
        role_grant(event=event, user=user, kind="referee")
        context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ja-JP")
        page = context.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        opened.append((context, errors))
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            name,
            "hall-wifi-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page

    yield open_phone
    for context, _errors in opened:
        context.close()
    assert [e for _c, errors in opened for e in errors] == []  # no script error on any phone


def record(page, outcome, winner, discarder, han, fu, riichi=()) -> None:
    tap(page, "outcome", outcome)
    tap(page, "winner_1", winner)
    if discarder is not None:
        tap(page, "discarder", discarder)
    tap(page, "han_1", han)
    if fu is not None:
        tap(page, "fu_1", fu)
    for seat in riichi:
        tap(page, "riichi_positions", seat)
    page.click("#save-hand")


def names(table) -> list[str]:
    return [str(seat.entry.player) for seat in selectors.table_game_seats(table)]


def versions_of(table, number: int):
    return list(
        HandVersion.objects.filter(hand__table=table, hand__number=number)
        .order_by("version")
        .values_list("version", "is_current", "wins", "riichi_positions")
    )


def test_online_a_refused_second_save_keeps_the_entry_beside_theirs_to_record_as_a_correction_or_drop(
    phones, make_event, seated_round
):
    # given hand 1 won by the dealer (East 1 repeats: hand 2 is East 1, 1 honba), two phones on hand 2
    table = seated_round(make_event(4)).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=HAND_1)
    who = names(table)
    sheet = f"/console/tables/{table.pk}/"
    first, second = phones(table.round.event, "mori"), phones(table.round.event, "ueda")
    first.goto(sheet)
    second.goto(sheet)

    # when the first phone saves hand 2 (South wins 3 han 30 fu from North), then the second its own
    record(first, "ron", 1, 3, 3, 30)
    first.wait_for_selector("#messages .success")
    record(second, "ron", 2, 0, 1, 30, riichi=(2,))  # West, in riichi, wins 1 han 30 fu from East

    # then the second phone's entry is kept, beside theirs, each in full
    second.wait_for_selector("#conflict")
    mine, theirs = second.inner_text("#conflict .mine"), second.inner_text("#conflict .theirs")
    for side in (mine, theirs):
        assert "東1局 1本場" in side and "栄和" in side
    assert who[2] in mine and "1翻30符" in mine and "立直" in mine
    assert f"{who[2]} +1300" in mine and f"{who[0]} -1300" in mine  # 1000 + 300 a honba, the stick back
    assert who[1] in theirs and "3翻30符" in theirs and "ueda" not in theirs and "mori" in theirs
    assert f"{who[1]} +4200" in theirs and f"{who[3]} -4200" in theirs  # 3900 + 300
    words = second.inner_text("#conflict .conflict-why")
    assert "再読み込み" not in words  # no "reload and change again" beside keep / record
    assert second.inner_text("#conflict-keep-theirs") in words
    assert second.inner_text("#conflict-record-mine") in words
    assert not second.locator("#hand-form").count()  # nothing to type again
    assert len(versions_of(table, 2)) == 1

    # when the referee records theirs as a correction, without typing it again
    second.click("#conflict-record-mine")
    second.wait_for_selector("#messages .success")

    # then both are kept: theirs as version 1, the second phone's as version 2, under its maker
    kept = versions_of(table, 2)
    assert [(v, c) for v, c, _w, _r in kept] == [(1, False), (2, True)]
    assert kept[0][2][0]["han"] == 3 and kept[1][2][0]["han"] == 1 and kept[1][3] == [2]
    assert HandVersion.objects.get(hand__table=table, hand__number=2, version=2).recorded_by.username == "ueda"

    # when, on hand 3, the second phone's save is refused again and the referee keeps theirs
    assert second.input_value("#hand-form input[name='hand']") == "3"
    first.reload()
    record(first, "ron", 1, 3, 3, 30)
    first.wait_for_selector("#messages .success")
    record(second, "ron", 2, 0, 1, 30)
    second.wait_for_selector("#conflict")
    second.click("#conflict-keep-theirs")

    # then nothing more is recorded, and the second phone is on to the next hand
    second.wait_for_selector("#hand-form")
    assert second.input_value("#hand-form input[name='hand']") == "4"
    assert [(v, c) for v, c, _w, _r in versions_of(table, 3)] == [(1, True)]


def test_offline_a_conflict_shows_both_hands_in_full_and_queued_hands_move_the_seat_scores_provisionally(
    phones, make_event, seated_round
):
    # one referee's phone (and another's) at two tables: a conflict on table 1, hands queued at table 2
    table, other_table = seated_round(make_event(8)).tables.order_by("number")
    hand_record(table=table, number=1, expected_version=0, data=HAND_1)
    who = names(table)
    sheet = f"/console/tables/{table.pk}/"
    offline, online = phones(table.round.event, "mori"), phones(table.round.event, "ueda")
    for path in (sheet, f"/console/tables/{other_table.pk}/"):
        kept_on_device(offline, path)
    offline.goto(sheet)
    online.goto(sheet)

    offline.context.set_offline(True)
    offline.reload()
    record(offline, "ron", 2, 0, 1, 30, riichi=(2,))  # hand 2 as this device saw it
    offline.wait_for_selector("#outbox[data-state='waiting']")
    record(online, "ron", 1, 3, 3, 30)  # hand 2 as the other device saw it, recorded first
    online.wait_for_selector("#messages .success")

    offline.context.set_offline(False)
    offline.wait_for_selector("#outbox[data-state='refused'] table.outbox-compare")
    mine = " ".join(offline.locator("#outbox .outbox-compare .mine").all_inner_texts())
    theirs = " ".join(offline.locator("#outbox .outbox-compare .theirs").all_inner_texts())
    for side in (mine, theirs):
        assert "東1局 1本場" in side and "栄和" in side
    assert who[2] in mine and "1翻30符" in mine and "立直" in mine
    assert f"{who[2]} +1300" in mine and f"{who[0]} -1300" in mine
    assert "3翻30符" in theirs and f"{who[1]} +4200" in theirs and f"{who[3]} -4200" in theirs
    banner = offline.inner_text("#outbox")
    assert "再読み込み" not in banner
    keep_theirs = offline.inner_text("#outbox button.danger")
    record_mine = offline.inner_text("#outbox button.primary")
    words = offline.inner_text("#outbox .outbox-more p")
    assert keep_theirs in words and record_mine in words

    offline.click("#outbox button.danger")  # keep theirs: this device's entry is dropped
    offline.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    assert [(v, c) for v, c, _w, _r in versions_of(table, 2)] == [(1, True)]

    offline_queued_hands_are_listed_in_full_and_move_the_seat_scores_provisionally(offline, other_table)


def offline_queued_hands_are_listed_in_full_and_move_the_seat_scores_provisionally(page, table) -> None:
    """At a table before its first hand, two hands recorded offline: listed in full, not yet sent, and counted in
    the seat scores as provisional until the network is back."""
    start = table.round.event.ruleset.start_points
    who = names(table)
    sheet = f"/console/tables/{table.pk}/"
    page.goto(sheet)
    page.context.set_offline(True)
    page.reload()

    record(page, "ron", 0, 2, 2, 30)  # East 1: the dealer wins 2 han 30 fu from West: 2900
    page.wait_for_selector("#outbox-queued li:nth-child(1)")
    record(page, "tsumo", 1, None, 3, 30, riichi=(1, 3))  # East 1, 1 honba: South tsumo 3 han 30 fu, 2 riichi
    page.wait_for_selector("#outbox-queued li:nth-child(2)")

    first, second = page.locator("#outbox-queued li").all_inner_texts()
    assert "東1局" in first and "栄和" in first and who[0] in first and who[2] in first and "2翻30符" in first
    assert f"{who[0]} +2900" in first and f"{who[2]} -2900" in first
    assert "東1局 1本場" in second and "自摸和" in second and "3翻30符" in second and "立直" in second
    # 3 han 30 fu tsumo by a non-dealer: 1000 from each non-dealer, 2000 from the dealer, +100 each a honba;
    # South's riichi stick and North's come back to South
    assert f"{who[1]} +5300" in second and f"{who[0]} -2100" in second and f"{who[3]} -2100" in second
    for item in (first, second):
        assert "未送信" in item
    points = [int(page.inner_text(f".seat[data-seat='{seat}'] .pts").split()[0]) for seat in range(4)]
    assert points == [start + 2900 - 2100, start + 5300, start - 2900 - 1100, start - 2100]
    assert page.locator(".seat .pts.provisional").count() == 4

    page.context.set_offline(False)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)
    page.wait_for_function("() => !document.querySelector('.seat .pts.provisional')")
    running = selectors.table_hand_sheet(table).running[-1]
    assert running == points  # the server's points are the ones the device showed
