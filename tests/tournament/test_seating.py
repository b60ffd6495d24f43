"""Automatic seating of the next round: service, Celery task, admin, and a real worker."""

import itertools
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from celery.result import allow_join_result
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from taikai.errors import TaikaiError
from tournament.models import Entry, Event, Round, Seat, SeatingJob
from tournament.services import seating as seating_services
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_publish
from tournament.services.seating import round_seat_next, seating_job_request, seating_request_for
from tournament.tasks import seat_next_round_task

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]}


def play_round(round_):
    round_publish(round_=round_) if round_.status == Round.Status.DRAFT else None
    for table in round_.tables.all():
        hand_record(table=table, number=1, expected_version=0, data=RON)
        table_finish(table=table, end_reason="time")
    round_complete(round_=round_)


def pairs(round_):
    seated = {}
    for seat in Seat.objects.filter(round=round_):
        seated.setdefault(seat.table_id, []).append(seat.entry_id)
    return {frozenset(p) for table in seated.values() for p in itertools.combinations(table, 2)}


@pytest.mark.django_db
def test_next_round_is_a_draft_with_its_quality_report_and_is_idempotent(make_event):
    event = make_event(16)
    round_ = round_seat_next(event=event, round_number=1)
    assert round_.status == Round.Status.DRAFT
    assert sorted(len(t.seats.all()) for t in round_.tables.all()) == [4, 4, 4, 4]
    assert round_.seating_report["repeat_pairs"] == 0 and round_.seating_report["mode"] == "random"
    again = round_seat_next(event=event, round_number=1)
    assert again.pk == round_.pk and Round.objects.count() == 1 and Seat.objects.count() == 16


@pytest.mark.django_db
def test_swiss_rounds_avoid_repeats_and_skip_withdrawn_players(make_event):
    event = make_event(17)
    first = round_seat_next(event=event, round_number=1)
    assert sorted(t.seats.count() for t in first.tables.all()) == [3, 3, 3, 4, 4]  # 17 = 4 + 4 + 3 + 3 + 3
    play_round(first)
    Entry.objects.filter(pk=event.entries.order_by("id").first().pk).update(status=Entry.Status.WITHDRAWN)
    request = seating_request_for(event, round_number=2)
    assert request["mode"] == "swiss" and len(request["standings"]) == 17 and len(request["absent"]) == 1
    second = round_seat_next(event=event, round_number=2)
    assert Seat.objects.filter(round=second).count() == 16
    assert not pairs(first) & pairs(second)


@pytest.mark.django_db
def test_seating_a_round_that_is_not_next_is_refused(make_event):
    event = make_event(8)
    with pytest.raises(TaikaiError) as info:
        round_seat_next(event=event, round_number=3)
    assert info.value.code == "not_the_next_round"


@pytest.mark.django_db
def test_job_runs_after_commit_and_a_second_request_changes_nothing(make_event, django_capture_on_commit_callbacks):
    event = make_event(12)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = seating_job_request(event=event)
    assert len(callbacks) == 1
    job.refresh_from_db()
    assert (job.state, job.percent) == (SeatingJob.State.DONE, 100)
    # round 1 is a draft now, not completed: no new request
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(TaikaiError):
        seating_job_request(event=event)
    assert callbacks == [] and Round.objects.count() == 1
    # the task itself is idempotent too
    assert seat_next_round_task.apply(args=[job.pk]).get()["round"] == 1
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_a_failing_seating_is_reported_on_the_job_not_swallowed(make_event, django_capture_on_commit_callbacks):
    event = make_event(4)
    with django_capture_on_commit_callbacks() as queued:
        seating_job_request(event=event)
    # three players withdraw between the request and the run: the run itself finds too few players
    Entry.objects.filter(event=event).exclude(pk=event.entries.order_by("id").first().pk).update(status="withdrawn")
    with pytest.raises(TaikaiError):
        for run in queued:
            run()
    job = SeatingJob.objects.get()
    assert job.state == SeatingJob.State.FAILED and "not_enough_players" in job.message
    assert not Round.objects.exists()


@pytest.mark.django_db
def test_admin_seats_automatically_shows_progress_and_publishes(
    admin_client, make_event, django_capture_on_commit_callbacks
):
    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    assert response.status_code == 302
    page = admin_client.get(response.url).content.decode()
    assert (
        'data-state="done"' in page
        and "No two players have met more than once." in page
        and "Publish this seating" in page
    )
    assert admin_client.post(response.url).status_code == 302
    assert Round.objects.get(event=event).status == Round.Status.PUBLISHED


def test_the_job_speaks_the_language_of_whoever_asked_even_on_a_worker_speaking_another(make_event):
    """A worker runs in its own language (English): a Japanese organizer's job page must still read in
    Japanese, so the job keeps the asker's language and the run writes its messages in it."""
    from django.utils import translation

    event = make_event(12)
    with translation.override("ja"):
        job = seating_job_request(event=event)
    assert job.language == "ja"
    with translation.override("en"):  # the worker's own language
        seating_services.seating_job_run(job_id=job.pk)
    job.refresh_from_db()
    with translation.override("ja"):
        expected = translation.ngettext("round %(round)s: %(tables)s tables", "round %(round)s: %(tables)s tables", 3)
    assert job.message == expected % {"round": 1, "tables": 3} and job.message != "round 1: 3 tables"


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_seating_task_runs_on_the_worker_and_writes_the_round(make_event, celery_worker_process):
    event = make_event(16)
    job = SeatingJob.objects.create(event=event, round_number=1)
    # this process is no task: an eager task run earlier in it (``.apply``) may have left Celery's
    # process-wide "joins would block" flag set, which only matters inside a worker
    with allow_join_result():
        result = seat_next_round_task.apply_async(args=[job.pk], queue=celery_worker_process["queue"]).get(timeout=60)
    assert result == {"job": job.pk, "state": "done", "round": 1}
    assert Seat.objects.filter(round__event=event).count() == 16


def _start_worker(queue: str, env: dict, log) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue,
            "-c",
            "1",
            "--pool",
            "solo",
            "-n",
            f"{queue}-{time.monotonic_ns()}@%h",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "info",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_task_leads_to_exactly_one_round(make_event, celery_worker_process, tmp_path):
    """acks_late: the task's message comes back after its worker dies, and the redelivery (plus a
    duplicate request) still writes round 1 exactly once."""
    from django.conf import settings

    event = make_event(16)
    job = SeatingJob.objects.create(event=event, round_number=1)
    queue = f"{celery_worker_process['queue']}-kill"
    env = os.environ | {
        "DATABASE_URL": celery_worker_process["database_url"],
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_BROKER_VISIBILITY_TIMEOUT": "3",
    }
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 -- closed below
    # given the event row locked by another transaction, so the task blocks inside its write
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        first = _start_worker(queue, env, log)
        seat_next_round_task.apply_async(args=[job.pk], queue=queue)
        deadline = time.monotonic() + 60
        while SeatingJob.objects.get(pk=job.pk).percent < 80 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert SeatingJob.objects.get(pk=job.pk).percent == 80, (tmp_path / "worker.log").read_text()[-3000:]
        # when the worker dies in the middle (no ack was sent)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=20)
    connection.close()
    time.sleep(4)  # past the visibility timeout: the unacknowledged message is due again
    second = _start_worker(queue, env, log)
    try:
        seat_next_round_task.apply_async(args=[job.pk], queue=queue)  # and the organizer clicks again
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            job.refresh_from_db()
            if job.state == SeatingJob.State.DONE and Round.objects.filter(event=event).exists():
                break
            time.sleep(0.3)
        time.sleep(2)  # let any second delivery finish too
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)
        log.close()
    # then exactly one round 1 with every player seated once
    assert job.state == SeatingJob.State.DONE, (tmp_path / "worker.log").read_text()[-3000:]
    assert Round.objects.filter(event=event).count() == 1
    assert Seat.objects.filter(round__event=event).count() == 16
    deliveries = (tmp_path / "worker.log").read_text().count("tournament.seat_next_round[")
    assert deliveries >= 3  # received by the killed worker, then the redelivery and the duplicate


@pytest.mark.django_db
def test_a_player_away_for_a_round_is_not_seated_and_comes_back(make_event):
    event = make_event(9)
    away = event.entries.order_by("id").first()
    Entry.objects.filter(pk=away.pk).update(status=Entry.Status.AWAY)
    first = round_seat_next(event=event, round_number=1)
    assert not Seat.objects.filter(round=first, entry=away).exists()
    assert Seat.objects.filter(round=first).count() == 8
    play_round(first)
    Entry.objects.filter(pk=away.pk).update(status=Entry.Status.ACTIVE)
    second = round_seat_next(event=event, round_number=2)
    assert Seat.objects.filter(round=second, entry=away).exists()


@pytest.mark.django_db
def test_a_draft_is_seated_again_or_two_players_swapped_before_publishing(
    admin_client, make_event, django_capture_on_commit_callbacks
):
    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        with_job = admin_client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    job = SeatingJob.objects.get(event=event)
    url = reverse("admin:tournament_event_seating_job", args=[event.pk, job.pk])
    assert with_job.status_code == 302
    draft = Round.objects.get(event=event)
    before = {s.entry_id: (s.table.number, s.position) for s in draft.seats.select_related("table")}
    first, second = (
        draft.tables.get(number=1).seats.get(position=0),
        draft.tables.get(number=2).seats.get(position=3),
    )
    response = admin_client.post(
        url, {"action": "swap", "first": str(first.entry.player), "second": f"#{second.entry_id}"}
    )
    assert response.status_code == 302
    after = {
        s.entry_id: (s.table.number, s.position) for s in Round.objects.get(event=event).seats.select_related("table")
    }
    assert after[first.entry_id] == (2, 3) and after[second.entry_id] == (1, 0)
    assert "Changed by hand: 1 swap after" in admin_client.get(url).content.decode()
    unknown = admin_client.post(url, {"action": "swap", "first": "Nobody", "second": "#1"}, follow=True)
    assert "&#x27;Nobody&#x27; is not registered" in unknown.content.decode()
    assert admin_client.post(url, {"action": "reroll"}).status_code == 302
    redrawn = Round.objects.get(event=event)
    assert redrawn.status == Round.Status.DRAFT and redrawn.seats.count() == 8 and "seed" in redrawn.seating_report
    assert before  # the first draw was read before it was replaced


@pytest.mark.django_db
def test_typed_seating_names_the_player_seated_twice_and_lists_the_active_players(admin_client, make_event):
    event = make_event(8)
    url = reverse("admin:tournament_event_seat_round", args=[event.pk])
    page = admin_client.get(url).content.decode()
    assert "Active players (8)" in page and "Player 08" in page
    response = admin_client.post(
        url, {"tables": "Player 01, Player 02, Player 03, Player 04\nPlayer 05, Player 01, Player 07, Player 08"}
    )
    assert "line 2: Player 01 is seated twice (also on line 1)" in response.content.decode()


def _job_page(admin_client, job) -> str:
    return admin_client.get(reverse("admin:tournament_event_seating_job", args=[job.event_id, job.pk])).content.decode()


@pytest.mark.django_db
def test_a_job_whose_worker_went_silent_is_shown_stale_and_asked_again_once(
    admin_client, make_event, django_capture_on_commit_callbacks
):
    # given a job a worker started and then stopped beating on (it died at 30 %)
    event = make_event(8)
    long_ago = timezone.now() - timedelta(minutes=10)
    job = SeatingJob.objects.create(
        event=event, round_number=1, state=SeatingJob.State.RUNNING, percent=30, message="seating 8 players"
    )
    SeatingJob.objects.filter(pk=job.pk).update(heartbeat_at=long_ago, updated_at=long_ago)
    # then its page says so and offers to ask again
    page = _job_page(admin_client, job)
    assert 'id="seating-stale"' in page and "Ask again" in page and 'http-equiv="refresh"' not in page
    # when the organizer asks again
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    # then the same job is queued again and seats the round
    assert response.status_code == 302 and len(callbacks) == 1
    job.refresh_from_db()
    assert (job.state, job.attempts, job.percent) == (SeatingJob.State.DONE, 2, 100)
    assert Round.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_a_job_with_a_live_worker_is_not_queued_twice(admin_client, make_event, django_capture_on_commit_callbacks):
    event = make_event(8)
    job = SeatingJob.objects.create(
        event=event, round_number=1, state=SeatingJob.State.RUNNING, percent=30, heartbeat_at=timezone.now()
    )
    assert 'id="seating-stale"' not in _job_page(admin_client, job)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        admin_client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk]))
    job.refresh_from_db()
    assert callbacks == [] and (job.state, job.attempts) == (SeatingJob.State.RUNNING, 1)


@pytest.mark.django_db
def test_a_run_given_up_on_writes_nothing_on_the_job(make_event, monkeypatch):
    # given a run that is slow; meanwhile the organizer, seeing no sign of life, asks again
    event = make_event(8)
    job = SeatingJob.objects.create(event=event, round_number=1)
    engine = seating_services.seating_from_engine

    def slow_engine(request):
        SeatingJob.objects.filter(pk=job.pk).update(state=SeatingJob.State.QUEUED, attempts=2, percent=0)
        return engine(request)

    monkeypatch.setattr(seating_services, "seating_from_engine", slow_engine)
    # when the first run ends
    seating_services.seating_job_run(job_id=job.pk)
    # then the round is written once, and the job is the new request's, untouched by the old run
    job.refresh_from_db()
    assert (job.state, job.attempts, job.percent) == (SeatingJob.State.QUEUED, 2, 0)
    assert Round.objects.filter(event=event).count() == 1


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_seating_is_seen_stale_and_the_organizer_asks_again(
    admin_client, make_event, celery_worker_process, tmp_path, settings
):
    """A killed worker's task would come back only after the broker's visibility timeout (600 s): its
    silent heartbeat shows the job stale within seconds, and asking again seats the round once."""
    settings.SEATING_STALE_SECONDS = 3
    event = make_event(16)
    job = SeatingJob.objects.create(event=event, round_number=1, heartbeat_at=timezone.now())
    queue = f"{celery_worker_process['queue']}-stale"
    env = os.environ | {
        "DATABASE_URL": celery_worker_process["database_url"],
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "SEATING_HEARTBEAT_SECONDS": "0.5",
    }
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 -- closed below
    try:
        # given a worker running the seating, held inside its write by a lock on the event
        with transaction.atomic():
            Event.objects.select_for_update().get(pk=event.pk)
            worker = _start_worker(queue, env, log)
            seat_next_round_task.apply_async(args=[job.pk], queue=queue)
            deadline = time.monotonic() + 60
            while SeatingJob.objects.get(pk=job.pk).percent < 80 and time.monotonic() < deadline:
                time.sleep(0.2)
            beat = SeatingJob.objects.get(pk=job.pk).heartbeat_at
            time.sleep(1.5)
            job.refresh_from_db()
            assert job.percent == 80 and job.heartbeat_at > beat, (tmp_path / "worker.log").read_text()[-3000:]
            assert not seating_services.seating_job_stale(job)  # it beats while it waits
            # when the worker is killed
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=20)
        connection.close()
    finally:
        log.close()
    # then within seconds the job is seen stale, still "running" at 80 %
    assert _wait_for_stale(job.pk)
    job.refresh_from_db()
    assert (job.state, job.percent) == (SeatingJob.State.RUNNING, 80)
    assert 'id="seating-stale"' in _job_page(admin_client, job)
    # and when the organizer asks again (twice), the worker seats the round once
    for _ in range(2):
        assert admin_client.post(reverse("admin:tournament_event_seat_auto", args=[event.pk])).status_code == 302
    deadline = time.monotonic() + 60
    while SeatingJob.objects.get(pk=job.pk).state != SeatingJob.State.DONE and time.monotonic() < deadline:
        time.sleep(0.3)
    job.refresh_from_db()
    assert (job.state, job.attempts) == (SeatingJob.State.DONE, 2)
    assert Round.objects.filter(event=event).count() == 1
    assert Seat.objects.filter(round__event=event).count() == 16


def _wait_for_stale(job_id: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if seating_services.seating_job_stale(SeatingJob.objects.get(pk=job_id)):
            return True
        time.sleep(0.3)
    return False
