"""The announcement hub: each app registers its subjects and their facts, and an announcement is checked
when it is made."""

import logging

import pytest

from core.announce import AnnouncementError, announce, subject_register, subjects, subscribe, unsubscribe


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
