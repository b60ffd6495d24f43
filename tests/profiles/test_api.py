"""The player across events in the REST API: the search and the profile answer what the pages show (the same
selectors, the same players left out), a page at a time, in a fixed number of queries, and write nothing."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Player
from profiles import api, selectors, services, views
from profiles.models import ProfileSetting
from tests.fixtures.writes import writes_recorded
from tests.profiles.test_selectors import RON, TSUMO
from tournament.models import Entry, Event

pytestmark = [pytest.mark.django_db, pytest.mark.once]

SEARCH = reverse("profiles_api:search")


def profile_url(player_id: int) -> str:
    return reverse("profiles_api:profile", args=[player_id])


def found(client, **params) -> list[int]:
    response = client.get(SEARCH, params)
    assert response.status_code == 200
    return [row["id"] for row in response.json()["results"]]


@pytest.fixture
def played(make_event, play_round):
    """Player 02 wins by ron from Player 03, then by tsumo, in a hand-by-hand event; they also played an older
    event of final scores (no standings yet) and a private one."""
    event = make_event(8, starts_on=date(2026, 4, 1), ends_on=date(2026, 4, 2), venue="Kyoto")
    play_round(event, RON)
    play_round(event, TSUMO)
    player = Player.objects.get(display_name="Player 02")
    older = Event.objects.create(
        name="Winter Cup",
        slug="winter-cup",
        ruleset=event.ruleset,
        starts_on=date(2025, 12, 1),
        entry_mode=Event.EntryMode.FINAL_SCORES,
    )
    Entry.objects.create(event=older, player=player)
    hidden = Event.objects.create(name="Club Night", slug="club-night", ruleset=event.ruleset, is_public=False)
    Entry.objects.create(event=hidden, player=player)
    return player


# --- Search ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["山田", "やまだ", "ヤマダ", "yamada", "tokyo riichi", "04130042", "Japan"])
def test_the_search_finds_by_name_reading_club_country_and_ema_number(client, yamada, typed):
    response = client.get(SEARCH, {"q": typed})
    assert response.status_code == 200
    assert response.json()["results"] == [
        {
            "id": yamada.pk,
            "name": "山田 太郎",
            "reading": "やまだ たろう",
            "club": "Tokyo Riichi Club",
            "country": "JP",
            "external_id": "04130042",
            "url": "http://testserver" + profile_url(yamada.pk),
        }
    ]


def test_the_search_finds_what_the_page_finds_in_the_same_order(client, make_event):
    make_event(12)
    expected = list(selectors.players_search("player").values_list("pk", flat=True))
    assert found(client, q="  player ", page_size=500) == expected and len(expected) == 12


def test_the_search_never_gives_an_opted_out_merged_away_or_private_only_player(client, yamada):
    ruleset = Event.objects.get(slug="spring-open").ruleset
    private = Event.objects.create(name="Closed", slug="closed", ruleset=ruleset, is_public=False)
    only_private = Player.objects.create(display_name="山田 花子", reading="やまだ はなこ")
    Entry.objects.create(event=private, player=only_private)
    duplicate = Player.objects.create(display_name="山田 太郎 (2)", reading="やまだ たろう")
    autumn = Event.objects.create(name="Autumn", slug="autumn", ruleset=ruleset)
    Entry.objects.create(event=autumn, player=duplicate)
    assert set(found(client, q="yamada")) == {yamada.pk, duplicate.pk}
    services.player_merge(kept=yamada, merged=duplicate)
    assert found(client, q="yamada") == [yamada.pk]
    ProfileSetting.objects.create(player=yamada, listed=False)
    assert found(client, q="yamada") == [] and found(client, q="04130042") == []


def test_a_player_without_reading_club_or_ema_number_has_them_empty(client, make_event):
    make_event(2)
    row = client.get(SEARCH, {"q": "Player 01"}).json()["results"][0]
    assert row["external_id"] is None and row["reading"] == "" and row["club"] == ""


@pytest.mark.parametrize("query", [None, "", "   ", "・"])
def test_a_missing_or_empty_query_finds_nobody_as_the_page_does(client, yamada, query, django_assert_max_num_queries):
    params = {} if query is None else {"q": query}
    with django_assert_max_num_queries(0):
        response = client.get(SEARCH, params)
    assert response.status_code == 200
    assert response.json() == {"count": 0, "next": None, "previous": None, "results": []}


def test_the_query_is_cut_where_the_page_cuts_it(client, yamada):
    assert api.QUERY_LENGTH == views.QUERY_LENGTH
    assert found(client, q="yamada" + " " * views.QUERY_LENGTH + "nobody") == [yamada.pk]


def test_the_search_pages_a_long_list_in_two_queries(client, make_event, django_assert_max_num_queries):
    make_event(260)
    with django_assert_max_num_queries(2):
        first = client.get(SEARCH, {"q": "player"}).json()
    assert first["count"] == 260 and len(first["results"]) == 100 and first["previous"] is None
    assert "page=2" in first["next"]
    third = client.get(SEARCH, {"q": "player", "page": 3}).json()
    assert len(third["results"]) == 60 and third["next"] is None
    expected = list(selectors.players_search("player").values_list("pk", flat=True))
    small = client.get(SEARCH, {"q": "player", "page": 2, "page_size": 50}).json()
    assert [row["id"] for row in small["results"]] == expected[50:100]
    refused = client.get(SEARCH, {"q": "player", "page_size": 0})
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "page_size"
    assert client.get(SEARCH, {"q": "player", "page": 9}).status_code == 404


# --- The profile ----------------------------------------------------------------------------------------


def test_the_profile_gives_the_numbers_the_selectors_give(client, played):
    entries = list(selectors.player_public_entries(played))
    counts = selectors.entries_hand_counts(entries)
    body = client.get(profile_url(played.pk)).json()
    assert (body["id"], body["name"], body["listed"]) == (played.pk, "Player 02", True)
    rows = body["events"]["results"]
    assert body["events"]["count"] == len(entries) == 2 and "club-night" not in [r["slug"] for r in rows]
    total = selectors.HandCounts()
    for row, entry in zip(rows, entries, strict=True):
        event = entry.event
        assert (row["id"], row["slug"], row["name"], row["venue"], row["entry"]) == (
            event.pk,
            event.slug,
            event.name,
            event.venue,
            entry.pk,
        )
        assert row["starts_on"] == (event.starts_on.isoformat() if event.starts_on else None)
        assert row["ends_on"] == (event.ends_on.isoformat() if event.ends_on else None)
        assert row["place"] == entry.standing_rank and row["games"] == entry.standing_games
        assert row["points"] == (None if entry.standing_rank is None else str(entry.standing_total_points))
        if event.entry_mode == Event.EntryMode.HANDS:
            tally = counts[entry.pk]
            total.add(tally)
            assert row["hands"] == {
                "wins": tally.wins,
                "tsumo": tally.tsumo,
                "ron": tally.ron,
                "deal_ins": tally.deal_ins,
                "yaku": [{"yaku": k, "count": n} for k, n in tally.yaku_rows],
            }
        else:
            assert row["hands"] is None
    assert (body["hands"]["wins"], body["hands"]["tsumo"], body["hands"]["ron"], body["hands"]["deal_ins"]) == (
        total.wins,
        total.tsumo,
        total.ron,
        total.deal_ins,
    )
    assert body["hands"]["yaku"] == [{"yaku": k, "count": n} for k, n in total.yaku_rows]
    assert total.wins > 0 and rows[0]["points"] is not None  # the example means something
    assert rows[1]["place"] is None and rows[1]["points"] is None and rows[1]["hands"] is None


def test_the_points_are_exact_text(client, played):
    entry = selectors.player_public_entries(played).first()
    row = client.get(profile_url(played.pk)).json()["events"]["results"][0]
    assert row["points"] == str(entry.standing_total_points) and "." not in row["points"]


def test_a_profile_of_final_scores_only_has_no_hands(client, make_event):
    event = make_event(2, entry_mode=Event.EntryMode.FINAL_SCORES)
    body = client.get(profile_url(event.entries.first().player_id)).json()
    assert body["hands"] is None and body["events"]["results"][0]["hands"] is None


def test_who_is_not_shown_is_404_as_on_the_page(client, played):
    only_private = (
        Event.objects.get(slug="club-night").entries.create(player=Player.objects.create(display_name="Hidden")).player
    )
    never_played = Player.objects.create(display_name="Nobody")
    for player_id in (only_private.pk, never_played.pk, never_played.pk + 1000):
        response = client.get(profile_url(player_id))
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
        assert client.get(reverse("profiles:player", args=[player_id])).status_code == 404
    ProfileSetting.objects.create(player=played, listed=False)
    assert client.get(profile_url(played.pk)).status_code == 404
    assert client.get(reverse("profiles:player", args=[played.pk])).status_code == 404


def test_an_opted_out_profile_is_open_to_the_player_alone(played):
    me = User.objects.create_user("me")
    Player.objects.filter(pk=played.pk).update(user=me)
    ProfileSetting.objects.create(player=played, listed=False)
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get(profile_url(played.pk)).status_code == 404
    own = Client()
    own.force_login(me)
    response = own.get(profile_url(played.pk))
    assert response.status_code == 200 and response.json()["listed"] is False
    assert "no-store" in response["Cache-Control"]


def test_a_merged_away_player_leads_to_the_kept_one_as_on_the_page(client, played):
    duplicate = Player.objects.create(display_name="Player Two")
    services.player_merge(kept=played, merged=duplicate)
    response = client.get(profile_url(duplicate.pk))
    assert response.status_code == 302 and response["Location"] == profile_url(played.pk)
    page = client.get(reverse("profiles:player", args=[duplicate.pk]))
    assert page.status_code == 302 and page["Location"] == reverse("profiles:player", args=[played.pk])


def test_reads_write_nothing(client, played):
    me = User.objects.create_user("me")
    Player.objects.filter(pk=played.pk).update(user=me)
    own = Client()
    own.force_login(me)
    for reader in (client, own):
        for url, params in ((SEARCH, {"q": "player"}), (profile_url(played.pk), {})):
            with writes_recorded() as written, CaptureQueriesContext(connection) as ran:
                response = reader.get(url, params)
            assert response.status_code == 200 and written == []
            assert not [q["sql"] for q in ran if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def _player_in_events(ruleset, count: int) -> Player:
    player = Player.objects.create(display_name="Traveller")
    events = Event.objects.bulk_create(
        Event(name=f"Cup {i}", slug=f"cup-{i}", ruleset=ruleset, starts_on=date(2020, 1, 1 + i % 28))
        for i in range(count)
    )
    Entry.objects.bulk_create(Entry(event=event, player=player) for event in events)
    return player


@pytest.mark.parametrize("events", [2, 130])
def test_a_profile_runs_a_fixed_number_of_queries_and_gives_a_page_of_events(
    client, make_event, play_round, events, django_assert_max_num_queries
):
    event = make_event(4, starts_on=date(2026, 4, 1))
    play_round(event, RON)
    player = _player_in_events(event.ruleset, events)
    Entry.objects.filter(event=event, player__display_name="Player 02").update(player=player)
    with django_assert_max_num_queries(5):
        body = client.get(profile_url(player.pk)).json()
    page = body["events"]
    assert page["count"] == events + 1 and len(page["results"]) == min(events + 1, 100)
    assert page["results"][0]["slug"] == event.slug and page["results"][0]["hands"]["wins"] == 1
    assert body["hands"]["wins"] == 1
    if events > 100:
        assert page["next"] is not None
        rest = client.get(profile_url(player.pk), {"page": 2}).json()["events"]
        assert len(rest["results"]) == events + 1 - 100 and rest["previous"] is not None
        assert rest["results"][0]["hands"] is not None and rest["results"][0]["hands"]["wins"] == 0
        with django_assert_max_num_queries(5):
            small = client.get(profile_url(player.pk), {"page_size": 20, "page": 3}).json()["events"]
        expected = [e.event_id for e in selectors.player_public_entries(player)[40:60]]
        assert [row["id"] for row in small["results"]] == expected
    assert client.get(profile_url(player.pk), {"page": 99}).status_code == 404
    assert client.get(profile_url(player.pk), {"page_size": 501}).status_code == 400


def test_the_schema_names_both_operations(client):
    schema = client.get(reverse("api_v1:schema") + "?format=json").json()
    assert schema["paths"]["/api/v1/profiles/"]["get"]["operationId"] == "profiles_search"
    assert schema["paths"]["/api/v1/profiles/{player_id}/"]["get"]["operationId"] == "profile_read"
    points = schema["components"]["schemas"]["ProfileEvent"]["properties"]["points"]
    assert points["pattern"] == "^-?[0-9]+(/[0-9]+)?$" and points["nullable"] is True
