"""Guards before a round: seating the next round refuses, saying what to do, when too few active players are there
to fill a table, when a table of the previous round has no result, or while check-in is open; in the admin, through
the API and in the seating job alike, nothing written. An organizer overrides the last two with a reason, recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from taikai.errors import TaikaiError
from tournament.models import Entry, RoundGuardOverride, SeatingJob
from tournament.services.rounds import round_create
from tournament.services.seating import round_seat_next, seating_job_request
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db


def _short_of_players(event) -> None:
    """Two of the four players withdraw: two are left for a table of four."""
    Entry.objects.filter(pk__in=list(event.entries.values_list("pk", flat=True)[:2])).update(
        status=Entry.Status.WITHDRAWN
    )


def test_seating_refuses_too_few_players_with_a_count(make_event):
    event = make_event(4)
    _short_of_players(event)
    for seat in (lambda: seating_job_request(event=event), lambda: round_seat_next(event=event, round_number=1)):
        with pytest.raises(TaikaiError) as error, translation.override("en"):
            seat()
        assert error.value.code == "not_enough_players" and error.value.field == "event"
        assert "2 active players" in error.value.message and "needs 4" in error.value.message
    assert not SeatingJob.objects.exists() and not event.rounds.exists()


def test_enough_players_are_seated(make_event):
    event = make_event(4)
    assert seating_job_request(event=event).round_number == 1


def test_the_api_refuses_too_few_players_with_400_not_enough_players(make_event):
    event = make_event(4)
    secret = api_token_issue(event=event, name="desk", scope="organizer").secret
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    url = reverse("api_v1:event_rounds", args=[event.slug])
    _short_of_players(event)
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "not_enough_players" and answer.json()["error"]["field"] == "event"
    Entry.objects.filter(event=event).update(status=Entry.Status.ACTIVE)
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 202 and answer.json()["round"] == 1
    reader = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_issue(event=event, name='r', scope='read').secret}")
    assert reader.post(url, content_type="application/json").status_code == 403


def test_the_admin_says_there_are_not_enough_players(make_event, admin_user):
    event = make_event(4)
    event.owner = admin_user
    event.save(update_fields=["owner"])
    _short_of_players(event)
    client = Client()
    client.force_login(admin_user)
    answer = client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    assert answer.status_code == 302
    [message] = [str(m) for m in get_messages(answer.wsgi_request)]
    assert "not enough players to seat round 1" in message and "2 active players" in message
    assert not SeatingJob.objects.exists()


def test_three_players_are_enough_where_the_event_seats_short_tables(make_event):
    event = make_event(4, seating_remainder="three")
    Entry.objects.filter(pk=event.entries.order_by("id").first().pk).update(status=Entry.Status.WITHDRAWN)
    assert seating_job_request(event=event).round_number == 1  # one table of three, as the seating would
    event.seating_remainder = "bye"
    event.save(update_fields=["seating_remainder"])
    SeatingJob.objects.all().delete()
    with pytest.raises(TaikaiError) as error:
        seating_job_request(event=event)
    assert error.value.code == "not_enough_players" and "3 active players" in error.value.message


# --- a table of the previous round without a result; check-in still open; overrides ----------------------------

DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


def _round_one_with_table_two_open(event, seated_round):
    """Round 1 of two tables: table 1 has its result, table 2 none."""
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    round_ = seated_round(event)
    first = round_.tables.get(number=1)
    hand_record(table=first, number=1, expected_version=0, data=DRAW)
    table_finish(table=first, end_reason="time")
    return round_


def _written(event) -> tuple[int, int, int]:
    return (
        event.rounds.count(),
        SeatingJob.objects.filter(event=event).count(),
        RoundGuardOverride.objects.filter(event=event).count(),
    )


def _organizer_client(event, admin_user) -> Client:
    event.owner = admin_user
    event.save(update_fields=["owner"])
    client = Client()
    client.force_login(admin_user)
    return client


def test_a_table_of_the_previous_round_without_a_result_refuses_every_path(make_event, seated_round):
    event = make_event(8)
    _round_one_with_table_two_open(event, seated_round)
    before = _written(event)
    for seat in (
        lambda: seating_job_request(event=event),
        lambda: round_seat_next(event=event, round_number=2),
        lambda: round_create(event=event, tables=[[e.pk for e in event.entries.all()[:4]]]),
    ):
        with pytest.raises(TaikaiError) as error, translation.override("en"):
            seat()
        assert error.value.code == "previous_round_unfinished" and error.value.field == "event"
        assert "tables 2 have no result" in error.value.message and "override" in error.value.message
    assert _written(event) == before


def test_the_api_refuses_then_overrides_with_a_reason_recorded(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    event = make_event(8)
    _round_one_with_table_two_open(event, seated_round)
    token = api_token_issue(event=event, name="desk", scope="organizer")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token.secret}")
    url = reverse("api_v1:event_rounds", args=[event.slug])
    before = _written(event)
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "previous_round_unfinished"
    no_reason = client.post(url, {"override": ["previous_round_unfinished"]}, content_type="application/json")
    assert no_reason.status_code == 400 and no_reason.json()["error"]["code"] == "reason_required"
    unknown = client.post(url, {"override": ["whatever"], "reason": "x"}, content_type="application/json")
    assert unknown.status_code == 400
    assert _written(event) == before
    body = {"override": ["previous_round_unfinished"], "reason": "table 2 is in overtime; the others wait"}
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, body, content_type="application/json")
    assert answer.status_code == 202 and answer.json()["round"] == 2
    [override] = RoundGuardOverride.objects.filter(event=event)
    assert (override.round_number, override.guard, override.by_token_id) == (
        2,
        "previous_round_unfinished",
        token.token.pk,
    )
    assert override.reason == body["reason"] and "2" in override.refusal
    assert event.rounds.filter(number=2).exists()  # the job (in-process) seated it


def test_an_open_check_in_refuses_until_closed_or_overridden(
    make_event, admin_user, django_capture_on_commit_callbacks
):
    from registration.models import Registration

    event = make_event(4)
    now = timezone.now()
    Registration.objects.create(
        event=event, opens_at=now - timedelta(days=9), closes_at=now - timedelta(days=1), cap=8, checkin_opens_at=now
    )
    with pytest.raises(TaikaiError) as error, translation.override("en"):
        seating_job_request(event=event)
    assert error.value.code == "check_in_open" and "close check-in" in error.value.message
    assert _written(event) == (0, 0, 0)
    client = _organizer_client(event, admin_user)
    page = client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    assert page.status_code == 400 and b'data-code="check_in_open"' in page.content
    assert _written(event) == (0, 0, 0)
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse("admin:tournament_event_seat_auto", args=[event.pk]),
            {"override": ["check_in_open"], "override_reason": "the desk is still open for the latecomers' tea"},
        )
    assert done.status_code == 302
    [override] = RoundGuardOverride.objects.filter(event=event)
    assert (override.guard, override.by, override.round_number) == ("check_in_open", admin_user, 1)
    round_ = event.rounds.get(number=1)
    shown = client.get(reverse("admin:tournament_round_change", args=[round_.pk]))
    assert b"guard-override" in shown.content and b"latecomers" in shown.content


def test_the_admins_manual_seating_refuses_and_overrides(make_event, seated_round, admin_user):
    event = make_event(8)
    _round_one_with_table_two_open(event, seated_round)
    client = _organizer_client(event, admin_user)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    tables = "\n".join(", ".join(f"#{i}" for i in ids[n : n + 4]) for n in (0, 4))
    url = reverse("admin:tournament_event_seat_round", args=[event.pk])
    refused = client.post(url, {"tables": tables})
    assert refused.status_code == 400 and b'data-code="previous_round_unfinished"' in refused.content
    assert event.rounds.count() == 1 and not RoundGuardOverride.objects.exists()
    done = client.post(
        url, {"tables": tables, "override": ["previous_round_unfinished"], "override_reason": "overtime at table 2"}
    )
    assert done.status_code == 302, done.content.decode()[:2000]
    assert event.rounds.count() == 2
    assert RoundGuardOverride.objects.get().reason == "overtime at table 2"


def test_a_round_whose_tables_all_have_results_must_still_be_completed(make_event, play_round, seated_round):
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    event = make_event(4)
    round_ = seated_round(event)
    table = round_.tables.get()
    hand_record(table=table, number=1, expected_version=0, data=DRAW)
    table_finish(table=table, end_reason="time")
    with pytest.raises(TaikaiError) as error:
        seating_job_request(event=event)
    assert error.value.code == "round_in_progress"


def test_a_seating_draft_is_published_first_whatever_the_override(make_event):
    event = make_event(8)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    round_create(event=event, tables=[ids[:4], ids[4:]], status="draft")
    with pytest.raises(TaikaiError) as error:
        seating_job_request(event=event, override=["previous_round_unfinished"], override_reason="hurry")
    assert error.value.code == "round_in_progress"
    assert not RoundGuardOverride.objects.exists() and not SeatingJob.objects.exists()
