"""Request bodies the API cannot take: over the size limit, answered with the API's JSON error (400
``body_too_large``) whatever reads the body first, in debug mode too; nothing is written."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from idempotency.models import IdempotentRequest
from tests.factories import EventRoleFactory
from tournament.models import HandVersion

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
@pytest.mark.parametrize("key", [None, "k-big"], ids=["no-key", "with-key"])
def test_an_api_body_over_the_limit_is_refused_with_the_apis_json_error(make_event, seated_round, settings, debug, key):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE, settings.DEBUG = 2000, debug
    table = seated_round(make_event(4)).tables.get()
    user = EventRoleFactory(event=table.round.event, user__username="kato", kind="referee").user
    client = Client()
    client.force_login(user)
    body = json.dumps({"number": 1, **RON, "note": "x" * 5000})
    headers = {"Idempotency-Key": key} if key else {}
    answer = client.post(
        reverse("api_v1:table_hands", args=[table.pk]), body, content_type="application/json", headers=headers
    )
    assert answer.status_code == 400 and answer["Content-Type"] == "application/json"
    assert answer.json()["error"]["code"] == "body_too_large" and answer.json()["error"]["field"] == "body"
    assert not HandVersion.objects.exists() and not IdempotentRequest.objects.exists()
