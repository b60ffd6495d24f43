"""The public pages of the player across events: the profile (events, place, points, hands), its opt-out,
the search, and the queries each page runs whatever the player's history."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from players.models import Player
from profiles import services
from profiles.models import ProfileSetting
from tests.fixtures.writes import writes_recorded
from tests.profiles.test_selectors import RON
from tournament.models import Entry, Event

pytestmark = [pytest.mark.django_db, pytest.mark.once]


def profile_url(player) -> str:
    return reverse("profiles:player", args=[player.pk])


@pytest.fixture
def played(make_event, play_round):
    """Player 02 won a ron with riichi, tanyao and pinfu from Player 03 in a completed round."""
    event = make_event(8, starts_on=date(2026, 4, 1), venue="Kyoto")
    play_round(event, RON)
    return event


def test_a_profile_shows_the_events_place_points_and_hands(client, played):
    player = Player.objects.get(display_name="Player 02")
    body = client.get(profile_url(player)).content.decode()
    assert "Spring Open" in body and "2026-04-01" in body and "Kyoto" in body
    assert '<td class="num">1</td>\n      <td class="num">38.9</td>' in body  # first place, 38.9 points (exact)
    assert 'id="hands"' in body and "Wins <strong>1</strong>" in body and "by ron <strong>1</strong>" in body
    assert "立直 Riichi" in body and "平和 Pinfu" in body
    dealt_in = client.get(profile_url(Player.objects.get(display_name="Player 03"))).content.decode()
    assert "Deal-ins (放銃) <strong>1</strong>" in dealt_in


def test_an_opted_out_profile_is_404_to_others_and_open_to_the_player(client, played):
    player = Player.objects.get(display_name="Player 02")
    me = User.objects.create_user("me")
    Player.objects.filter(pk=player.pk).update(user=me)
    ProfileSetting.objects.create(player=player, listed=False)
    assert client.get(profile_url(player)).status_code == 404
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get(profile_url(player)).status_code == 404
    own = Client()
    own.force_login(me)
    page = own.get(profile_url(player))
    assert page.status_code == 200 and "Show my profile" in page.content.decode()
    assert "no-store" in page["Cache-Control"]


def test_the_player_switches_their_profile_off_and_on(played):
    player = Player.objects.get(display_name="Player 02")
    me = User.objects.create_user("me")
    Player.objects.filter(pk=player.pk).update(user=me)
    own = Client()
    own.force_login(me)
    url = reverse("profiles:player_listed", args=[player.pk])
    assert own.post(url, {"listed": "0"}).status_code == 302
    assert Client().get(profile_url(player)).status_code == 404
    assert own.post(url, {"listed": "1"}).status_code == 302
    assert Client().get(profile_url(player)).status_code == 200


def test_nobody_but_the_player_switches_the_profile_and_nothing_is_written(played):
    player = Player.objects.get(display_name="Player 02")
    Player.objects.filter(pk=player.pk).update(user=User.objects.create_user("me"))
    url = reverse("profiles:player_listed", args=[player.pk])
    other = Client()
    other.force_login(User.objects.create_superuser("root"))
    with writes_recorded() as written:
        refused = other.post(url, {"listed": "0"})
        anonymous = Client().post(url, {"listed": "0"})
    assert refused.status_code == 403 and written == []
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


def test_a_merged_away_player_leads_to_the_kept_one(client, played):
    kept = Player.objects.get(display_name="Player 02")
    duplicate = Player.objects.create(display_name="Player Two")
    services.player_merge(kept=kept, merged=duplicate)
    response = client.get(profile_url(duplicate))
    assert response.status_code == 302 and response["Location"] == profile_url(kept)


def test_a_player_only_in_private_events_has_no_public_profile(client, make_event):
    event = make_event(1, is_public=False)
    assert client.get(profile_url(event.entries.get().player)).status_code == 404


def _player_in_events(ruleset, count: int) -> Player:
    player = Player.objects.create(display_name="Traveller")
    for i in range(count):
        event = Event.objects.create(
            name=f"Cup {i}", slug=f"cup-{i}", ruleset=ruleset, starts_on=date(2020, 1, 1 + i % 28)
        )
        Entry.objects.create(event=event, player=player)
    return player


@pytest.mark.parametrize("events", [2, 45])
def test_a_profile_runs_a_fixed_number_of_queries_and_shows_a_page_of_events(
    client, standard_ruleset, events, django_assert_max_num_queries
):
    player = _player_in_events(standard_ruleset, events)
    with django_assert_max_num_queries(6):
        body = client.get(profile_url(player)).content.decode()
    assert body.count('<tr><td><a href="/events/cup-') == min(events, 20)
    if events > 20:
        assert "Page 1 of 3 (45 events)" in body
        assert client.get(profile_url(player), {"page": 3}).content.decode().count('href="/events/cup-') == 5


@pytest.mark.parametrize("typed", ["やまだ", "ヤマダ", "yamada", "04130042"])
def test_the_search_page_finds_by_kana_romaji_and_ema_number(client, make_event, typed, django_assert_max_num_queries):
    event = make_event(60)
    yamada = Player.objects.create(display_name="山田 太郎", reading="やまだ たろう", external_id="04130042")
    Entry.objects.create(event=event, player=yamada)
    with django_assert_max_num_queries(3):
        body = client.get(reverse("profiles:search"), {"q": typed}).content.decode()
    assert profile_url(yamada) in body and "Player 01" not in body


def test_the_search_page_pages_a_long_list(client, make_event, django_assert_max_num_queries):
    make_event(120)
    with django_assert_max_num_queries(3):
        body = client.get(reverse("profiles:search"), {"q": "player"}).content.decode()
    profiles = re.findall(r'href="/players/\d+/"', body)
    assert len(profiles) == 50 and "Page 1 of 3 (120 players)" in body


def test_the_search_page_shows_each_players_latest_event_and_count_in_the_same_queries(
    client, make_event, standard_ruleset, django_assert_max_num_queries
):
    # given 60 players in one event, then each of them in 3 more public events (the last one the newest)
    make_event(60, starts_on=date(2024, 5, 1))
    players = list(Player.objects.all())
    for i in range(3):
        event = Event.objects.create(
            name=f"Cup {i}", slug=f"cup-{i}", ruleset=standard_ruleset, starts_on=date(2025, 1 + i, 10)
        )
        Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    # when the first page of 50 is read, then it costs what a page without history costs
    with django_assert_max_num_queries(3):
        body = client.get(reverse("profiles:search"), {"q": "player"}).content.decode()
    # and each of its rows names the newest event, its date, and the four events
    assert body.count('class="muted history"') == 50
    assert body.count("Latest event: Cup 2 (2025-03-10) · 4 events") == 50
