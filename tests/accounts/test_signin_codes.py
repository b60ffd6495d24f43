"""A locked-out person gets in with their own password and a one-time code from an organizer; every lockout
and every code is recorded (issue 24, item 5)."""

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import SignInCode, SignInLockout
from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory
from tournament.models import Event, EventRole
from tournament.services.roles import ORGANIZERS_GROUP, signin_code_issue, staff_groups_install

pytestmark = pytest.mark.django_db
SIGN_IN = "/accounts/login/"
VENUE = "198.51.100.20"  # the hall's one address, shared by everyone there


@pytest.fixture
def hall(make_event):
    """An event, its owner (an organizer) and a referee."""
    staff_groups_install()
    event = make_event(4)
    owner = User.objects.create_user("owner", password="owner-pw", is_staff=True)
    owner.groups.add(*owner.groups.model.objects.filter(name=ORGANIZERS_GROUP))
    Event.objects.filter(pk=event.pk).update(owner=owner)
    event.refresh_from_db()
    role = EventRoleFactory(event=event, user__username="yamada", user__password="right-pw", kind="referee", by=owner)
    referee = role.user
    return event, owner, referee, role


def _lock_out(username: str, address: str = VENUE, *, times: int = 5) -> None:
    for _ in range(times):
        Client(REMOTE_ADDR=address).post(SIGN_IN, {"username": username, "password": "wrong"})


def _code_from_the_admin(owner: User, role: EventRole) -> str:
    client = Client()
    client.force_login(owner)
    url = reverse("admin:tournament_eventrole_changelist")
    response = client.post(url, {"action": "signin_code", ACTION_CHECKBOX_NAME: [role.pk], "index": 0}, follow=True)
    text = response.content.decode()
    found = re.search(r"One-time sign-in code for yamada: ([A-Z0-9]{4}-[A-Z0-9]{4})", text)
    assert found, text[-3000:]
    return found.group(1)


def _sign_in(password: str, code: str = "", address: str = VENUE) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.post(SIGN_IN, {"username": "yamada", "password": password, "code": code})
    return client


def test_a_locked_referee_signs_in_with_their_password_and_a_code_from_an_organizer(hall):
    _event, owner, referee, role = hall
    _lock_out("yamada")
    assert "_auth_user_id" not in _sign_in("right-pw").session  # locked
    code = _code_from_the_admin(owner, role)
    inside = _sign_in("right-pw", code.lower())  # read aloud: case and dash do not matter
    assert inside.session["_auth_user_id"] == str(referee.pk)
    used = SignInCode.objects.get(user=referee)
    assert used.used_at is not None and used.used_from == VENUE and used.issued_by == owner
    # a code is used once: a second lock needs a second code
    cache.clear()
    _lock_out("yamada")
    assert "_auth_user_id" not in _sign_in("right-pw", code).session


def test_every_lockout_is_recorded_with_the_account_and_the_address(hall, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 7
    _lock_out("yamada")  # the pair is locked at 5; the address counts on with other accounts
    _lock_out("suzuki", times=2)
    pair, address = (SignInLockout.objects.get(kind=kind) for kind in ("pair", "address"))
    assert (pair.username, pair.address) == ("yamada", VENUE) and address.address == VENUE
    assert pair.until > pair.started_at
    assert SignInLockout.objects.count() == 2  # recorded when the lock starts, not on every refused try


def test_through_a_lock_a_wrong_code_and_a_wrong_password_read_the_same(hall):
    """The lock tells a guesser nothing about the password: a right password with a wrong code is refused
    with the same words as a wrong password, and a wrong password does not spend the code."""
    _event, owner, _referee, role = hall
    _lock_out("yamada")
    code = _code_from_the_admin(owner, role)
    bodies = []
    for password, tried in (("right-pw", "AAAA-AAAA"), ("wrong", code)):
        client = Client(REMOTE_ADDR=VENUE)
        response = client.post(SIGN_IN, {"username": "yamada", "password": password, "code": tried})
        assert "_auth_user_id" not in client.session
        bodies.append(re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode()))
        bodies[-1] = re.sub(r'value="(right-pw|wrong|AAAA-AAAA|' + code + ')"', "", bodies[-1])
    assert "Too many wrong passwords" in bodies[0] and bodies[0] == bodies[1]
    assert SignInCode.objects.get().used_at is None
    assert "_auth_user_id" in _sign_in("right-pw", code).session


def test_five_wrong_codes_void_the_code(hall):
    _event, owner, _referee, role = hall
    _lock_out("yamada")
    code = _code_from_the_admin(owner, role)
    for n in range(SignInCode.MAX_WRONG_TRIES):
        _sign_in("right-pw", f"WRONG-{n:03d}")
    assert SignInCode.objects.get().void_at is not None
    assert "_auth_user_id" not in _sign_in("right-pw", code).session


def test_a_new_code_voids_the_earlier_one(hall):
    _event, owner, _referee, role = hall
    _lock_out("yamada")
    first = _code_from_the_admin(owner, role)
    second = _code_from_the_admin(owner, role)
    assert "_auth_user_id" not in _sign_in("right-pw", first).session
    assert "_auth_user_id" in _sign_in("right-pw", second).session


def test_only_an_organizer_of_the_event_gives_codes(hall, make_event):
    _event, _owner, referee, role = hall
    elsewhere = User.objects.create_user("elsewhere", is_staff=True)
    Event.objects.filter(pk=make_event(4, name="Other", slug="other").pk).update(owner=elsewhere)
    with pytest.raises(TaikaiError) as refused:
        signin_code_issue(role=role, by=elsewhere)
    assert refused.value.code == "forbidden"
    with pytest.raises(TaikaiError):
        signin_code_issue(role=role, by=referee)  # a referee gives no codes, not even to themself
    assert not SignInCode.objects.exists()


def test_an_organizer_gives_no_code_to_a_superuser(hall):
    event, owner, _referee, _role = hall
    role = EventRoleFactory(
        event=event, user__username="root", user__is_superuser=True, user__is_staff=True, kind="referee", by=owner
    )
    root = role.user
    with pytest.raises(TaikaiError) as refused:
        signin_code_issue(role=role, by=owner)
    assert refused.value.code == "superuser_account"
    assert signin_code_issue(role=role, by=root).code  # a superuser may


def test_the_sign_in_records_are_for_superusers_only(hall):
    _event, owner, _referee, _role = hall
    _lock_out("yamada")
    organizer = Client()
    organizer.force_login(owner)
    assert organizer.get(reverse("admin:accounts_signinlockout_changelist")).status_code == 403
    root = Client()
    root.force_login(User.objects.create_superuser("root"))
    listing = root.get(reverse("admin:accounts_signinlockout_changelist"))
    assert listing.status_code == 200 and "yamada" in listing.content.decode()
