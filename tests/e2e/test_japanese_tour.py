"""A tour in Japanese, in Chromium: the public pages, the referee console and the admin, as a browser
that asks for Japanese sees them, find no English left; then, in the same browser and the same demo (with what
an organizer's admin holds on the day added), every page of the admin an organizer uses on the day.

What may stay in Latin letters is data and codes, not words of the interface: the names of players,
clubs, events, venues and accounts (read from the database), and a short list of codes and proper
nouns (``ALLOWED``). Every other run of two or more Latin letters on a page is reported with the page.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.management import call_command

from scoring.models import Ruleset
from scoring.presets import install_presets
from tests.e2e.conftest import sign_in
from tournament.models import Event, Table

# Wording only: the same pages on every database (pytest.mark.once).
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.once, pytest.mark.django_db(transaction=True)]

# Codes and proper nouns: the product's name, file formats, tile notation (MPSZ: 234m, chi, pon, kan),
# the hand format's result kinds typed by the calculator's users, units, the time zones' names as the IANA
# database writes them (the series pages name theirs: UTC, Asia/Tokyo).
ALLOWED = {
    "Taikai",
    "English",
    "CSV",
    "JSON",
    "QR",
    "PIN",
    "EMA",
    "ID",
    "URL",
    "API",
    "MPSZ",
    "chi",
    "pon",
    "kan",
    "ankan",
    "kakan",
    "minkan",
    "ms",
    "px",
    "ISO",
    "alpha",
    "IANA",
    "Asia",
    "Enter",
    "UTC",
    "Tokyo",
}
# ... and in the admin: the time zones' names (as above), the text
# encoding and the size unit of an upload (UTF-8, MB), the Elo rating (a proper noun), the HTTP header a
# program sends its API token in (Authorization: Bearer), and the columns of the CSV files and their values,
# which a file has in English in either language (``csv_columns``).
ALLOWED_IN_ADMIN = {"UTC", "Tokyo", "UTF", "MB", "Elo", "Authorization", "Bearer", "token"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
# a file name, an identifier or an address (export.json, archive_version, /me/<link>/): a code, not words
IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:[._][A-Za-z0-9]+)+|(?:https?://[^\s/]+)?(?:/[\w.-]+)+/?")


def proper_nouns() -> set[str]:
    """Every Latin word of the event data: names, clubs, events, venues, accounts, slugs."""
    from django.contrib.auth.models import User

    from players.models import Player

    texts = [*Player.objects.values_list("display_name", "club", "reading", "country")]
    texts += [*Event.objects.values_list("name", "venue", "slug")]
    texts += [*Ruleset.objects.values_list("slug")]
    texts += [(name,) for name in User.objects.values_list("username", flat=True)]
    texts += admin_data()
    texts += [(name,) for _code, name in settings.LANGUAGES]  # the language switch names each in itself
    return {word.casefold() for row in texts for text in row for word in LATIN_WORD.findall(text or "")}


def admin_data() -> list[tuple]:
    """The data an organizer's admin shows besides names: sign-ups' names and addresses, series, API tokens'
    names, the players' personal links."""
    from registration.models import SignUp
    from seasons.models import Series
    from tournament.models import ApiToken, Entry

    texts = [*SignUp.objects.values_list("name", "reading", "club", "email")]
    texts += [*Series.objects.values_list("name", "slug")]
    texts += [*ApiToken.objects.values_list("name")]
    texts += [*Entry.objects.values_list("link_token")]
    return texts


def csv_columns() -> set[str]:
    """The columns of the files an organizer uploads (players, teams) and the values of a team's role."""
    from players.csv_import import KNOWN_COLUMNS
    from tournament.admin.teams import TEAM_COLUMNS
    from tournament.models import TeamMember

    names = [*KNOWN_COLUMNS, *TEAM_COLUMNS, *TeamMember.Role.values]
    return {word.casefold() for name in names for word in LATIN_WORD.findall(name)}


def english_left(page, allowed: set[str]) -> list[str]:
    text = IDENTIFIER.sub(" ", page.inner_text("body") + " " + page.title())
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


def test_a_tour_in_japanese_then_the_organizers_admin_find_no_english(japanese_browser):
    # given the demo: a finished and a running event, an organizer and a referee (the ruleset presets
    # again: a transactional test before this one may have emptied the tables)
    install_presets(Ruleset)
    call_command("demo_event")
    page = japanese_browser
    # when a Japanese browser tours the public pages, then the console and the admin as the organizer
    found = public_console_and_admin_toured(page)
    # and then, with an API token, teams and a seating job added, the organizer's admin at desktop size
    found_in_admin, errors = organizers_admin_toured(page, organizers_admin_world())
    # then no page shows an English word, and no script of the admin fails
    assert found == {}, "English left:\n" + "\n".join(f"{url}: {' '.join(words)}" for url, words in found.items())
    assert found_in_admin == {}, "English left in the organizer's admin:\n" + "\n".join(
        f"{url}: {' '.join(words)}" for url, words in found_in_admin.items()
    )
    assert errors == []


def public_console_and_admin_toured(page) -> dict[str, list[str]]:
    """The public pages, then the console and the admin as the organizer (signed in here): the English words
    found, by page."""
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

    visit(public)
    sign_in(page, "/admin/login/", "organizer", "taikai-demo", submit="input[type=submit]", then="#user-tools")
    visit(console)
    visit(admin)
    return found


def organizers_admin_world() -> dict[str, str]:
    """Onto the demo's events: the demo's registration with its day one and its series, and what an organizer's
    admin holds on the day: an API token, teams, an automatic seating job. The pages to tour, by name."""
    from registration.models import Registration, SignUp
    from seasons.models import Series
    from tournament.models import HandVersion, SeatingJob, Team
    from tournament.services.teams import teams_import_csv
    from tournament.services.tokens import api_token_issue

    call_command("demo_registration")
    call_command("demo_series")
    running = Event.objects.get(slug="autumn-cup")
    winter = Event.objects.get(slug="winter-open")
    organizer = running.owner
    api_token_issue(event=running, name="会場スクリーン", scope="referee", tables="1-2", by=organizer)
    players = [entry.player.display_name for entry in running.entries.order_by("pk")[:4]]
    teams_import_csv(
        event=running,
        data=(
            "team,player,role\n"
            + "".join(f"{'東' if n < 2 else '西'},{name},member\n" for n, name in enumerate(players))
        ).encode(),
    )
    job = SeatingJob.objects.create(
        event=winter,
        round_number=2,
        requested_by=organizer,
        state=SeatingJob.State.DONE,
        percent=100,
        message="round 2: 3 tables",
    )
    hand = HandVersion.objects.filter(hand__table__round__event=running).order_by("pk").first()
    sign_up = SignUp.objects.filter(event=winter).order_by("pk").first()
    substitute = winter.entries.exclude(substitute_for=None).first() or winter.entries.first()
    return {
        "event": f"/admin/tournament/event/{winter.pk}/change/",
        "running event": f"/admin/tournament/event/{running.pk}/change/",
        "rounds": f"/admin/tournament/round/?event__id__exact={winter.pk}",
        "entries": f"/admin/tournament/entry/?event__id__exact={winter.pk}",
        "entry": f"/admin/tournament/entry/{substitute.pk}/change/",
        "registrations": "/admin/registration/registration/",
        "registration": f"/admin/registration/registration/{Registration.objects.get(event=winter).pk}/change/",
        "sign-ups": "/admin/registration/signup/",
        "sign-up": f"/admin/registration/signup/{sign_up.pk}/change/",
        "series list": "/admin/seasons/series/",
        "series": f"/admin/seasons/series/{Series.objects.get(slug='demo-league').pk}/change/",
        "api tokens": f"/admin/tournament/event/{running.pk}/api-tokens/",
        "api token list": "/admin/tournament/apitoken/",
        "hand versions": "/admin/tournament/handversion/",
        "hand version": f"/admin/tournament/handversion/{hand.pk}/change/",
        "teams": "/admin/tournament/team/",
        "team": f"/admin/tournament/team/{Team.objects.filter(event=running).first().pk}/change/",
        "players": "/admin/players/player/",
        "player": f"/admin/players/player/{running.entries.first().player_id}/change/",
        "player import": "/admin/players/player/import-csv/",
        "register from CSV": f"/admin/tournament/event/{running.pk}/register-csv/",
        "teams from CSV": f"/admin/tournament/event/{running.pk}/teams-csv/",
        "archive import": "/admin/tournament/event/import-archive/",
        "seating jobs": "/admin/tournament/seatingjob/",
        "seating job": f"/admin/tournament/event/{winter.pk}/seating-job/{job.pk}/",
    }


def organizers_admin_toured(page, pages: dict[str, str]) -> tuple[dict[str, list[str]], list[str]]:
    """Every page of the admin the organizer (signed in) uses on the day, on a desktop: the English words found,
    by page, and the scripts' errors."""
    page.set_viewport_size({"width": 1280, "height": 900})
    allowed = {word.casefold() for word in ALLOWED | ALLOWED_IN_ADMIN} | proper_nouns() | csv_columns()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    found: dict[str, list[str]] = {}
    for name, url in pages.items():
        response = page.goto(url)
        assert response.status < 400, (name, url, response.status)
        assert page.locator("html").get_attribute("lang") == "ja", url
        words = english_left(page, allowed)
        if words:
            found[f"{name} ({url})"] = words
    return found, errors
