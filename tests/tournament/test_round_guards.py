"""Guards before a round (issue 40): seating the next round refuses, with a count and what to do, when too
few active players are there to fill a table; in the admin and through the API alike."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation

from taikai.errors import TaikaiError
from tournament.models import Entry, SeatingJob
from tournament.services.seating import round_seat_next, seating_job_request
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db


def _short_of_players(event) -> None:
    """Two of the four players withdraw: two are left for a table of four."""
    Entry.objects.filter(pk__in=list(event.entries.values_list("pk", flat=True)[:2])).update(
        status=Entry.Status.WITHDRAWN
    )


def test_seating_refuses_too_few_players_with_a_count(make_event):
    event = make_event(4)
    _short_of_players(event)
    for seat in (lambda: seating_job_request(event=event), lambda: round_seat_next(event=event, round_number=1)):
        with pytest.raises(TaikaiError) as error, translation.override("en"):
            seat()
        assert error.value.code == "not_enough_players" and error.value.field == "event"
        assert "2 active players" in error.value.message and "needs 4" in error.value.message
    assert not SeatingJob.objects.exists() and not event.rounds.exists()


def test_enough_players_are_seated(make_event):
    event = make_event(4)
    assert seating_job_request(event=event).round_number == 1


def test_the_api_refuses_too_few_players_with_400_not_enough_players(make_event):
    event = make_event(4)
    secret = api_token_issue(event=event, name="desk", scope="organizer").secret
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    url = reverse("api_v1:event_rounds", args=[event.slug])
    _short_of_players(event)
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "not_enough_players" and answer.json()["error"]["field"] == "event"
    Entry.objects.filter(event=event).update(status=Entry.Status.ACTIVE)
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 202 and answer.json()["round"] == 1
    reader = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_issue(event=event, name='r', scope='read').secret}")
    assert reader.post(url, content_type="application/json").status_code == 403


def test_the_admin_says_there_are_not_enough_players(make_event, admin_user):
    event = make_event(4)
    event.owner = admin_user
    event.save(update_fields=["owner"])
    _short_of_players(event)
    client = Client()
    client.force_login(admin_user)
    answer = client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    assert answer.status_code == 302
    [message] = [str(m) for m in get_messages(answer.wsgi_request)]
    assert "not enough players to seat round 1" in message and "2 active players" in message
    assert not SeatingJob.objects.exists()


def test_three_players_are_enough_where_the_event_seats_short_tables(make_event):
    event = make_event(4, seating_remainder="three")
    Entry.objects.filter(pk=event.entries.order_by("id").first().pk).update(status=Entry.Status.WITHDRAWN)
    assert seating_job_request(event=event).round_number == 1  # one table of three, as the seating would
    event.seating_remainder = "bye"
    event.save(update_fields=["seating_remainder"])
    SeatingJob.objects.all().delete()
    with pytest.raises(TaikaiError) as error:
        seating_job_request(event=event)
    assert error.value.code == "not_enough_players" and "3 active players" in error.value.message
