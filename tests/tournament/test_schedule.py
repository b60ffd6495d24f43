"""A fixed schedule: imported from CSV or JSON (checked, all or nothing), its winds kept or balanced, and
each round seated from it; a schedule that names an away player is refused when the round is seated."""

from __future__ import annotations

import json

import pytest

from taikai.errors import TaikaiError
from tournament.models import Entry
from tournament.services.entries import entry_status_set
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
    return [[n[0:4], n[4:8]], [[n[0], n[4], n[1], n[5]], [n[2], n[6], n[3], n[7]]],
            [[n[0], n[5], n[2], n[7]], [n[1], n[4], n[3], n[6]]], [[n[0], n[6], n[1], n[7]], [n[2], n[4], n[3], n[5]]]]  # fmt: skip


def test_a_csv_schedule_is_checked_saved_and_each_round_seated_from_it(make_event):
    event = make_event(8)
    report = schedule_import(event=event, data=csv_of(four_rounds(event)), file_name="plan.csv")
    assert report["rounds"] == 4
    round_ = round_seat_next(event=event, round_number=1)
    seated = [[s.entry.player.display_name for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")]  # fmt: skip
    assert seated == four_rounds(event)[0] and round_.seating_report["mode"] == "schedule"


def test_balanced_winds_seat_everyone_once_in_each_seat_over_four_rounds(make_event):
    event = make_event(8)
    schedule_import(event=event, data=json.dumps({"rounds": four_rounds(event)}).encode(), file_name="p.json",
                    winds="balance")  # fmt: skip
    event.refresh_from_db()
    seats = {
        (pk, seat) for tables in event.schedule["rounds"] for table in tables for seat, pk in enumerate(table)
    }
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
