"""The registration pages: signing up (no account), the private link (state, withdraw, check in, details,
messages, the QR), and the check-in desk (organizers only)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from registration import services
from registration.models import Registration, SignUp
from tournament.models import Entry
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.django_db, pytest.mark.once]


@pytest.fixture
def event(make_event):
    event = make_event(0)
    now = timezone.now()
    Registration.objects.create(event=event, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1),
                                cap=1, checkin_opens_at=now - timedelta(hours=1))  # fmt: skip
    return event


def sign_up_url(event) -> str:
    return reverse("registration:sign_up", args=[event.slug])


def test_signing_up_needs_no_account_and_leads_to_the_private_page(client, event):
    page = client.get(sign_up_url(event))
    assert page.status_code == 200 and 'name="website"' in page.content.decode()
    response = client.post(sign_up_url(event), {"name": "Sato Hanako", "email": "Hanako@Example.org"})
    sign_up = SignUp.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("registration:private", args=[services.private_token(sign_up)])  # fmt: skip
    assert sign_up.email == "hanako@example.org" and sign_up.state == SignUp.State.CONFIRMED
    private = client.get(response["Location"])
    body = private.content.decode()
    assert private.status_code == 200 and "Confirmed" in body and 'class="segno"' in body
    assert private["Referrer-Policy"] == "same-origin" and "no-store" in private["Cache-Control"]


def test_a_sign_up_the_form_refuses_is_a_400_naming_the_field_and_writes_nothing(client, event):
    response = client.post(sign_up_url(event), {"name": "", "email": "not-an-address"})
    assert response.status_code == 400 and not SignUp.objects.exists()
    trapped = client.post(sign_up_url(event), {"name": "Bot", "email": "b@example.org", "website": "x"})
    assert trapped.status_code == 400 and not SignUp.objects.exists()


def test_the_private_page_withdraws_and_the_waiting_player_is_promoted(client, event):
    first = services.sign_up_create(event=event, values={"name": "A", "email": "a@example.org"})
    second = services.sign_up_create(event=event, values={"name": "B", "email": "b@example.org"})
    url = reverse("registration:private", args=[services.private_token(first)])
    assert client.post(url, {"action": "withdraw"}).status_code == 302
    second.refresh_from_db()
    assert second.state == SignUp.State.CONFIRMED
    assert "Withdrawn" in client.get(url).content.decode()


def test_the_private_page_checks_in_and_a_forged_link_is_refused(client, event):
    made = services.sign_up_create(event=event, values={"name": "A", "email": "a@example.org"})
    url = reverse("registration:private", args=[services.private_token(made)])
    assert client.post(url, {"action": "check_in"}).status_code == 302
    made.refresh_from_db()
    assert made.checked_in_at is not None
    forged = reverse("registration:private", args=[f"{made.pk}-{made.nonce}.forged"])
    assert (
        client.get(forged).status_code == 403
        and client.post(forged, {"action": "withdraw"}).status_code == 403
    )
    made.refresh_from_db()
    assert made.state == SignUp.State.CONFIRMED


def test_the_desk_is_the_organizers_checks_in_searches_and_closes(client, event):
    made = services.sign_up_create(
        event=event, values={"name": "山田太郎", "email": "y@example.org", "reading": "やまだ"}
    )
    absent = services.sign_up_create(event=event, values={"name": "B", "email": "b@example.org"})
    Registration.objects.filter(event=event).update(cap=2)
    services.registration_cap_set(event=event, cap=2, by=None)
    desk = reverse("registration:desk", args=[event.slug])
    assert client.get(desk).status_code == 302  # sign in first
    referee = User.objects.create_user("ref")
    role_grant(event=event, user=referee, kind="referee")
    client.force_login(referee)
    assert client.get(desk).status_code == 403
    organizer = User.objects.create_user("org")
    role_grant(event=event, user=organizer, kind="organizer")
    client.force_login(organizer)
    found = client.get(desk, {"q": "やまだ"}).content.decode()
    assert "山田太郎" in found
    client.post(desk, {"action": "check_in", "sign_up": made.pk})
    client.post(desk, {"action": "close"})
    absent.refresh_from_db()
    assert absent.entry.status == Entry.Status.AWAY
    assert SignUp.objects.get(pk=made.pk).checked_in_at is not None


def test_the_event_home_and_the_venue_show_the_promoted_player_and_mark_the_withdrawn_one(
    client, make_event, django_capture_on_commit_callbacks
):
    # given: four places taken and one player waiting; the standings computed (nobody has played yet)
    event = make_event(0)
    now = timezone.now()
    Registration.objects.create(event=event, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1),
                                cap=4)  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        sign_ups = [services.sign_up_create(event=event, values={"name": f"Player {n}", "email": f"p{n}@example.org"})
                    for n in range(1, 6)]  # fmt: skip
    assert sign_ups[-1].state == SignUp.State.WAITING
    # when: the first player withdraws, and the waiting one is confirmed in her place
    with django_capture_on_commit_callbacks(execute=True):
        services.sign_up_withdraw(sign_up=sign_ups[0])
    # then: the top list and the venue's standings list the promoted player, the active players before the
    # withdrawn one (all tied), and mark her
    home = client.get(reverse("tournament:event", args=[event.slug])).content.decode()
    venue = client.get(reverse("tournament:venue", args=[event.slug]) + "?view=standings").content.decode()
    for body in (home, venue):
        names = listed_names(body)
        assert names == ["Player 2", "Player 3", "Player 4", "Player 5", "Player 1 (withdrawn)"]
    # and: a place added later confirms the next waiting player, who is listed too
    with django_capture_on_commit_callbacks(execute=True):
        late = services.sign_up_create(event=event, values={"name": "Player 6", "email": "p6@example.org"})
        services.registration_cap_set(event=event, cap=5, by=None)
    late.refresh_from_db()
    assert late.state == SignUp.State.CONFIRMED
    venue = client.get(reverse("tournament:venue", args=[event.slug]) + "?view=standings").content.decode()
    assert listed_names(venue)[-2:] == ["Player 6", "Player 1 (withdrawn)"]


def listed_names(body: str) -> list[str]:
    """The player cell of each row of the page's standings table, as read (tags dropped)."""
    rows = re.findall(r"<tr><td class=\"num\">\d+</td><td>(.*?)</td>", body, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", row).split()) for row in rows]
