"""Every write can be sent twice (issue 25, the server's part): a key made by the client makes the second
sending give back the first answer and write nothing, for the API and the console alike."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from idempotency.models import IdempotentRequest
from tests.factories import EventRoleFactory
from tournament.models import ApiToken, EventRole, HandVersion
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def referee(table) -> Client:
    user = EventRoleFactory(event=table.round.event, user__username="kato", kind="referee").user
    client = Client()
    client.force_login(user)
    return client


def send_hand(client: Client, table, key: str | None, body: dict | None = None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        reverse("api_v1:table_hands", args=[table.pk]),
        json.dumps(body or {"number": 1, **RON}),
        content_type="application/json",
        headers=headers,
    )


def test_the_same_key_twice_records_once_and_answers_the_same(referee, table):
    first = send_hand(referee, table, "7f3c2a10-hand-1")
    again = send_hand(referee, table, "7f3c2a10-hand-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert HandVersion.objects.filter(hand__table=table).count() == 1


def test_the_same_key_with_another_write_is_a_409_and_writes_nothing(referee, table):
    send_hand(referee, table, "k-1")
    other = send_hand(referee, table, "k-1", {"number": 2, "outcome": "exhaustive_draw", "dealer_position": 1})
    assert other.status_code == 409 and other.json()["error"]["code"] == "idempotency_key_reused"
    assert HandVersion.objects.filter(hand__table=table).count() == 1


def test_without_a_key_a_second_sending_is_refused_by_the_version_as_before(referee, table):
    assert send_hand(referee, table, None).status_code == 201
    assert send_hand(referee, table, None).status_code == 409  # hand 1 exists: version_conflict
    assert HandVersion.objects.filter(hand__table=table).count() == 1


def test_a_replay_checks_the_sender_again(referee, table):
    """A referee whose role was taken back does not get the answer of their earlier write: the replay goes
    through the role check, which refuses them, and nothing is written."""
    assert send_hand(referee, table, "k-2").status_code == 201
    EventRole.objects.filter(event=table.round.event).update(revoked_at=timezone.now())
    refused = send_hand(referee, table, "k-2")
    assert refused.status_code in (403, 404) and "Idempotent-Replayed" not in refused
    assert HandVersion.objects.filter(hand__table=table).count() == 1


def test_one_senders_key_is_not_anothers_answer(referee, table):
    send_hand(referee, table, "k-3")
    outsider = Client()
    outsider.force_login(User.objects.create_user("outsider"))
    refused = send_hand(outsider, table, "k-3")
    assert refused.status_code in (403, 404) and "Idempotent-Replayed" not in refused


def test_the_consoles_form_sent_twice_with_its_key_records_one_hand(referee, table):
    form = {
        "action": "hand",
        "hand": "1",
        "expected_version": "0",
        "outcome": "ron",
        "dealer_position": "0",
        "honba": "0",
        "winner_1": "1",
        "discarder": "2",
        "han_1": "3",
        "fu_1": "30",
        "idempotency_key": "form-1b2c",
    }
    url = reverse("console:table", args=[table.pk])
    first, again = referee.post(url, form), referee.post(url, form)
    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert HandVersion.objects.filter(hand__table=table).count() == 1


@pytest.mark.parametrize("key", ["with space", "x" * 101, "キー"])
def test_a_key_that_is_not_a_key_is_a_400_naming_it(referee, table, key):
    response = send_hand(referee, table, "placeholder") if False else None
    response = referee.post(
        reverse("api_v1:table_hands", args=[table.pk]),
        json.dumps({"number": 1, **RON}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key.encode().decode("latin-1"),
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_idempotency_key",
        "field": "Idempotency-Key",
        "message": response.json()["error"]["message"],
    }
    assert not HandVersion.objects.exists()


def test_keys_are_kept_seven_days(referee, table):
    send_hand(referee, table, "old-key")
    send_hand(referee, table, "new-key", {"number": 2, "outcome": "exhaustive_draw", "dealer_position": 0})
    IdempotentRequest.objects.filter(key="old-key").update(created_at=timezone.now() - timedelta(days=7, hours=1))
    IdempotentRequest.objects.filter(key="new-key").update(created_at=timezone.now() - timedelta(days=6, hours=23))
    call_command("forget_idempotency_keys", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new-key"]


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_fifty_sendings_of_one_key_at_once_record_one_hand(make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    user = EventRoleFactory(event=table.round.event, user__username="kato", kind="referee").user
    answers, start = [], threading.Barrier(50)

    def sender():
        from django.db import connection

        client = Client()
        client.force_login(user)
        start.wait()
        try:
            answers.append(send_hand(client, table, "burst-1").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sender) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert HandVersion.objects.filter(hand__table=table).count() == 1
    assert sorted(set(answers)) == [201], answers  # the first answer, fifty times


def test_strangers_with_made_up_tokens_are_refused_and_keep_no_rows(table):
    """A key is kept only for a sender Taikai knows: a made-up token (or a revoked one) answers 401 and
    stores nothing, however many fresh keys it sends, with bodies large or small."""
    revoked = api_token_issue(event=table.round.event, name="old", scope="referee")
    ApiToken.objects.filter(pk=revoked.token.pk).update(revoked_at=timezone.now())
    before = IdempotentRequest.objects.count()
    padding = "x" * 100_000
    for n in range(30):
        secret = revoked.secret if n % 3 == 0 else f"made-up-{n}"
        stranger = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
        answer = send_hand(stranger, table, f"fresh-{n}", {"number": 1, **RON, "note": padding})
        assert answer.status_code == 401
    assert IdempotentRequest.objects.count() == before


def test_a_write_refused_to_a_known_sender_keeps_no_row(referee, make_event, seated_round):
    """A referee of one event writing to another event's table is refused (403): nothing was done, so
    nothing is kept, and the same key may be used once they may write there."""
    elsewhere = seated_round(make_event(4, slug="elsewhere", name="Elsewhere")).tables.get()
    before = IdempotentRequest.objects.count()
    assert send_hand(referee, elsewhere, "k-elsewhere").status_code in (403, 404)
    assert IdempotentRequest.objects.count() == before


def test_an_answer_over_the_size_limit_is_kept_without_its_body(referee, table, settings):
    settings.IDEMPOTENCY_MAX_ANSWER_BYTES = 16
    first = send_hand(referee, table, "k-long-answer")
    assert first.status_code == 201 and len(first.content) > 16
    assert bytes(IdempotentRequest.objects.get(key="k-long-answer").body) == b""
    again = send_hand(referee, table, "k-long-answer")
    assert (again.status_code, again.content, again["Idempotent-Replayed"]) == (201, b"", "true")
    assert HandVersion.objects.filter(hand__table=table).count() == 1
