"""Root pytest configuration: service markers and the real Celery worker fixture.

``@pytest.mark.services("postgres", "redis", "worker")`` declares what a test needs:

* not configured (the embedded default: SQLite, no broker) -> skipped, unless the run requires services
  (``TAIKAI_REQUIRE_SERVICES=1``, set by ``bin/test`` in its services pass), then it fails;
* configured but unreachable -> skipped outside CI, a failure when ``CI=true``.
"""

from __future__ import annotations

import os

from hypothesis import settings as hypothesis_settings

# A property holds or not whatever the machine's load: how long an example takes is the benchmarks' business,
# and a deadline only makes a loaded machine's run fail by chance (the tests' own settings still apply).
hypothesis_settings.register_profile("taikai", deadline=None)
hypothesis_settings.load_profile("taikai")

pytest_plugins = [
    "tests.fixtures.processes",
    "tests.fixtures.services",
    "tests.fixtures.tournament",
    "tests.fixtures.timing",
]


def pytest_configure(config):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
