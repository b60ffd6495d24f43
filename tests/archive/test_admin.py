"""An event archive uploaded in the admin (Events → Import an archive…): a new event whose organizer is who
uploaded it, or a refusal that names the problem and writes nothing."""

import copy
import json

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from archive import admin as archive_admin
from archive.export import archive_build
from players.models import Player
from scoring.models import Ruleset
from tests.fixtures.tournament import built_once
from tournament import access
from tournament.models import Entry, Event, HandVersion
from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, staff_groups_install
from tournament.simulation import event_create, event_simulate, simulated_players

UPLOAD = reverse("admin:tournament_event_import_archive")


def played_event() -> int:
    """8 players, one round played: an archive with hands, results and standings."""
    event = event_create(
        slug="uploaded",
        name="Uploaded Cup",
        players=simulated_players(8),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=3,
    )
    event_simulate(event, rounds=1, seed=7, seating="shuffle")
    return event.pk


@pytest.fixture(scope="module")
def original_id(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, played_event)


@pytest.fixture
def archive(original_id, db) -> dict:
    return json.loads(json.dumps(archive_build(Event.objects.get(pk=original_id), staff=True)))


def signed_in(name: str, group: str) -> tuple[User, Client]:
    staff_groups_install()
    user = User.objects.create_user(name, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return user, client


def upload(client: Client, content: bytes, name: str = "export.json"):
    return client.post(UPLOAD, {"archive": SimpleUploadedFile(name, content, content_type="application/json")})


def counts() -> tuple[int, ...]:
    return (Event.objects.count(), Player.objects.count(), HandVersion.objects.count(), LogEntry.objects.count())


def test_an_organizer_uploads_an_archive_and_organizes_the_new_event(archive):
    # given a staff user of the Organizers group (the add permission for events), on the Events list
    user, client = signed_in("importer", ORGANIZERS_GROUP)
    listing = client.get(reverse("admin:tournament_event_changelist"))
    assert UPLOAD in listing.content.decode()
    # when they upload the archive
    response = upload(client, json.dumps(archive).encode())
    # then a new event, under a free slug, whose change page they are sent to
    event = Event.objects.get(slug="uploaded-2")
    assert response.status_code == 302
    assert response.headers["Location"] == reverse("admin:tournament_event_change", args=[event.pk])
    assert HandVersion.objects.filter(hand__table__round__event=event).count() == sum(
        len(t["hands"]) for r in archive["rounds"] for t in r["tables"]
    )
    # and they organize it, as the creator of an event added in the admin does
    assert event.owner == user
    assert access.may_manage(access.Actor(user), event.pk)
    page = client.get(response.headers["Location"])
    assert page.status_code == 200 and "imported from the archive" in page.content.decode()
    assert LogEntry.objects.filter(object_id=str(event.pk), user=user).exists()


def test_the_same_file_sent_twice_is_imported_once(archive):
    # given an organizer who uploaded an archive
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    content = json.dumps(archive).encode()
    first = upload(client, content)
    after_first = counts()
    # when the same file is sent again (a double click, a reload of the answer)
    again = upload(client, content)
    # then they are sent to the event imported the first time, told so, and nothing more is written
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    assert counts() == after_first
    assert "imported before" in client.get(again.headers["Location"]).content.decode()
    # another user sending it makes their own import (the answer is kept for its sender only)
    _other, other_client = signed_in("other-importer", ORGANIZERS_GROUP)
    assert upload(other_client, content).headers["Location"] != first.headers["Location"]


def test_a_user_without_the_add_permission_is_refused_and_nothing_is_written(archive):
    # given a referee: staff, but no permission to add events
    _user, client = signed_in("referee", REFEREES_GROUP)
    before = counts()
    # when they upload an archive, then 403 and nothing written; the list offers no upload
    assert upload(client, json.dumps(archive).encode()).status_code == 403
    assert client.get(UPLOAD).status_code == 403
    assert counts() == before
    assert UPLOAD not in client.get(reverse("admin:tournament_event_changelist")).content.decode()


def test_an_invalid_archive_shows_its_path_and_nothing_is_written(archive):
    # given an archive with a seat at position 9
    broken = copy.deepcopy(archive)
    broken["rounds"][0]["tables"][1]["seats"][2]["position"] = 9
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    before = counts()
    # when it is uploaded
    response = upload(client, json.dumps(broken).encode())
    # then the form says where, and nothing is written
    assert response.status_code == 400
    page = response.content.decode()
    assert "$.rounds[0].tables[1].seats[2].position: " in page and "Nothing was imported" in page
    assert counts() == before


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"<html>not an archive</html>", "The file is not JSON: Expecting value: line 1 column 1 (char 0)"),
        (b'{"format": "taikai-event", ', "The file is not JSON: "),
        ("naïve".encode("latin-1"), "The file is not text in UTF-8 (byte 3)"),
        (b"[1, 2]", "$: [1, 2] is not an object ({…})"),
    ],
    ids=["not JSON", "cut short", "not UTF-8", "JSON but not an archive"],
)
def test_a_file_that_is_not_an_archive_gets_a_clear_error(db, content, problem):
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    before = counts()
    response = upload(client, content)
    assert response.status_code == 400
    assert problem in response.content.decode()
    assert counts() == before


def test_a_file_over_the_limit_is_refused_before_it_is_read(db, monkeypatch):
    monkeypatch.setattr(archive_admin, "ARCHIVE_UPLOAD_MAX_BYTES", 1024)
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    before = counts()
    response = upload(client, b" " * 2048)
    assert response.status_code == 400
    assert "The file is 2.0\xa0KB; an archive may be at most 1.0\xa0KB." in response.content.decode()
    assert counts() == before


def test_players_that_look_like_stored_ones_are_shown_first_and_linked_only_as_chosen(archive):
    # given two stored players of another organizer's private event, and an archive whose first two players
    # claim their external ids
    owner = User.objects.create_user("other-organizer")
    private = Event.objects.create(
        slug="private", name="Private", is_public=False, owner=owner, ruleset=Ruleset.objects.get(slug="standard")
    )
    chosen, left = (Player.objects.create(display_name=f"Stored {n}", external_id=f"EMA-{n}") for n in (1, 2))
    Entry.objects.bulk_create([Entry(event=private, player=chosen), Entry(event=private, player=left)])
    named = copy.deepcopy(archive)
    for entry, external_id in zip(named["entries"], ("EMA-1", "EMA-2"), strict=False):
        entry["player"]["external_id"] = external_id
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    before = counts()
    # when an organizer uploads it, then the look-alikes are listed with a choice, and nothing is written yet
    preview = upload(client, json.dumps(named).encode())
    page = preview.content.decode()
    assert preview.status_code == 200 and "look like stored ones" in page
    assert "Stored 1" in page and "Stored 2" in page and 'name="link"' in page
    assert counts() == before
    # when they link the first and leave the second to be created anew
    answer = client.post(UPLOAD, {"preview": preview.context["digest"], "link": [named["entries"][0]["player"]["id"]]})
    # then the event is imported: the first is the stored player, the second a new player
    event = Event.objects.get(slug="uploaded-2")
    assert answer.status_code == 302
    assert event.entries.filter(player=chosen).exists() and not event.entries.filter(player=left).exists()
    second = named["entries"][1]["player"]["display_name"]
    assert event.entries.get(player__display_name=second).player.external_id is None
    assert not event.is_public and event.imported


def test_an_answer_to_a_preview_that_is_not_waiting_imports_nothing(archive):
    # given an organizer whose answer names no file waiting (expired, or made up)
    _user, client = signed_in("importer", ORGANIZERS_GROUP)
    before = counts()
    # when they send it, then they are asked to upload again, and nothing is written
    response = client.post(UPLOAD, {"preview": "0" * 64, "link": ["1"]})
    assert response.status_code == 400 and "upload the file again" in response.content.decode()
    assert counts() == before
