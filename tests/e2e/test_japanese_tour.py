"""A tour in Japanese, in Chromium: the public pages, the referee console and the admin, as a browser
that asks for Japanese sees them, find no English left.

What may stay in Latin letters is data and codes, not words of the interface: the names of players,
clubs, events, venues and accounts (read from the database), and a short list of codes and proper
nouns (``ALLOWED``). Every other run of two or more Latin letters on a page is reported with the page.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from scoring.models import Ruleset
from scoring.presets import install_presets
from tests.e2e.conftest import sign_in
from tournament.models import Event, Table

# Wording only: the same pages on every database (pytest.mark.once).
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.once, pytest.mark.django_db(transaction=True)]

# Codes and proper nouns: the product's name, file formats, tile notation (MPSZ: 234m, chi, pon, kan),
# the hand format's result kinds typed by the calculator's users, units.
ALLOWED = {
    "Taikai", "English", "CSV", "JSON", "QR", "PIN", "EMA", "ID", "URL", "API", "MPSZ", "chi", "pon", "kan",
    "ankan", "kakan", "minkan", "ms", "px", "ISO", "alpha", "IANA", "Asia", "Enter",
}  # fmt: skip
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")


def proper_nouns() -> set[str]:
    """Every Latin word of the event data: names, clubs, events, venues, accounts, slugs."""
    from django.contrib.auth.models import User

    from players.models import Player

    texts = [*Player.objects.values_list("display_name", "club", "reading", "country")]
    texts += [*Event.objects.values_list("name", "venue", "slug")]
    texts += [*Ruleset.objects.values_list("slug")]
    texts += [(name,) for name in User.objects.values_list("username", flat=True)]
    return {word.casefold() for row in texts for text in row for word in LATIN_WORD.findall(text or "")}


def english_left(page, allowed: set[str]) -> list[str]:
    text = page.inner_text("body") + " " + page.title()
    return sorted({word for word in LATIN_WORD.findall(text) if word.casefold() not in allowed})


@pytest.fixture
def japanese_browser(chromium_browser, live_server, task_worker):
    context = chromium_browser.new_context(
        base_url=live_server.url, locale="ja-JP", viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.set_default_timeout(20000)
    yield page
    context.close()


def test_a_tour_in_japanese_finds_no_english(japanese_browser):
    # given the demo: a finished and a running event, an organizer and a referee (the ruleset presets
    # again: a transactional test before this one may have emptied the tables)
    install_presets(Ruleset)
    call_command("demo_event")
    page = japanese_browser
    allowed = {word.casefold() for word in ALLOWED} | proper_nouns()
    running = Event.objects.get(slug="autumn-cup")
    finished = Event.objects.get(slug="spring-open")
    entry = running.entries.order_by("pk").first()
    playing = Table.objects.filter(round__event=running, status="playing").order_by("number").first()
    finished_table = Table.objects.filter(round__event=running, status="finished").order_by("number").first()
    public = [
        "/",
        f"/events/{running.slug}/",
        f"/events/{running.slug}/standings/",
        f"/events/{finished.slug}/standings/?q=yamada",
        f"/events/{running.slug}/rounds/1/",
        f"/events/{running.slug}/players/{entry.pk}/",
        f"/events/{running.slug}/venue/",
        "/scoring/calculator/",
        "/scoring/rulesets/",
        "/scoring/rulesets/standard/table/",
        "/accounts/login/",
    ]
    console = [
        "/console/",
        f"/console/tables/{playing.pk}/",
        f"/console/tables/{finished_table.pk}/",
        f"/console/tables/{playing.pk}/penalty/",
        f"/console/tables/{playing.pk}/clock/",
    ]
    admin = [
        "/admin/",
        "/admin/tournament/event/",
        f"/admin/tournament/event/{running.pk}/change/",
        "/admin/tournament/entry/",
        "/admin/tournament/round/",
        f"/admin/tournament/round/{playing.round.pk}/change/",
        "/admin/tournament/table/",
        f"/admin/tournament/table/{playing.pk}/change/",
        "/admin/tournament/penalty/",
        "/admin/players/player/",
        "/admin/players/player/add/",
        "/admin/scoring/ruleset/",
    ]
    found: dict[str, list[str]] = {}

    def visit(urls):
        for url in urls:
            response = page.goto(url)
            assert response.status < 400, (url, response.status)
            assert page.locator("html").get_attribute("lang") == "ja", url
            words = english_left(page, allowed)
            if words:
                found[url] = words

    # when a Japanese browser tours the public pages, then the console and the admin as the organizer
    visit(public)
    sign_in(
        page, "/admin/login/", "organizer", "taikai-demo", submit="input[type=submit]", then="#user-tools"
    )
    visit(console)
    visit(admin)
    # then no page shows an English word
    assert found == {}, "English left:\n" + "\n".join(
        f"{url}: {' '.join(words)}" for url, words in found.items()
    )
