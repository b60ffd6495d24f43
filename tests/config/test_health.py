from unittest import mock

import pytest
from django.db import OperationalError


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


@pytest.mark.django_db
def test_healthz_is_503_when_database_is_down(client):
    with mock.patch("config.health.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "OperationalError"}


@pytest.mark.django_db
def test_healthz_reports_unreachable_broker_as_degraded(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    body = client.get("/healthz").json()
    assert body["status"] == "degraded"
    assert body["broker"]["ok"] is False
