"""The venue screen on a 1920 × 1080 projector (issue 37), in Chromium: long Latin names and the tables'
status lines are never cut, a round of few tables fills the screen with larger text, and a full page of
nine tables of long names still fits the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Player
from tests.fixtures.tournament import round_seated
from tournament.services.hands import hand_record
from tournament.services.rounds import round_timer_start

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
LONG_NAMES = [
    "Mikko Virtanen",
    "Anna-Kaisa Järvinen-Lehtonen",
    "Maximilian von Hohenberg",
    "Guðmundur Sigurðsson",
    "Bartholomew Fitzgerald",
    "Aleksandra Wiśniewska-Kowalczyk",
    "Jean-Baptiste Delacroix",
    "Henrietta Vanderbilt",
    "Konstantinos Papadopoulos",
]

# The name cells and the tables' status lines whose text is wider than their box (cut), and where the
# seating's last card ends (its bottom, in px from the top of the screen).
MEASURE = """() => {
  const cut = (el) => el.scrollWidth > el.clientWidth + 1;
  const names = [...document.querySelectorAll("#seating td:nth-child(2)")];
  const heads = [...document.querySelectorAll("#seating .card .head")];
  const cards = [...document.querySelectorAll("#seating .card")];
  const inside = [...document.querySelectorAll("main *")].every((el) => {
    const r = el.getBoundingClientRect();
    return r.width === 0 || (r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1);
  });
  return {
    namesCut: names.filter(cut).map((el) => el.textContent.trim()),
    headsCut: heads.filter(cut).map((el) => el.textContent.trim()),
    headsShown: heads.map((el) => el.innerText.trim()),
    bottom: Math.max(...cards.map((el) => el.getBoundingClientRect().bottom)),
    fontSize: parseFloat(getComputedStyle(document.querySelector("#seating td")).fontSize),
    inside,
    scrolls: document.documentElement.scrollHeight > innerHeight + 1,
  };
}"""


def event_of_long_names(make_event, players: int):
    event = make_event(players, is_public=True)
    for n, player in enumerate(Player.objects.order_by("id")):
        player.display_name = f"{LONG_NAMES[n % len(LONG_NAMES)]} {n + 1}"
        player.save(update_fields=["display_name"])
    round_ = round_seated(event)
    round_timer_start(round_=round_)
    hand_record(table=round_.tables.get(number=1), number=1, expected_version=0, data=RON)  # a game going on
    return event


def venue_measured(screen, event, locale: str) -> dict:
    page = screen(PROJECTOR, locale)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(reverse("tournament:venue", args=[event.slug]) + "?view=seating")
    measured = page.evaluate(MEASURE)
    assert errors == [], errors
    return measured


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_round_of_two_tables_fills_the_projector_and_cuts_no_name_or_status(screen, make_event, locale):
    event = event_of_long_names(make_event, 8)
    measured = venue_measured(screen, event, locale)
    assert measured["namesCut"] == [], measured["namesCut"]
    assert measured["headsCut"] == [], measured["headsCut"]
    provisional = "provisional, after 1 hand" if locale == "en-US" else "暫定"
    assert any(provisional in head for head in measured["headsShown"]), measured["headsShown"]
    # the two tables use most of the screen's height, in text larger than a full page's
    assert measured["bottom"] >= 0.75 * PROJECTOR["height"], measured
    assert measured["fontSize"] > 48, measured
    assert measured["inside"] and not measured["scrolls"], measured


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_full_page_of_nine_tables_of_long_names_fits_the_projector(screen, make_event, locale):
    event = event_of_long_names(make_event, 36)
    measured = venue_measured(screen, event, locale)
    assert measured["namesCut"] == [], measured["namesCut"]
    assert measured["headsCut"] == [], measured["headsCut"]
    assert measured["fontSize"] >= 40, measured  # read from across the hall
    assert measured["inside"] and not measured["scrolls"], measured
