"""Players' pages on a phone: where to sit next, every hand with names, standings that poll cheaply."""

import pytest
from django.urls import reverse

from players.models import Player
from tournament.models import Entry
from tournament.services.discipline import penalty_log
from tournament.services.rounds import round_create
from tournament.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def event_in_round_2(make_event, play_round):
    event = make_event(8)
    play_round(event, RON)
    ids = list(event.entries.order_by("-id").values_list("id", flat=True))
    round_create(event=event, tables=[ids[:4], ids[4:]])
    return event


def test_my_page_opens_with_where_to_sit_next(client, event_in_round_2):
    entry = Entry.objects.get(event=event_in_round_2, player__display_name="Player 08")
    body = client.get(reverse("tournament:player", args=[event_in_round_2.slug, entry.pk])).content.decode()
    assert "Next: <strong>round 2, table 1, E</strong>" in body


def test_my_games_hand_by_hand_with_names(client, event_in_round_2):
    entry = Entry.objects.get(event=event_in_round_2, player__display_name="Player 03")  # West at table 1
    body = client.get(reverse("tournament:player", args=[event_in_round_2.slug, entry.pk])).content.decode()
    assert "Player 02: ron from Player 03, 3 han 30 fu" in body and "−3900" not in body
    assert '<span class="delta neg">-3900</span>' in body


def test_standings_answer_304_to_a_phone_that_polls_until_they_change(client, event_in_round_2):
    url = reverse("tournament:standings", args=[event_in_round_2.slug])
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    standings_recompute(event_id=event_in_round_2.pk)
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag


def test_standings_find_a_player_by_kana_or_romaji(client, event_in_round_2):
    Player.objects.filter(display_name="Player 05").update(display_name="山田 太郎", reading="やまだ たろう")
    standings_recompute(event_id=event_in_round_2.pk)
    url = reverse("tournament:standings", args=[event_in_round_2.slug])
    for typed in ("ヤマダ", "yamada taro", "山田"):
        body = client.get(url, {"q": typed}).content.decode()
        assert "山田 太郎" in body and "Player 06" not in body, typed


def test_penalties_are_shown_in_the_unit_of_the_points_column(client, event_in_round_2):
    entry = Entry.objects.get(event=event_in_round_2, player__display_name="Player 01")
    penalty_log(event=event_in_round_2, entry=entry, kind="art37_deliberate_foul", reason="x")
    standings_recompute(event_id=event_in_round_2.pk)
    body = client.get(reverse("tournament:standings", args=[event_in_round_2.slug])).content.decode()
    assert "−0.4</td>" in body and "÷ 1000" in body


def test_a_rounds_seating_is_paged_and_finds_a_table_by_name(client, make_event, seated_round):
    event = make_event(60)
    seated_round(event)
    url = reverse("tournament:round", args=[event.slug, 1])
    first = client.get(url).content.decode()
    assert first.count('<div class="card">') == 15  # 60 players, 15 tables: one page
    Player.objects.filter(display_name="Player 42").update(display_name="佐藤 花子", reading="さとう はなこ")
    found = client.get(url, {"q": "sato"}).content.decode()
    assert "<strong>佐藤 花子</strong>: table 11, S" in found


def test_the_venue_screen_shows_the_timer_the_seating_and_the_standings(client, event_in_round_2):
    from tournament.services.rounds import round_timer_start

    round_2 = event_in_round_2.rounds.get(number=2)
    round_timer_start(round_=round_2)
    url = reverse("tournament:venue", args=[event_in_round_2.slug])
    body = client.get(url).content.decode()
    assert "round 2" in body and 'data-minutes="90"' in body and "data-start=" in body
    assert body.count('<div class="card">') == 2 and "<input" not in body.split("<main>")[1]  # nothing to type
    assert 'data-next="?view=standings&amp;page=1"' in body  # then the standings, in turn
    standings = client.get(url, {"view": "standings"}).content.decode()
    assert "venue-standings" in standings and 'data-next="?view=seating&amp;page=1"' in standings
    assert standings.count("<tr>") == 1 + event_in_round_2.entries.count()  # the heading and every player
