"""The announcement hub: each app registers its subjects and their facts, and an announcement is checked
when it is made."""

import logging
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from core.announce import (
    AnnouncementError,
    announce,
    announcements_flush,
    subject_register,
    subjects,
    subscribe,
    unsubscribe,
)
from core.models import Announcement


def test_the_apps_register_their_own_subjects_with_their_facts():
    registered = {name: (subject.app, set(subject.facts)) for name, subject in subjects().items()}
    assert registered["hand"] == (
        "tournament",
        {"table", "table_number", "number", "version", "label", "being_checked"},
    )
    assert registered["table"] == ("tournament", {"table", "table_number", "status", "result_version", "being_checked"})
    assert registered["standings"] == ("tournament", {"computed_at"})
    assert registered["seating"] == ("tournament", {"round"})
    assert registered["clock"] == ("tournament", {"table", "table_number", "state"})
    assert registered["checkin"] == ("registration", {"checked_in"})


def test_a_subject_nobody_registered_is_refused_naming_the_registered_ones():
    with pytest.raises(AnnouncementError, match=r"unknown subject 'weather'.*'hand'"):
        announce("weather", 1)


def test_facts_other_than_the_registered_ones_are_refused_outside_production():
    with pytest.raises(AnnouncementError, match="'seating' announced with facts \\['number'\\]; tournament registered"):
        announce("seating", 1, number=2)
    with pytest.raises(AnnouncementError):
        announce("seating", 1)  # a fact missing


@pytest.mark.django_db(transaction=True)
def test_in_production_wrong_facts_are_logged_and_the_announcement_still_goes(settings, caplog):
    settings.PRODUCTION = True
    heard = []

    def hear(subject, event_id, facts):
        heard.append((subject, event_id, facts))

    subscribe(hear)
    try:
        with caplog.at_level(logging.ERROR, logger="core.announce"):
            announce("seating", 3, number=2)  # no transaction open: delivered at once
    finally:
        unsubscribe(hear)
    assert heard == [("seating", 3, {"number": 2})]
    assert "announcement_facts" in caplog.text


def test_a_subject_registered_again_must_carry_the_same_facts():
    assert subject_register("seating", "round", app="tournament") == subjects()["seating"]
    with pytest.raises(AnnouncementError, match="subject 'seating' is registered by tournament"):
        subject_register("seating", "round", "table", app="live")
    assert set(subjects()["seating"].facts) == {"round"}


# --- delivered at least once: kept with the write, delivered after its commit, else by the flush ---------------


@pytest.fixture
def heard():
    """The announcements delivered while the test runs."""
    delivered = []

    def hear(subject, event_id, facts):
        delivered.append((subject, event_id, facts))

    subscribe(hear)
    yield delivered
    unsubscribe(hear)


@pytest.mark.django_db
def test_an_announcement_delivered_after_its_commit_is_forgotten(heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        announce("seating", 3, round=2)
    assert heard == [("seating", 3, {"round": 2})]
    assert not Announcement.objects.exists()
    assert announcements_flush(grace_seconds=0) == 0 and len(heard) == 1  # nothing left to deliver again


@pytest.mark.django_db
def test_an_announcement_whose_process_ended_before_delivering_it_is_delivered_by_the_flush_once(
    heard, django_capture_on_commit_callbacks
):
    # given an announcement committed with its write, and its process gone before the delivery after the commit
    with django_capture_on_commit_callbacks(execute=False):
        announce("seating", 3, round=2)
    assert heard == []
    # when the flush runs, twice
    delivered = announcements_flush(grace_seconds=0), announcements_flush(grace_seconds=0)
    # then the announcement is delivered, once
    assert delivered == (1, 0) and heard == [("seating", 3, {"round": 2})]


@pytest.mark.django_db
def test_the_flush_leaves_an_announcement_younger_than_its_grace_to_its_own_process(
    heard, settings, django_capture_on_commit_callbacks
):
    settings.ANNOUNCEMENTS_GRACE_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=False):
        announce("seating", 3, round=2)
    assert announcements_flush() == 0 and heard == []
    Announcement.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    assert announcements_flush() == 1 and heard == [("seating", 3, {"round": 2})]


@pytest.mark.django_db
def test_a_write_rolled_back_keeps_no_announcement(heard):
    with pytest.raises(RuntimeError), transaction.atomic():
        announce("seating", 3, round=2)
        raise RuntimeError("the write failed after its announcement")
    assert not Announcement.objects.exists()
    assert announcements_flush(grace_seconds=0) == 0 and heard == []


@pytest.mark.django_db
def test_a_transactions_announcements_are_delivered_in_order_after_its_commit_with_one_claim_of_their_rows(
    heard, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        for number in (1, 2, 3):
            announce("seating", 3, round=number)
    with CaptureQueriesContext(connection) as queries:
        for callback in callbacks:
            callback()
    assert heard == [("seating", 3, {"round": n}) for n in (1, 2, 3)]
    assert [q["sql"].split()[0] for q in queries.captured_queries if "announcement" in q["sql"]] == ["DELETE"]
    assert not Announcement.objects.exists()


@pytest.mark.django_db
def test_an_announcement_made_in_a_savepoint_rolled_back_is_not_delivered_and_the_others_are(
    heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        announce("seating", 3, round=1)  # the transaction's delivery is registered here
        with pytest.raises(RuntimeError), transaction.atomic():
            announce("seating", 3, round=2)
            raise RuntimeError("this part of the write failed")
        announce("seating", 3, round=3)
    assert heard == [("seating", 3, {"round": 1}), ("seating", 3, {"round": 3})]


@pytest.mark.django_db
def test_announcements_after_the_savepoint_that_registered_the_delivery_rolled_back_are_still_delivered(
    heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            announce("seating", 3, round=1)  # registered here, and gone with the savepoint
            raise RuntimeError("this part of the write failed")
        announce("seating", 3, round=2)
    assert heard == [("seating", 3, {"round": 2})]
    assert not Announcement.objects.exists()
