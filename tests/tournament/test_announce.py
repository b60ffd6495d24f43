"""The tournament's one after-commit hook: what its writes announce, to whom, and when."""

import pytest
from django.db import transaction

from core.announce import announce, subscribe, unsubscribe
from tests.fixtures.tournament import announcements_heard
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create, round_publish

pytestmark = pytest.mark.django_db
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


def test_a_write_announces_after_its_commit_and_a_rollback_announces_nothing(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    table = seated_round(make_event(4)).tables.get()
    with announcements_heard() as heard:
        with pytest.raises(RuntimeError), transaction.atomic():
            hand_record(table=table, number=1, expected_version=0, data=DRAW)
            raise RuntimeError("rolled back")
        with django_capture_on_commit_callbacks(execute=True):
            hand_record(table=table, number=1, expected_version=0, data=DRAW)
            assert heard == []  # not before the commit
    assert [(subject, event_id, facts["number"]) for subject, event_id, facts in heard] == [
        ("hand", table.round.event_id, 1)
    ]


def test_confirming_a_table_and_publishing_a_round_announce_what_the_pages_show(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    event = make_event(4)
    table = seated_round(event).tables.get()
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        hand_record(table=table, number=1, expected_version=0, data=DRAW)
        table_finish(table=table, end_reason="time")
    confirmed = {
        "table": table.pk,
        "table_number": table.number,
        "status": "finished",
        "result_version": 1,
        "being_checked": False,  # the event publishes its results at once
    }
    assert ("table", confirmed) in [(s, f) for s, _, f in heard]
    assert "standings" in [s for s, _, _ in heard]  # the recompute (in-process here) announces its time
    round_complete(round_=table.round)
    draft = round_create(event=event, tables=[list(event.entries.values_list("id", flat=True))], status="draft")
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        round_publish(round_=draft)
    assert [(s, f) for s, _, f in heard] == [("seating", {"round": draft.number})]


def test_a_failing_subscriber_does_not_stop_the_others_nor_the_write(django_capture_on_commit_callbacks):
    def broken(subject, event_id, facts):
        raise ConnectionError("the bus is down")

    subscribe(broken)
    try:
        with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
            announce("standings", 7, computed_at="2026-11-26T10:00:00+00:00")
    finally:
        unsubscribe(broken)
    assert heard == [("standings", 7, {"computed_at": "2026-11-26T10:00:00+00:00"})]


def test_an_unknown_subject_is_a_programming_error():
    with pytest.raises(ValueError):
        announce("weather", 1)


def test_a_clock_started_and_stopped_is_announced_with_its_state(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    from tournament.services.clock import clock_start

    table = seated_round(make_event(4, clock_bank_seconds=60)).tables.get()
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        clock_start(table=table, hand_number=1, dealer_position=0)
        hand_record(table=table, number=1, expected_version=0, data=DRAW)  # the hand is over: the clock stops
    clocks = [facts["state"] for subject, _, facts in heard if subject == "clock"]
    assert clocks == ["running", "finished"]
