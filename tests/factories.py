"""The rows a test's world is built from, one factory each (factory_boy), with the defaults most tests want.

A factory makes a row as the product would: an account through ``create_user`` (a password only when one is
given), a role through ``role_grant`` (staff status and the group with it), an API token through
``api_token_issue``. Rounds, tables and seats come from the services (``seated_round`` and ``make_table`` in
``tests/fixtures/tournament.py``): a seating is only ever made by them.

    event = EventFactory(is_public=True)
    RegistrationFactory(event=event, cap=2, checkin_open=True)
    organizer = EventRoleFactory(event=event, user__username="org", kind="organizer").user
"""

from __future__ import annotations

import zlib
from datetime import timedelta

import factory
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from players.models import Player
from registration.models import Registration
from tests.fixtures.tournament import standard_ruleset_installed
from tournament.models import ApiToken, Entry, Event, EventRole
from tournament.services.roles import role_grant
from tournament.services.tokens import api_token_issue


class UserFactory(DjangoModelFactory):
    """An account, made by ``create_user``: without a ``password``, one that cannot sign in with a password."""

    class Meta:
        model = User
        skip_postgeneration_save = True  # joining groups needs no second save

    username = factory.Sequence(lambda n: f"user-{n}")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return model_class.objects.create_user(*args, **kwargs)

    @factory.post_generation
    def groups(user, create, names, **kwargs):
        """``groups=[name, ...]``: the account joins these groups (they exist already)."""
        if create and names:
            user.groups.add(*(Group.objects.get(name=name) for name in names))


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Someone {n:04d}")


class EventFactory(DjangoModelFactory):
    """An event on the standard ruleset (its preset installed when missing)."""

    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.LazyAttribute(lambda event: slugify(event.name))
    ruleset = factory.LazyFunction(standard_ruleset_installed)
    draw_seed = factory.LazyAttribute(lambda event: zlib.crc32(event.slug.encode()))  # the same draws each run


class EntryFactory(DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)


class RegistrationFactory(DjangoModelFactory):
    """An event's sign-ups, open since yesterday until tomorrow; ``checkin_open=True``: check-in open for the
    last hour."""

    class Meta:
        model = Registration

    class Params:
        checkin_open = factory.Trait(checkin_opens_at=factory.LazyFunction(lambda: timezone.now() - timedelta(hours=1)))

    event = factory.SubFactory(EventFactory)
    opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=1))
    closes_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=1))
    cap = 8


class EventRoleFactory(DjangoModelFactory):
    """A role held in an event, granted by ``role_grant`` (staff status and the role's group with it): a referee
    of the whole event unless ``kind`` or ``tables`` say otherwise. The staff groups' permissions are the test's
    to install (``staff_groups_install``) when its admin pages need them."""

    class Meta:
        model = EventRole

    event = factory.SubFactory(EventFactory)
    user = factory.SubFactory(UserFactory)
    kind = EventRole.Kind.REFEREE
    tables = ""

    @classmethod
    def _create(cls, model_class, *, event, user, kind, tables="", **kwargs):
        return role_grant(event=event, user=user, kind=kind, tables=tables, **kwargs)


class ApiTokenFactory(DjangoModelFactory):
    """A token issued by ``api_token_issue``; the row has its secret as ``secret`` (never stored)."""

    class Meta:
        model = ApiToken

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"program {n}")
    scope = ApiToken.Scope.READ

    @classmethod
    def _create(cls, model_class, **kwargs):
        issued = api_token_issue(**kwargs)
        issued.token.secret = issued.secret
        return issued.token


def token_client(event, scope: str, tables: str = "", name: str | None = None) -> Client:
    """A client of a program holding a new API token of ``event`` (named ``name``, else its scope and tables)."""
    token = ApiTokenFactory(event=event, scope=scope, tables=tables, name=name or f"{scope} {tables}".strip())
    return Client(HTTP_AUTHORIZATION=f"Bearer {token.secret}")


def signed_in(user) -> Client:
    """A client of its own with ``user`` signed in."""
    client = Client()
    client.force_login(user)
    return client
