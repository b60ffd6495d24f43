"""An event archive uploaded in the admin, in Chromium, in English and in Japanese, as an organizer would:
Events → "Import an archive…", the file chosen and sent; a new event of the archive's hands, owned by who
sent it; the same file sent again imports nothing more; a file with a problem is refused, naming its JSON
path, and nothing is written; in Japanese, the upload page shows no English.

Every text expected on a page is read from the catalog (``gettext`` in the case's language) or from the
product's own check of the archive (``archive_check``), and every count from the archive itself.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from archive.export import archive_build
from archive.schema import archive_check
from players.models import Player
from taikai.errors import TaikaiError
from tests.e2e.conftest import sign_in
from tests.e2e.test_japanese_tour import ALLOWED, LATIN_WORD, proper_nouns
from tournament.models import Event, Hand, HandVersion
from tournament.services.roles import ORGANIZERS_GROUP, staff_groups_install
from tournament.simulation import event_create, event_simulate, simulated_players

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
LANGUAGES = [pytest.param("en-US", id="english"), pytest.param("ja-JP", id="japanese")]
EVENT_NAME = {"en-US": "Uploaded Cup", "ja-JP": "取り込み杯"}
LIST = reverse("admin:tournament_event_changelist")
UPLOAD = reverse("admin:tournament_event_import_archive")
# Codes the upload form's help may show as they are, in every language (the file's name and format).
CODES = ("export.json", "archive_version", "UTF-8", "JSON")
# Units: the form's limit is Django's file size ("16.0 MB"; Django's Japanese catalog keeps the unit).
UNITS = {"MB"}
# The seat made wrong in the broken archive: its position is one no table has.
ROUND, TABLE, SEAT = 0, 0, 1


def caught(language: str, text: str) -> str:
    with translation.override(language[:2]):
        return gettext(text)


def exported(language: str, ruleset, tmp_path) -> tuple[dict, object]:
    """A small played event (8 players, one round with its hands), exported for its staff to a file."""
    event = event_create(
        slug="uploaded", name=EVENT_NAME[language], players=simulated_players(8), ruleset=ruleset, planned_rounds=3
    )
    event_simulate(event, rounds=1, seed=7, seating="shuffle")
    archive = json.loads(json.dumps(archive_build(event, staff=True)))
    path = tmp_path / "export.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    return archive, path


def counts() -> tuple[int, ...]:
    return Event.objects.count(), Player.objects.count(), Hand.objects.count(), HandVersion.objects.count()


@pytest.fixture
def organizer(chromium_browser, live_server, task_worker):
    """A staff user of the Organizers group, signed in to the admin in a browser that asks for the case's
    language (the admin follows it)."""
    contexts = []

    def open_admin(locale: str) -> tuple[User, object]:
        staff_groups_install()
        user = User.objects.create_user("importer", password="password", is_staff=True)
        user.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
        context = chromium_browser.new_context(base_url=live_server.url, locale=locale, viewport=DESKTOP)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20000)
        sign_in(page, "/admin/login/", "importer", "password", submit="input[type=submit]", then="#user-tools")
        assert page.locator("html").get_attribute("lang") == locale[:2]
        return user, page

    yield open_admin
    for context in contexts:
        context.close()


def english_left(page, codes=()) -> list[str]:
    """test_japanese_tour's check (Latin words that are neither data nor its codes), the codes of the
    archive (and ``codes``, such as a JSON path) taken out of the text first: "export.json" lets neither
    "export" nor "json" through elsewhere."""
    assert page.locator("html").get_attribute("lang") == "ja", page.url
    text = page.inner_text("body") + " " + page.title()
    for code in (*codes, *CODES):
        text = text.replace(code, " ")
    allowed = {word.casefold() for word in (*ALLOWED, *UNITS)} | proper_nouns()
    return sorted({word for word in LATIN_WORD.findall(text) if word.casefold() not in allowed})


def upload_page(page, language: str) -> None:
    """From the Events list, the object tool "Import an archive…" (by its address; its text the catalog's)."""
    page.goto(LIST)
    tool = page.locator(f".object-tools a[href='{UPLOAD}']")
    assert tool.text_content().strip() == caught(language, "Import an archive…")
    tool.click()
    page.wait_for_url(f"**{UPLOAD}")
    page.wait_for_selector("#import-archive-form")


def send(page, path) -> int:
    """Choose the file and send it; the status of the page it leads to (after a redirect, that page's)."""
    page.set_input_files("#id_archive", str(path))
    with page.expect_navigation() as navigation:
        page.click("#import-archive-form input[type=submit]")
    return navigation.value.status


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_organizer_imports_an_archive_once_however_often_it_is_sent(organizer, tmp_path, standard_ruleset, language):
    # given an exported event, and an organizer on the admin in the case's language
    archive, path = exported(language, standard_ruleset, tmp_path)
    original = Event.objects.get()
    user, admin = organizer(language)
    before = counts()

    # when they open the upload from the Events list: the page of the form, in their language
    upload_page(admin, language)
    assert admin.inner_text("h1") == caught(language, "Import an event archive")
    if language == "ja-JP":
        assert english_left(admin) == [], "English left on the upload page"

    # and send the file
    assert send(admin, path) == 200
    # then a new event, whose change page they land on, told so
    new = Event.objects.exclude(pk=original.pk).get()
    admin.wait_for_url(f"**{reverse('admin:tournament_event_change', args=[new.pk])}")
    success = caught(
        language,
        "%(event)s is imported from the archive as %(slug)s, private until you make it public; you are its organizer.",
    )
    assert admin.inner_text("ul.messagelist li.success") == success % {"event": new.name, "slug": new.slug}
    assert new.name == archive["event"]["name"] and new.slug != original.slug
    # with the archive's hands, every version of them, and the one who sent it its organizer
    tables = [table for round_ in archive["rounds"] for table in round_["tables"]]
    versions = [hand for table in tables for hand in table["hands"]]
    hands = {(table["id"], hand["number"]) for table in tables for hand in table["hands"]}
    assert versions, "the archive has hands"
    assert Hand.objects.filter(table__round__event=new).count() == len(hands)
    assert HandVersion.objects.filter(hand__table__round__event=new).count() == len(versions)
    assert new.owner == user
    after_first = counts()
    assert after_first[0] == before[0] + 1

    # when they send the same file again
    upload_page(admin, language)
    assert send(admin, path) == 200
    # then they land on the same event, told it was imported before, and nothing more is written
    admin.wait_for_url(f"**{reverse('admin:tournament_event_change', args=[new.pk])}")
    again = caught(language, "This file was imported before; nothing was imported again.")
    assert admin.inner_text("ul.messagelist li.info") == again
    assert admin.locator("ul.messagelist li.success").count() == 0
    assert counts() == after_first
    assert Event.objects.filter(name=archive["event"]["name"]).count() == 2  # the original and the import


def refused(language: str, ruleset, tmp_path, organizer):
    """A broken archive (a seat at position 9) sent by an organizer: the page, the product's own word on the
    file (``archive_check`` in the case's language), the path it must name, the counts before."""
    archive, _path = exported(language, ruleset, tmp_path)
    broken = copy.deepcopy(archive)
    broken["rounds"][ROUND]["tables"][TABLE]["seats"][SEAT]["position"] = 9
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    where = f"$.rounds[{ROUND}].tables[{TABLE}].seats[{SEAT}].position"
    with translation.override(language[:2]), pytest.raises(TaikaiError) as problem:
        archive_check(broken)
    _user, admin = organizer(language)
    before = counts()
    upload_page(admin, language)
    status = send(admin, path)
    return admin, status, problem.value, where, before


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_broken_archive_is_refused_naming_its_path_and_nothing_is_written(
    organizer, tmp_path, standard_ruleset, language
):
    # given an archive with a seat at position 9, sent from the upload page
    admin, status, problem, where, before = refused(language, standard_ruleset, tmp_path, organizer)
    # then the form comes back refusing it, naming the path of the problem, and nothing is written
    assert status == 400
    assert admin.url.endswith(UPLOAD)
    assert problem.field == where and problem.message.startswith(where)
    assert admin.inner_text("#import-archive-form ul.errorlist") == problem.message
    nothing = caught(language, "Nothing was imported. Fix this problem and upload again.")
    assert admin.inner_text("p.errornote") == nothing
    assert admin.locator("ul.messagelist li.success").count() == 0
    assert counts() == before


def test_a_refusal_in_japanese_shows_no_english(organizer, tmp_path, standard_ruleset):
    # given a broken archive sent from the upload page in Japanese
    admin, status, _problem, where, _before = refused("ja-JP", standard_ruleset, tmp_path, organizer)
    assert status == 400
    # then the page that refuses it, its error included, reads in Japanese (the path it names is a code)
    assert english_left(admin, codes=[where]) == [], admin.inner_text("#import-archive-form ul.errorlist")
