"""Publishing after checking, the rest: where the event publishes results only once checked, the public live
streams carry no hand or result of a round being checked (the staff's do), the directors' board is the staff's,
and a read token's table and hand endpoints show the round as being checked, without its hands."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from live.publish import event_channel
from tests.factories import EventRoleFactory
from tournament.models import Event
from tournament.services.checks import round_check
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.tokens import api_token_issue

from .test_streams import read_stream

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def checking(make_event, seated_round):
    """A public event publishing results once checked, its round 1 seated (a table of four), and a referee."""
    event = make_event(4, is_public=True, results_after_check=True)
    round_ = seated_round(event)
    referee = EventRoleFactory(event=event, user__username="kato", kind="referee").user
    return event, round_, round_.tables.get(), referee


def played(table, callbacks):
    with callbacks(execute=True):
        hand_record(table=table, number=1, expected_version=0, data=RON)
        table_finish(table=table, end_reason="time")


def kinds(events) -> list[str]:
    return [kind for _, kind, _ in events]


def test_the_public_stream_carries_no_hand_or_result_of_a_round_being_checked(
    memory_bus, checking, django_capture_on_commit_callbacks
):
    # given a round being checked, whose table records a hand and its result
    event, round_, table, referee = checking
    url = reverse("live:event_live", args=[event.slug])
    start = memory_bus.last_id(event_channel(event.pk))
    played(table, django_capture_on_commit_callbacks)
    # then the public stream carries neither; the staff's carries both
    _, public = read_stream(Client(), url, last_id=start)
    assert "hand" not in kinds(public) and "table" not in kinds(public)
    staff = Client()
    staff.force_login(referee)
    _, seen = read_stream(staff, url, last_id=start)
    assert "hand" in kinds(seen) and "table" in kinds(seen)
    # when the round is checked, the public stream is told of its tables
    checked = memory_bus.last_id(event_channel(event.pk))
    with django_capture_on_commit_callbacks(execute=True):
        round_complete(round_=round_)
        round_check(round_=round_, user=referee)
    _, public = read_stream(Client(), url, last_id=checked)
    assert [(kind, data["table_number"]) for _, kind, data in public if kind == "table"] == [("table", table.number)]


def test_without_the_setting_the_public_stream_carries_hands(
    memory_bus, make_event, seated_round, django_capture_on_commit_callbacks
):
    event = make_event(4, is_public=True)
    table = seated_round(event).tables.get()
    start = memory_bus.last_id(event_channel(event.pk))
    played(table, django_capture_on_commit_callbacks)
    _, public = read_stream(Client(), reverse("live:event_live", args=[event.slug]), last_id=start)
    assert "hand" in kinds(public) and "table" in kinds(public)


def test_the_directors_board_of_a_round_being_checked_is_the_staffs_only(
    checking, client, django_capture_on_commit_callbacks
):
    event, _round, table, referee = checking
    played(table, django_capture_on_commit_callbacks)
    url = reverse("live:board_event", args=[event.slug])
    # the public is asked to sign in; an account without a role in the event (a player's) finds no board
    assert Client().get(url).status_code == 302
    player = User.objects.create_user("player")
    client.force_login(player)
    assert client.get(url).status_code == 404
    # the event's referee sees the board
    staff = Client()
    staff.force_login(referee)
    assert staff.get(url).status_code == 200


def test_a_read_tokens_table_and_hands_show_a_round_being_checked_without_hands(
    checking, django_capture_on_commit_callbacks
):
    # given a round being checked, with a hand and a result
    event, round_, table, referee = checking
    played(table, django_capture_on_commit_callbacks)
    tokens = {
        scope: Client(HTTP_AUTHORIZATION=f"Bearer {api_token_issue(event=event, name=scope, scope=scope).secret}")
        for scope in ("read", "organizer")
    }
    urls = {
        "table": reverse("api_v1:table", args=[table.pk]),
        "hands": reverse("api_v1:table_hands", args=[table.pk]),
        "versions": reverse("api_v1:hand_versions", args=[table.pk, 1]),
        "result": reverse("api_v1:table_result", args=[table.pk]),
    }

    def read(scope):
        found = {name: tokens[scope].get(url) for name, url in urls.items()}
        assert {response.status_code for response in found.values()} == {200}
        return {name: response.json() for name, response in found.items()}

    # then a read token sees the table as being checked, with no result nor hands
    seen = read("read")
    assert seen["table"]["being_checked"] is True and seen["table"]["results"] == []
    assert seen["table"]["seats"]  # the seating stays public
    assert seen["hands"] == seen["versions"] == seen["result"] == []
    # and an organizer's token sees everything
    staff = read("organizer")
    assert staff["table"]["being_checked"] is False and staff["table"]["results"]
    assert len(staff["hands"]) == len(staff["versions"]) == 1 and staff["result"]
    # once the round is checked, the read token sees it all
    round_complete(round_=round_)
    round_check(round_=round_, user=referee)
    seen = read("read")
    assert seen["table"]["being_checked"] is False and seen["table"]["results"]
    assert len(seen["hands"]) == 1 and seen["result"]


def test_the_api_shows_every_round_to_a_read_token_without_the_setting(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    event = make_event(4, is_public=True)
    table = seated_round(event).tables.get()
    played(table, django_capture_on_commit_callbacks)
    assert not Event.objects.get(pk=event.pk).results_after_check
    token = api_token_issue(event=event, name="read", scope="read").secret
    reader = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert reader.get(reverse("api_v1:table", args=[table.pk])).json()["being_checked"] is False
    assert len(reader.get(reverse("api_v1:table_hands", args=[table.pk])).json()) == 1
