"""Late players by the clock (art. 42): the event's minutes after a round's announced start, a seated player not
checked in at their table is marked absent through the absence service; the referee is warned the minute before
and may hold it. Times are passed as ``now``: no sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.audit import event_audit
from tournament.models import Round, Seat
from tournament.services.checks import round_check
from tournament.services.clock import clock_start
from tournament.services.hands import hand_record
from tournament.services.late import late_players_mark, seat_arrive, table_late_hold
from tournament.services.results import table_finish
from tournament.services.rounds import round_create, round_publish, round_start_set
from tournament.tasks import late_players_mark_task

pytestmark = pytest.mark.django_db

DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}
START = timezone.now().replace(microsecond=0) - timedelta(hours=1)


@pytest.fixture
def late_round(make_event, seated_round):
    """Two tables of four, published, announced to start at ``START``; late players absent after 10 minutes."""
    event = make_event(8, late_absent_minutes=10)
    round_ = seated_round(event)
    round_start_set(round_=round_, starts_at=START)
    return Round.objects.select_related("event").get(pk=round_.pk)


def _seat(round_, table: int, position: int) -> Seat:
    return Seat.objects.select_related("entry__player", "table").get(
        round=round_, table__number=table, position=position
    )


def _absent(round_) -> set[tuple[int, int]]:
    return set(
        Seat.objects.filter(round=round_).exclude(absence=Seat.Absence.PRESENT).values_list("table__number", "position")
    )


def test_nobody_is_marked_before_the_deadline(late_round):
    assert late_players_mark(now=START + timedelta(minutes=9, seconds=59)).marked == []
    assert _absent(late_round) == set()


def test_players_not_checked_in_are_marked_absent_at_the_deadline_and_checked_in_ones_never(late_round):
    seat_arrive(seat=_seat(late_round, 1, 0), how=Seat.Arrival.PLAYER)  # "I am here"
    seat_arrive(seat=_seat(late_round, 1, 1), how=Seat.Arrival.REFEREE)
    hand_record(table=_seat(late_round, 2, 0).table, number=1, expected_version=0, data=DRAW)  # table 2 started
    report = late_players_mark(now=START + timedelta(minutes=10))
    assert _absent(late_round) == {(1, 2), (1, 3)}
    assert len(report.marked) == 2 and report.left == []
    marked = _seat(late_round, 1, 2)
    assert marked.absence == Seat.Absence.ABSENT_BEFORE and marked.late_marked_at == START + timedelta(minutes=10)
    assert event_audit(late_round.event) == []


def test_a_second_run_marks_nothing_more(late_round):
    now = START + timedelta(minutes=11)
    first = late_players_mark(now=now)
    second = late_players_mark(now=now)
    # a table keeps two players at least: the referee decides about the rest
    assert len(first.marked) == 4 and len(first.left) == 4
    assert second.marked == [] and second.left == first.left  # still late, still left to the referee
    assert len(_absent(late_round)) == 4


def test_the_task_marks_as_the_service_does(late_round, monkeypatch):
    for position in (0, 1):
        seat_arrive(seat=_seat(late_round, 1, position), how=Seat.Arrival.REFEREE)
    monkeypatch.setattr(timezone, "now", lambda: START + timedelta(minutes=30))
    assert late_players_mark_task.apply().get() == {"marked": 4, "left": 2}
    assert late_players_mark_task.apply().get() == {"marked": 0, "left": 2}


def test_a_hold_keeps_the_table_from_the_clock_and_is_recorded(late_round, admin_user):
    table = _seat(late_round, 1, 0).table
    held = table_late_hold(table=table, user=admin_user)
    assert held.late_held_by == admin_user and held.late_held_at is not None
    late_players_mark(now=START + timedelta(hours=1))
    assert {number for number, _ in _absent(late_round)} == {2}


def test_a_started_clock_counts_as_everyone_there(late_round):
    table = _seat(late_round, 1, 0).table
    if not late_round.event.clock_bank_seconds:
        late_round.event.clock_bank_seconds = 600
        late_round.event.save(update_fields=["clock_bank_seconds"])
    clock_start(table=table, hand_number=1, dealer_position=0)
    late_players_mark(now=START + timedelta(hours=1))
    assert {number for number, _ in _absent(late_round)} == {2}


def test_the_warning_comes_a_minute_before(late_round):
    table = _seat(late_round, 1, 0).table
    assert not selectors.table_late(table, now=START + timedelta(minutes=8, seconds=59)).warning
    warned = selectors.table_late(table, now=START + timedelta(minutes=9, seconds=1))
    assert warned.warning and len(warned.missing) == 4
    assert warned.deadline == START + timedelta(minutes=10)
    table = table_late_hold(table=table)
    assert not selectors.table_late(table, now=START + timedelta(minutes=9, seconds=1)).warning


def test_an_event_without_the_setting_marks_nobody(late_round):
    late_round.event.late_absent_minutes = None
    late_round.event.save(update_fields=["late_absent_minutes"])
    assert late_players_mark(now=START + timedelta(days=1)).marked == []


def test_a_checked_round_is_left_alone(late_round):
    for table in late_round.tables.all():
        hand_record(table=table, number=1, expected_version=0, data=DRAW)
        table_finish(table=table, end_reason="time")
    round_check(round_=late_round)
    assert selectors.tables_late_due(START + timedelta(days=1)) == []


def test_publishing_sets_the_start_unless_set_by_hand(make_event):
    event = make_event(4)
    ids = list(event.entries.values_list("id", flat=True))
    draft = round_create(event=event, tables=[ids], status=Round.Status.DRAFT)
    assert draft.starts_at is None
    before = timezone.now()
    assert round_publish(round_=draft).starts_at >= before
    draft.refresh_from_db()
    assert draft.starts_at is not None


def test_an_absent_player_cannot_say_they_are_here(late_round):
    late_players_mark(now=START + timedelta(minutes=10))
    with pytest.raises(TaikaiError) as error:
        seat_arrive(seat=_seat(late_round, 1, 0), how=Seat.Arrival.PLAYER)
    assert error.value.code == "already_absent"


def test_i_am_here_from_the_players_own_link(late_round):
    seat = _seat(late_round, 1, 3)
    client = Client()
    client.get(reverse("tournament:player_link", args=[seat.entry.link_token]))
    page = client.get(reverse("tournament:player", args=[late_round.event.slug, seat.entry_id]))
    assert b'id="i-am-here"' in page.content
    answer = client.post(reverse("tournament:player_here", args=[late_round.event.slug, seat.entry_id]))
    assert answer.status_code == 302
    seat.refresh_from_db()
    assert seat.arrived_how == Seat.Arrival.PLAYER and seat.arrived_at is not None
    other = _seat(late_round, 1, 2)  # another player's page: refused, nothing written
    refused = client.post(reverse("tournament:player_here", args=[late_round.event.slug, other.entry_id]))
    assert refused.status_code in (403, 404)
    other.refresh_from_db()
    assert other.arrived_at is None


def test_the_round_page_shows_the_start(late_round):
    late_round.event.is_public = True
    late_round.event.save(update_fields=["is_public"])
    with translation.override("ja"):
        page = Client().get(reverse("tournament:round", args=[late_round.event.slug, 1]), HTTP_ACCEPT_LANGUAGE="ja")
    assert b'id="round-start"' in page.content


def test_the_warning_and_the_marking_are_announced_once_to_the_live_pages(
    late_round, django_capture_on_commit_callbacks
):
    from tests.fixtures.tournament import announcements_heard

    table = _seat(late_round, 1, 0).table
    seat_arrive(seat=_seat(late_round, 2, 0), how=Seat.Arrival.REFEREE)
    for position in (1, 2, 3):
        seat_arrive(seat=_seat(late_round, 2, position), how=Seat.Arrival.REFEREE)
    warned_at = START + timedelta(minutes=9, seconds=30)
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        late_players_mark(now=warned_at)
        late_players_mark(now=warned_at + timedelta(seconds=15))
    assert [(s, f["table"]) for s, _, f in heard] == [("table", table.pk)]  # table 1 warned once; table 2 all here
    table.refresh_from_db()
    assert table.late_warned_at == warned_at
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        late_players_mark(now=START + timedelta(minutes=10))
    assert [(s, f["table"]) for s, _, f in heard] == [("table", table.pk)]  # its players marked absent
