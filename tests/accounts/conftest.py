"""The sign-in tests count failures in the cache: each starts and ends with none."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()
