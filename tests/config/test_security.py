"""Sign-in throttling, the Content Security Policy, sessions and the API's authentication."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/admin/login/", "/accounts/login/"])
def test_five_wrong_passwords_lock_the_account_from_that_address_even_for_the_right_one(url, settings):
    User.objects.create_user("kato", password="right-pw", is_staff=True)
    client = Client()
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        response = client.post(url, {"username": "kato", "password": "wrong"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    locked = client.post(url, {"username": "kato", "password": "right-pw"})
    assert "Too many wrong passwords" in locked.content.decode() and "_auth_user_id" not in client.session


@pytest.mark.parametrize("url", ["/admin/login/", "/accounts/login/"])
def test_guesses_from_elsewhere_only_slow_the_real_user_down(url, settings):
    """Someone else's wrong passwords do not shut the real user out: from their own address they wait
    for the account's delay (a second after five failures, never more than a minute), then sign in."""
    import time

    from config.login_throttle import login_wait_seconds

    User.objects.create_user("kudo", password="right-pw", is_staff=True)
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        guesser.post(url, {"username": "kudo", "password": "wrong"})
    real_user = Client(REMOTE_ADDR="198.51.100.4")
    delayed = real_user.post(url, {"username": "kudo", "password": "right-pw"})
    assert "wait 1 second" in delayed.content.decode() and "_auth_user_id" not in real_user.session
    time.sleep(1.1)
    assert real_user.post(url, {"username": "kudo", "password": "right-pw"}).status_code == 302
    # twenty more guesses from twenty addresses make the account wait at most LOGIN_DELAY_MAX_SECONDS
    for n in range(20):
        Client(REMOTE_ADDR=f"192.0.2.{n}").post(url, {"username": "kudo", "password": "wrong"})
    wait = login_wait_seconds(None, "kudo")  # tries during a wait are refused, not counted
    assert wait <= settings.LOGIN_DELAY_MAX_SECONDS == 60
    time.sleep(wait + 0.1)
    again = Client(REMOTE_ADDR="198.51.100.4")  # signed out: a new sign-in
    assert again.post(url, {"username": "kudo", "password": "right-pw"}).status_code == 302
    assert "_auth_user_id" in again.session


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
    response = client.post(
        f"/api/tables/{table.pk}/clock/start",
        {"hand_number": 1, "dealer_position": 0},
        content_type="application/json",
        HTTP_AUTHORIZATION=header,
    )
    assert response.status_code == 403
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
