"""A queued write carries who made it (``tournament/outbox.py``, ``idempotency/middleware.py``): the name
the server signed on the page it was made on is checked on arrival, and a write is never recorded under
another person than its maker."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from idempotency.models import IdempotentRequest
from live.models import RefereeCall
from tests.tournament.test_console import ron, sheet
from tournament.models import HandVersion
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def phone(table):
    """A signed-in referee of the table's event on a client of their own."""
    staff_groups_install()

    def sign_in(name: str) -> Client:
        user = User.objects.filter(username=name).first() or User.objects.create_user(name, password="pw")
        user.groups.add(Group.objects.get(name=REFEREES_GROUP))
        role_grant(event=table.round.event, user=user, kind="referee")
        client = Client()
        client.force_login(user)
        return client

    return sign_in


def author_on(client, table) -> str:
    """The signed name the table's sheet is drawn with, as the device keeps it with a write."""
    page = client.get(sheet(table)).content.decode()
    return re.search(r'data-author="([^"]*)"', page).group(1)


def test_a_queued_hand_is_recorded_under_its_maker_when_the_maker_sends_it(phone, table):
    mori = phone("mori")
    response = mori.post(sheet(table), ron(hand=1, outbox_author=author_on(mori, table)), **JSON)
    assert response.status_code == 200 and response.json()["ok"] is True
    assert HandVersion.objects.get().recorded_by.username == "mori"


def test_a_hand_made_by_one_referee_and_sent_under_another_ones_session_is_refused_and_not_recorded(phone, table):
    mori, ueda = phone("mori"), phone("ueda")
    made_by_mori = author_on(mori, table)
    response = ueda.post(sheet(table), ron(hand=1, idempotency_key="k-1", outbox_author=made_by_mori), **JSON)
    error = response.json()["error"]
    assert response.status_code == 409 and error["code"] == "author_not_signed_in"
    assert error["field"] == "outbox_author" and "mori" in error["message"]
    assert not HandVersion.objects.exists() and not IdempotentRequest.objects.exists()
    # mori signs in again on the phone: the same write, the same key, is recorded once, as mori's
    again = mori.post(sheet(table), ron(hand=1, idempotency_key="k-1", outbox_author=made_by_mori), **JSON)
    assert again.status_code == 200 and HandVersion.objects.get().recorded_by.username == "mori"


def test_a_queued_hand_sent_after_its_makers_session_ended_waits_for_them(phone, table):
    mori = phone("mori")
    made_by_mori = author_on(mori, table)
    mori.logout()
    response = mori.post(sheet(table), ron(hand=1, outbox_author=made_by_mori), **JSON)
    assert response.status_code == 409 and response.json()["error"]["code"] == "author_not_signed_in"
    assert not HandVersion.objects.exists()


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # a changed signature
        lambda token: "eyJ1IjoxLCJuIjoibW9yaSIsImgiOiJ4In0:1tQ:forged",  # a name the server never signed
        lambda token: "not a token",
    ],
    ids=["changed", "made-up", "garbage"],
)
def test_a_queued_write_with_a_forged_author_is_refused_and_writes_nothing(phone, table, forge):
    mori = phone("mori")
    forged = forge(author_on(mori, table))
    response = mori.post(sheet(table), ron(hand=1, idempotency_key="k-2", outbox_author=forged), **JSON)
    assert response.status_code == 400 and response.json()["error"]["code"] == "author_invalid"
    assert not HandVersion.objects.exists() and not IdempotentRequest.objects.exists()


def test_a_json_write_with_another_referees_author_header_is_refused(phone, table):
    mori, ueda = phone("mori"), phone("ueda")
    url = reverse("console:penalty", args=[table.pk])
    seat = table.seats.order_by("position").first()
    fields = {
        "seat": seat.pk,
        "kind": "art35_revealed_hand",
        "hand_number": 1,
        "reason": "x",
        "confirm_disqualification": "on",
    }
    response = ueda.post(url, fields, HTTP_X_TAIKAI_AUTHOR=author_on(mori, table), **JSON)
    assert response.status_code == 409 and response.json()["error"]["code"] == "author_not_signed_in"
    assert not table.penalties.exists()


def test_a_write_made_before_its_makers_password_changed_is_refused(phone, table):
    mori = phone("mori")
    made_by_mori = author_on(mori, table)
    user = User.objects.get(username="mori")
    user.set_password("new-pw")
    user.save()
    mori.force_login(user)
    response = mori.post(sheet(table), ron(hand=1, outbox_author=made_by_mori), **JSON)
    assert response.status_code == 400 and response.json()["error"]["code"] == "author_stale"
    assert not HandVersion.objects.exists()


def test_a_write_its_maker_recorded_is_answered_as_done_under_any_session(phone, table):
    """The answer was lost (the network dropped), the session changed: the device sends it again and is
    told it is done, and nothing is recorded twice."""
    mori, ueda = phone("mori"), phone("ueda")
    made_by_mori = author_on(mori, table)
    write = ron(hand=1, idempotency_key="k-3", outbox_author=made_by_mori)
    first = mori.post(sheet(table), write, **JSON)
    mori.logout()
    for client in (mori, ueda):
        again = client.post(sheet(table), write, **JSON)
        assert again.status_code == 200 and again.content == first.content
        assert again["Idempotent-Replayed"] == "true"
    assert HandVersion.objects.count() == 1 and HandVersion.objects.get().recorded_by.username == "mori"


def test_a_queued_referee_call_is_answered_in_json_and_sent_twice_is_one_call(phone, table):
    mori = phone("mori")
    url = reverse("live:call", args=[table.pk])
    write = {"reason": "dispute", "idempotency_key": "k-4", "outbox_author": author_on(mori, table)}
    answers = [mori.post(url, write, **JSON) for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert all(a.json()["ok"] is True for a in answers)
    assert RefereeCall.objects.filter(table=table).count() == 1
    refused = mori.post(url, {"reason": "nonsense"}, **JSON)
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "reason"
