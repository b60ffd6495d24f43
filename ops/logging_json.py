"""One JSON object per log line (``LOG_FORMAT=json``): time, level, logger, message, the request id, and the
fields the request and task lines add (``event``, ``view``, ``event_slug``, ``status``, ``duration_ms``,
``user_id``, ``token_id``, ``task``, ``state``). Nothing else of the record is written: no arguments a caller
sent, no secret."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

FIELDS = (
    "event",
    "method",
    "view",
    "event_slug",
    "status",
    "duration_ms",
    "user_id",
    "token_id",
    "task",
    "task_id",
    "state",
)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "") or "",
        }
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is not None and value != "":
                line[field] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def logging_config(*, json_lines: bool, level: str, mail_admins: bool = True) -> dict:
    """The site's ``LOGGING``: plain text (``bin/serve``'s default) or one JSON object per line; with JSON,
    a line per request and per task at INFO."""
    formatter = "json" if json_lines else "plain"
    handlers = ["console", "mail_admins"] if mail_admins else ["console"]
    activity = "INFO" if json_lines else "WARNING"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "production": {"()": "django.utils.log.RequireDebugFalse"},
            "request_id": {"()": "ops.context.RequestIdFilter"},
        },
        "formatters": {
            "plain": {"format": "%(message)s"},
            "json": {"()": "ops.logging_json.JsonFormatter"},
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": formatter, "filters": ["request_id"]},
            "mail_admins": {
                "class": "django.utils.log.AdminEmailHandler",
                "level": "ERROR",
                "filters": ["production"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.request": {"handlers": handlers, "level": "ERROR", "propagate": False},
            "taikai.security": {"handlers": ["console"], "level": "WARNING", "propagate": False},
            "taikai.queue": {"handlers": ["console"], "level": "WARNING", "propagate": False},
            "taikai.request": {"handlers": ["console"], "level": activity, "propagate": False},
            "taikai.task": {"handlers": ["console"], "level": activity, "propagate": False},
        },
    }
