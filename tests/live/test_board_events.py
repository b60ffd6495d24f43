"""Which event's board a director sees: ``/console/board/`` lists the events where they are an organizer or a
referee, today's first (the only one of today opens at once); the board's address names its event; an event
where they hold no role has no board for them (404); the console, the admin's event page and the event page
link to it for those with a role."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from tournament.models import Event
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.django_db, pytest.mark.once]


@pytest.fixture
def events(make_event):
    """Two events running today, one next month, and one running today where the director has no role."""
    today = timezone.localdate()
    running = dict(status=Event.Status.RUNNING, starts_on=today, is_public=True)
    return {
        "north": make_event(0, name="North Cup", slug="north-cup", **running),
        "south": make_event(0, name="South Cup", slug="south-cup", **running),
        "later": make_event(0, name="Later Open", slug="later-open", starts_on=today + timedelta(days=30)),
        "theirs": make_event(0, name="Not Mine", slug="not-mine", **running),
    }


@pytest.fixture
def director(client):
    user = User.objects.create_user("kato", password="pw")
    client.force_login(user)
    return user


def test_the_picker_lists_todays_events_of_the_director_first_and_never_another_event(client, events, director):
    # given: a referee of two events today and an organizer of one next month
    role_grant(event=events["north"], user=director, kind="referee")
    role_grant(event=events["south"], user=director, kind="referee")
    role_grant(event=events["later"], user=director, kind="organizer")
    # when
    page = client.get(reverse("live:board"))
    # then
    body = page.content.decode()
    today = body.split('id="today"')[1].split("</ul>")[0]
    others = body.split('id="others"')[1].split("</ul>")[0]
    assert page.status_code == 200
    assert "North Cup" in today and "South Cup" in today and "Later Open" in others
    assert reverse("live:board_event", args=["south-cup"]) in today
    assert "Not Mine" not in body


def test_the_only_event_of_today_opens_at_once_and_its_board_names_it(client, events, director):
    role_grant(event=events["south"], user=director, kind="organizer")
    role_grant(event=events["later"], user=director, kind="referee")
    response = client.get(reverse("live:board"))
    assert response.status_code == 302 and response["Location"] == reverse("live:board_event", args=["south-cup"])
    board = client.get(response["Location"]).content.decode()
    assert "South Cup" in board and "North Cup" not in board


def test_an_event_without_a_role_has_no_board_whatever_the_address(client, events, director):
    role_grant(event=events["north"], user=director, kind="referee")
    assert client.get(reverse("live:board_event", args=["not-mine"])).status_code == 404
    old = client.get(reverse("live:board") + "?event=not-mine", follow=True)  # the old address
    assert old.status_code == 404
    assert client.get(reverse("live:board") + "?event=north-cup", follow=True).redirect_chain[-1][0] == reverse(
        "live:board_event", args=["north-cup"]
    )


def test_the_board_is_linked_from_the_console_the_event_page_and_the_admin(client, events, director):
    # given: a referee of one event
    role_grant(event=events["north"], user=director, kind="referee")
    board = reverse("live:board_event", args=["north-cup"])
    # then: the console links the picker; the event page links the board for its directors only
    assert reverse("live:board") in client.get(reverse("console:my_tables")).content.decode()
    assert board in client.get(reverse("tournament:event", args=["north-cup"])).content.decode()
    assert (
        reverse("live:board_event", args=["not-mine"])
        not in client.get(reverse("tournament:event", args=["not-mine"])).content.decode()
    )
    client.logout()
    assert board not in client.get(reverse("tournament:event", args=["north-cup"])).content.decode()
    # and the admin's event page, for its organizers
    organizer = User.objects.create_superuser("boss", password="pw")
    client.force_login(organizer)
    admin_page = client.get(reverse("admin:tournament_event_change", args=[events["north"].pk])).content.decode()
    assert board in admin_page
