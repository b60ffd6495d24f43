"""Registration in the REST API (/api/v1/events/<slug>/registration, …/sign-ups, …/check-in/close): who reads
and who writes, each write through the services with the sign-up answered, the one error shape naming the
field, a write sent twice recorded once, and a list that never reads more than its page.

Every role against every endpoint is in tests/tournament/test_api_matrix.py."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from registration import services
from registration.models import BlockedEmail, Registration, SignUp, SignUpChange
from tests.factories import EventRoleFactory, RegistrationFactory, token_client
from tournament.models import Entry

pytestmark = pytest.mark.django_db
State = SignUp.State


@pytest.fixture
def event(make_event):
    return RegistrationFactory(event=make_event(0, is_public=False), cap=2, checkin_open=True).event


def bearer(event, scope: str) -> Client:
    return token_client(event, scope)


@pytest.fixture
def organizer(event) -> Client:
    return bearer(event, "organizer")


def sign(event, n: int) -> SignUp:
    return services.sign_up_create(
        event=event, values={"name": f"Player {n}", "email": f"p{n}@example.org"}, address=f"10.0.{n // 250}.{n % 250}"
    )


def url(name: str, event, *args) -> str:
    return reverse(f"api_v1:{name}", args=[event.slug, *args])


def post(client: Client, address: str, body=None, **headers):
    return client.post(address, json.dumps(body or {}), content_type="application/json", headers=headers)


def error(response) -> dict:
    return response.json()["error"]


def refusal(response) -> tuple[int, str, str | None]:
    """A refusal as its status, code and the field at fault."""
    found = error(response)
    return response.status_code, found["code"], found["field"]


# --- Reading --------------------------------------------------------------------------------------------


def test_a_read_token_reads_the_registration_and_its_counts_but_not_the_sign_ups(event):
    for n in range(1, 4):
        sign(event, n)
    reader = bearer(event, "read")
    answer = reader.get(url("event_registration", event))
    assert answer.status_code == 200
    body = answer.json()
    assert body["cap"] == 2 and body["open"] is True and body["places_left"] == 0 and body["checkin_open"] is True
    assert body["counts"] == {
        "pending": 0,
        "confirmed": 2,
        "waiting": 1,
        "withdrawn": 0,
        "refused": 0,
        "checked_in": 0,
    }
    assert body["asked"] == ["name", "reading", "club", "country", "external_id", "email"]
    refused = reader.get(url("event_sign_ups", event))
    assert refused.status_code == 403 and error(refused)["code"] == "forbidden"
    assert Client().get(url("event_registration", event)).status_code == 401  # the event is not public


def test_an_event_without_registration_answers_404(make_event):
    other = make_event(0, slug="no-sign-ups", is_public=False)
    answer = bearer(other, "read").get(url("event_registration", other))
    assert answer.status_code == 404 and error(answer)["code"] == "not_found"


def test_the_organizers_list_the_sign_ups_in_order_by_state_with_their_place_and_email(event, organizer):
    for n in range(1, 6):
        sign(event, n)
    listed = organizer.get(url("event_sign_ups", event)).json()
    assert listed["count"] == 5
    assert [(r["name"], r["state"], r["waiting_place"]) for r in listed["results"]] == [
        ("Player 1", "confirmed", None),
        ("Player 2", "confirmed", None),
        ("Player 3", "waiting", 1),
        ("Player 4", "waiting", 2),
        ("Player 5", "waiting", 3),
    ]
    first = listed["results"][0]
    assert first["email"] == "p1@example.org" and first["entry"] == SignUp.objects.get(name="Player 1").entry_id
    second_page = organizer.get(url("event_sign_ups", event), {"state": "waiting", "page_size": 2, "page": 2})
    assert [(r["name"], r["waiting_place"]) for r in second_page.json()["results"]] == [("Player 5", 3)]
    bad = organizer.get(url("event_sign_ups", event), {"state": "lost"})
    assert refusal(bad) == (400, "invalid_parameter", "state")


def test_a_list_reads_one_page_whatever_the_number_of_sign_ups(event, organizer, django_assert_max_num_queries):
    Registration.objects.filter(event=event).update(cap=3)
    for n in range(1, 41):
        sign(event, n)
    for size in (5, 30):
        # the token, the event, its registration, the count, the page, the first waiting place (and the
        # token's bookkeeping): the same few queries for a page of 5 or 30
        with django_assert_max_num_queries(7):
            answer = organizer.get(url("event_sign_ups", event), {"page_size": size, "page": 1})
        body = answer.json()
        assert answer.status_code == 200 and body["count"] == 40 and len(body["results"]) == size
    waiting = organizer.get(url("event_sign_ups", event), {"page_size": 30}).json()["results"][3:]
    assert [r["waiting_place"] for r in waiting] == list(range(1, 28))
    too_many = organizer.get(url("event_sign_ups", event), {"page_size": 501})
    assert refusal(too_many) == (400, "invalid_parameter", "page_size")


# --- Writing --------------------------------------------------------------------------------------------


def test_an_organizer_token_signs_someone_up_through_the_service(event, organizer):
    made = post(
        organizer,
        url("event_sign_ups", event),
        {"name": "Sato Hanako", "email": "Hanako@Example.org", "reading": "さとう はなこ", "language": "ja"},
    )
    assert made.status_code == 201
    body = made.json()
    sign_up = SignUp.objects.get()
    assert body["id"] == sign_up.pk and body["state"] == "confirmed" and body["entry"] == sign_up.entry_id
    assert body["email"] == "hanako@example.org" and sign_up.language == "ja"
    assert Entry.objects.get(pk=body["entry"]).player.display_name == "Sato Hanako"
    sign(event, 2)
    waiting = post(organizer, url("event_sign_ups", event), {"name": "Late", "email": "late@example.org"}).json()
    assert waiting["state"] == "waiting" and waiting["waiting_place"] == 1 and waiting["entry"] is None


def test_refusals_have_the_one_error_shape_naming_the_field_and_write_nothing(event, organizer):
    bad_email = post(organizer, url("event_sign_ups", event), {"name": "X", "email": "not-an-address"})
    assert bad_email.status_code == 400
    assert error(bad_email) == {
        "code": "invalid_email",
        "message": "enter a valid e-mail address",
        "field": "email",
    }
    no_name = post(organizer, url("event_sign_ups", event), {"email": "x@example.org"})
    assert refusal(no_name) == (400, "invalid_input", "name")
    assert not SignUp.objects.exists()
    Registration.objects.filter(event=event).update(closes_at=timezone.now() - timedelta(minutes=1))
    closed = post(organizer, url("event_sign_ups", event), {"name": "X", "email": "x@example.org"})
    assert refusal(closed) == (400, "registration_closed", "event")
    assert not SignUp.objects.exists()


def test_approving_a_pending_sign_up_confirms_it_and_names_the_organizer(event):
    Registration.objects.filter(event=event).update(approval=True)
    owner = EventRoleFactory(event=event, user__username="owner", kind="organizer").user
    session = Client()
    session.force_login(owner)
    pending = sign(event, 1)
    assert pending.state == State.PENDING
    approved = post(session, url("sign_up_approve", event, pending.pk))
    assert approved.status_code == 200 and approved.json()["state"] == "confirmed"
    assert SignUpChange.objects.filter(sign_up=pending, what="approved").get().by == owner
    again = post(session, url("sign_up_approve", event, pending.pk))
    assert refusal(again) == (400, "invalid_state", "state")


def test_refusing_with_block_frees_the_place_and_refuses_the_address_later(event, organizer):
    first, _second, third = sign(event, 1), sign(event, 2), sign(event, 3)
    refused = post(organizer, url("sign_up_refuse", event, first.pk), {"reason": "twice", "block": True})
    assert refused.status_code == 200 and refused.json()["state"] == "refused"
    assert BlockedEmail.objects.filter(event=event, email="p1@example.org", by=None).exists()
    third.refresh_from_db()
    assert third.state == State.CONFIRMED  # the place went to the waiting list
    blocked = post(organizer, url("event_sign_ups", event), {"name": "Again", "email": "p1@example.org"})
    assert refusal(blocked) == (400, "email_blocked", "email")


def test_withdrawing_for_the_player_promotes_the_first_waiting(event, organizer):
    first, _second, third = sign(event, 1), sign(event, 2), sign(event, 3)
    withdrawn = post(organizer, url("sign_up_withdraw", event, first.pk))
    assert withdrawn.status_code == 200 and withdrawn.json()["state"] == "withdrawn"
    assert SignUp.objects.get(pk=third.pk).state == State.CONFIRMED
    assert Entry.objects.get(pk=first.entry_id).status == Entry.Status.WITHDRAWN


def test_check_in_while_open_then_closing_it_marks_the_missing_away(event, organizer):
    first, second = sign(event, 1), sign(event, 2)
    checked = post(organizer, url("sign_up_check_in", event, first.pk))
    assert checked.status_code == 200 and checked.json()["checked_in_at"] is not None
    closed = post(organizer, url("checkin_close", event))
    assert closed.status_code == 200
    body = closed.json()
    assert body["away"] == [second.pk] and body["registration"]["checkin_open"] is False
    assert body["registration"]["counts"]["checked_in"] == 1
    assert Entry.objects.get(pk=second.entry_id).status == Entry.Status.AWAY
    late = post(organizer, url("sign_up_check_in", event, second.pk))
    assert refusal(late) == (400, "checkin_closed", "event")
    twice = post(organizer, url("checkin_close", event))
    assert refusal(twice) == (400, "checkin_closed", "event")


def test_moving_in_the_waiting_list_needs_a_reason_and_a_waiting_sign_up_to_go_before(event, organizer):
    confirmed = sign(event, 1)
    sign(event, 2)
    third, fourth = sign(event, 3), sign(event, 4)
    address = url("sign_up_move", event, fourth.pk)
    no_reason = post(organizer, address, {"before": third.pk, "reason": " "})
    assert refusal(no_reason) == (400, "reason_required", "reason")
    not_waiting = post(organizer, address, {"before": confirmed.pk, "reason": "called first"})
    assert refusal(not_waiting) == (400, "not_waiting", "before")
    moved = post(organizer, address, {"before": third.pk, "reason": "called first"})
    assert moved.status_code == 200 and moved.json()["waiting_place"] == 1
    to_the_end = post(organizer, address, {"before": None, "reason": "mistake"})
    assert to_the_end.json()["waiting_place"] == 2
    assert SignUpChange.objects.filter(sign_up=fourth, what="reordered").count() == 2


def test_a_write_sent_twice_with_its_key_is_recorded_once(event, organizer):
    body = {"name": "Twice", "email": "twice@example.org"}
    first = post(organizer, url("event_sign_ups", event), body, **{"Idempotency-Key": "sign-up-1"})
    again = post(organizer, url("event_sign_ups", event), body, **{"Idempotency-Key": "sign-up-1"})
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert SignUp.objects.filter(email="twice@example.org").count() == 1
    other = post(organizer, url("event_sign_ups", event), body | {"name": "Else"}, **{"Idempotency-Key": "sign-up-1"})
    assert other.status_code == 409 and error(other)["code"] == "idempotency_key_reused"


def test_who_may_not_write_is_refused_before_anything_is_written(event, make_event):
    sign_up = sign(event, 1)
    elsewhere = make_event(0, slug="elsewhere", is_public=False)
    for client in (bearer(event, "read"), bearer(event, "referee"), bearer(elsewhere, "organizer")):
        answer = post(client, url("sign_up_withdraw", event, sign_up.pk))
        assert answer.status_code == 403 and error(answer)["code"] == "forbidden"
        created = post(client, url("event_sign_ups", event), {"name": "X", "email": "x@example.org"})
        assert created.status_code == 403
    assert SignUp.objects.get().state == State.CONFIRMED and SignUp.objects.count() == 1
    not_here = make_event(0, slug="another", is_public=False)
    Registration.objects.create(event=not_here, opens_at=timezone.now(), closes_at=timezone.now(), cap=1)
    theirs = bearer(not_here, "organizer")
    assert post(theirs, url("sign_up_withdraw", not_here, sign_up.pk)).status_code == 404  # not their event's
