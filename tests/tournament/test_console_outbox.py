"""The console's answers to a device's queue (``tournament/outbox.py``): JSON instead of a page, the
refusal naming its field, a conflict carrying the server's version; the service worker and the manifest."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournament.test_console import current, ron, sheet
from tournament.models import HandVersion, Penalty

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def test_a_queued_hand_is_answered_ok_in_json(admin_client, table):
    response = admin_client.post(sheet(table), ron(hand=1), **JSON)
    assert response.status_code == 200 and response.json()["ok"] is True
    assert current(table).version == 1


def test_a_queued_hand_the_form_refuses_names_its_field(admin_client, table):
    response = admin_client.post(sheet(table), ron(hand=1, han_1="4", fu_1=""), **JSON)
    error = response.json()["error"]
    assert response.status_code == 400 and error["field"] == "wins[0].fu" and "fu" in error["message"]
    assert not HandVersion.objects.exists()


def test_a_queued_hand_another_device_recorded_meanwhile_is_a_409_with_theirs(admin_client, table):
    admin_client.post(sheet(table), ron(hand=1, han_1="4"), **JSON)
    response = admin_client.post(sheet(table), ron(hand=1, han_1="1"), **JSON)
    body = response.json()
    assert response.status_code == 409 and body["error"]["code"] == "version_conflict"
    assert body["theirs"]["version"] == 1 and body["theirs"]["wins"][0]["han"] == 4
    # keeping mine: a new version from theirs, with who and when; theirs stays in the history
    kept = admin_client.post(sheet(table), ron(hand=1, han_1="1", expected_version=1), **JSON)
    assert kept.status_code == 200
    assert list(HandVersion.objects.order_by("version").values_list("version", "is_current")) == [
        (1, False),
        (2, True),
    ]


def test_a_conflict_carries_both_hands_in_full_mine_priced_as_it_would_be_recorded(admin_client, table):
    # given hand 1 recorded as South's 4 han 30 fu ron from West (7700)
    admin_client.post(sheet(table), ron(hand=1, han_1="4"), **JSON)
    # when another device sends its hand 1: South's 1 han 30 fu ron from West, in riichi
    body = admin_client.post(sheet(table), ron(hand=1, han_1="1", riichi_positions=1), **JSON).json()
    # then both come in words, each seat's points with them: 1000, and the riichi stick back
    south, west = body["mine"]["deltas"][1], body["mine"]["deltas"][2]
    assert south.endswith(" +1000") and west.endswith(" -1000") and body["mine"]["riichi"]
    assert body["theirs"]["deltas"][1].endswith(" +7700") and body["theirs"]["deltas"][2].endswith(" -7700")
    assert body["mine"]["label"] == body["theirs"]["label"] == "East 1"
    assert HandVersion.objects.count() == 1  # nothing written for mine


def test_an_online_save_of_a_hand_recorded_meanwhile_keeps_the_entry_to_record_as_a_correction(admin_client, table):
    admin_client.post(sheet(table), ron(hand=1, han_1="4"))
    response = admin_client.post(sheet(table), ron(hand=1, han_1="1", riichi_positions=1))
    page = response.content.decode()
    assert response.status_code == 409 and 'id="conflict"' in page and 'id="hand-form"' not in page
    resent = dict(response.context["conflict"]["fields"])
    assert resent["han_1"] == "1" and resent["riichi_positions"] == "1" and "expected_version" not in resent
    assert '<input type="hidden" name="expected_version" value="1">' in page
    assert HandVersion.objects.count() == 1


def test_a_queued_hand_equal_to_the_one_before_asks_to_be_sent_again(admin_client, table):
    admin_client.post(sheet(table), ron(hand=1), **JSON)
    same = ron(hand=2, dealer_position=1)
    refused = admin_client.post(sheet(table), same, **JSON)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "repeats_previous"
    again = admin_client.post(sheet(table), same | {"same_as_previous": "1"}, **JSON)
    assert again.status_code == 200 and current(table, 2).version == 1


def test_a_queued_write_sent_twice_with_its_key_is_recorded_once(admin_client, table):
    answers = [
        admin_client.post(sheet(table), ron(hand=1, idempotency_key="device-1-write-7"), **JSON) for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200] and answers[0].content == answers[1].content
    assert HandVersion.objects.count() == 1


def test_a_queued_penalty_is_answered_in_json(admin_client, table):
    seat = table.seats.order_by("position").first()
    url = reverse("console:penalty", args=[table.pk])
    refused = admin_client.post(url, {"seat": "", "kind": "", "hand_number": 1, "reason": "x"}, **JSON)
    assert refused.status_code == 400 and refused.json()["error"]["field"] in ("seat", "kind")
    fields = {
        "seat": seat.pk,
        "kind": "art35_revealed_hand",
        "hand_number": 1,
        "reason": "offline",
        "confirm_disqualification": "on",
    }
    response = admin_client.post(url, fields, **JSON)
    assert response.status_code == 200 and response.json()["ok"] is True
    assert Penalty.objects.get().entry_id == seat.entry_id


def test_the_service_worker_is_served_for_the_console_scope_with_its_files(client):
    response = client.get(reverse("console:service_worker"))
    source = response.content.decode()
    assert response["Content-Type"].startswith("text/javascript") and response["Cache-Control"] == "no-cache"
    assert reverse("console:service_worker").startswith(reverse("console:my_tables"))
    assert "/static/tournament/js/outbox.js" in source and reverse("javascript_catalog") in source
    assert client.get(reverse("console:service_worker")).content == response.content  # a stable version


def test_the_console_manifest_opens_my_tables_within_the_console(client):
    manifest = client.get(reverse("console:manifest")).json()
    assert manifest["start_url"] == manifest["scope"] == reverse("console:my_tables")
