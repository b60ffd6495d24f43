"""The API's throttles: addresses, accounts and tokens each counted on their own, the address never taken
from a header a caller writes, and one atomic counter per caller (``config/throttling.py``)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import token_client

EVENTS = "/api/v1/events/"


@pytest.fixture(autouse=True)
def rates(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        # per day: no window ends during a test
        "DEFAULT_THROTTLE_RATES": {"anon": "6/day", "user": "3/day", "token": "4/day"},
    }
    yield
    cache.clear()


def statuses(client: Client, count: int, **headers) -> list[int]:
    return [client.get(EVENTS, **headers).status_code for _ in range(count)]


@pytest.mark.django_db
def test_an_anonymous_caller_gets_the_anonymous_rate_not_the_accounts():
    assert statuses(Client(), 7) == [200] * 6 + [429]


@pytest.mark.django_db
def test_a_token_counts_on_its_own_beside_anonymous_reads_from_its_address(make_event):
    event = make_event(4)
    assert statuses(Client(), 7)[-1] == 429  # the venue's address has used up the anonymous allowance
    tablet = token_client(event, "read", name="t")
    assert statuses(tablet, 5) == [200] * 4 + [429]  # the token's own four


@pytest.mark.django_db
def test_an_account_counts_on_its_own(admin_user):
    assert statuses(Client(), 7)[-1] == 429
    organizer = Client()
    organizer.force_login(admin_user)
    assert statuses(organizer, 4) == [200] * 3 + [429]


@pytest.mark.django_db
def test_a_new_x_forwarded_for_on_each_request_changes_nothing():
    client = Client()
    answers = [client.get(EVENTS, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(7)]
    assert answers == [200] * 6 + [429]


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_address_it_saw_is_counted(settings):
    settings.TRUSTED_PROXIES = 1
    client = Client()
    # the caller writes its own first entry; the proxy appends the address it saw
    spoofed = [client.get(EVENTS, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 192.0.2.7").status_code for n in range(7)]
    assert spoofed == [200] * 6 + [429]
    assert client.get(EVENTS, HTTP_X_FORWARDED_FOR="192.0.2.8").status_code == 200  # another caller


@pytest.mark.django_db(transaction=True)
def test_parallel_callers_share_one_count_and_none_slips_past():
    """Eight clients at once, 30 requests in all, from one address: exactly the rate gets through."""
    answers: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def caller():
        client = Client()
        barrier.wait(timeout=10)
        for _ in range(4 if threading.current_thread().name != "last" else 2):
            status = client.get(EVENTS).status_code
            with lock:
                answers.append(status)

    threads = [threading.Thread(target=caller, name="last" if n == 7 else f"c{n}") for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 30 and answers.count(200) == 6 and answers.count(429) == 24
