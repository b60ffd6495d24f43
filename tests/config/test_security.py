"""Sign-in throttling, the Content Security Policy, sessions and the API's authentication."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("url", ["/admin/login/", "/accounts/login/"])
def test_five_wrong_passwords_lock_the_account_even_for_the_right_one(url, settings):
    User.objects.create_user("kato", password="right-pw", is_staff=True)
    client = Client()
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        response = client.post(url, {"username": "kato", "password": "wrong"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    locked = client.post(url, {"username": "kato", "password": "right-pw"})
    assert "Too many wrong passwords" in locked.content.decode() and "_auth_user_id" not in client.session


def test_an_address_guessing_many_accounts_is_locked(settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    User.objects.create_user("sato", password="right-pw")
    client = Client()
    for name in ("a", "b", "c"):
        client.post("/accounts/login/", {"username": name, "password": "x"})
    locked = client.post("/accounts/login/", {"username": "sato", "password": "right-pw"})
    assert "Too many wrong passwords" in locked.content.decode()


def test_a_right_password_resets_the_account_count(settings):
    User.objects.create_user("ito", password="right-pw")
    client = Client()
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT - 1):
        client.post("/accounts/login/", {"username": "ito", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "ito", "password": "right-pw"}).status_code == 302
    Client().post("/accounts/login/", {"username": "ito", "password": "wrong"})
    assert Client().post("/accounts/login/", {"username": "ito", "password": "right-pw"}).status_code == 302


def test_pages_carry_a_content_security_policy_with_a_script_nonce(client):
    response = client.get(reverse("scoring:calculator"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy and "object-src 'none'" in policy
    nonce = policy.split("'nonce-")[1].split("'")[0]
    # the page's scripts are static files (the language catalog, then the page's own), each with the nonce
    assert f' nonce="{nonce}"></script>' in response.content.decode()


def test_the_api_takes_no_password_and_sessions_last_a_day(client, settings, make_event, seated_round):
    import base64

    table = seated_round(make_event(4, clock_bank_seconds=20)).tables.get()
    User.objects.create_superuser("root", password="root-pw")
    header = "Basic " + base64.b64encode(b"root:root-pw").decode()
    response = client.post(f"/api/tables/{table.pk}/clock/start", {"hand_number": 1, "dealer_position": 0},
                           content_type="application/json", HTTP_AUTHORIZATION=header)  # fmt: skip
    assert response.status_code == 403
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
