"""Linking a player to an account is the player's own act, from their personal link while signed in; an
organizer does not link anyone (issue 24, item 2)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from players.models import Player
from tests.fixtures.writes import writes_recorded
from tournament.models import Entry, EventRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(make_event):
    return make_event(4, is_public=False).entries.order_by("id").first()


def _url(entry) -> str:
    return reverse("tournament:player_account_link", args=[entry.event.slug, entry.pk])


def _player_client(entry, user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    assert client.get(reverse("tournament:player_link", args=[entry.link_token])).status_code == 302
    return client


def test_a_player_links_their_account_from_their_personal_link(entry):
    me = User.objects.create_user("kenta")
    client = _player_client(entry, me)
    page = client.get(reverse("tournament:player", args=[entry.event.slug, entry.pk])).content.decode()
    assert 'id="link-account"' in page and "Link this player to my account (kenta)" in page
    response = client.post(_url(entry))
    assert response.status_code == 302
    assert Player.objects.get(pk=entry.player_id).user == me
    # from then on the account opens the page on any device, with no link
    elsewhere = Client()
    elsewhere.force_login(me)
    page = elsewhere.get(reverse("tournament:player", args=[entry.event.slug, entry.pk])).content.decode()
    assert 'id="account-linked"' in page and 'id="link-account"' not in page


def test_the_link_alone_offers_no_account_linking_and_sends_to_sign_in(entry):
    client = _player_client(entry, None)
    page = client.get(reverse("tournament:player", args=[entry.event.slug, entry.pk])).content.decode()
    assert 'id="link-account"' not in page
    with writes_recorded() as written:
        response = client.post(_url(entry))
    assert response.status_code == 302 and "login" in response.headers["Location"] and written == []


@pytest.mark.parametrize("who", ["plain_user", "owner", "superuser_without_link"])
def test_nobody_links_a_player_without_the_players_link(entry, who):
    """Not another account, not the event's organizer: the page's form is the player's own. (A superuser
    links accounts in the admin, not here.)"""
    user = User.objects.create_user(who, is_superuser=who.startswith("superuser"), is_staff=who != "plain_user")
    if who == "owner":
        entry.event.owner = user
        entry.event.save(update_fields=["owner"])
    client = Client()
    client.force_login(user)
    with writes_recorded() as written:
        response = client.post(_url(entry))
    assert response.status_code == 403 and written == []
    assert Player.objects.get(pk=entry.player_id).user is None


def test_a_player_keeps_its_account_and_an_account_is_one_player(entry):
    first, second = User.objects.create_user("first"), User.objects.create_user("second")
    Player.objects.filter(pk=entry.player_id).update(user=first)
    refused = _player_client(entry, second).post(_url(entry))
    assert refused.status_code == 400 and "already linked to another account" in refused.content.decode()
    assert Player.objects.get(pk=entry.player_id).user == first
    other = entry.event.entries.exclude(pk=entry.pk).first()
    refused = _player_client(other, first).post(_url(other))
    assert refused.status_code == 400 and "your account is already linked to" in refused.content.decode()


def test_reading_the_page_only_reads(entry):
    client = _player_client(entry, User.objects.create_user("kenta"))
    with writes_recorded() as written:
        client.get(reverse("tournament:player", args=[entry.event.slug, entry.pk]))
    assert [w for w in written if "player" in w.lower()] == []


@pytest.mark.parametrize("role", ["owner", "organizer", "referee"])
def test_the_events_staff_with_a_players_link_links_no_account(entry, make_event, role):
    """An organizer holds every personal link of their event: with one, linking the player to their own
    account would open that player's private pages in other organizers' events. Nobody with a role in
    the event links its players (issue 24, item 2); a superuser does, in the admin."""
    other_event = make_event(4, is_public=False, slug="private-b")
    other_entry = other_event.entries.order_by("id").first()
    Entry.objects.filter(pk=other_entry.pk).update(player=entry.player)
    staff = User.objects.create_user(role, is_staff=True)
    if role == "owner":
        entry.event.owner = staff
        entry.event.save(update_fields=["owner"])
    else:
        EventRole.objects.create(event=entry.event, user=staff, kind=role)
    client = _player_client(entry, staff)
    page = client.get(reverse("tournament:player", args=[entry.event.slug, entry.pk])).content.decode()
    assert 'id="link-account"' not in page
    with writes_recorded() as written:
        response = client.post(_url(entry))
    assert response.status_code == 403 and written == []
    assert Player.objects.get(pk=entry.player_id).user is None
    private = client.get(reverse("tournament:player", args=[other_event.slug, other_entry.pk]))
    assert private.status_code == 404
