import os
import uuid

import pytest

from players.models import Player
from players.tasks import worker_probe


@pytest.mark.django_db
def test_task_runs_in_process_on_the_embedded_default(settings):
    # given the embedded default (no broker): tasks are eager
    Player.objects.create(display_name="A")
    # when
    result = worker_probe.apply(args=["in-process"])
    # then it ran here, in this process, and saw the database
    assert result.get() == {
        "token": "in-process",
        "pid": os.getpid(),
        "host": os.uname().nodename,
        "players": 1,
    }


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_task_round_trip_through_redis_to_a_worker_process(celery_worker_process):
    # given committed data the worker can read
    Player.objects.bulk_create([Player(display_name=f"P{i}") for i in range(3)])
    token = uuid.uuid4().hex
    # when the task is queued through Redis
    async_result = worker_probe.apply_async(args=[token], queue=celery_worker_process["queue"])
    payload = async_result.get(timeout=30)
    # then a worker process (not this one) ran it against the same database
    assert payload["token"] == token
    assert payload["pid"] != os.getpid()
    assert payload["players"] == 3
