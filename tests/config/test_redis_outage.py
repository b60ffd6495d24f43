"""Redis down, with the cache and the broker on one Redis (the README's production settings): the site
degrades, it does not go down. Each test runs a Redis of its own (``own_redis``) and kills it; the
machine's Redis is never touched."""

from __future__ import annotations

import json
import time

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from core import queue
from core.models import QueuedTask
from tests.factories import token_client
from tournament.models import HandVersion, Table
from tournament.services.standings import STANDINGS_RECOMPUTE

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
WRITE_SECONDS = 1.5  # the bound on a write while Redis is down


@pytest.fixture
def redis_site(own_redis, settings, broker_at, monkeypatch):
    """The site's cache (database 1) and broker (database 0) on a Redis of the test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": own_redis.url(1),
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25, "retry_seconds": 0.5},
        }
    }
    broker_at(own_redis.url(0))
    monkeypatch.setattr(queue, "BROKER_RETRY_SECONDS", 0.5)
    return own_redis


@pytest.fixture
def event(make_event, seated_round, admin_user):
    event = make_event(8, is_public=True, clock_bank_seconds=60)
    seated_round(event)
    return event


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def queued_task_names(server) -> list[str]:
    """The tasks waiting on the default queue of ``server``'s broker database."""
    client = redis.Redis(port=server.port, db=0)
    messages = client.lrange(django_settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    return [json.loads(message)["headers"]["task"] for message in messages]


def test_with_redis_killed_pages_sign_in_and_writes_answer_and_nothing_is_lost(
    redis_site, event, admin_user, django_capture_on_commit_callbacks
):
    # given the site running on its Redis, a referee's API token and an organizer who can sign in
    tables = list(Table.objects.filter(round__event=event).order_by("number"))
    referee = token_client(event, "referee", name="r")
    admin_user.set_password("right-password")
    admin_user.save()
    pages = [
        reverse("tournament:event", args=[event.slug]),
        reverse("tournament:standings", args=[event.slug]),
        reverse("tournament:round", args=[event.slug, 1]),
        f"/api/v1/events/{event.slug}/standings",
        reverse("tournament_api:clock", args=[tables[0].pk]),
    ]
    visitor = Client()
    assert [visitor.get(page).status_code for page in pages] == [200] * len(pages)  # cached in Redis

    # when Redis dies
    redis_site.stop()

    # then every page still answers, built from the database
    answers = [timed(lambda page=page: visitor.get(page)) for page in pages]
    assert [response.status_code for response, _ in answers] == [200] * len(pages)
    # the organizer signs in
    signed_in, _ = timed(
        lambda: Client().post(reverse("admin:login"), {"username": "admin", "password": "right-password"})
    )
    assert signed_in.status_code == 302
    # hands and a result are recorded, each within the bound, and their Celery work waits in the outbox
    with django_capture_on_commit_callbacks(execute=True):  # the work is sent after each write's commit
        writes = [
            timed(
                lambda table=table: referee.post(
                    reverse("api_v1:table_hands", args=[table.pk]),
                    {"number": 1, **RON},
                    content_type="application/json",
                )
            )
            for table in tables
        ]
        confirmed, confirm_seconds = timed(
            lambda: referee.post(
                reverse("api_v1:table_result", args=[tables[0].pk]),
                {"end_reason": "time"},
                content_type="application/json",
            )
        )
    assert [response.status_code for response, _ in writes] == [201, 201]
    assert confirmed.status_code in (200, 201), confirmed.content[:300]
    assert max(seconds for _, seconds in [*writes, *answers]) <= WRITE_SECONDS
    assert confirm_seconds <= WRITE_SECONDS
    assert HandVersion.objects.filter(hand__table__round__event=event).count() == 2
    assert QueuedTask.objects.filter(task=STANDINGS_RECOMPUTE, attempts__gt=0).exists()
    # and /healthz says which part is down
    health = visitor.get("/healthz").json()
    assert health["status"] == "degraded"
    assert health["cache"]["ok"] is False and health["broker"]["ok"] is False
    assert visitor.get("/healthz?require=cache").status_code == 503

    # when Redis is back, the next write sends its work and asks a worker for the outbox (no beat needed)
    redis_site.start()
    time.sleep(0.6)  # the broker and the cache are tried again after their retry time
    with django_capture_on_commit_callbacks(execute=True):
        again = referee.post(
            reverse("api_v1:table_result", args=[tables[1].pk]), {"end_reason": "time"}, content_type="application/json"
        )
    assert again.status_code in (200, 201)
    assert queue.QUEUE_FLUSH in queued_task_names(redis_site)
    health = visitor.get("/healthz").json()
    assert health["cache"]["ok"] is True and health["broker"]["ok"] is True


def test_a_write_while_the_broker_rests_does_not_wait_for_it(redis_site, event):
    """After one failed send, the next writes of the process go straight to the outbox."""
    table = Table.objects.filter(round__event=event).first()
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    hand_record(table=table, number=1, expected_version=0, data=RON)
    redis_site.stop()
    first, first_seconds = timed(lambda: queue._deliver([], STANDINGS_RECOMPUTE, [event.pk], False))
    rested, rested_seconds = timed(lambda: queue._deliver([], STANDINGS_RECOMPUTE, [event.pk], False))
    assert first is not None and isinstance(rested, queue.BrokerResting)
    assert first_seconds <= 1.0 and rested_seconds < 0.05
    table_finish(table=table, end_reason="time")  # a confirmation meanwhile succeeds
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_a_worker_that_starts_asks_for_the_outbox(redis_site):
    from core.tasks import queued_tasks_flush_at_worker_start

    queued_tasks_flush_at_worker_start()
    assert queued_task_names(redis_site) == [queue.QUEUE_FLUSH]
