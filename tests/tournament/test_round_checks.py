"""Checked rounds (issue 40): a checked round is locked; no write of it goes through until it is unlocked,
with a reason, by the event's owner or an organizer token. Every check and unlocking is kept."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory, token_client
from tournament.models import HandVersion, Penalty, Round, RoundCheck, Ruling, Seat, SeatResult, Table
from tournament.services.checks import round_check, round_unlock
from tournament.services.clock import clock_start
from tournament.services.discipline import (
    penalty_cancel,
    penalty_log,
    ruling_record,
    seat_mark_absent,
    seat_mark_present,
)
from tournament.services.hands import hand_record, hand_void
from tournament.services.results import table_finish, table_reopen
from tournament.services.roles import role_grant
from tournament.services.substitutes import substitute_seat

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def played(make_event, seated_round, admin_user):
    """Round 1 of an 8-player event: two tables, a hand and a result each, and a penalty at table 1."""
    event = make_event(8, clock_bank_seconds=60)
    event.owner = admin_user
    event.save(update_fields=["owner"])
    round_ = seated_round(event)
    tables = list(round_.tables.order_by("number"))
    for table in tables:
        hand_record(table=table, number=1, expected_version=0, data=RON)
        table_finish(table=table, end_reason="time")
    east = tables[0].seats.get(position=0)
    penalty = penalty_log(
        event=event, entry=east.entry, kind="art36_out_of_turn", reason="a slip", table=tables[0], hand_number=1
    )
    return event, round_, tables, penalty


def rows_now() -> tuple:
    return (
        HandVersion.objects.count(),
        SeatResult.objects.count(),
        Penalty.objects.count(),
        Penalty.objects.filter(cancelled_at__isnull=False).count(),
        Ruling.objects.count(),
        list(Seat.objects.order_by("pk").values_list("absence", "entry_id")),
        list(Table.objects.order_by("pk").values_list("status", flat=True)),
    )


def test_a_round_is_checked_only_once_every_table_has_its_result(make_event, seated_round):
    event = make_event(8)
    round_ = seated_round(event)
    table = round_.tables.order_by("number").first()
    hand_record(table=table, number=1, expected_version=0, data=RON)
    table_finish(table=table, end_reason="time")
    with pytest.raises(TaikaiError) as error:
        round_check(round_=round_)
    assert error.value.code == "round_not_finished" and "2" in error.value.message
    assert Round.objects.get(pk=round_.pk).checked_at is None and not RoundCheck.objects.exists()


def test_a_checked_round_refuses_every_write_of_its_tables_and_writes_nothing(played, admin_user):
    event, round_, tables, penalty = played
    round_check(round_=round_, user=admin_user)
    before = rows_now()
    table = tables[0]
    seat = table.seats.get(position=3)
    writes = {
        "table_reopen": lambda: table_reopen(table=table),
        "table_finish": lambda: table_finish(table=table, end_reason="time"),
        "hand_record": lambda: hand_record(table=table, number=1, expected_version=1, data=RON),
        "hand_void": lambda: hand_void(table=table, number=1, expected_version=1),
        "penalty_log": lambda: penalty_log(
            event=event, entry=seat.entry, kind="art36_out_of_turn", reason="x", table=table, hand_number=1
        ),
        "penalty_cancel": lambda: penalty_cancel(penalty=penalty, reason="a mistake"),
        "ruling_record": lambda: ruling_record(event=event, decision="replay the hand", table=table),
        "seat_mark_absent": lambda: seat_mark_absent(seat=seat, during=False),
        "seat_mark_present": lambda: seat_mark_present(seat=seat),
        "substitute_seat": lambda: substitute_seat(seat=seat, name="Sub Stitute", reason="late"),
        "clock_start": lambda: clock_start(table=table, hand_number=2, dealer_position=0),
    }
    for name, write in writes.items():
        with pytest.raises(TaikaiError) as error:
            write()
        assert (error.value.code, error.value.status) == ("round_locked", 409), name
        assert "round 1" in error.value.message, name
    assert rows_now() == before


def test_unlocking_needs_a_reason_is_kept_and_lets_the_round_change_again(played, admin_user):
    _, round_, tables, _ = played
    round_check(round_=round_, user=admin_user)
    with pytest.raises(TaikaiError) as error:
        round_unlock(round_=round_, reason="  ", user=admin_user)
    assert error.value.code == "reason_required"
    round_unlock(round_=round_, reason="table 1's hand 1 was misread", user=admin_user)
    table_reopen(table=tables[0])  # allowed again
    assert [(c.kind, c.reason, c.by) for c in RoundCheck.objects.order_by("pk")] == [
        ("check", "", admin_user),
        ("unlock", "table 1's hand 1 was misread", admin_user),
    ]
    with pytest.raises(TaikaiError) as again:
        round_unlock(round_=round_, reason="twice", user=admin_user)
    assert again.value.code == "not_checked"


def test_a_round_checked_twice_is_refused(played):
    _, round_, _, _ = played
    round_check(round_=round_)
    with pytest.raises(TaikaiError) as error:
        round_check(round_=round_)
    assert error.value.code == "already_checked" and error.value.status == 409


# --- the API: who may check and unlock


def post(client: Client, url: str, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def bearer(event, scope: str, tables: str = "") -> Client:
    return token_client(event, scope, tables)


def urls(event):
    return (
        reverse("api_v1:round_check", args=[event.slug, 1]),
        reverse("api_v1:round_unlock", args=[event.slug, 1]),
    )


@pytest.mark.parametrize(
    ("scope", "tables", "status"),
    [("organizer", "", 200), ("referee", "", 200), ("referee", "2", 200), ("read", "", 403)],
)
def test_who_may_check_a_round_through_the_api(played, scope, tables, status):
    event, round_, _, _ = played
    answer = post(bearer(event, scope, tables), urls(event)[0])
    assert answer.status_code == status, answer.content
    assert (Round.objects.get(pk=round_.pk).checked_at is not None) == (status == 200)
    if status == 200:
        assert answer.json()["checked"] is True and answer.json()["round"] == 1


def test_nobody_and_another_events_token_check_nothing(played, make_event):
    event, round_, _, _ = played
    other = make_event(4, slug="other", name="Other")
    assert post(Client(), urls(event)[0]).status_code == 401
    assert post(bearer(other, "organizer"), urls(event)[0]).status_code in (403, 404)
    assert Round.objects.get(pk=round_.pk).checked_at is None


def test_only_the_owner_or_an_organizer_token_unlocks_and_always_with_a_reason(played, admin_user):
    event, round_, _, _ = played
    round_check(round_=round_, user=admin_user)
    check_url, unlock_url = urls(event)
    co_organizer = EventRoleFactory(event=event, user__username="co", user__password="pw-123456", kind="organizer").user
    signed_in = Client()
    signed_in.force_login(co_organizer)
    assert post(signed_in, unlock_url, {"reason": "mine"}).status_code == 403  # an organizer, not the owner
    assert post(bearer(event, "referee"), unlock_url, {"reason": "mine"}).status_code == 403
    token = bearer(event, "organizer")
    refused = post(token, unlock_url, {"reason": ""})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "reason_required"
    assert Round.objects.get(pk=round_.pk).checked_at is not None
    assert post(token, unlock_url, {"reason": "a result was typed wrong"}).status_code == 200
    assert Round.objects.get(pk=round_.pk).checked_at is None
    owner = Client()
    owner.force_login(admin_user)
    assert post(owner, check_url).status_code == 200
    assert post(owner, unlock_url, {"reason": "again"}).status_code == 200


def test_a_hand_sent_to_a_locked_round_through_the_api_answers_409_round_locked(played):
    event, round_, tables, _ = played
    round_check(round_=round_)
    answer = post(bearer(event, "referee"), reverse("api_v1:table_hands", args=[tables[0].pk]), {"number": 2, **RON})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "round_locked"


def test_a_head_referee_unlocks_a_round_and_a_referee_does_not(played, admin_user):
    event, round_, _, _ = played
    round_check(round_=round_, user=admin_user)
    _, unlock_url = urls(event)
    referee, head = (User.objects.create_user(name, password="pw-123456") for name in ("ref", "head"))
    role_grant(event=event, user=referee, kind="referee")
    role_grant(event=event, user=head, kind="referee", head=True)
    clients = {}
    for name, user in (("referee", referee), ("head", head)):
        clients[name] = Client()
        clients[name].force_login(user)
    assert post(clients["referee"], unlock_url, {"reason": "mine"}).status_code == 403
    assert post(clients["head"], unlock_url, {"reason": ""}).status_code == 400
    assert post(clients["head"], unlock_url, {"reason": "a seat was typed wrong"}).status_code == 200
    unlocking = RoundCheck.objects.get(round=round_, kind=RoundCheck.Kind.UNLOCK)
    assert unlocking.by == head and unlocking.reason == "a seat was typed wrong"


def test_only_a_referee_is_a_head_referee_and_changing_the_flag_grants_again(make_event):
    event = make_event(4)
    user = User.objects.create_user("someone", password="pw-123456")
    with pytest.raises(TaikaiError) as error:
        role_grant(event=event, user=user, kind="organizer", head=True)
    assert error.value.code == "invalid_head" and error.value.field == "head"
    plain = role_grant(event=event, user=user, kind="referee")
    head = role_grant(event=event, user=user, kind="referee", head=True)
    assert head.pk != plain.pk and head.head
    plain.refresh_from_db()
    assert plain.revoked_at is not None


def test_the_rounds_admin_page_checks_and_unlocks_with_a_reason(played, admin_user):
    _, round_, _, _ = played
    owner = Client()
    owner.force_login(admin_user)
    page = reverse("admin:tournament_round_change", args=[round_.pk])
    assert b'id="round-check"' in owner.get(page).content
    answer = owner.post(reverse("admin:tournament_round_check", args=[round_.pk]))
    assert answer.status_code == 302 and Round.objects.get(pk=round_.pk).checked_at is not None
    content = owner.get(page).content
    assert b'id="round-unlock"' in content and b'id="round-check"' not in content
    unlock = reverse("admin:tournament_round_unlock", args=[round_.pk])
    assert owner.get(unlock).status_code == 200
    assert owner.post(unlock, {"reason": ""}).status_code == 400
    assert Round.objects.get(pk=round_.pk).checked_at is not None
    assert owner.post(unlock, {"reason": "a result was typed wrong"}).status_code == 302
    assert Round.objects.get(pk=round_.pk).checked_at is None
    assert RoundCheck.objects.get(round=round_, kind=RoundCheck.Kind.UNLOCK).reason == "a result was typed wrong"


def test_the_rounds_admin_page_in_japanese(played, admin_user):
    _, round_, _, _ = played
    owner = Client(HTTP_ACCEPT_LANGUAGE="ja")
    owner.force_login(admin_user)
    content = owner.get(reverse("admin:tournament_round_change", args=[round_.pk])).content.decode()
    assert "この回戦を確認済みにする" in content
