"""/livez, /healthz's backup, /metrics: who may read it, and the figures that move when their events happen."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.urls import reverse
from prometheus_client import REGISTRY

from config.login_throttle import login_failed
from tournament.models import SeatingJob
from tournament.services.roles import role_grant

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def served(client) -> dict[str, float]:
    """The samples /metrics serves, by name and labels as written."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for line in response.content.decode().splitlines():
        if line and not line.startswith("#"):
            key, _, number = line.rpartition(" ")
            samples[key] = float(number)
    return samples


def test_livez_answers_without_the_database(client):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.db.backends.base.base.BaseDatabaseWrapper.cursor", broken_cursor)
        response = client.get("/livez")
    assert response.status_code == 200 and response.json()["status"] == "ok"
    assert response["X-Request-ID"]


def broken_cursor(*args, **kwargs):
    raise OperationalError("down")


def test_healthz_says_when_the_last_good_backup_was_made(client, tmp_path):
    from ops.backups import backup_make

    assert client.get("/healthz").json()["backup"] is None
    backup_make(folder=tmp_path, keep=2)
    made = client.get("/healthz").json()["backup"]
    assert made["file"].startswith("taikai-") and made["age_seconds"] >= 0 and made["restore_ok"] is None


def test_metrics_is_refused_to_the_public_and_readable_to_the_allowed_address(settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["10.1.2.0/24"]
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 200


def test_behind_a_proxy_the_callers_address_decides_not_the_proxys(settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["127.0.0.1"]
    settings.TRUSTED_PROXIES = 1
    outside = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert outside.get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1").get("/metrics").status_code == 200


def test_requests_are_counted_by_view_and_status_with_their_latency(client):
    before = value("taikai_http_requests_total", view="livez", method="GET", status="200")
    timed = value("taikai_http_request_duration_seconds_count", view="livez")
    client.get("/livez")
    client.get("/livez")
    assert value("taikai_http_requests_total", view="livez", method="GET", status="200") == before + 2
    assert value("taikai_http_request_duration_seconds_count", view="livez") == timed + 2
    samples = served(client)
    assert samples['taikai_http_requests_total{method="GET",status="200",view="livez"}'] >= 2
    assert any(key.startswith("taikai_db_queries_total") for key in samples)


@pytest.fixture
def table(make_event, seated_round):
    return seated_round(make_event(4)).tables.get()


@pytest.fixture
def referee(table) -> Client:
    user = User.objects.create_user("kato")
    role_grant(event=table.round.event, user=user, kind="referee")
    client = Client()
    client.force_login(user)
    return client


def send_hand(client, table, key: str, number: int = 1):
    return client.post(
        reverse("api_v1:table_hands", args=[table.pk]),
        json.dumps({"number": number, **RON}),
        content_type="application/json",
        headers={"Idempotency-Key": key},
    )


def test_hands_refusals_and_replays_move_their_counters(referee, table, django_capture_on_commit_callbacks):
    hands = value("taikai_hands_recorded_total")
    replays = value("taikai_idempotent_replays_total")
    conflicts = value("taikai_writes_refused_total", code="idempotency_key_reused")
    with django_capture_on_commit_callbacks(execute=True):
        assert send_hand(referee, table, "metrics-hand-1").status_code == 201
    assert value("taikai_hands_recorded_total") == hands + 1
    assert send_hand(referee, table, "metrics-hand-1").status_code == 201  # the same key: the record's answer
    assert value("taikai_idempotent_replays_total") == replays + 1
    assert send_hand(referee, table, "metrics-hand-1", number=2).status_code == 409
    assert value("taikai_writes_refused_total", code="idempotency_key_reused") == conflicts + 1
    assert value("taikai_hands_recorded_total") == hands + 1


def test_sign_ups_are_counted(make_event, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from registration import services
    from registration.models import Registration

    event = make_event(0)
    now = timezone.now()
    Registration.objects.create(event=event, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1), cap=5)
    before = value("taikai_sign_ups_total")
    with django_capture_on_commit_callbacks(execute=True):
        services.sign_up_create(event=event, values={"name": "Aoki", "email": "a@example.org"}, address="10.0.0.1")
    assert value("taikai_sign_ups_total") == before + 1


def test_sign_in_lockouts_are_counted(settings, django_capture_on_commit_callbacks):
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="10.9.9.9")
    before = value("taikai_sign_in_lockouts_total", kind="pair")
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
            login_failed(request, "someone")
    assert value("taikai_sign_in_lockouts_total", kind="pair") == before + 1


def test_outbox_and_seating_jobs_are_read_from_the_database(client, make_event):
    from core.models import QueuedTask

    event = make_event(8)
    QueuedTask.objects.create(task="tournament.tasks.standings_recompute", args=[1], attempts=1, last_error="x")
    SeatingJob.objects.create(event=event, round_number=1, state=SeatingJob.State.RUNNING)
    samples = served(client)
    assert samples["taikai_outbox_waiting"] == 1
    assert samples["taikai_outbox_oldest_seconds"] >= 0
    assert samples['taikai_seating_jobs{state="running"}'] == 1
    assert samples['taikai_seating_jobs{state="queued"}'] == 0


def test_tasks_are_timed_by_name(make_event, django_capture_on_commit_callbacks):
    from tournament.tasks import standings_recompute_task

    event = make_event(4)
    before = value("taikai_task_duration_seconds_count", task="tournament.standings_recompute")
    standings_recompute_task.delay(event.pk)
    assert value("taikai_task_duration_seconds_count", task="tournament.standings_recompute") == before + 1
    assert value("taikai_tasks_total", task="tournament.standings_recompute", state="SUCCESS") >= 1


def test_the_grafana_dashboard_reads_only_metrics_that_are_served(client, make_event, tmp_path):
    """Every query of docs/grafana-dashboard.json names a metric /metrics declares (its # TYPE line, there even
    before the first sample of a metric with labels)."""
    from django.conf import settings as django_settings

    from ops.backups import backup_make

    make_event(4)
    backup_make(folder=tmp_path, keep=1)
    response = client.get("/metrics")
    declared = dict(re.findall(r"^# TYPE (\S+) (\S+)$", response.content.decode(), re.MULTILINE))
    served_names = set()
    for name, kind in declared.items():
        served_names.add(name)
        if kind == "counter":
            served_names.add(f"{name}_total")
        if kind == "histogram":
            served_names |= {f"{name}_bucket", f"{name}_count", f"{name}_sum"}
    dashboard = json.loads((django_settings.BASE_DIR / "docs" / "grafana-dashboard.json").read_text())
    queries = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    assert len(queries) >= 12
    for query in queries:
        used = set(re.findall(r"\b(taikai_[a-z_]+)", query))
        assert used, query
        assert used <= served_names, (used - served_names, query)
