"""Public pages and the console's table list cost the same for a field of 240 players as for one of 440:
the same queries and the same model objects (what a page shows, plus a constant), cached or not."""

from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Entry, EventRole, Table
from tournament.services.results import table_finish
from tournament.services.roles import role_grant
from tournament.simulation.bulk import bench_event_build, bench_player_name
from tournament.views import STANDINGS_PER_PAGE, TABLES_PER_PAGE

pytestmark = pytest.mark.django_db

SMALL, LARGE = 240, 440  # both more than a page of standings (100) and of tables (50 × 4)


@contextmanager
def costs():
    """Counts the queries and the model objects made inside the block."""
    made = {"objects": 0}

    def count(**kwargs):
        made["objects"] += 1

    post_init.connect(count, weak=False)
    try:
        with CaptureQueriesContext(connection) as queries:
            yield made
    finally:
        post_init.disconnect(count)
    made["queries"] = len(queries)


def urls(event) -> dict[str, str]:
    entry = Entry.objects.filter(event=event).order_by("id").values_list("pk", flat=True)[7]
    last_page = -(-event.entries.count() // STANDINGS_PER_PAGE)
    one_player = bench_player_name(17)[0]
    return {
        "event home": reverse("tournament:event", args=[event.slug]),
        "standings": reverse("tournament:standings", args=[event.slug]),
        "standings, last page": reverse("tournament:standings", args=[event.slug]) + f"?page={last_page}",
        "standings, search": reverse("tournament:standings", args=[event.slug]) + f"?q={one_player}",
        "seating": reverse("tournament:round", args=[event.slug, 3]),
        "seating, find": reverse("tournament:round", args=[event.slug, 3]) + "?q=yamada",
        "seating of a played round": reverse("tournament:round", args=[event.slug, 2]),
        "player": reverse("tournament:player", args=[event.slug, entry]),
        "venue": reverse("tournament:venue", args=[event.slug]),
        "venue, standings": reverse("tournament:venue", args=[event.slug]) + "?view=standings&page=2",
        "console": reverse("console:my_tables"),
    }


@pytest.fixture
def fields(standard_ruleset):
    organizer = get_user_model().objects.create_user("organizer-at-scale")
    events = []
    for players in (SMALL, LARGE):
        event = bench_event_build(players=players, rounds=2, slug=f"field-{players}", next_round=True).event
        role_grant(event=event, user=organizer, kind=EventRole.Kind.ORGANIZER)
        events.append(event)
    return organizer, events


def measure(client, organizer, event) -> dict[str, tuple[int, int, int, int]]:
    """Page → (queries, objects) on a cold cache, then (queries, objects) with the cached parts; the
    public pages as anyone, the console as an organizer of the event."""
    figures = {}
    for name, url in urls(event).items():
        client.logout()
        if name == "console":
            client.force_login(organizer)
        cache.clear()
        with costs() as cold:
            response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        with costs() as warm:
            client.get(url)
        figures[name] = (cold["queries"], cold["objects"], warm["queries"], warm["objects"])
    return figures


def test_every_page_costs_the_same_for_a_small_and_a_large_field(client, fields):
    organizer, (small, large) = fields
    assert measure(client, organizer, small) == measure(client, organizer, large)


CONSTANT = 10  # the event, its ruleset, the round, the standings' header, the signed-in user…
SEATS = 4 * 3  # a table's seats, each with its entry and player
LIMITS = {  # page → (queries, objects shown) on a cold cache
    "event home": (6, 8),  # the leaders; the series it counts in (then kept a minute)
    # the standings: the event, the snapshot, the rules changed after the start (a note each), the page's rows
    "standings": (4, STANDINGS_PER_PAGE),
    "standings, last page": (4, STANDINGS_PER_PAGE),
    "standings, search": (5, 1),
    "seating": (7, TABLES_PER_PAGE * (1 + SEATS)),  # with the hand writes of the page's tables
    "seating, find": (8, TABLES_PER_PAGE * (1 + SEATS)),
    "seating of a played round": (7, TABLES_PER_PAGE * (1 + SEATS + 4)),  # and the results
    "player": (5, 3),  # the entry with its event, ruleset and player; its tables read as rows
    "venue": (8, 9 * (1 + SEATS)),  # a page of 9 tables; the count of standings pages
    "venue, standings": (5, 12),  # a page of 12 standings rows
    "console": (7, TABLES_PER_PAGE * 3),  # tables with their round and event; the tables warned of late players
}


def test_a_page_makes_no_more_objects_than_it_shows_plus_a_constant(client, fields):
    organizer, (_, large) = fields
    figures = measure(client, organizer, large)
    for name, (queries, shown) in LIMITS.items():
        cold_queries, cold_objects, warm_queries, warm_objects = figures[name]
        assert cold_queries <= queries and cold_objects <= shown + CONSTANT, (name, figures[name])
        uncached = {"venue, standings": 12}.get(name, 0)  # the venue's standings rows are read each time
        assert warm_queries <= cold_queries and warm_objects <= uncached + CONSTANT, (name, figures[name])


def test_a_rounds_seating_answers_304_until_a_table_changes(client, fields):
    _, (small, _) = fields
    url = reverse("tournament:round", args=[small.slug, 3])
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(url + "?page=2", headers={"If-None-Match": etag}).status_code == 200
    table = Table.objects.get(round__event=small, round__number=3, number=1)
    table_finish(table=table, final_points=[40000, 20000, 20000, 20000])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "40000" in changed.content.decode()


def test_a_players_page_shows_their_table_finished_at_once(client, fields):
    """The games part of a player's page is cached, and any change at one of their tables is seen on the
    next request: here the result of their table in the round being played."""
    _, (small, _) = fields
    table = Table.objects.get(round__event=small, round__number=3, number=1)
    entry_id = table.seats.get(position=0).entry_id
    url = reverse("tournament:player", args=[small.slug, entry_id])
    games = lambda html: html[html.index('id="games"') : html.index('id="live"')]  # noqa: E731 (the stream's script has a nonce of each request)
    before = client.get(url).content.decode()
    assert games(client.get(url).content.decode()) == games(before)  # the cached part, unchanged
    assert "31111" not in before
    table_finish(table=table, final_points=[31111, 29000, 20000, 19889])
    after = client.get(url).content.decode()
    assert "31111" in after and after.count('id="next-seat"') == 1


def test_the_event_home_counts_a_table_finished_at_once(client, fields):
    """The event home is kept for the version of its rounds and of the latest round's tables: a table
    confirmed is counted on the next request."""
    _, (small, _) = fields
    url = reverse("tournament:event", args=[small.slug])
    tables = Table.objects.filter(round__event=small, round__number=3).count()
    assert f"0 of {tables} tables finished" in client.get(url).content.decode()
    table_finish(
        table=Table.objects.get(round__event=small, round__number=3, number=2),
        final_points=[40000, 20000, 20000, 20000],
    )
    assert f"1 of {tables} tables finished" in client.get(url).content.decode()
