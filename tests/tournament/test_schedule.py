"""A fixed schedule: imported from CSV or JSON (checked, all or nothing), its winds kept or balanced, and
each round seated from it; a schedule that names an away player is refused when the round is seated."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from taikai.errors import TaikaiError
from tournament.models import Entry
from tournament.services.entries import entry_status_set
from tournament.services.planning import schedule_plan
from tournament.services.schedule import schedule_import
from tournament.services.seating import round_seat_next

pytestmark = pytest.mark.django_db


def names(event) -> list[str]:
    return [e.player.display_name for e in event.entries.order_by("id").select_related("player")]


def csv_of(rounds) -> bytes:
    lines = ["round,table,east,south,west,north"]
    for number, tables in enumerate(rounds, start=1):
        lines += [f"{number},{t},{','.join(table)}" for t, table in enumerate(tables, start=1)]
    return ("\n".join(lines) + "\n").encode()


def four_rounds(event):
    n = names(event)
    return [
        [n[0:4], n[4:8]],
        [[n[0], n[4], n[1], n[5]], [n[2], n[6], n[3], n[7]]],
        [[n[0], n[5], n[2], n[7]], [n[1], n[4], n[3], n[6]]],
        [[n[0], n[6], n[1], n[7]], [n[2], n[4], n[3], n[5]]],
    ]


def test_a_csv_schedule_is_checked_saved_and_each_round_seated_from_it(make_event):
    event = make_event(8)
    report = schedule_import(event=event, data=csv_of(four_rounds(event)), file_name="plan.csv")
    assert report["rounds"] == 4
    round_ = round_seat_next(event=event, round_number=1)
    seated = [
        [s.entry.player.display_name for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")
    ]
    assert seated == four_rounds(event)[0] and round_.seating_report["mode"] == "schedule"


def test_balanced_winds_seat_everyone_once_in_each_seat_over_four_rounds(make_event):
    event = make_event(8)
    schedule_import(
        event=event, data=json.dumps({"rounds": four_rounds(event)}).encode(), file_name="p.json", winds="balance"
    )
    event.refresh_from_db()
    seats = {(pk, seat) for tables in event.schedule["rounds"] for table in tables for seat, pk in enumerate(table)}
    assert len(seats) == 8 * 4  # every player in every seat once


def test_a_schedule_with_problems_is_refused_naming_them_and_nothing_is_kept(make_event):
    event = make_event(8)
    n = names(event)
    bad = [[n[0:4], [n[4], n[5], n[6], n[0]]]]  # n[0] twice, n[7] left out
    with pytest.raises(TaikaiError) as info:
        schedule_import(event=event, data=csv_of(bad))
    assert f"{n[0]} is seated 2 times" in info.value.message and f"{n[7]} is not seated" in info.value.message
    event.refresh_from_db()
    assert event.schedule == {}
    with pytest.raises(TaikaiError):
        schedule_import(event=event, data=b"round,table,east\nx,1,a\n")


def test_a_scheduled_round_with_an_away_player_is_refused_when_seated(make_event):
    event = make_event(8)
    schedule_import(event=event, data=csv_of(four_rounds(event)))
    entry_status_set(entry=event.entries.order_by("id").first(), status=Entry.Status.AWAY)
    with pytest.raises(TaikaiError) as info:
        round_seat_next(event=event, round_number=1)
    assert info.value.code == "schedule_player_inactive"


def test_planning_the_whole_event_keeps_a_schedule_each_round_is_seated_from(make_event):
    # given an event of 12 players and 3 rounds, not seated yet
    event = make_event(12, planned_rounds=3)
    # when the organizer plans the whole event
    report = schedule_plan(event=event)
    # then every round is kept, everyone seated once in each, and round 1 is seated from it
    event.refresh_from_db()
    rounds = event.schedule["rounds"]
    assert report["rounds"] == 3 and len(rounds) == 3 and event.schedule["source"] == "planned"
    ids = set(event.entries.values_list("pk", flat=True))
    assert all(sorted(pk for table in tables for pk in table) == sorted(ids) for tables in rounds)
    round_ = round_seat_next(event=event, round_number=1)
    seated = [[s.entry_id for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")]
    assert sorted(map(sorted, seated)) == sorted(map(sorted, rounds[0]))
    assert round_.seating_report["mode"] == "schedule"


def test_planning_leaves_out_an_away_player(make_event):
    event = make_event(13, planned_rounds=2)
    away = event.entries.order_by("id").first()
    entry_status_set(entry=away, status=Entry.Status.AWAY)
    schedule_plan(event=event)
    event.refresh_from_db()
    assert all(away.pk not in table for tables in event.schedule["rounds"] for table in tables)


def test_a_started_event_is_not_planned(make_event):
    started = make_event(8)
    round_seat_next(event=started, round_number=1)
    with pytest.raises(TaikaiError) as info:
        schedule_plan(event=started)
    assert info.value.code == "event_started" and not started.schedule


@pytest.mark.once
def test_the_admin_plans_the_event_and_prints_each_players_tables(make_event, admin_client):
    event = make_event(8, planned_rounds=2)
    url = reverse("admin:tournament_event_schedule", args=[event.pk])
    response = admin_client.post(url, {"plan": "1"})
    assert response.status_code == 302
    page = admin_client.get(url).content.decode()
    # one line per player, a cell per round naming the table and the seat
    assert page.count("<tr><th>Player 0") == 8
    assert "Planned by Taikai." in page and "1 East" in page


def test_the_admin_says_why_a_started_event_is_not_planned(make_event, admin_client):
    event = make_event(8)
    round_seat_next(event=event, round_number=1)
    response = admin_client.post(reverse("admin:tournament_event_schedule", args=[event.pk]), {"plan": "1"})
    assert response.status_code == 400 and "before the first round" in response.content.decode()
