"""Confirming a table's result from hands that stop before the game's end (a hanchan is played to South 4):
refused with the place it stopped and its end named, unless the referee says why it ends there, which is
recorded as a ruling (art. 44). Through the service, the console's form and the REST API."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from taikai.errors import TaikaiError
from tests.factories import token_client
from tournament.models import Ruling, SeatResult, Table
from tournament.services.hands import hand_record
from tournament.services.results import table_finish

pytestmark = pytest.mark.django_db


def passing_ron(dealer: int) -> dict:
    """The seat after the dealer wins off the seat after it: the deal passes on, as in most hands."""
    return {
        "outcome": "ron",
        "dealer_position": dealer,
        "wins": [{"winner": (dealer + 1) % 4, "discarder": (dealer + 2) % 4, "han": 2, "fu": 40}],
    }


def played(table, hands: int):
    """``hands`` hands recorded at ``table``, each passing the deal: 6 stop at South 2, 8 end at South 4."""
    for number in range(1, hands + 1):
        hand_record(table=table, number=number, expected_version=0, data=passing_ron((number - 1) % 4))
    return table


def test_hands_stopped_at_south_2_are_not_confirmed_without_a_reason(table):
    played(table, 6)
    with translation.override("ja"), pytest.raises(TaikaiError) as refused:
        table_finish(table=table)
    assert (refused.value.code, refused.value.field) == ("game_not_finished", "end_reason")
    assert "南2局" in refused.value.message and "南4局で終了" in refused.value.message
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert not SeatResult.objects.exists() and not Ruling.objects.exists()


def test_the_time_running_out_confirms_them_and_is_recorded_as_a_ruling(table, admin_user):
    played(table, 6)
    with translation.override("en"):
        rows = table_finish(table=table, end_reason="time", user=admin_user)
    assert len(rows) == 4
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    ruling = Ruling.objects.get(table=table)
    assert ruling.decided_by == admin_user
    assert "South 2" in ruling.decision and "South 4" in ruling.decision
    assert "the round's time ran out" in ruling.decision


def test_another_reason_needs_its_words(table):
    played(table, 6)
    with pytest.raises(TaikaiError) as refused:
        table_finish(table=table, end_reason="other", end_note="  ")
    assert (refused.value.code, refused.value.field) == ("end_note_required", "end_note")
    with pytest.raises(TaikaiError) as refused:
        table_finish(table=table, end_reason="tired")
    assert (refused.value.code, refused.value.field) == ("invalid_end_reason", "end_reason")
    assert not SeatResult.objects.exists() and not Ruling.objects.exists()
    table_finish(table=table, end_reason="other", end_note="a player fell ill")
    assert Ruling.objects.get(table=table).decision.endswith("a player fell ill")


def test_a_game_played_to_south_4_is_confirmed_without_a_question(table):
    played(table, 8)
    assert len(table_finish(table=table)) == 4
    assert not Ruling.objects.exists()


def test_a_dealer_repeat_at_south_4_is_not_the_end(table):
    played(table, 7)
    dealer_wins = {"outcome": "ron", "dealer_position": 3, "wins": [{"winner": 3, "discarder": 0, "han": 2, "fu": 40}]}
    hand_record(table=table, number=8, expected_version=0, data=dealer_wins)
    with translation.override("en"), pytest.raises(TaikaiError) as refused:
        table_finish(table=table)
    assert "South 4" in refused.value.message and refused.value.code == "game_not_finished"


def test_the_console_form_asks_why_and_records_the_answer(table, admin_client):
    played(table, 6)
    sheet = reverse("console:table", args=[table.pk])
    page = admin_client.get(sheet, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'id="game-stop"' in page and "対局は南2局で止まっています。この対局は南4局で終了します。" in page
    refused = admin_client.post(sheet, {"action": "finish"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 400
    assert not SeatResult.objects.exists()
    done = admin_client.post(sheet, {"action": "finish", "end_reason": "time"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert done.status_code == 302
    assert "対局時間切れ" in Ruling.objects.get(table=table).decision


def test_the_api_refuses_with_game_not_finished_unless_the_reason_is_given(make_event, seated_round):
    event = make_event(4, is_public=False)
    table = played(seated_round(event).tables.get(), 6)
    client = token_client(event, "referee")
    url = reverse("api_v1:table_result", args=[table.pk])
    refused = client.post(url, json.dumps({}), content_type="application/json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (error["code"], error["field"]) == ("game_not_finished", "end_reason")
    assert not SeatResult.objects.exists()
    done = client.post(url, json.dumps({"end_reason": "time"}), content_type="application/json")
    assert done.status_code == 201
    assert Ruling.objects.filter(table=table).count() == 1
