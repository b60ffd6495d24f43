"""A player's pages on a 390 px phone in Japanese (issue 37), in Chromium: the game being played is "now
playing", not "next"; the results table's headers stay readable (one or two lines, never a letter a line);
the team standings show each team's members."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.fixtures.tournament import round_seated
from tournament.models import Event
from tournament.services.hands import hand_record
from tournament.services.teams import teams_import_csv

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
# Each header of the player's results table: its text and how many lines it takes.
HEADER_LINES = """() => [...document.querySelectorAll("#games th")].map((th) => {
  const style = getComputedStyle(th);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
  const height = th.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  return [th.textContent.trim(), Math.round(height / line)];
})"""


def phone_page(screen):
    page = screen(PHONE, "ja-JP")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def japanese(message: str) -> str:
    with translation.override("ja"):
        return translation.gettext(message)


def test_the_player_page_says_now_playing_and_keeps_its_headers_readable(screen, make_event, play_round):
    # given: round 1 played, round 2 under way at the player's table (a hand recorded)
    event = make_event(4, is_public=True)
    play_round(event, RON)
    table = round_seated(event).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=RON)
    entry = table.seats.get(position=0).entry
    # when: the player opens their page on a phone, in Japanese
    page, errors = phone_page(screen)
    page.goto(reverse("tournament:player", args=[event.slug, entry.pk]))
    # then: the game is "now playing"; every header of the results table on one or two lines
    seat = page.inner_text("#next-seat")
    assert japanese("Now playing:") in seat and japanese("Next:") not in seat, seat
    assert "2" in seat
    lines = page.evaluate(HEADER_LINES)
    assert len(lines) == 7 and all(count <= 2 for _text, count in lines), lines
    assert errors == [], errors


def test_the_team_standings_show_the_members_on_a_phone(screen, make_event, play_round):
    event = make_event(8, is_public=True)
    Event.objects.filter(pk=event.pk).update(team_rule="sum")
    names = list(event.entries.order_by("id").values_list("player__display_name", flat=True))
    rows = [f"Team {i // 4 + 1},{name},member" for i, name in enumerate(names)]
    teams_import_csv(event=event, data=("team,player,role\n" + "\n".join(rows) + "\n").encode())
    play_round(event, RON)
    page, errors = phone_page(screen)
    page.goto(reverse("tournament:teams", args=[event.slug]))
    shown = page.locator("#teams").inner_text()
    for name in names:
        assert page.get_by_text(name, exact=False).first.is_visible(), name
        assert name in shown
    assert errors == [], errors
