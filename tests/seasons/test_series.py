"""A series of two finished events: computed by the task queued when an event is finished (through the
tournament's announcement), its pages, CSV and API reading the stored rows in a bounded number of queries."""

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from seasons import services
from seasons.models import Series, SeriesEvent, SeriesRating, SeriesStanding
from tests.fixtures.writes import writes_recorded
from tournament.models import Entry, Event, StandingsRow
from tournament.services.events import event_finish
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create

pytestmark = pytest.mark.django_db

SCORES = [40000, 30000, 20000, 10000]


def play_event(ruleset, players, name, order, days_ago):
    """An event of one table; ``order`` lists the players by place; finished."""
    day = timezone.localdate() - timedelta(days=days_ago)
    event = Event.objects.create(
        name=name,
        slug=name.lower().replace(" ", "-"),
        ruleset=ruleset,
        planned_rounds=1,
        entry_mode=Event.EntryMode.FINAL_SCORES,
        starts_on=day,
        ends_on=day,
    )
    entries = {p.pk: Entry.objects.create(event=event, player=p) for p in players}
    round_ = round_create(event=event, tables=[[entries[p.pk].pk for p in players]])
    finals = {players[index].pk: SCORES[place] for place, index in enumerate(order)}
    table_finish(table=round_.tables.get(), final_points=[finals[p.pk] for p in players])
    round_complete(round_=round_)
    return event


@pytest.fixture
def series_world(standard_ruleset, django_capture_on_commit_callbacks):
    players = [Player.objects.create(display_name=f"P{i}") for i in range(1, 5)]
    series = Series.objects.create(name="Season 2025", slug="season", rule="place_points", place_points=[10, 5, 2, 0])
    with django_capture_on_commit_callbacks(execute=True):
        spring = play_event(standard_ruleset, players, "Spring", [0, 1, 2, 3], days_ago=40)
        summer = play_event(standard_ruleset, players, "Summer", [0, 2, 1, 3], days_ago=10)
        SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event=e) for e in (spring, summer))
    assert not SeriesStanding.objects.exists()  # nothing finished yet
    with django_capture_on_commit_callbacks(execute=True):
        event_finish(event=spring)
    with django_capture_on_commit_callbacks(execute=True):
        event_finish(event=summer)  # the final standings are computed, announced; the series follows
    series.refresh_from_db()
    return series, players, (spring, summer)


def test_finishing_an_event_computes_its_series(series_world):
    series, players, events = series_world
    p1, p2, p3, p4 = (p.pk for p in players)
    rows = list(SeriesStanding.objects.filter(series=series).order_by("position"))
    # points by place 10, 5, 2, 0: P1 10 + 10; P2 5 + 2; P3 2 + 5; P4 0 + 0
    assert [(r.rank, r.player_id, r.total) for r in rows] == [(1, p1, 20), (2, p2, 7), (2, p3, 7), (4, p4, 0)]
    assert [e[0] for e in series.events_counted] == [e.pk for e in events]
    # EMA: base ranks 1000/667/333/0, MERS 1 (one day, 4 players), padded to 5 results:
    # P1 A = 2000/5 = 400, B = 2000/4 = 500: 450; P2 and P3 (667 + 333) A = 200, B = 250: 225; P4 0
    ema = list(SeriesRating.objects.filter(series=series, kind="ema").order_by("position"))
    assert [(r.rank, r.player_id, r.shown) for r in ema] == [
        (1, p1, "450.00"),
        (2, p2, "225.00"),
        (2, p3, "225.00"),
        (4, p4, "0.00"),
    ]
    assert ema[0].detail["part_a"] == "400.00" and ema[0].detail["part_b"] == "500.00"
    elo = list(SeriesRating.objects.filter(series=series, kind="elo").order_by("position"))
    assert elo[0].player_id == p1 and elo[-1].player_id == p4 and all(r.count == 2 for r in elo)
    assert sum(Fraction(r.value) for r in elo) == 1500 * 4  # zero-sum games


def test_the_sum_rule_adds_the_events_totals_and_a_recompute_is_idempotent(series_world):
    series, _, events = series_world
    Series.objects.filter(pk=series.pk).update(rule="sum")
    services.series_recompute(series_id=series.pk)
    first = list(SeriesStanding.objects.filter(series=series).order_by("position").values_list("player_id", "total"))
    services.series_recompute(series_id=series.pk)
    again = list(SeriesStanding.objects.filter(series=series).order_by("position").values_list("player_id", "total"))
    assert first == again
    for player_id, total in first:
        rows = StandingsRow.objects.filter(event__in=events, entry__player_id=player_id)
        assert Fraction(total) == sum((row.total_points for row in rows), Fraction(0))


def test_private_events_are_not_counted(series_world):
    series, _, (spring, summer) = series_world
    Event.objects.filter(pk=summer.pk).update(is_public=False)
    services.series_recompute(series_id=series.pk)
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk]


def test_the_pages_read_the_stored_rows_in_few_queries_and_write_nothing(
    series_world, client, django_assert_max_num_queries
):
    series, _, _ = series_world
    for url in (
        reverse("seasons:standings", args=[series.slug]),
        reverse("seasons:rating", args=[series.slug]),
        reverse("seasons:rating", args=[series.slug]) + "?kind=elo",
    ):
        with django_assert_max_num_queries(2), writes_recorded() as written:
            response = client.get(url)
        assert response.status_code == 200
        assert written == []
    page = client.get(reverse("seasons:standings", args=[series.slug])).content.decode()
    assert "P1" in page and "Spring" in page
    rating = client.get(reverse("seasons:rating", args=[series.slug])).content.decode()
    assert "450.00" in rating and "5 + ⌈0.8 × (n − 5)⌉" in rating
    assert "K = 32" in client.get(reverse("seasons:rating", args=[series.slug]) + "?kind=elo").content.decode()
    assert client.get(reverse("seasons:rating", args=[series.slug]) + "?kind=chess").status_code == 404


def test_a_page_shows_at_most_its_rows(series_world, client, django_assert_max_num_queries, monkeypatch):
    series, _, _ = series_world
    monkeypatch.setattr("seasons.views.PER_PAGE", 3)
    with django_assert_max_num_queries(2):
        response = client.get(reverse("seasons:standings", args=[series.slug]) + "?page=2")
    assert len(response.context["rows"]) == 1 and response.context["rows"][0].rank == 4
    # the rating's pages keep the rating chosen in their links (and nothing else)
    elo = client.get(reverse("seasons:rating", args=[series.slug]) + "?kind=elo").content.decode()
    assert 'href="?page=2&amp;kind=elo"' in elo and "&q=" not in elo


def test_csv_export(series_world, client):
    series, _, _ = series_world
    response = client.get(reverse("seasons:standings_csv", args=[series.slug]))
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("rank,player,total,events,spring place,summer place")
    assert lines[1].startswith("1,P1,20,2,1,1,10,10,yes,yes")
    assert len(lines) == 5


def test_api(series_world, client):
    series, _, _ = series_world
    body = client.get(reverse("seasons_api:series", args=[series.slug])).json()
    assert body["rule"] == "place_points" and [e["name"] for e in body["events"]] == ["Spring", "Summer"]
    standings = client.get(reverse("seasons_api:series_standings", args=[series.slug])).json()
    assert standings["count"] == 4 and standings["results"][0]["total"] == "20"
    assert standings["results"][0]["results"][0] == {
        "event": body["events"][0]["id"],
        "place": 1,
        "points": standings["results"][0]["results"][0]["points"],
        "value": "10",
        "counted": True,
    }
    ema = client.get(reverse("seasons_api:series_ratings", args=[series.slug]) + "?kind=ema").json()
    assert ema["results"][0]["shown"] == "450.00" and ema["results"][0]["part_b"] == "500.00"
    elo = client.get(reverse("seasons_api:series_ratings", args=[series.slug]) + "?kind=elo&page_size=2").json()
    assert elo["count"] == 4 and len(elo["results"]) == 2 and elo["results"][0]["part_a"] is None
    assert client.get(reverse("seasons_api:series_ratings", args=[series.slug]) + "?kind=x").status_code == 400


def test_a_private_series_is_not_found(series_world, client):
    series, _, _ = series_world
    Series.objects.filter(pk=series.pk).update(is_public=False)
    assert client.get(reverse("seasons:standings", args=[series.slug])).status_code == 404
    assert client.get(reverse("seasons_api:series", args=[series.slug])).status_code == 404


def test_changing_the_events_of_a_series_computes_it_again(series_world, django_capture_on_commit_callbacks):
    series, _, (spring, _) = series_world
    with django_capture_on_commit_callbacks(execute=True):
        services.series_events_set(series=series, event_ids=[spring.pk])
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk]
    assert SeriesRating.objects.filter(series=series, kind="ema").count() == 0  # one result each: not ranked


def test_an_event_still_hiding_its_last_rounds_waits_and_counts_once_they_are_shown(
    series_world, client, django_capture_on_commit_callbacks
):
    """Its stored standings stop before the hidden rounds: counting them would give wrong totals and the
    Elo, read game by game, would publish the hidden results. It counts once the organizer shows them."""
    from tournament.services.standings import standings_recompute

    series, _, (spring, summer) = series_world
    Event.objects.filter(pk=summer.pk).update(standings_hidden_from_round=1)
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=summer.pk)  # announced: the series is computed again
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk]
    assert series.events_waiting == [[summer.pk, "Summer", "summer", "last_rounds_hidden"]]
    elo = SeriesRating.objects.filter(series=series, kind="elo")
    assert all(r.count == 1 for r in elo)  # summer's game is not read
    for name in ("seasons:standings", "seasons:rating"):
        page = client.get(reverse(name, args=[series.slug])).content.decode()
        assert "Summer still hides its last rounds" in page
    assert client.get(reverse("seasons_api:series", args=[series.slug])).json()["events_waiting"] == [
        {"id": summer.pk, "name": "Summer", "slug": "summer", "reason": "last_rounds_hidden"}
    ]
    Event.objects.filter(pk=summer.pk).update(standings_hidden_from_round=None)
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=summer.pk)
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk, summer.pk] and series.events_waiting == []
    assert all(r.count == 2 for r in SeriesRating.objects.filter(series=series, kind="elo"))


def test_an_event_not_finished_is_named_as_waiting_and_a_private_one_is_not_named(series_world, standard_ruleset):
    series, _, _ = series_world
    autumn = Event.objects.create(name="Autumn", slug="autumn", ruleset=standard_ruleset, planned_rounds=1)
    hidden = Event.objects.create(name="Club night", slug="club", ruleset=standard_ruleset, is_public=False)
    SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event=e) for e in (autumn, hidden))
    services.series_recompute(series_id=series.pk)
    series.refresh_from_db()
    assert series.events_waiting == [[autumn.pk, "Autumn", "autumn", "not_finished"]]


@pytest.mark.once
def test_the_demo_series_loads_once_counts_the_finished_demo_event_and_waits_for_the_running_one(
    django_capture_on_commit_callbacks, settings
):
    """``bin/serve`` loads it after the demo events: its pages have rows to show."""
    from io import StringIO

    from django.core.management import call_command

    settings.CELERY_TASK_ALWAYS_EAGER = True
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_event", "--if-empty", stdout=StringIO())
    call_command("demo_series", "--if-empty", stdout=StringIO())
    call_command("demo_series", "--if-empty", stdout=StringIO())  # a second run loads nothing
    series = Series.objects.get(slug="demo-league")
    spring, autumn = Event.objects.get(slug="spring-open"), Event.objects.get(slug="autumn-cup")
    assert Series.objects.count() == 1 and [e[0] for e in series.events_counted] == [spring.pk]
    assert series.events_waiting == [[autumn.pk, autumn.name, "autumn-cup", "not_finished"]]
    ranked = StandingsRow.objects.filter(event=spring).count()
    assert series.standings_count == ranked > 0


def test_an_event_made_private_leaves_its_series_and_counts_again_once_public(
    series_world, admin_client, django_capture_on_commit_callbacks
):
    """The organizer hides a finished event: the series stops naming, linking and counting it (its
    recompute is queued by the visibility change), and counts it again once it is public again."""
    series, _players, (spring, summer) = series_world
    url = reverse("admin:tournament_event_change", args=[summer.pk])
    form = {
        "name": summer.name,
        "slug": summer.slug,
        "ruleset": summer.ruleset_id,
        "table_size": 4,
        "planned_rounds": 1,
        "entry_mode": "final_scores",
        "advancing_places": 1,
        "penalty_unit": 100,
        "final_games": 1,
        "standings_precedence": "advances,total_points",
        "clock_increment_seconds": 0,
        "seating_method": "swiss",
        "seating_remainder": "three",
        "time_zone": "UTC",
        "round_minutes": 90,
        "team_best": 2,
        "roles-TOTAL_FORMS": 0,
        "roles-INITIAL_FORMS": 0,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "starts_on": summer.starts_on,
        "ends_on": summer.ends_on,
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, form)  # "is_public" left out: unchecked
    assert response.status_code == 302, response.content.decode()[:2000]
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk]
    assert SeriesStanding.objects.filter(series=series, events=1).count() == 4
    page = Client().get(reverse("seasons:standings", args=[series.slug])).content.decode()
    assert summer.name not in page and spring.name in page
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(url, form | {"is_public": "on"})
    series.refresh_from_db()
    assert [e[0] for e in series.events_counted] == [spring.pk, summer.pk]


def test_series_are_linked_from_the_home_page_and_their_events_and_name_their_players_profiles(series_world, client):
    # given: the series' events public, a private series of the same events, a player who hid her profile
    from profiles.models import ProfileSetting

    series, players, events = series_world
    Event.objects.filter(pk__in=[e.pk for e in events]).update(is_public=True)
    hidden = Series.objects.create(name="Staff league", slug="staff", is_public=False)
    SeriesEvent.objects.create(series=hidden, event=events[0])
    ProfileSetting.objects.create(player=players[1], listed=False)
    standings_url = reverse("seasons:standings", args=[series.slug])
    # then: the home page and each event's page link the public series, never the private one
    for url in (
        reverse("tournament:event_list"),
        *(reverse("tournament:event", args=[e.slug]) for e in events),
    ):
        page = client.get(url).content.decode()
        assert f'href="{standings_url}"' in page, url
        assert reverse("seasons:standings", args=[hidden.slug]) not in page and "Staff league" not in page
    # and: the standings and the ratings link each name to the player's profile, but not a hidden one
    for url in (
        standings_url,
        reverse("seasons:rating", args=[series.slug]),
        reverse("seasons:rating", args=[series.slug]) + "?kind=elo",
    ):
        page = client.get(url).content.decode()
        for player in players:
            linked = f'<a href="{reverse("profiles:player", args=[player.pk])}">{player.display_name}</a>'
            assert (linked in page) == (player != players[1]), (url, player.display_name)
            assert f">{player.display_name}<" in page


@pytest.mark.parametrize(
    ("zones", "shown"), [(("Asia/Tokyo", "Asia/Tokyo"), "Asia/Tokyo"), (("Asia/Tokyo", "UTC"), "UTC")]
)
def test_the_series_pages_show_the_time_in_the_zone_of_its_events_and_name_it(
    series_world, client, settings, zones, shown
):
    # given a series computed at 15:30 UTC, whose events are in Tokyo (or in two zones: the site's is UTC)
    series, _, events = series_world
    settings.TIME_ZONE = "UTC"
    for event, zone in zip(events, zones, strict=True):
        Event.objects.filter(pk=event.pk).update(time_zone=zone)
    Series.objects.filter(pk=series.pk).update(computed_at=datetime(2030, 1, 14, 15, 30, tzinfo=UTC))
    for url in (
        reverse("seasons:standings", args=[series.slug]),
        reverse("seasons:rating", args=[series.slug]),
    ):
        # when the page is read
        computed = client.get(url).content.decode().split('id="computed">')[1].split("</p>")[0]
        # then the time is the events' (0:30 the next day in Tokyo) and the zone is named
        assert f"({shown})" in computed
        assert ("01/15/2030 12:30 a.m." if shown == "Asia/Tokyo" else "01/14/2030 3:30 p.m.") in computed, computed


def test_the_series_admin_shows_its_time_in_the_zone_of_its_events(series_world, admin_client):
    series, _, events = series_world
    Event.objects.filter(pk__in=[e.pk for e in events]).update(time_zone="Asia/Tokyo")
    Series.objects.filter(pk=series.pk).update(computed_at=datetime(2030, 1, 14, 15, 30, tzinfo=UTC))
    page = admin_client.get(reverse("admin:seasons_series_change", args=[series.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Jan. 15, 2030, 12:30 a.m." in page.content.decode()
    # and its counts are named
    assert "Players in the standings" in page.content.decode()
