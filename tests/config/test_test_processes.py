"""Each process of a parallel test run has Redis databases and a Celery queue of its own
(``tests/fixtures/processes.py``), and the services pass leaves out what is marked ``once``."""

import os

import pytest

from tests.fixtures.processes import process_environment, redis_database_moved

SERVICES = {
    "CACHE_URL": "redis://127.0.0.1:6379/14",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
    "CELERY_RESULT_BACKEND": "redis://127.0.0.1:6379/15",
    "CELERY_TASK_DEFAULT_QUEUE": "taikai-test-42",
}


def test_the_first_process_keeps_the_configured_redis_databases():
    own = process_environment(SERVICES, 0)
    assert own["CACHE_URL"] == SERVICES["CACHE_URL"]
    assert own["CELERY_BROKER_URL"] == SERVICES["CELERY_BROKER_URL"]
    assert own["CELERY_TASK_DEFAULT_QUEUE"] == "taikai-test-42-gw0"


def test_no_two_processes_share_a_redis_database_or_a_queue():
    processes = [process_environment(SERVICES, index) for index in range(7)]
    caches = {p["CACHE_URL"] for p in processes}
    brokers = {p["CELERY_BROKER_URL"] for p in processes}
    assert len(caches) == len(brokers) == 7
    assert caches.isdisjoint(brokers)
    assert len({p["CELERY_TASK_DEFAULT_QUEUE"] for p in processes}) == 7
    assert all(p["CELERY_RESULT_BACKEND"] == p["CELERY_BROKER_URL"] for p in processes)


def test_too_many_processes_for_the_redis_databases_is_refused():
    with pytest.raises(pytest.UsageError, match="too many test processes"):
        process_environment(SERVICES, 8)


def test_the_embedded_default_needs_nothing_of_its_own():
    assert process_environment({"CELERY_BROKER_URL": ""}, 3) == {}
    assert redis_database_moved("memory://", 4) == "memory://"
    assert redis_database_moved("redis://h:6379", 0) == "redis://h:6379"


def test_this_process_runs_on_its_own_services():
    """In a parallel services pass, this process's settings are its own (the controller set them)."""
    from django.conf import settings

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not os.environ.get("CACHE_URL"):
        pytest.skip("not a parallel run with services")
    index = int(worker.removeprefix("gw"))
    assert settings.CELERY_TASK_DEFAULT_QUEUE.endswith(f"-gw{index}")
    assert settings.CACHES["default"]["LOCATION"].endswith(f"/{14 - 2 * index}")
