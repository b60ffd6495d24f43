"""Error reports to Sentry, only when ``SENTRY_DSN`` is set: with no DSN nothing is sent anywhere.

Django, Celery and Redis integrations; no personal data (``send_default_pii=False``: no addresses, cookies,
account names or bodies); ``SENTRY_TRACES_SAMPLE_RATE`` (default 0: errors only)."""

from __future__ import annotations

import os


def init_sentry(environ=os.environ) -> bool:
    """Starts the Sentry client when a DSN is set; says whether it did."""
    dsn = environ.get("SENTRY_DSN", "").strip()
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.redis import RedisIntegration

    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration(), RedisIntegration()],
        send_default_pii=False,
        traces_sample_rate=float(environ.get("SENTRY_TRACES_SAMPLE_RATE", "0") or 0),
        environment=environ.get("SENTRY_ENVIRONMENT") or None,
        release=environ.get("SENTRY_RELEASE") or None,
    )
    return True
