"""Confirmation windows of online rounds: players confirm from their private link; the round is seated once the
window has closed, without the unconfirmed, who are marked absent and treated as the event's rule says."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from gamelogs.confirmations import confirmation_window_close, confirmation_window_open, play_confirm
from gamelogs.models import ConfirmationWindow, OnlineLeague, PlayConfirmation
from taikai.errors import TaikaiError
from tests.fixtures.tournament import event_with_players
from tournament.models import Entry, Seat
from tournament.services.seating import round_seat_next

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(standard_ruleset):
    event = event_with_players(standard_ruleset, 12, slug="online-rounds")
    OnlineLeague.objects.create(event=event)
    return event


def window_for(event, minutes: int = 30) -> ConfirmationWindow:
    return confirmation_window_open(event=event, round_number=1, closes_at=timezone.now() + timedelta(minutes=minutes))


def closed(window: ConfirmationWindow) -> ConfirmationWindow:
    """The window's time has come (its close moved into the past)."""
    ConfirmationWindow.objects.filter(pk=window.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    window.refresh_from_db()
    return window


def test_players_confirm_from_their_link_and_only_they_are_seated_after_the_close(client, league):
    window = window_for(league)
    entries = list(league.entries.order_by("pk"))
    for entry in entries[:8]:
        page = reverse("gamelogs:play_confirmation", args=[entry.link_token])
        assert client.get(page).status_code == 200
        assert client.post(page, {"window": window.pk}).status_code == 302
    assert PlayConfirmation.objects.filter(window=window, state="confirmed").count() == 8
    with pytest.raises(TaikaiError) as error:  # the window is open: the round waits
        round_seat_next(event=league, round_number=1)
    assert error.value.code == "confirmation_window_open"
    absent = confirmation_window_close(window=closed(window))
    assert absent == [entry.pk for entry in entries[8:]]
    assert set(PlayConfirmation.objects.filter(state="absent").values_list("entry_id", flat=True)) == set(absent)
    round_ = round_seat_next(event=league, round_number=1)
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert seated == {entry.pk for entry in entries[:8]}
    # left out of that round only: still active for the next
    assert set(Entry.objects.filter(pk__in=absent).values_list("status", flat=True)) == {Entry.Status.ACTIVE}


def test_a_confirmation_after_the_close_is_refused(client, league):
    window = closed(window_for(league))
    entry = league.entries.first()
    with pytest.raises(TaikaiError) as error:
        play_confirm(window=window, entry=entry)
    assert (error.value.code, error.value.status) == ("confirmation_closed", 409)
    answer = client.post(reverse("gamelogs:play_confirmation", args=[entry.link_token]), {"window": window.pk})
    assert answer.status_code == 409 and b"confirmation_closed" in answer.content
    assert not PlayConfirmation.objects.exists()


@pytest.mark.parametrize("rule", [OnlineLeague.Unconfirmed.AWAY, OnlineLeague.Unconfirmed.WITHDRAWN])
def test_the_events_rule_marks_the_unconfirmed_away_or_withdrawn(league, rule):
    OnlineLeague.objects.filter(event=league).update(unconfirmed=rule)
    window = window_for(league)
    entries = list(league.entries.order_by("pk"))
    for entry in entries[:8]:
        play_confirm(window=window, entry=entry)
    closed(window)
    call_command("close_confirmation_windows")
    window.refresh_from_db()
    assert window.closed_at is not None
    assert set(Entry.objects.filter(pk__in=[e.pk for e in entries[8:]]).values_list("status", flat=True)) == {rule}
    assert confirmation_window_close(window=window) == []  # closed once


def test_a_window_is_for_a_round_not_seated_yet_and_closes_in_the_future(league):
    with pytest.raises(TaikaiError) as error:
        confirmation_window_open(event=league, round_number=1, closes_at=timezone.now() - timedelta(minutes=1))
    assert error.value.code == "closes_in_the_past"
    round_seat_next(event=league, round_number=1)
    with pytest.raises(TaikaiError) as error:
        window_for(league)
    assert error.value.code == "round_already_seated"


def test_an_unknown_link_is_not_found(client, league):
    assert client.get(reverse("gamelogs:play_confirmation", args=["nope"])).status_code == 404


def test_the_admin_refuses_a_window_for_a_seated_round_or_closing_in_the_past(admin_client, league):
    url = reverse("admin:gamelogs_confirmationwindow_add")
    past = admin_client.post(
        url, {"event": league.pk, "round_number": 1, "closes_at_0": "2020-01-01", "closes_at_1": "20:00"}
    )
    assert past.status_code == 200 and not ConfirmationWindow.objects.exists()
    round_seat_next(event=league, round_number=1)
    seated = admin_client.post(
        url, {"event": league.pk, "round_number": 1, "closes_at_0": "2030-01-01", "closes_at_1": "20:00"}
    )
    assert seated.status_code == 200 and not ConfirmationWindow.objects.exists()
    later = admin_client.post(
        url, {"event": league.pk, "round_number": 2, "closes_at_0": "2030-01-01", "closes_at_1": "20:00"}
    )
    assert later.status_code == 302 and ConfirmationWindow.objects.get().round_number == 2
