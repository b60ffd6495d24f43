"""Root pytest configuration: service markers and the real Celery worker fixture.

``@pytest.mark.services("postgres", "redis", "worker")`` declares what a test needs:

* not configured (the embedded default: SQLite, no broker) -> skipped, unless the run requires services
  (``TAIKAI_REQUIRE_SERVICES=1``, set by ``bin/test`` in its services pass), then it fails;
* configured but unreachable -> skipped outside CI, a failure when ``CI=true``.
"""

from __future__ import annotations

import os

pytest_plugins = [
    "tests.fixtures.processes",
    "tests.fixtures.services",
    "tests.fixtures.tournament",
    "tests.fixtures.timing",
]


def pytest_configure(config):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
