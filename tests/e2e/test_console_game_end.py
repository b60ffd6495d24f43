"""The game's end as the ruleset says, on a referee's 390 px phone, in Japanese and in English: under EMA 2025 the
sheet offers no abortive draw but pao for the yakuman the ruleset names; a chombo 錯和 is logged from the penalty page
and the sheet then says the game is over (no hand form) and confirms the result without asking why; once the round's
time ran out, the sheet says one more hand is played."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from scoring.models import Ruleset
from tests.e2e.conftest import sign_in, tap
from tests.fixtures.tournament import event_with_players, standard_ruleset_installed
from tournament.models import HandVersion, Penalty, Round, Table
from tournament.services.hands import hand_record
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install
from tournament.services.rounds import round_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
USERNAME, PASSWORD = "referee-ema", "hall-wifi-pw"
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
WORDS = {
    "ja-JP": {"over": "対局終了", "chombo": "錯和（チョンボ）", "one_more": "もう 1 局（第2局）", "pao": "大三元"},
    "en-US": {
        "over": "The game is over",
        "chombo": "chombo (錯和)",
        "one_more": "one more hand is played, hand 2",
        "pao": "daisangen 大三元",
    },
}


def ema_table() -> Table:
    """A table of an EMA 2025 event in play, hand 1 recorded (South won 3,900 from West), refereed by USERNAME."""
    standard_ruleset_installed()  # a transactional test flushes the rows the data migration made
    event = event_with_players(Ruleset.objects.get(slug="ema-2025"), 4)
    staff_groups_install()
    user = User.objects.create_user(USERNAME, password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=event, user=user, kind="referee")
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = round_create(event=event, tables=[ids]).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=RON)
    return table


@pytest.fixture
def referee_phone(chromium_browser, live_server):
    contexts = []

    def open_phone(locale: str):
        context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.mark.parametrize("locale", ["ja-JP"])  # the flow below runs in English
def test_a_chombo_logged_on_a_phone_ends_the_game_and_the_result_is_confirmed_without_a_reason(referee_phone, locale):
    table = ema_table()
    words = WORDS[locale]
    page = referee_phone(locale)
    page.goto(f"/console/tables/{table.pk}/")
    page.wait_for_selector("#hand-form")
    assert page.locator("#outcome input[value='exhaustive_draw']").count() == 1
    assert page.locator("#outcome input[value='abortive_draw']").count() == 0  # EMA plays none
    # pao for the yakuman EMA names: daisangen and daisuushii, in a fold that opens within the phone's width
    page.click("#pao summary")
    assert words["pao"] in page.locator("#pao").inner_text()
    assert page.locator("#pao input[name='pao_yakuman']").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the penalty page offers the chombo; West is the offender, in hand 2 (the hand in play)
    page.goto(f"/console/tables/{table.pk}/penalty/")
    west = table.seats.get(position=2)
    tap(page, "seat", west.pk)
    assert words["chombo"] in page.locator("#kinds").inner_text()
    tap(page, "kind", "chombo")
    assert page.input_value("input[name='hand_number']") == "2"
    page.fill("input[name='reason']", "ron on a tile that does not complete the hand")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_selector("#game-over")
    assert Penalty.objects.get().points == 20000
    assert words["over"] in page.locator("#game-over").inner_text()
    assert page.locator("#hand-form").count() == 0 and page.locator("#game-stop").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#finish-form button[type=submit]").click()
    page.wait_for_selector("#game-over", state="detached")  # the sheet of a confirmed table
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.parametrize("locale", ["en-US"])  # the flow above runs in Japanese
def test_the_sheet_says_one_more_hand_is_played_once_the_time_ran_out(referee_phone, locale):
    table = ema_table()
    started = timezone.now() - timedelta(minutes=100)  # the round's 90 minutes ran out 10 minutes ago
    Round.objects.filter(pk=table.round_id).update(timer_started_at=started)
    HandVersion.objects.filter(hand__table=table).update(recorded_at=timezone.now())  # hand 1 was in play
    page = referee_phone(locale)
    page.goto(f"/console/tables/{table.pk}/")
    notice = page.locator("#time-up")
    notice.wait_for()
    assert WORDS[locale]["one_more"] in notice.inner_text()
    assert notice.evaluate("(el) => el.getBoundingClientRect().right") <= PHONE["width"]
    assert page.locator("#hand-form").count() == 1  # the one more hand is recorded as any other
