"""The Celery work services queue after their commit, through the broker queue: a broker that is down loses
nothing and fails no write; the work goes when the broker is back."""

from __future__ import annotations

import time

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse

from core.models import QueuedTask
from core.queue import enqueue_on_commit, queued_tasks_flush, queued_work_merged
from tournament.models import Round, SeatingJob, StandingsSnapshot, Table
from tournament.services.hands import hand_record
from tournament.services.seating import seating_job_request
from tournament.services.standings import STANDINGS_RECOMPUTE

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def _table_with_a_hand(make_event, seated_round) -> Table:
    table = seated_round(make_event(4)).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=RON)
    return table


def _wait_for(condition, *, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.django_db
def test_the_work_is_recorded_with_the_write_and_goes_at_commit(make_event, django_capture_on_commit_callbacks):
    event = make_event(4)
    # a write rolled back records nothing
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
        raise RuntimeError("the write failed")
    assert not QueuedTask.objects.exists()
    # a write committed records it, and the task goes (here: runs in-process) at the commit
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
        assert QueuedTask.objects.get().args == [event.pk]
    assert not QueuedTask.objects.exists()
    assert StandingsSnapshot.objects.filter(event=event).exists()


@pytest.mark.django_db(transaction=True)
def test_a_result_confirmed_while_the_broker_is_down_is_kept_and_the_standings_follow(
    admin_client, make_event, seated_round, broker_down
):
    # given a table with a hand, and the broker down
    table = _table_with_a_hand(make_event, seated_round)
    # when the referee confirms the result
    response = admin_client.post(
        reverse("console:table", args=[table.pk]), {"action": "finish", "end_reason": "time"}, follow=True
    )
    # then the result is confirmed, the page says the standings follow, and the recompute waits in the broker queue
    assert response.status_code == 200
    assert "The table&#x27;s result is confirmed. The standings will follow." in response.content.decode()
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    waiting = QueuedTask.objects.get()
    assert (waiting.task, waiting.args, waiting.attempts) == (STANDINGS_RECOMPUTE, [table.round.event_id], 1)
    assert "OperationalError" in waiting.last_error
    assert not StandingsSnapshot.objects.exists()
    # and the health check says the broker is down, with the work waiting
    health = admin_client.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "degraded"
    assert health.json()["broker"]["ok"] is False and health.json()["outbox"]["waiting"] == 1
    assert admin_client.get("/healthz?require=broker").status_code == 503
    # a flush while it is still down keeps the work, and says so
    with pytest.raises(CommandError, match="broker_unreachable"):
        call_command("flush_outbox")
    assert QueuedTask.objects.get().attempts == 2
    # when the broker is back, the flush sends it and the standings are computed
    broker_down()
    call_command("flush_outbox")
    assert not QueuedTask.objects.exists()
    snapshot = StandingsSnapshot.objects.get(event=table.round.event)
    rows = list(snapshot.event.standings_rows.order_by("position"))
    assert snapshot.row_count == len(rows) == 4 and rows[0].games == 1


@pytest.mark.django_db
def test_identical_waiting_work_is_sent_once(make_event, broker_down, django_capture_on_commit_callbacks):
    event = make_event(4)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
    assert QueuedTask.objects.filter(attempts=1).count() == 3
    broker_down()
    report = queued_tasks_flush()
    assert (report.sent, report.rows, report.waiting, report.error) == (1, 3, 0, "")


@pytest.mark.django_db
def test_the_same_work_asked_for_twice_in_one_transaction_is_sent_once_for_both(
    make_event, monkeypatch, django_capture_on_commit_callbacks
):
    event = make_event(4)
    sent = []
    monkeypatch.setattr("core.queue._publish", lambda name, args, commit_time: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True), queued_work_merged():
        for _ in range(3):  # a round's tables confirmed in one transaction
            enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
        enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk + 1, commit_time=True)  # other work: sent too
    assert sent == [(STANDINGS_RECOMPUTE, [event.pk]), (STANDINGS_RECOMPUTE, [event.pk + 1])]
    assert not QueuedTask.objects.exists()


@pytest.mark.django_db
def test_work_asked_for_in_a_savepoint_rolled_back_is_not_what_later_work_joins(
    make_event, monkeypatch, django_capture_on_commit_callbacks
):
    event = make_event(4)
    sent = []
    monkeypatch.setattr("core.queue._publish", lambda name, args, commit_time: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True), queued_work_merged():
        with pytest.raises(RuntimeError), transaction.atomic():
            enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
            raise RuntimeError("the write failed")
        enqueue_on_commit(STANDINGS_RECOMPUTE, event.pk, commit_time=True)
    assert sent == [(STANDINGS_RECOMPUTE, [event.pk])]
    assert not QueuedTask.objects.exists()


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_work_queued_while_redis_is_down_reaches_the_worker_when_it_is_back(
    admin_client, make_event, seated_round, broker_down, celery_worker_process
):
    # given the broker down while a referee confirms a result and an organizer asks for a seating
    table = _table_with_a_hand(make_event, seated_round)
    other = make_event(8, name="Autumn Cup", slug="autumn-cup")
    response = admin_client.post(reverse("console:table", args=[table.pk]), {"action": "finish", "end_reason": "time"})
    assert response.status_code == 302
    job = seating_job_request(event=other)
    # then both writes stand, and their work waits in the broker queue
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert SeatingJob.objects.get(pk=job.pk).state == SeatingJob.State.QUEUED
    assert QueuedTask.objects.filter(attempts=1).count() == 2
    time.sleep(2)
    assert not StandingsSnapshot.objects.exists()  # nothing reached a worker
    # when Redis is back and the queued tasks are flushed
    broker_down()
    call_command("flush_outbox")
    # then the worker computes the standings and seats the round
    assert not QueuedTask.objects.exists()
    assert _wait_for(lambda: StandingsSnapshot.objects.filter(event=table.round.event).exists())
    assert _wait_for(lambda: SeatingJob.objects.get(pk=job.pk).state == SeatingJob.State.DONE)
    assert Round.objects.filter(event=other, number=1).count() == 1


def test_the_queued_tasks_keep_the_table_they_had_in_the_tournament_app():
    assert QueuedTask._meta.db_table == "tournament_queuedtask"
    assert QueuedTask._meta.app_label == "core"


@pytest.mark.django_db
def test_celery_beat_flushes_the_queued_tasks_periodically(settings):
    from config.celery import app
    from core.tasks import queued_tasks_flush_task

    schedule = {entry["task"]: entry["schedule"] for entry in app.conf.beat_schedule.values()}
    assert schedule["tournament.outbox_flush"] == settings.OUTBOX_FLUSH_SECONDS
    assert queued_tasks_flush_task.apply().get() == {"sent": 0, "rows": 0, "waiting": 0, "error": ""}
