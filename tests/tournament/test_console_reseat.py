"""The console's re-seat page: who really sat where, a confirmation that writes nothing, then the re-seat; a
refusal is shown on the page (or answered in JSON to a device's queue), nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import HandVersion, Ruling, Seat
from tournament.services.hands import hand_record

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


def page(table):
    return reverse("console:reseat", args=[table.pk])


def players(table):
    return list(table.seats.order_by("position").values_list("entry__player_id", flat=True))


def seats(order, **fields):
    return {f"seat_{position}": player for position, player in enumerate(order)} | fields


def test_the_page_asks_to_confirm_before_anything_is_written(admin_client, table):
    assert b'id="reseat-link"' in admin_client.get(reverse("console:table", args=[table.pk])).content
    response = admin_client.get(page(table))
    assert response.status_code == 200 and b'id="id_seat_3"' in response.content
    real = players(table)[::-1]
    response = admin_client.post(page(table), seats(real, reason="seen late"))
    assert response.status_code == 200 and b'id="reseat-summary"' in response.content
    assert not Ruling.objects.exists() and HandVersion.objects.count() == 1

    response = admin_client.post(page(table), seats(real, reason="seen late", confirm="on"))
    assert response.status_code == 302 and response.headers["Location"] == reverse("console:table", args=[table.pk])
    assert players(table) == real
    assert HandVersion.objects.filter(hand__table=table, is_current=True).get().version == 2
    assert "seen late" in Ruling.objects.get(table=table).decision


def test_a_refusal_is_shown_on_the_page_and_nothing_is_written(admin_client, table):
    before = players(table)
    response = admin_client.post(page(table), seats(before, confirm="on"))
    assert response.status_code == 400 and b'id="reseat-errors"' in response.content
    twice = [before[0], before[0], before[2], before[3]]
    assert admin_client.post(page(table), seats(twice, confirm="on")).status_code == 400
    assert admin_client.post(page(table), seats(before[:3], confirm="on")).status_code == 400  # North missing
    assert players(table) == before and not Ruling.objects.exists()
    assert list(Seat.objects.filter(table=table).values_list("position", flat=True)) == [0, 1, 2, 3]


def test_a_devices_queue_sends_only_a_confirmed_reseat(admin_client, table):
    real = players(table)[::-1]
    json = {"HTTP_ACCEPT": "application/json"}
    response = admin_client.post(page(table), seats(real), **json)
    assert response.status_code == 400 and response.json()["error"]["code"] == "confirm_required"
    response = admin_client.post(page(table), seats(players(table), confirm="on"), **json)
    assert response.json()["error"]["code"] == "seats_unchanged"
    assert not Ruling.objects.exists()
    response = admin_client.post(page(table), seats(real, confirm="on"), **json)
    assert response.status_code == 200 and response.json()["ok"] is True
    assert players(table) == real
