"""JSON log lines with the request id (and into the tasks a request queues), Sentry only with a DSN, backups
made, kept and restored into a scratch database to be audited."""

from __future__ import annotations

import io
import json
import logging
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client

from ops import context
from ops.logging_json import JsonFormatter, logging_config
from ops.models import Backup
from ops.sentry import init_sentry
from ops.signals import on_before_task_publish, on_task_postrun, on_task_prerun


def json_lines(logger_name: str):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(context.RequestIdFilter())
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    return stream, handler, logger


@pytest.mark.django_db
def test_a_request_writes_one_json_line_with_the_request_id_from_nginx():
    stream, handler, logger = json_lines("taikai.request")
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        response = Client(HTTP_X_REQUEST_ID="0123456789abcdef0123456789abcdef").get("/livez")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert response["X-Request-ID"] == "0123456789abcdef0123456789abcdef"
    line = json.loads(stream.getvalue().strip().splitlines()[-1])
    assert line["request_id"] == "0123456789abcdef0123456789abcdef"
    assert (line["view"], line["status"], line["method"], line["event"]) == ("livez", 200, "GET", "request")
    assert line["duration_ms"] >= 0 and line["level"] == "INFO" and "time" in line


def test_a_request_id_that_is_not_plain_is_replaced():
    assert context.checked_request_id("0123456789abcdef") == "0123456789abcdef"
    for sent in ("", None, "short", "has spaces in it", "x" * 65, "line\nbreak-0000000"):
        made = context.checked_request_id(sent)
        assert made != sent and len(made) == 32


def test_the_request_id_goes_with_the_task_and_its_log_line():
    headers = {}
    token = context.request_id.set("feedfacefeedface0001")
    try:
        on_before_task_publish(headers=headers)
    finally:
        context.request_id.reset(token)
    assert headers == {context.TASK_HEADER: "feedfacefeedface0001"}

    stream, handler, logger = json_lines("taikai.task")
    level = logger.level
    logger.setLevel(logging.INFO)
    task = mock.Mock()
    task.name = "tournament.standings_recompute"
    task.request = mock.Mock(spec=[])
    setattr(task.request, context.TASK_HEADER, "feedfacefeedface0001")
    try:
        on_task_prerun(task_id="t-1", task=task)
        assert context.request_id.get() == "feedfacefeedface0001"
        on_task_postrun(task_id="t-1", task=task, state="SUCCESS")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    line = json.loads(stream.getvalue().strip())
    assert line["request_id"] == "feedfacefeedface0001"
    assert (line["task"], line["state"], line["task_id"]) == ("tournament.standings_recompute", "SUCCESS", "t-1")


def test_plain_text_stays_the_default_and_a_setting_switches_to_json():
    plain = logging_config(json_lines=False, level="WARNING")
    assert plain["handlers"]["console"]["formatter"] == "plain"
    assert plain["loggers"]["taikai.request"]["level"] == "WARNING"
    as_json = logging_config(json_lines=True, level="WARNING")
    assert as_json["handlers"]["console"]["formatter"] == "json"
    assert as_json["loggers"]["taikai.request"]["level"] == "INFO"


def test_no_dsn_no_sentry():
    with mock.patch("sentry_sdk.init") as started:
        assert init_sentry({}) is False
        assert init_sentry({"SENTRY_DSN": "  "}) is False
    started.assert_not_called()
    import sentry_sdk

    assert not sentry_sdk.get_client().is_active()


def test_with_a_dsn_sentry_starts_without_personal_data():
    with mock.patch("sentry_sdk.init") as started:
        assert init_sentry({"SENTRY_DSN": "https://key@sentry.example.org/1"}) is True
    options = started.call_args.kwargs
    assert options["send_default_pii"] is False and options["traces_sample_rate"] == 0
    names = {type(integration).__name__ for integration in options["integrations"]}
    assert names == {"DjangoIntegration", "CeleryIntegration", "RedisIntegration"}


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_checked_kept_to_n_and_restores_with_a_clean_audit(tmp_path, make_event, play_round):
    from tournament.models import Event

    if not Event.objects.exists():
        event = make_event(8)
        play_round(event, {"outcome": "exhaustive_draw", "dealer_position": 0})
    for _ in range(3):
        call_command("backup", dir=str(tmp_path), keep=2, stdout=io.StringIO())
    files = sorted(tmp_path.glob("taikai-*"))
    assert len(files) == 2
    assert Backup.objects.filter(good=True).count() == 2
    out = io.StringIO()
    call_command("restore_check", str(files[-1]), stdout=out)
    assert "spring-open: 0 violations" in out.getvalue()
    assert "1 events, 2 tables" in out.getvalue() and ", 0 violations" in out.getvalue()
    checked = Backup.objects.get(file=str(files[-1]))
    assert checked.restore_ok is True and checked.restore_report["hands"] == 2


@pytest.mark.django_db
def test_beat_backs_up_only_while_an_event_runs(settings, tmp_path, make_event):
    from ops.tasks import backup_scheduled
    from tournament.models import Event

    settings.BACKUP_DIR = str(tmp_path)
    settings.BACKUP_WHEN_IDLE = False
    event = make_event(4)
    assert backup_scheduled() == "no event running"
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    assert backup_scheduled().startswith(str(tmp_path))
