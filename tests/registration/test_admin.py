"""The organizer's registration form in the admin: the details asked and required as checkboxes (stored as
before, a detail required but not asked refused on its field), and more places once the event is under way
(who would be promoted shown; promoted only when the organizer asks)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from registration import services
from registration.models import SignUp
from tests.factories import RegistrationFactory

pytestmark = [pytest.mark.django_db, pytest.mark.once]


@pytest.fixture
def registration(make_event):
    return RegistrationFactory(event=make_event(0), cap=1, checkin_open=True)


def form_data(registration, **values) -> dict:
    local = timezone.localtime
    data = {
        "event": registration.event_id,
        "cap": registration.cap,
        "pending_per_email": 2,
        "opens_at_0": local(registration.opens_at).strftime("%Y-%m-%d"),
        "opens_at_1": "00:00",
        "closes_at_0": local(registration.closes_at).strftime("%Y-%m-%d"),
        "closes_at_1": "23:59",
        "asked": ["reading", "club"],
        "required": [],
    }
    return data | values


def change_url(registration) -> str:
    return reverse("admin:registration_registration_change", args=[registration.pk])


def test_the_details_are_checkboxes_stored_as_before(admin_client, registration):
    # given
    page = admin_client.get(change_url(registration)).content.decode()
    assert re.search(r'<input type="checkbox" name="asked" value="reading"[^>]*checked', page)
    assert '<textarea name="asked"' not in page
    # when
    response = admin_client.post(
        change_url(registration), form_data(registration, asked=["reading", "club"], required=["club"])
    )
    # then
    registration.refresh_from_db()
    assert response.status_code == 302
    assert registration.asked == ["name", "reading", "club", "email"]
    assert registration.required == ["name", "club", "email"]


def test_a_detail_required_but_not_asked_is_refused_on_its_field(admin_client, registration):
    before = (registration.asked, registration.required)
    response = admin_client.post(
        change_url(registration), form_data(registration, asked=["reading"], required=["club", "reading"])
    )
    assert response.status_code == 200
    assert "required but not asked" in str(response.context["adminform"].form.errors["required"])
    registration.refresh_from_db()
    assert (registration.asked, registration.required) == before


def test_more_places_under_way_show_who_would_be_promoted_and_promote_only_when_asked(client, registration):
    # given: one confirmed, one waiting, check-in closed (the event is under way)
    organizer = User.objects.create_superuser("org", password="x")
    client.force_login(organizer)
    event = registration.event
    services.sign_up_create(event=event, values={"name": "Here", "email": "h@example.org"})
    waiting = services.sign_up_create(event=event, values={"name": "Waiting Wada", "email": "w@example.org"})
    services.checkin_close(event=event, by=organizer)
    registration.refresh_from_db()
    # when the places are raised
    response = client.post(change_url(registration), form_data(registration, cap=2), follow=True)
    # then nobody is promoted, and the organizer is told who would be
    said = " ".join(str(m) for m in response.context["messages"])
    assert "nobody was promoted" in said and "Waiting Wada" in said
    assert SignUp.objects.get(pk=waiting.pk).state == SignUp.State.WAITING
    # when the organizer asks for it
    client.post(change_url(registration), form_data(registration, cap=2, promote_under_way="on"))
    # then the player is promoted, away until the desk
    waiting.refresh_from_db()
    assert waiting.state == SignUp.State.CONFIRMED and waiting.entry.status == "away"
