"""The tests' database reset (tests/fixtures/database_reset.py): every row a test wrote gone after it, rows that
refer to each other included, the sequences restarted where a test asks, the content types and permissions left
as the models make them and the staff groups made again; on PostgreSQL by ``DELETE``, not ``TRUNCATE``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from players.models import Player
from tests.factories import EntryFactory
from tests.fixtures.database_reset import rows_deleted_flush
from tournament.models import Entry, Event
from tournament.services.roles import staff_groups_install

pytestmark = pytest.mark.django_db(transaction=True)


def flushed(**options) -> None:
    """What pytest-django does after a committing test."""
    call_command("flush", verbosity=0, interactive=False, **options)


def group_permissions() -> dict[str, list[str]]:
    return {group.name: sorted(group.permissions.values_list("codename", flat=True)) for group in Group.objects.all()}


def test_a_flush_empties_tables_whose_rows_refer_to_each_other_and_restarts_the_sequences_when_asked():
    EntryFactory()  # an entry refers to its event and its player
    user = User.objects.create_user("reset-user")
    user.groups.add(Group.objects.create(name="reset group"))  # a link row refers to both
    assert User.objects.create_user("reset-user-2").pk >= 2

    flushed(reset_sequences=True, inhibit_post_migrate=True)

    left = [model.objects.count() for model in (Entry, Event, Player, User, Group, User.groups.through)]
    assert left == [0, 0, 0, 0, 0, 0]
    assert User.objects.create_user("after-the-reset").pk == 1  # the sequence restarted, as asked


def test_a_flush_keeps_the_models_content_types_and_permissions_and_makes_the_staff_groups_again():
    staff_groups_install()
    kinds, permissions, groups = (
        list(ContentType.objects.order_by("pk")),
        list(Permission.objects.order_by("pk")),
        (group_permissions()),
    )
    assert groups and all(groups.values())
    Group.objects.create(name="a test's own group")

    flushed()

    assert list(ContentType.objects.order_by("pk")) == kinds
    assert list(Permission.objects.order_by("pk")) == permissions
    assert group_permissions() == groups  # the test's own group gone, the staff groups as before


@pytest.mark.services("postgres")
def test_the_reset_on_postgresql_deletes_the_rows_instead_of_truncating_the_tables():
    assert type(connection.ops).sql_flush is rows_deleted_flush
    assert connection.ops.sql_flush(no_style(), ["auth_user"]) == [
        "SET CONSTRAINTS ALL DEFERRED;",
        'DELETE FROM "auth_user";',
    ]
