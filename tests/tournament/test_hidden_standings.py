"""Hiding the standings of the last rounds before the final (issue 26): the public standings stop at the round
before, and say so; organizers see the full standings."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.audit import event_audit
from tournament.models import Event, SeatResult, StandingsRow, StandingsSnapshot
from tournament.services.checks import round_check, round_unlock
from tournament.services.discipline import penalty_log
from tournament.services.standings import standings_recompute, standings_rows
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
TSUMO = {"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 3, "han": 4, "fu": 30}]}


def _public(event) -> list[tuple]:
    return list(
        StandingsRow.objects.filter(event=event).order_by("position").values_list("name", "rank", "total_points")
    )


def test_the_public_standings_stop_before_the_hidden_rounds_and_say_so(make_event, play_round):
    event = make_event(8, is_public=True)
    Event.objects.filter(pk=event.pk).update(standings_hidden_from_round=3)
    event.refresh_from_db()
    play_round(event, RON)
    play_round(event, RON)
    after_two = _public(event)
    assert StandingsSnapshot.objects.get(event=event).hidden_from_round is None  # nothing hidden yet
    third = play_round(event, TSUMO)
    seat = third.tables.first().seats.get(position=0)
    penalty_log(
        event=event,
        entry=seat.entry,
        kind="art37_deliberate_foul",
        reason="on purpose",
        table=seat.table,
        hand_number=1,
    )  # art. 37: penalty points, in round 3
    standings_recompute(event_id=event.pk)
    assert _public(event) == after_two  # round 3's games and penalties are not in the public rows
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.hidden_from_round == 3 and snapshot.round_numbers == [1, 2]
    full = {row["name"]: row["total_points"] for row in standings_rows(event)}  # organizers: every round
    assert full != {name: str(total) for name, _rank, total in after_two}
    page = Client().get(reverse("tournament:standings", args=[event.slug])).content.decode()
    assert "Standings after round 2: the results from round 3 on are hidden" in page
    # the audit reads the public snapshot as what it is: the rounds before the hidden ones
    assert [v for v in event_audit(event) if v.code.startswith("standings")] == []


def test_organizers_see_the_full_standings_others_do_not(make_event, play_round):
    event = make_event(8, is_public=True)
    Event.objects.filter(pk=event.pk).update(standings_hidden_from_round=2)
    play_round(event, RON)
    play_round(event, TSUMO)
    owner = User.objects.create_user("owner", is_staff=True, is_superuser=True)
    Event.objects.filter(pk=event.pk).update(owner=owner)
    url = reverse("admin:tournament_event_full_standings", args=[event.pk])
    organizer = Client()
    organizer.force_login(owner)
    page = organizer.get(url).content.decode()
    top = standings_rows(event)[0]
    assert 'id="full-standings"' in page and top["name"] in page
    assert Client().get(url).status_code == 302  # to the admin's sign-in
    assert organizer.post(url).status_code == 405


def test_an_event_publishing_results_once_checked_shows_a_round_once_it_is_checked(
    make_event, play_round, django_capture_on_commit_callbacks
):
    event = make_event(8, is_public=True)
    Event.objects.filter(pk=event.pk).update(results_after_check=True)
    event.refresh_from_db()
    first = play_round(event, RON)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.round_numbers == [] and snapshot.checking_from_round == 1  # round 1 is being checked
    page = Client().get(reverse("tournament:standings", args=[event.slug])).content.decode()
    assert 'id="standings-checking"' in page and "round 1 is being checked" in page
    with django_capture_on_commit_callbacks(execute=True):
        round_check(round_=first)
    after_one = _public(event)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.round_numbers == [1] and snapshot.checking_from_round is None
    assert snapshot.hidden_from_round is None
    second = play_round(event, TSUMO)
    assert _public(event) == after_one  # round 2's games wait for its check
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.checking_from_round == 2 and snapshot.hidden_from_round == 2 and snapshot.round_numbers == [1]
    full = {row["name"]: row["total_points"] for row in standings_rows(event)}  # staff: every round
    assert full != {name: str(total) for name, _rank, total in after_one}
    with django_capture_on_commit_callbacks(execute=True):
        round_check(round_=second)
    assert StandingsSnapshot.objects.get(event=event).round_numbers == [1, 2]
    with django_capture_on_commit_callbacks(execute=True):
        round_unlock(round_=second, reason="a result was typed wrong")
    assert StandingsSnapshot.objects.get(event=event).round_numbers == [1]  # unlocked: being checked again


def test_without_the_setting_an_unchecked_round_is_public(make_event, play_round):
    event = make_event(8, is_public=True)
    play_round(event, RON)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.round_numbers == [1] and snapshot.checking_from_round is None


def test_the_round_page_shows_a_round_being_checked_to_the_public_and_everything_to_staff(
    make_event, play_round, admin_user
):
    event = make_event(4, is_public=True)
    Event.objects.filter(pk=event.pk).update(results_after_check=True, owner=admin_user)
    event.refresh_from_db()
    round_ = play_round(event, RON)
    points = str(SeatResult.objects.current().filter(table__round=round_).order_by("-final_points")[0].final_points)
    url = reverse("tournament:round", args=[event.slug, 1])
    public = Client().get(url).content.decode()
    assert 'id="round-being-checked"' in public and "being-checked" in public and points not in public
    staff = Client()
    staff.force_login(admin_user)
    page = staff.get(url).content.decode()
    assert 'id="round-being-checked"' not in page and points in page
    round_check(round_=round_)
    public = Client().get(url).content.decode()
    assert 'id="round-being-checked"' not in public and points in public


def test_read_tokens_and_the_hands_export_get_a_round_once_it_is_checked(make_event, play_round):
    event = make_event(4, is_public=True)
    Event.objects.filter(pk=event.pk).update(results_after_check=True)
    event.refresh_from_db()
    round_ = play_round(event, RON)
    seating = reverse("api_v1:round_seating", args=[event.slug, 1])
    tokens = {
        scope: Client(HTTP_AUTHORIZATION=f"Bearer {api_token_issue(event=event, name=scope, scope=scope).secret}")
        for scope in ("read", "organizer")
    }

    def results(scope):
        return [table["results"] for table in tokens[scope].get(seating).json()["results"]]

    def hands_rows():
        return Client().get(reverse("tournament:hands_csv", args=[event.slug])).content.decode().strip().splitlines()

    assert results("read") == [[]] and results("organizer") != [[]]
    assert len(hands_rows()) == 1  # the header only
    round_check(round_=round_)
    assert results("read") == results("organizer") != [[]]
    assert len(hands_rows()) == 2
