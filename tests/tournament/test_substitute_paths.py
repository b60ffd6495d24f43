"""Seating a substitute 代走 from each door: the admin's page chooses the stored player by a name search (never a
raw id), the console's table sheet (its referees) and the REST API (``POST /api/v1/tables/<id>/substitutes``),
all through ``tournament.services.substitutes``. Who may is in the roles and API matrices."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from players.models import Player
from tests.factories import EventRoleFactory, token_client
from tournament.models import Entry, Ruling
from tournament.services.hands import hand_record

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def table(make_table):
    return make_table(is_public=False)


@pytest.fixture
def three_suzukis():
    """Three stored players of one name, told apart by their club."""
    return [
        Player.objects.create(display_name="鈴木 一郎", reading="すずき いちろう", club=club)
        for club in ("Osaka Riichi", "Kobe Mahjong", "Nagoya Club")
    ]


def test_the_admin_finds_the_substitute_by_name_and_tells_namesakes_apart(admin_client, table, three_suzukis):
    url = reverse("admin:tournament_table_substitute", args=[table.pk])
    page = admin_client.get(url + "?q=suzuki").content.decode()
    assert "player id" not in page and 'type="number"' not in page
    for player in three_suzukis:
        assert f'value="{player.pk}"' in page
        assert f"鈴木 一郎 (すずき いちろう · {player.club})" in page
    assert "Player 01" not in page.split('id="substitute-candidates"')[1]  # players of the event are not offered
    kobe = three_suzukis[1]
    response = admin_client.post(url, {"seat": table.seats.get(position=2).pk, "player": kobe.pk, "reason": "ill"})
    assert response.status_code == 302
    assert table.seats.get(position=2).entry.player == kobe


def test_the_admin_search_offers_no_player_of_the_event(admin_client, table):
    url = reverse("admin:tournament_table_substitute", args=[table.pk])
    page = admin_client.get(url + "?q=player").content.decode()
    assert "No stored player who may substitute matches" in page


def test_a_referee_seats_a_substitute_from_the_table_sheet(client, table, three_suzukis, django_user_model):

    referee = EventRoleFactory(event=table.round.event, user__username="ref", kind="referee", tables="1").user
    client.force_login(referee)
    seat = table.seats.get(position=1)
    sheet = client.get(reverse("console:table", args=[table.pk])).content.decode()
    link = reverse("console:substitute", args=[table.pk]) + f"?seat={seat.pk}"
    assert f'href="{link}"' in sheet and sheet.count('class="button substitute"') == 4
    url = reverse("console:substitute", args=[table.pk])
    page = client.get(url + f"?seat={seat.pk}&q=すずき").content.decode()
    assert all(f'value="{p.pk}"' in page for p in three_suzukis)
    response = client.post(url, {"seat": seat.pk, "player": three_suzukis[2].pk})
    assert response.status_code == 302 and response["Location"] == reverse("console:table", args=[table.pk])
    substitute = table.seats.get(position=1).entry
    assert substitute.player == three_suzukis[2] and substitute.substitute_for is not None
    assert Ruling.objects.get(table=table).decided_by == referee
    # the substitute's seat offers no second substitute; the three others still do
    sheet = client.get(reverse("console:table", args=[table.pk])).content.decode()
    assert sheet.count('class="button substitute"') == 3 and f'?seat={seat.pk}"' not in sheet


def test_the_console_refuses_a_substitute_after_the_first_hand_with_the_reason(admin_client, table):
    hand_record(table=table, number=1, expected_version=0, data=RON)
    url = reverse("console:substitute", args=[table.pk])
    response = admin_client.post(url, {"seat": table.seats.get(position=0).pk, "name": "Too Late"})
    assert response.status_code == 400
    assert "a substitute takes a seat before the table&#x27;s first hand" in response.content.decode()
    assert not Player.objects.filter(display_name="Too Late").exists()


def api_client(table, tables: str = "1") -> Client:
    return token_client(table.round.event, "referee", tables, name="tablet")


def post(client, table, body):
    return client.post(
        reverse("api_v1:table_substitutes", args=[table.pk]), json.dumps(body), content_type="application/json"
    )


def test_the_api_seats_a_stored_player_or_a_new_one_for_the_tables_referee(table, three_suzukis):
    client = api_client(table)
    response = post(client, table, {"position": 0, "player": three_suzukis[0].pk, "reason": "train late"})
    assert response.status_code == 201, response.content
    seats = {seat["position"]: seat for seat in response.json()["seats"]}
    assert table.seats.get(position=0).entry.player == three_suzukis[0]
    substitute = table.seats.get(position=0).entry
    assert (seats[0]["entry"], seats[0]["player"]) == (substitute.pk, "鈴木 一郎")
    response = post(client, table, {"position": 1, "name": "Stand In"})
    assert response.status_code == 201
    assert Entry.objects.get(player__display_name="Stand In").substitute_for is not None


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"position": 0}, "player_required", "player"),
        ({"position": 0, "player": 999999}, "unknown_player", "player"),
        ({"position": 7, "name": "X"}, None, "position"),
    ],
)
def test_the_api_names_the_field_at_fault(table, body, code, field):
    response = post(api_client(table), table, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field and (code is None or error["code"] == code)
    assert not Entry.objects.filter(substitute_for__isnull=False).exists()


def test_the_api_refuses_a_player_of_the_event_and_a_table_already_playing(table):
    client = api_client(table)
    player_of_the_event = table.seats.get(position=3).entry.player
    response = post(client, table, {"position": 0, "player": player_of_the_event.pk})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "unknown_player")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    response = post(client, table, {"position": 0, "name": "Too Late"})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "game_started")
