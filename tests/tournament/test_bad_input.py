"""Bad input at every door of the tournament app is refused with a code (HTTP 400, or a form that says
what is wrong), never a 500, and nothing is written."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import HandVersion, Penalty, Table, TableClock

pytestmark = pytest.mark.django_db

RON = {
    "action": "hand",
    "outcome": "ron",
    "dealer_position": 0,
    "honba": 0,
    "expected_version": 0,
    "winner_1": 1,
    "discarder": 2,
    "han_1": "3",
    "fu_1": 30,
}


@pytest.fixture
def table(make_table) -> Table:
    return make_table(clock_bank_seconds=30)


@pytest.fixture
def organizer(admin_user) -> Client:
    client = Client(raise_request_exception=False)  # a 500 is an answer here, not an exception
    client.force_login(admin_user)
    return client


def sheet(table, query=""):
    return reverse("console:table", args=[table.pk]) + query


def penalty_page(table, query=""):
    return reverse("console:penalty", args=[table.pk]) + query


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        (lambda t: sheet(t, "?hand=abc"), 400),
        (lambda t: sheet(t, "?hand=1000000"), 400),
        (lambda t: sheet(t, "?hand=" + "9" * 5000), 400),
        (lambda t: sheet(t, "?confirm=absent_during&seat=abc"), 200),
        (lambda t: sheet(t, "?confirm=absent_during&seat=1000000000000"), 200),
        (lambda t: penalty_page(t, "?hand=abc&seat=abc"), 200),
        (lambda t: penalty_page(t, "?hand=1000000&seat=1000000000000"), 200),
        (
            lambda t: reverse("admin:tournament_penalty_add") + "?event=abc&table=abc&entry=abc&hand_number=abc",
            200,
        ),
        (
            lambda t: reverse("admin:tournament_penalty_add") + "?event=100000000000000000000&hand_number=1000000",
            200,
        ),
        (lambda t: reverse("admin:tournament_ruling_add") + "?event=abc&table=1e3", 200),
        (lambda t: reverse("admin:tournament_entry_add") + "?event=abc&player=abc&status=zzz", 200),
        (lambda t: reverse("admin:tournament_handversion_changelist") + "?hand=abc&honba=1000000000000", 302),
        (lambda t: reverse("admin:tournament_penalty_changelist") + "?hand_number=abc&seat=abc", 302),
    ],
    ids=lambda value: "" if callable(value) else str(value),
)
def test_bad_numbers_in_an_address_are_not_a_500(organizer, table, address, expected):
    response = organizer.get(address(table))
    assert response.status_code == expected, response.content[:300]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"honba": 10**12}, "honba"),
        ({"han_1": "1,000,000,000"}, "han"),
        ({"han_1": "1000000000"}, "han"),
        ({"fu_1": "9" * 5000}, "fu"),
        ({"expected_version": "abc"}, "version"),
    ],
)
def test_bad_numbers_in_a_hand_are_a_400_naming_the_field_and_nothing_is_written(organizer, table, changes, field):
    response = organizer.post(sheet(table), RON | changes)
    assert response.status_code == 400 and field in response.content.decode().lower()
    assert not HandVersion.objects.exists()


def test_a_penalty_for_hand_10_to_the_12_is_refused_and_nothing_is_written(organizer, table):
    seat = table.seats.get(position=1)
    response = organizer.post(
        penalty_page(table), {"seat": seat.pk, "kind": "art35_revealed_hand", "hand_number": 10**12, "reason": "shown"}
    )
    assert response.status_code == 400 and not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": ' * 100_000, "nested too deeply"),
        (b'{"hand_number": 1, "dealer_position": 0', "JSON parse error"),
        (b'{"hand_number": "\\ud800", "dealer_position": 0}', "lone UTF-16 surrogate"),
        (b"\xff\xfe", "JSON parse error"),
    ],
    ids=["nested 100,000 deep", "opened 100,000 deep", "cut short", "lone surrogate", "not UTF-8"],
)
def test_a_clock_body_that_is_not_json_is_a_400_with_a_code(organizer, table, body, message):
    url = reverse("tournament_api:clock_start", args=[table.pk])
    response = organizer.post(url, body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_json" and message in error["message"]
    assert not TableClock.objects.exists()


def test_a_clock_hand_number_of_40000_is_a_400_naming_it(organizer, table):
    url = reverse("tournament_api:clock_start", args=[table.pk])
    response = organizer.post(url, {"hand_number": 40000, "dealer_position": 0}, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "hand_number"


@pytest.mark.parametrize(
    ("address", "field"),
    [
        ("/api/v1/players/?external_id=a%00b", "external_id"),
        ("/scoring/api/evaluate?ruleset=%00", "ruleset"),
        ("/api/v1/events/?a%00=1", "a"),
        ("/events/?q=%00", "q"),
    ],
)
def test_a_nul_character_in_a_query_is_a_400_naming_the_parameter(address, field):
    """PostgreSQL refuses a NUL in text: it is refused at the door, anonymously too, with its code."""
    response = Client(raise_request_exception=False).get(address, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json()["error"] | {"message": ""} == {
        "code": "invalid_parameter",
        "field": field,
        "message": "",
    }


def test_a_nul_character_on_a_page_is_a_page_that_says_so(organizer, table):
    response = organizer.get(sheet(table, "?hand=1%00"))
    assert response.status_code == 400 and b"NUL" in response.content


@pytest.mark.parametrize("size", ["-5", "0", "abc", "501", "１０"])
def test_a_page_size_out_of_range_is_a_400_naming_it(size):
    response = Client().get(f"/api/v1/players/?page_size={size}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_parameter" and response.json()["error"]["field"] == "page_size"
    assert Client().get("/api/v1/players/?page_size=10").status_code == 200


@pytest.mark.parametrize("address", ["/api/v1/no-such-thing", "/api/nothing/here", "/scoring/api/nope"])
def test_an_unknown_api_address_answers_in_the_apis_error_shape(address):
    response = Client().get(address)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_yaku_list_longer_than_any_hand_is_refused_and_nothing_is_written(organizer, table):
    from taikai.errors import TaikaiError
    from tournament.services.hands import hand_record

    win = {"winner": 1, "discarder": 2, "han": 3, "fu": 30, "yaku": [["riichi", 1]] * 41}
    with pytest.raises(TaikaiError) as info:
        hand_record(
            table=table, number=1, expected_version=0, data={"outcome": "ron", "dealer_position": 0, "wins": [win]}
        )
    assert (info.value.code, info.value.field) == ("invalid_yaku", "wins[0].yaku")
    assert not HandVersion.objects.exists()


def test_a_json_list_of_more_than_20000_items_is_refused_before_any_work(organizer, table):
    body = '{"number": 1, "outcome": "ron", "dealer_position": 0, "wins": [' + ",".join(["{}"] * 20001) + "]}"
    response = organizer.post(reverse("api_v1:table_hands", args=[table.pk]), body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_json"
    assert "more than 20000 items" in response.json()["error"]["message"]
    assert not HandVersion.objects.exists()


def test_a_body_over_the_size_limit_is_a_400_in_the_apis_error_shape(organizer, table, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = '{"number": 1, "outcome": "draw", "dealer_position": 0, "note": "' + "x" * 20_000 + '"}'
    response = organizer.post(reverse("api_v1:table_hands", args=[table.pk]), body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] and error["message"]
    assert not HandVersion.objects.exists()
