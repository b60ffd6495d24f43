"""JSON nested 10,000 deep (which stops Python's parser with a ``RecursionError``) at the doors that read
JSON a person or a device sends: refused as bad input naming the field, or ignored where the field is
only a hint, never a 500; nothing is kept from it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from seasons.models import Series
from tournament.models import HandVersion

pytestmark = pytest.mark.django_db

DEEP = "[" * 10_000 + "]" * 10_000


@pytest.fixture
def organizer(admin_user) -> Client:
    client = Client(raise_request_exception=False)  # a 500 is an answer here, not an exception
    client.force_login(admin_user)
    return client


@pytest.mark.parametrize("deep", [DEEP, '{"a": ' * 10_000 + "1" + "}" * 10_000], ids=["arrays", "objects"])
def test_a_fixed_schedule_nested_10000_deep_is_a_400_naming_the_file(organizer, make_event, deep):
    event = make_event(8)
    upload = SimpleUploadedFile("plan.json", ('{"rounds": ' + deep + "}").encode(), "application/json")
    response = organizer.post(
        reverse("admin:tournament_event_schedule", args=[event.pk]), {"file": upload, "winds": "keep"}
    )
    assert response.status_code == 400
    assert "nests arrays and objects more than" in response.context["form"].errors["file"][0]
    event.refresh_from_db()
    assert not event.schedule


def test_the_consoles_yaku_nested_10000_deep_are_ignored_not_a_500(organizer, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    form = {
        "action": "hand",
        "outcome": "ron",
        "dealer_position": 0,
        "honba": 0,
        "expected_version": 0,
        "winner_1": 1,
        "discarder": 2,
        "han_1": "3",
        "fu_1": 30,
        "yaku_1": DEEP,
    }
    response = organizer.post(reverse("console:table", args=[table.pk]), form)
    assert response.status_code in (200, 302), response.content[:300]
    recorded = HandVersion.objects.get(hand__table=table)
    assert [win.get("yaku") for win in recorded.wins] in ([None], [[]])


def test_a_series_points_by_place_nested_10000_deep_is_the_fields_error_not_a_500(organizer):
    form = {"name": "Deep", "slug": "deep", "rule": "place_points", "place_points": DEEP, "is_public": "on"}
    response = organizer.post(reverse("admin:seasons_series_add"), form)
    assert response.status_code == 200
    assert "nest" in " ".join(response.context["adminform"].form.errors["place_points"])
    assert not Series.objects.exists()
