"""The registration pages: signing up (no account), the private link (state, withdraw, check in, details,
messages, the QR), and the check-in desk (organizers only)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from registration import services
from registration.models import Registration, SignUp, SignUpChange
from tests.factories import EventRoleFactory, RegistrationFactory
from tournament.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.once]


@pytest.fixture
def event(make_event):
    return RegistrationFactory(event=make_event(0), cap=1, checkin_open=True).event


def sign_up_url(event) -> str:
    return reverse("registration:sign_up", args=[event.slug])


def test_signing_up_needs_no_account_and_leads_to_the_private_page(client, event):
    page = client.get(sign_up_url(event))
    assert page.status_code == 200 and 'name="website"' in page.content.decode()
    response = client.post(sign_up_url(event), {"name": "Sato Hanako", "email": "Hanako@Example.org"})
    sign_up = SignUp.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "registration:private", args=[services.private_token(sign_up)]
    )
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
    assert client.get(forged).status_code == 403 and client.post(forged, {"action": "withdraw"}).status_code == 403
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
    referee = EventRoleFactory(event=event, user__username="ref", kind="referee").user
    client.force_login(referee)
    assert client.get(desk).status_code == 403
    organizer = EventRoleFactory(event=event, user__username="org", kind="organizer").user
    client.force_login(organizer)
    found = client.get(desk, {"q": "やまだ"}).content.decode()
    assert "山田太郎" in found
    client.post(desk, {"action": "check_in", "sign_up": made.pk})
    client.post(desk, {"action": "close"})
    absent.refresh_from_db()
    assert absent.entry.status == Entry.Status.AWAY
    assert SignUp.objects.get(pk=made.pk).checked_in_at is not None


def test_an_emails_link_opens_the_site_where_it_was_written_else_the_site_url(
    client, event, settings, django_capture_on_commit_callbacks
):
    """The demo started on another address: a sign-up made there is e-mailed a link to that address (not
    port 8000); a message written with no request (a worker, a command) links to ``SITE_URL``."""
    # given
    settings.SITE_URL = "https://taikai.example.org"
    # when
    with django_capture_on_commit_callbacks(execute=True):
        client.post(sign_up_url(event), {"name": "A", "email": "a@example.org"}, HTTP_HOST="localhost:9123")
    with django_capture_on_commit_callbacks(execute=True):
        second = services.sign_up_create(event=event, values={"name": "B", "email": "b@example.org"})
    # then
    first = SignUp.objects.get(name="A")
    assert len(mail.outbox) == 2
    assert f"http://localhost:9123/r/{services.private_token(first)}/" in mail.outbox[0].body
    assert f"https://taikai.example.org/r/{services.private_token(second)}/" in mail.outbox[1].body


def test_the_private_page_says_when_and_where_the_event_is_in_its_zone(client, event):
    # given: an event in Tokyo whose check-in opens at 09:30 there (00:30 UTC)
    event.starts_on, event.venue, event.time_zone = date(2026, 5, 3), "渋谷区民会館 3F", "Asia/Tokyo"
    event.save(update_fields=["starts_on", "venue", "time_zone"])
    opens = datetime(2026, 5, 3, 0, 30, tzinfo=UTC)
    Registration.objects.filter(event=event).update(checkin_opens_at=opens)
    made = services.sign_up_create(event=event, values={"name": "A", "email": "a@example.org"})
    # when
    page = client.get(reverse("registration:private", args=[services.private_token(made)]), HTTP_ACCEPT_LANGUAGE="ja")
    # then
    shown = " ".join(
        re.sub(r"<[^>]+>", " ", page.content.decode().split('id="when-where"')[1].split("</dl>")[0]).split()
    )
    assert "2026-05-03" in shown and "09:30" in shown and "JST" in shown and "渋谷区民会館 3F" in shown
    assert "00:30" not in shown


def desk_with_organizer(client, event):
    organizer = EventRoleFactory(event=event, user__username="org", kind="organizer").user
    client.force_login(organizer)
    return reverse("registration:desk", args=[event.slug])


def test_the_desk_finds_a_player_by_romaji_as_the_public_pages_do(client, event):
    # given: one confirmed, one waiting, both by kana reading only
    Registration.objects.filter(event=event).update(cap=1)
    services.sign_up_create(
        event=event, values={"name": "鈴木 一郎", "reading": "すずき いちろう", "email": "s@example.org"}
    )
    services.sign_up_create(
        event=event, values={"name": "佐藤 花子", "reading": "さとう はなこ", "email": "h@example.org"}
    )
    desk = desk_with_organizer(client, event)
    # when / then: romaji, katakana, romaji without long vowels, the e-mail address
    for typed, name in (
        ("suzuki", "鈴木 一郎"),
        ("Suzuki Ichirou", "鈴木 一郎"),
        ("スズキ", "鈴木 一郎"),
        ("satou", "佐藤 花子"),
        ("sato", "佐藤 花子"),
        ("h@example.org", "佐藤 花子"),
    ):
        found = client.get(desk, {"q": typed}).context["found"]
        assert [s.name for s in found] == [name], typed


def test_a_tap_on_a_missing_name_checks_in_once_and_can_be_undone(client, event):
    # given
    made = services.sign_up_create(event=event, values={"name": "A", "email": "a@example.org"})
    desk = desk_with_organizer(client, event)
    page = client.get(desk).content.decode()
    missing = page.split('id="missing"')[1].split("</ul>")[0]
    assert f'name="sign_up" value="{made.pk}"' in missing and 'value="check_in"' in missing
    key = re.search(r'name="idempotency_key" value="(\w+)"', missing).group(1)
    # when: the tap is sent twice (a double tap, a resend)
    tap = {"action": "check_in", "sign_up": made.pk, "q": "", "idempotency_key": key}
    first, again = client.post(desk, tap), client.post(desk, tap)
    # then: checked in once, and the desk offers to undo it
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert SignUpChange.objects.filter(sign_up=made, what="checked_in").count() == 1
    shown = client.get(first["Location"]).content.decode()
    assert 'id="undo"' in shown and f'value="{made.pk}"' in shown.split('id="undo"')[1].split("</form>")[0]
    # when: undone
    client.post(desk, {"action": "undo_check_in", "sign_up": made.pk})
    # then: missing again, the undo recorded
    made.refresh_from_db()
    assert made.checked_in_at is None and SignUpChange.objects.filter(sign_up=made, what="check_in_undone").exists()


def test_the_event_home_and_the_venue_show_the_promoted_player_and_mark_the_withdrawn_one(
    client, make_event, django_capture_on_commit_callbacks
):
    # given: four places taken and one player waiting; the standings computed (nobody has played yet)
    event = make_event(0)
    now = timezone.now()
    Registration.objects.create(event=event, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1), cap=4)
    with django_capture_on_commit_callbacks(execute=True):
        sign_ups = [
            services.sign_up_create(event=event, values={"name": f"Player {n}", "email": f"p{n}@example.org"})
            for n in range(1, 6)
        ]
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
