"""A table that sat wrong, re-seated on a 390 px phone, in Japanese and in English: eight hands were recorded with
the players in the wrong seats; the referee chooses who really sat where, checks and confirms; the sheet shows the
players in their real seats with the scores of the same game entered in those seats, and its history still shows
the eight versions recorded before."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in
from tests.fixtures.tournament import event_with_players
from tests.tournament.reseat_game import GAME, REAL, A, B, C, D, hand_at
from tournament.models import HandVersion, Ruling, Table
from tournament.services.hands import hand_record
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install
from tournament.services.rounds import round_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HANDS = GAME[:8]
WORDS = {
    "ja": {"locale": "ja-JP", "done": "卓の席を訂正しました", "history": "履歴", "v2": "第2版"},
    "en": {"locale": "en-US", "done": "The table is re-seated", "history": "History", "v2": "v2"},
}


@pytest.fixture
def phone(screen):
    """A phone-sized page per language (the shared fixtures fail the test on any script error)."""
    return lambda language: screen(PHONE, WORDS[language]["locale"])


def table_with_hands(ruleset, slug: str, seating: list[int]) -> tuple[Table, list]:
    """A table of a new event with the eight hands recorded for its people seated ``seating``; its entries."""
    event = event_with_players(ruleset, 4, name=slug, slug=slug)
    entries = list(event.entries.order_by("id"))
    table = round_create(event=event, tables=[[entries[p].pk for p in seating]]).tables.get()
    for number, hand in enumerate(HANDS, start=1):
        hand_record(table=table, number=number, expected_version=0, data=hand_at(hand, seating))
    return table, entries


@pytest.mark.parametrize("language", ["ja"])  # every page of it in English: the crawl and the tours
def test_a_referee_reseats_a_table_of_eight_hands_and_sees_the_corrected_scores(phone, standard_ruleset, language):
    staff_groups_install()
    words = WORDS[language]
    table, entries = table_with_hands(standard_ruleset, "wrong-seats", [A, B, C, D])
    fresh, _ = table_with_hands(standard_ruleset, "right-seats", REAL)
    fresh.refresh_from_db()
    referee = User.objects.create_user("mori", password="hall-wifi-pw", is_staff=True)
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=table.round.event, user=referee, kind="referee")

    # given the referee's phone on the table's sheet
    page = phone(language)
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "mori",
        "hall-wifi-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    page.goto(f"/console/tables/{table.pk}/")
    page.click("#reseat-link")

    # when they choose who really sat in each wind, check the seats and confirm
    for position, person in enumerate(REAL):
        page.select_option(f"#id_seat_{position}", str(entries[person].player_id))
    page.fill("#id_reason", "noticed after hand 8")
    page.click("#reseat-next")
    page.wait_for_selector("#reseat-summary")
    summary = page.inner_text("#reseat-summary")
    assert all(str(entries[person].player) in summary for person in REAL)
    page.click("#reseat-confirm")

    # then the sheet shows the players in their real seats with the scores of the game entered in them
    page.wait_for_selector("#messages .success")
    assert words["done"] in page.inner_text("#messages")
    headers = page.locator("#hand-sheet thead th").all_inner_texts()
    assert [str(entries[p].player) in h for p, h in zip(REAL, headers[3:7], strict=True)] == [True] * 4
    points = page.locator("#hand-sheet tfoot th").all_inner_texts()[1:5]
    assert [int(p) for p in points] == fresh.running_points
    rows = page.locator("#hand-sheet tbody tr").all_inner_texts()
    assert len(rows) == 8 and all(words["v2"] in row for row in rows)

    # and its history still shows the eight versions recorded before
    page.click("#hand-history summary")
    assert words["history"] in page.inner_text("#hand-history summary")
    assert page.locator("#hand-history .old-version").count() == 8
    assert page.locator("#hand-history .old-version").first.is_visible()
    assert HandVersion.objects.filter(hand__table=table, version=1, is_current=False).count() == 8
    assert Ruling.objects.filter(table=table, decided_by=referee).count() == 1
    # nothing on the phone wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
