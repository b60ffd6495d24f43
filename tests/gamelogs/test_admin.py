"""Importing a game log from the admin: the organizer's upload or pasted text, and who may."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from gamelogs.models import GameLogImport
from tests.factories import EventRoleFactory
from tournament.services.roles import ORGANIZERS_GROUP

from .engine.conftest import log_bytes
from .test_import import online_event

pytestmark = pytest.mark.django_db
IMPORT_URL = "admin:gamelogs_gamelogimport_import"


def organizer_of(event, name="org") -> User:
    user = EventRoleFactory(event=event, user__username=name, user__password="pw-123456", kind="organizer").user
    return user


def test_a_fresh_database_gives_the_organizers_group_the_game_logs_and_online_accounts():
    perms = set(Group.objects.get(name=ORGANIZERS_GROUP).permissions.values_list("codename", flat=True))
    assert {"view_gamelogimport", "view_disagreement", "add_onlineaccount", "change_onlineaccount"} <= perms


def test_an_organizer_uploads_a_log_and_lands_on_the_import_with_what_was_done(client, standard_ruleset):
    event, game, _ = online_event(standard_ruleset)
    client.force_login(organizer_of(event))
    with open(__import__("tests.gamelogs.engine.conftest", fromlist=["LOGS"]).LOGS / "example.xml", "rb") as file:
        answer = client.post(reverse(IMPORT_URL), {"event": event.pk, "log_file": file}, HTTP_ACCEPT_LANGUAGE="en")
    record = GameLogImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "admin:gamelogs_gamelogimport_change", args=[record.pk]
    )
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{len(game.hands)} hands recorded" in page and "result is confirmed" in page


def test_a_pasted_log_is_imported_and_a_refusal_names_its_problem_in_japanese(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    client.force_login(organizer_of(event))
    refused = client.post(
        reverse(IMPORT_URL), {"event": event.pk, "log_text": "<html>\n</body>"}, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert refused.status_code == 400 and "牌譜" in refused.content.decode()
    assert not GameLogImport.objects.exists()
    pasted = client.post(reverse(IMPORT_URL), {"event": event.pk, "log_text": log_bytes("example.xml").decode()})
    assert pasted.status_code == 302 and GameLogImport.objects.count() == 1


def test_an_organizer_of_another_event_cannot_import_into_this_one(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    other, _, _ = online_event(standard_ruleset, slug="other-league")
    client.force_login(organizer_of(other, "stranger"))
    answer = client.post(reverse(IMPORT_URL), {"event": event.pk, "log_text": log_bytes("example.xml").decode()})
    assert answer.status_code == 403  # an event one holds no role in, as the console answers
    assert not GameLogImport.objects.exists()


def test_a_staff_account_without_a_role_is_refused_the_page(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    user = User.objects.create_user("staff", password="pw-123456", is_staff=True)
    client.force_login(user)
    assert client.get(reverse(IMPORT_URL)).status_code == 403
    assert client.post(reverse(IMPORT_URL), {"event": event.pk, "log_text": "x"}).status_code == 403
    assert not GameLogImport.objects.exists()


def test_the_import_list_shows_only_the_events_one_organizes(client, standard_ruleset):
    from gamelogs.services import game_log_import

    event, _, _ = online_event(standard_ruleset)
    other, _, _ = online_event(standard_ruleset, slug="other-league")
    game_log_import(event=event, data=log_bytes("example.xml"))
    client.force_login(organizer_of(other, "stranger"))
    page = client.get(reverse("admin:gamelogs_gamelogimport_changelist"))
    assert (
        page.status_code == 200 and "Online league" not in page.content.decode().split('id="result_list"')[-1][:0] + ""
    )
    assert page.context["cl"].result_count == 0
