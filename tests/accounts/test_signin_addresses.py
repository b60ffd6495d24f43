"""A stranger guessing a password from many addresses cannot keep the real user out: the account's own
addresses (where it signed in before) are not delayed by guesses from elsewhere."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from config import login_throttle

pytestmark = pytest.mark.django_db
SIGN_IN = "/accounts/login/"
HOME = "198.51.100.4"  # where the referee signed in before
STRANGERS = [f"203.0.113.{n}" for n in range(1, 5)]


@pytest.fixture
def clock(monkeypatch, settings):
    """The sign-in delays' clock, moved by the test instead of sleeping (and a quick password hasher: the
    hashing is not what these tests are about)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    seconds = [1_000_000.0]
    monkeypatch.setattr(login_throttle, "now", lambda: seconds[0])
    return seconds


def test_a_stranger_rotating_four_addresses_cannot_keep_the_real_user_out_past_a_minute(clock, settings):
    User.objects.create_user("referee", password="right-pw", is_staff=True)
    assert Client(REMOTE_ADDR=HOME).post(SIGN_IN, {"username": "referee", "password": "right-pw"}).status_code == 302

    def stranger_guesses(second: int) -> None:
        guess = {"username": "referee", "password": f"guess-{second}"}
        Client(REMOTE_ADDR=STRANGERS[second % len(STRANGERS)]).post(SIGN_IN, guess)

    for second in range(60):  # a minute of guesses, one a second, before the referee comes back
        stranger_guesses(second)
        clock[0] += 1
    arrived, signed_in = clock[0], None
    for second in range(60, 300):  # the guesses go on; the referee tries every ten seconds
        stranger_guesses(second)
        if second % 10 == 0:
            real_user = Client(REMOTE_ADDR=HOME)
            if real_user.post(SIGN_IN, {"username": "referee", "password": "right-pw"}).status_code == 302:
                signed_in = clock[0]
                break
        clock[0] += 1
    assert signed_in is not None and signed_in - arrived <= 60


def test_a_stranger_is_still_delayed_on_addresses_the_account_never_used(clock, settings):
    User.objects.create_user("referee", password="right-pw", is_staff=True)
    Client(REMOTE_ADDR=HOME).post(SIGN_IN, {"username": "referee", "password": "right-pw"})
    for n in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        Client(REMOTE_ADDR=STRANGERS[n % 4]).post(SIGN_IN, {"username": "referee", "password": "wrong"})
    refused = Client(REMOTE_ADDR="192.0.2.77").post(SIGN_IN, {"username": "referee", "password": "right-pw"})
    assert "wait 1 second" in refused.content.decode()
    # wrong passwords typed at home do not grow the account's delay
    for _ in range(3):
        Client(REMOTE_ADDR=HOME).post(SIGN_IN, {"username": "referee", "password": "typo"})
    clock[0] += 1
    assert (
        Client(REMOTE_ADDR="192.0.2.77").post(SIGN_IN, {"username": "referee", "password": "right-pw"}).status_code
        == 302
    )


def test_the_addresses_an_account_signed_in_from_are_listed_for_superusers_only(admin_client, clock):
    User.objects.create_user("referee", password="right-pw", is_staff=True)
    Client(REMOTE_ADDR=HOME).post(SIGN_IN, {"username": "referee", "password": "right-pw"})
    page = admin_client.get("/admin/accounts/signinaddress/").content.decode()
    assert HOME in page and "referee" in page
    staff = Client()
    staff.force_login(User.objects.get(username="referee"))
    assert staff.get("/admin/accounts/signinaddress/").status_code in (302, 403)
