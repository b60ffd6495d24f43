"""A checked round is locked, on a 390 px phone, in Japanese and in English: a referee's hand save after the
round is checked is refused and the sheet says the round is checked and locked; the event's owner unlocks it
on the round's admin page, with a reason; the referee reopens the table and the save goes through."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in, tap
from tournament.models import Event, HandVersion, RoundCheck
from tournament.services.checks import round_check
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HAND_1 = {
    "outcome": "ron",
    "dealer_position": 0,
    "honba": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 30}],
}
WORDS = {
    "ja": {"locale": "ja-JP", "locked": "ロックされています", "unlocked": "ロックを解除しました"},
    "en": {"locale": "en-US", "locked": "is locked", "unlocked": "unlocked"},
}


@pytest.fixture
def browsers(screen):
    """A phone-sized page per language (the shared fixtures fail the test on any script error)."""
    return lambda language: screen(PHONE, WORDS[language]["locale"])


@pytest.mark.parametrize("language", ["en"])  # the Japanese pages: the tours
def test_a_save_to_a_checked_round_is_refused_until_the_owner_unlocks_it(browsers, make_event, seated_round, language):
    staff_groups_install()
    words = WORDS[language]
    table = seated_round(make_event(4)).tables.get()
    event = table.round.event
    hand_record(table=table, number=1, expected_version=0, data=HAND_1)
    owner = User.objects.create_user("owner", password="hall-wifi-pw", is_staff=True)
    owner.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
    Event.objects.filter(pk=event.pk).update(owner=owner)
    referee = User.objects.create_user("mori", password="hall-wifi-pw", is_staff=True)
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=event, user=referee, kind="referee")

    # given the referee's phone on the sheet while the table plays
    phone = browsers(language)
    sign_in(
        phone,
        "/accounts/login/?next=/console/",
        "mori",
        "hall-wifi-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    sheet = f"/console/tables/{table.pk}/"
    phone.goto(sheet)
    phone.wait_for_selector("#save-hand")

    # when the table's result is confirmed and the round checked meanwhile, and the referee saves hand 2
    table_finish(table=table, end_reason="time")
    round_check(round_=table.round, user=referee)
    tap(phone, "outcome", "ron")
    tap(phone, "winner_1", 2)
    tap(phone, "discarder", 3)
    tap(phone, "han_1", 1)
    tap(phone, "fu_1", 30)
    phone.click("#save-hand")

    # then it is refused, and the phone says the round is checked and locked
    phone.wait_for_selector("#messages .error, #outbox[data-state='refused']")
    assert words["locked"] in phone.inner_text("body")
    assert not HandVersion.objects.filter(hand__table=table, hand__number=2).exists()

    # when the owner unlocks the round on its admin page, saying why
    desk = browsers(language)
    sign_in(desk, "/admin/login/", "owner", "hall-wifi-pw", submit="input[type=submit]", then="#user-tools")
    desk.goto(f"/admin/tournament/round/{table.round.pk}/change/")
    desk.click("#round-unlock")
    desk.fill("#id_reason", "a result was typed wrong")
    desk.click("#unlock-submit")
    desk.wait_for_selector(".messagelist .success")
    assert words["unlocked"] in desk.inner_text(".messagelist")
    unlocking = RoundCheck.objects.get(round=table.round, kind=RoundCheck.Kind.UNLOCK)
    assert unlocking.by == owner and unlocking.reason == "a result was typed wrong"

    # then the referee reopens the table and the save goes through
    phone.goto(sheet)
    phone.click("form:has(input[name='action'][value='reopen']) button")
    phone.wait_for_selector("#save-hand")
    tap(phone, "outcome", "ron")
    tap(phone, "winner_1", 2)
    tap(phone, "discarder", 3)
    tap(phone, "han_1", 1)
    tap(phone, "fu_1", 30)
    phone.click("#save-hand")
    phone.wait_for_selector("#messages .success")
    assert HandVersion.objects.filter(hand__table=table, hand__number=2, is_current=True).exists()
