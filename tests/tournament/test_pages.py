import csv
import io

import pytest
from django.urls import reverse

from tournament.models import Entry, Table
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.templatetags.taikai import points

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]}


@pytest.fixture
def played_event(make_event, play_round):
    """An event of 16 players with one completed round."""
    event = make_event(16)
    play_round(event, RON)
    return event


def test_standings_page_lists_every_player_in_rank_order(client, played_event, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = client.get(reverse("tournament:standings", args=[played_event.slug]))
    assert response.status_code == 200
    body = response.content.decode()
    rows = [line for line in body.splitlines() if 'href="/events/spring-open/players/' in line]
    assert len(rows) == 16
    # the four table winners (seat 1: 27600 → +22.4 with oka) lead with one advance each
    assert body.index("Player 02") < body.index("Player 01")


def test_page_query_counts_do_not_grow_with_the_field(client, make_event, seated_round, django_assert_max_num_queries):
    small = make_event(8, slug="small", name="Small")
    big = make_event(32, slug="big", name="Big")
    for event in (small, big):
        seated_round(event)
    for name in ("event", "standings"):
        with django_assert_max_num_queries(5 if name == "event" else 4):  # the event's series, kept a minute
            assert client.get(reverse(f"tournament:{name}", args=[big.slug])).status_code == 200
    with django_assert_max_num_queries(7):  # and the hand writes of the page's tables (running scores)
        assert client.get(reverse("tournament:round", args=[big.slug, 1])).status_code == 200


def test_round_page_shows_seats_in_wind_order(client, played_event, django_assert_max_num_queries):
    with django_assert_max_num_queries(7):
        body = client.get(reverse("tournament:round", args=[played_event.slug, 1])).content.decode()
    table = body[body.index("Table 1") :]
    assert table.index("Player 01") < table.index("Player 02") < table.index("Player 03") < table.index("Player 04")
    assert "27600" in body


def test_player_page_shows_games(client, played_event, django_assert_max_num_queries):
    entry = Entry.objects.get(event=played_event, player__display_name="Player 02")
    # event, entry, results and their seats (2), the standings' time, their layout on a cold cache (2), the
    # current seat, and the games hand by hand (3): a fixed count, whatever the number of rounds
    with django_assert_max_num_queries(11):
        body = client.get(reverse("tournament:player", args=[played_event.slug, entry.id])).content.decode()
    assert "27600" in body and "Player 03" in body
    with django_assert_max_num_queries(9):  # the layout is cached now
        client.get(reverse("tournament:player", args=[played_event.slug, entry.id]))


def test_private_event_is_not_shown(client, played_event):
    played_event.is_public = False
    played_event.save()
    assert client.get(reverse("tournament:standings", args=[played_event.slug])).status_code == 404
    assert played_event.name not in client.get(reverse("tournament:event_list")).content.decode()


def test_standings_csv_export(client, played_event):
    response = client.get(reverse("tournament:standings_csv", args=[played_event.slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 16
    assert rows[0]["rank"] == "1" and rows[0]["advances"] == "1"
    assert sorted(r["player"] for r in rows if r["advances"] == "1") == [
        "Player 02",
        "Player 06",
        "Player 10",
        "Player 14",
    ]


def test_hands_csv_export_includes_every_version(client, played_event, admin_user):
    table = Table.objects.filter(round__event=played_event).first()
    from tournament.services.results import table_reopen

    table_reopen(table=table)
    hand_record(
        table=table,
        number=1,
        expected_version=1,
        user=admin_user,
        data=dict(RON, wins=[{"winner": 1, "discarder": 2, "han": 3, "fu": 40}]),
    )
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(reverse("tournament:hands_csv", args=[played_event.slug])).content.decode())
        )
    )
    assert len(rows) == 5  # four tables, one corrected hand kept in both versions
    versions = [r for r in rows if r["table"] == str(table.number)]
    assert [(r["version"], r["deltas_S"]) for r in versions] == [("1", "2600"), ("2", "5200")]
    assert versions[1]["recorded_via"] == "account" and versions[0]["recorded_via"] == ""


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("41/2", "20.5"),
        ("-12/5", "−2.4"),
        ("20/3", "≈6.67"),
        ("-20/3", "≈−6.67"),
        ("0", "0"),
        ("3", "3"),
        ("1/8", "0.125"),
    ],
)
def test_points_are_shown_exactly_when_they_terminate(value, shown):
    assert points(value) == shown


def test_standings_page_is_paginated_and_searchable(client, make_event, seated_round, django_assert_max_num_queries):
    from tournament.services.standings import standings_recompute
    from tournament.views import STANDINGS_PER_PAGE

    event = make_event(STANDINGS_PER_PAGE + 8)
    standings_recompute(event_id=event.id)
    url = reverse("tournament:standings", args=[event.slug])
    first = client.get(url).content.decode()
    assert first.count('href="/events/spring-open/players/') == STANDINGS_PER_PAGE
    assert "Page 1 of 2" in first
    with django_assert_max_num_queries(3):  # the event, the standings' header, the page's rows
        second = client.get(url, {"page": 2}).content.decode()
    assert second.count('href="/events/spring-open/players/') == 8
    found = client.get(url, {"q": "player 07"}).content.decode()
    assert found.count('href="/events/spring-open/players/') == 1 and "Player 07" in found


def test_standings_page_shows_the_new_rows_once_they_are_computed_again(client, played_event):
    from tournament.services.discipline import entry_disqualify
    from tournament.services.standings import standings_recompute

    url = reverse("tournament:standings", args=[played_event.slug])
    assert "(disqualified)" not in client.get(url).content.decode()  # its rows are cached now
    leader = Entry.objects.get(event=played_event, player__display_name="Player 02")
    entry_disqualify(entry=leader, reason="art. 43")
    assert "(disqualified)" not in client.get(url).content.decode()  # not computed again yet
    standings_recompute(event_id=played_event.id)
    assert 'Player 02</a> <span class="muted">(disqualified)</span>' in client.get(url).content.decode()


def test_a_rounds_seating_shows_a_result_confirmed_after_the_page_was_cached(client, make_event, seated_round):
    event = make_event(8)
    round_ = seated_round(event)
    url = reverse("tournament:round", args=[event.slug, 1])
    assert "27600" not in client.get(url).content.decode()
    table_finish(table=round_.tables.get(number=2), final_points=[27600, 22400, 25000, 25000])
    assert "27600" in client.get(url).content.decode()


def test_standings_page_shows_award_places_passing_over_the_disqualified(client, played_event):
    from tournament.services.discipline import entry_disqualify
    from tournament.services.standings import standings_recompute

    leader = Entry.objects.get(event=played_event, player__display_name="Player 02")
    entry_disqualify(entry=leader, reason="art. 43")
    standings_recompute(event_id=played_event.id)
    body = client.get(reverse("tournament:standings", args=[played_event.slug])).content.decode()
    row = body[body.index("Player 02") - 400 : body.index("Player 02")]
    assert 'class="dq"' in row and '<td class="num wide">—</td>' in row


def test_csv_exports_neutralise_formulas_and_name_no_staff_account(client, played_event, admin_user):
    from players.models import Player
    from tournament.models import HandVersion
    from tournament.services.standings import standings_recompute

    Player.objects.filter(display_name="Player 02").update(display_name='=HYPERLINK("http://x")', club="@SUM(1)")
    standings_recompute(event_id=played_event.pk)
    HandVersion.objects.filter(hand__table__round__event=played_event).update(recorded_by=admin_user)
    standings = client.get(reverse("tournament:standings_csv", args=[played_event.slug])).content.decode()
    assert "'=HYPERLINK" in standings and "'@SUM(1)" in standings
    assert ",=HYPERLINK" not in standings and ",@SUM" not in standings
    hands = client.get(reverse("tournament:hands_csv", args=[played_event.slug])).content.decode()
    assert "recorded_via" in hands and ",account," in hands and admin_user.username not in hands


@pytest.mark.parametrize("method", ["put", "delete", "post"])
def test_public_pages_refuse_methods_they_do_not_serve(client, played_event, method):
    for url in (
        reverse("tournament:event", args=[played_event.slug]),
        reverse("tournament:standings", args=[played_event.slug]),
        reverse("tournament:round", args=[played_event.slug, 1]),
    ):
        assert getattr(client, method)(url).status_code == 405
