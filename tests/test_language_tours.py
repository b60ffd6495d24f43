"""A tour in each language besides Japanese and English (Chinese, Korean, German, French): the public pages,
the referee console and the organizer's admin, as a browser asking for that language gets them, show no English.

The Japanese tour (``tests/e2e/test_japanese_tour.py``) drives Chromium and finds any run of Latin letters left,
which catches a message that was never made translatable. This tour reads the pages as served (the text
between the tags, and the words people hear or see in ``title``, ``aria-label``, ``placeholder`` and ``alt``),
so that four languages cost seconds, not minutes, and catches what a catalog alone does not: a page or a code path
that speaks English to anyone who is not Japanese.

* Chinese and Korean are not written in Latin letters: as in Japanese, any Latin word that is not data (names
  of players, events, venues, accounts) or an allowed code is English left.
* German and French are: a word is English left when the same page in English shows it too and it is not a word
  the two languages share (``SHARED``: Status, Team, Name, the romaji of the rules: Riichi, Tsumo).
"""

from __future__ import annotations

import html
import re

import pytest
from django.core.management import call_command
from django.test import Client

from scoring.models import Ruleset
from scoring.presets import install_presets
from tests.e2e.test_japanese_tour import ALLOWED, ALLOWED_IN_ADMIN, IDENTIFIER, LATIN_WORD, csv_columns, proper_nouns
from tournament.models import Event, Table

pytestmark = [pytest.mark.slow, pytest.mark.once, pytest.mark.django_db]

NOT_LATIN = ("zh-hans", "ko")
LATIN = ("de", "fr")
# Words a German or French page shares with the English one that are not English left: the same word in
# both languages, and the rules' romaji (the European scene says Riichi, Tsumo, Ron, Dora, as the EMA does).
# the rules' romaji, said in German and French as in the EMA's English
ROMAJI = {
    "riichi",
    "tsumo",
    "ron",
    "dora",
    "han",
    "fu",
    "mangan",
    "haneman",
    "baiman",
    "sanbaiman",
    "yakuman",
    "honba",
    "tenpai",
    "noten",
    "oka",
    "uma",
    "pao",
    "yaku",
    "chombo",
}
SHARED = {
    "de": ROMAJI
    | {
        "status",
        "team",
        "teams",
        "name",
        "start",
        "online",
        "offline",
        "admin",
        "login",
        "export",
        "import",
        "details",
        "event",
        "max",
        "min",
        "minuten",
        "test",
        "demo",
        "bonus",
        "ranking",
        "tipp",
        "link",
        "links",
        "format",
        "filter",
        "system",
        "version",
        "hand",
        "in",
        "an",
        "so",
        "per",
        "art",
        "west",
        "limit",
        "position",
        "code",
        "server",
        "minute",
        "optional",
        "navigation",
        "animation",
        "browser",
        "tests",
        "timer",
        "japan",
        "china",
        "kana",
        "romaji",
        "tobi",
        "bazoro",
        "kazoe",
        "kiriage",
        "nagashi",
        "tanyao",
        "ippatsu",
        "haitei",
        "houtei",
        "rinshan",
        "chankan",
        "chiihou",
        "haku",
        "hatsu",
        "chun",
        "daisangen",
        "daisuushii",
        "wcag",
        "aa",
    },
    "fr": ROMAJI
    | {
        "status",
        "team",
        "teams",
        "total",
        "notes",
        "note",
        "question",
        "questions",
        "format",
        "service",
        "type",
        "table",
        "tables",
        "session",
        "sessions",
        "date",
        "dates",
        "minute",
        "minutes",
        "position",
        "positions",
        "admin",
        "import",
        "export",
        "index",
        "page",
        "pages",
        "points",
        "options",
        "option",
        "description",
        "action",
        "actions",
        "message",
        "messages",
        "code",
        "codes",
        "places",
        "place",
        "long",
        "journal",
        "ligne",
        "simple",
        "signal",
        "image",
        "images",
        "bonus",
        "correction",
        "corrections",
        "version",
        "versions",
        "conditions",
        "condition",
        "source",
        "sources",
        "rotation",
        "distribution",
        "information",
        "instructions",
        "instruction",
        "test",
        "demo",
        "pause",
        "articles",
        "article",
        "absent",
        "absents",
        "normal",
        "local",
        "global",
        "filtre",
        "ordre",
        "transfert",
        "transferts",
        "minimum",
        "maximum",
        "min",
        "max",
        "sur",
        "plus",
        "animations",
        "animation",
        "on",
        "en",
        "pas",
        "direct",
        "menu",
        "contact",
        "public",
        "visible",
        "registre",
        "validation",
        "confirmation",
        "confirmations",
        "identification",
        "accessible",
        "accessibilité",
        "or",
        "art",
        "final",
        "me",
        "pts",
        "score",
        "scores",
        "double",
        "doubles",
        "triple",
        "notation",
        "absence",
        "coefficients",
        "proportion",
        "association",
        "mahjong",
        "administration",
        "navigation",
        "site",
        "main",
        "console",
        "tests",
        "web",
        "archive",
        "champion",
        "exports",
        "mode",
        "placement",
        "surprise",
        "affiliation",
        "unique",
        "disqualification",
        "kana",
        "romaji",
        "chankan",
        "chiihou",
        "chun",
        "haku",
        "hatsu",
        "haitei",
        "houtei",
        "ippatsu",
        "rinshan",
        "bazoro",
        "daisangen",
        "daisuushii",
        "kazoe",
        "kiriage",
        "nagashi",
        "tanyao",
    },
}
TEXT_BETWEEN_TAGS = re.compile(r"<(script|style|template)\b.*?</\1>|<[^>]+>", re.DOTALL | re.IGNORECASE)
READ_ATTRIBUTES = re.compile(r"""\b(?:title|aria-label|placeholder|alt)\s*=\s*(["'])(.*?)\1""", re.DOTALL)


def words_read(page: str) -> str:
    """What a person reads or hears of a page: its text and its readable attributes, codes taken out."""
    attributes = " ".join(value for _quote, value in READ_ATTRIBUTES.findall(page))
    text = html.unescape(TEXT_BETWEEN_TAGS.sub(" ", page) + " " + attributes)
    return IDENTIFIER.sub(" ", text)


def latin_words(page: str) -> set[str]:
    return {word.casefold() for word in LATIN_WORD.findall(words_read(page))}


def tour_pages() -> list[tuple[str, str]]:
    """The demo's pages a person meets: (who, url), ``who`` anonymous or the organizer."""
    install_presets(Ruleset)
    call_command("demo_event")
    running = Event.objects.get(slug="autumn-cup")
    finished = Event.objects.get(slug="spring-open")
    entry = running.entries.order_by("pk").first()
    playing = Table.objects.filter(round__event=running, status="playing").order_by("number").first()
    done = Table.objects.filter(round__event=running, status="finished").order_by("number").first()
    public = [
        "/",
        f"/events/{running.slug}/",
        f"/events/{running.slug}/standings/",
        f"/events/{finished.slug}/standings/?q=yamada",
        f"/events/{running.slug}/rounds/1/",
        f"/events/{running.slug}/players/{entry.pk}/",
        f"/events/{running.slug}/venue/",
        f"/me/{entry.link_token}/",
        "/scoring/calculator/",
        "/scoring/rulesets/",
        "/scoring/rulesets/standard/table/",
        "/accessibility/",
        "/accounts/login/",
    ]
    staff = [
        "/console/",
        f"/console/tables/{playing.pk}/",
        f"/console/tables/{done.pk}/",
        f"/console/tables/{playing.pk}/penalty/",
        f"/console/tables/{playing.pk}/clock/",
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
    return [("anonymous", url) for url in public] + [("organizer", url) for url in staff]


def page_in(language: str, who: str, url: str) -> str:
    from django.contrib.auth.models import User

    client = Client(headers={"accept-language": language})
    if who == "organizer":
        client.force_login(User.objects.get(username="organizer"))
    response = client.get(url, follow=True)
    assert response.status_code < 400, (language, url, response.status_code)
    body = response.content.decode()
    assert f'<html lang="{language}"' in body, (language, url)
    return body


def test_a_tour_in_each_language_finds_no_english():
    # given the demo, its organizer, and the pages they and the public meet
    pages = tour_pages()
    allowed = {word.casefold() for word in ALLOWED | ALLOWED_IN_ADMIN} | proper_nouns() | csv_columns()
    english = {}
    found: dict[str, list[str]] = {}
    # when a browser asking for each language reads every page
    for language in NOT_LATIN + LATIN:
        for who, url in pages:
            words = latin_words(page_in(language, who, url)) - allowed
            if language in LATIN:
                # a German or French word is English left when the English page says it too
                if (who, url) not in english:
                    english[who, url] = latin_words(page_in("en", who, url))
                words &= english[who, url]
                words -= SHARED[language]
            if words:
                found[f"{language} {url}"] = sorted(words)
    # then no page shows an English word
    assert found == {}, "English left:\n" + "\n".join(f"{page}: {' '.join(w)}" for page, w in found.items())
