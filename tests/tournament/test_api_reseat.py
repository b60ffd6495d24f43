"""``POST /api/v1/tables/<id>/reseat``: 201 with the table in its real seats; bad input 400 with its field and code,
a checked round 409 ``round_locked``; nothing written on a refusal."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tournament.models import HandVersion, Ruling
from tournament.services.checks import round_check
from tournament.services.hands import hand_record
from tournament.services.results import table_finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table):
    table = make_table()
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]},
    )
    return table


def reseat(client, table, body):
    url = reverse("api_v1:table_reseat", args=[table.pk])
    return client.post(url, json.dumps(body), content_type="application/json")


def players(table):
    return list(table.seats.order_by("position").values_list("entry__player_id", flat=True))


def test_the_table_is_answered_in_its_real_seats(admin_client, table):
    entries = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    response = reseat(admin_client, table, {"seats": players(table)[::-1], "reason": "seen at hand 2"})
    assert response.status_code == 201
    assert [seat["entry"] for seat in response.json()["seats"]] == entries[::-1]
    assert HandVersion.objects.get(hand__table=table, is_current=True).version == 2


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, None),
        ({"seats": "1,2,3,4"}, None),
        ({"seats": [1, 2, 3, 4, 5]}, None),
        ({"seats": "others"}, None),
        ({"seats": "first three"}, "invalid_seats"),
        ({"seats": "twice"}, "duplicate_player"),
        ({"seats": "stranger"}, "player_not_at_table"),
        ({"seats": "same"}, "seats_unchanged"),
    ],
)
def test_bad_input_is_a_400_with_its_field_and_nothing_written(admin_client, table, body, code):
    ids = players(table)
    named = {
        "others": ["a", "b", "c", "d"],
        "first three": ids[:3],
        "twice": [ids[1], ids[1], ids[2], ids[3]],
        "stranger": [ids[1], ids[0], ids[2], max(ids) + 100],
        "same": ids,
    }
    if isinstance(body.get("seats"), str) and body["seats"] in named:
        body = {"seats": named[body["seats"]]}
    response = reseat(admin_client, table, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "seats" or error["field"].startswith("seats")
    if code is not None:
        assert error["code"] == code
    assert players(table) == ids and not Ruling.objects.exists() and HandVersion.objects.count() == 1


def test_a_confirmed_table_is_a_400_and_a_checked_round_a_409(admin_client, table):
    table_finish(table=table, end_reason="time")
    rulings = Ruling.objects.count()
    response = reseat(admin_client, table, {"seats": players(table)[::-1]})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "table_finished")
    round_check(round_=table.round)
    response = reseat(admin_client, table, {"seats": players(table)[::-1]})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "round_locked")
    assert Ruling.objects.count() == rulings and HandVersion.objects.count() == 1
