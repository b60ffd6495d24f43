"""Root pytest configuration: service markers and the real Celery worker fixture.

``@pytest.mark.services("postgres", "redis", "worker")`` declares what a test needs:

* not configured (the embedded default: SQLite, no broker) -> skipped, unless the run requires services
  (``TAIKAI_REQUIRE_SERVICES=1``, set by ``bin/test`` in its services pass), then it fails;
* configured but unreachable -> skipped outside CI, a failure when ``CI=true``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

# A property holds or not whatever the machine's load: how long an example takes is the benchmarks' business,
# and a deadline only makes a loaded machine's run fail by chance (the tests' own settings still apply).
hypothesis_settings.register_profile("taikai", deadline=None)
hypothesis_settings.load_profile("taikai")

pytest_plugins = [
    "tests.fixtures.processes",
    "tests.fixtures.passes",
    "tests.fixtures.services",
    "tests.fixtures.tournament",
    "tests.fixtures.timing",
    "tests.fixtures.cpu_times",
    "tests.fixtures.database_reset",
]


def pytest_configure(config):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


@pytest.fixture(scope="session", autouse=True)
def passwords_hashed_quickly():
    """Passwords are hashed with MD5 in the tests, not with the 1,000,000 rounds of PBKDF2 that production uses:
    each account made and each sign-in would otherwise cost a second or more of the run (README, "Tests").
    No test is about the hashing itself; the sign-in throttles count attempts, not the time a hash takes."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def language_left_as_found():
    """Each test starts in the site's default language: a test (or a request it made in its thread) that
    activated Japanese would otherwise leave it active for the next test of the process, whose messages would
    then depend on the order the tests ran in."""
    from django.utils import translation

    yield
    translation.deactivate()
