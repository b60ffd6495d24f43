"""The tests' database reset on PostgreSQL (tests/fixtures/database_reset.py): every row of every table gone after
a committing test, rows that refer to each other included, and the sequences restarted where a test asks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from players.models import Player
from tests.factories import EntryFactory
from tests.fixtures.database_reset import rows_deleted_flush
from tournament.models import Entry, Event

pytestmark = [pytest.mark.services("postgres"), pytest.mark.django_db(transaction=True)]


def test_the_reset_on_postgresql_deletes_the_rows_instead_of_truncating_the_tables():
    assert type(connection.ops).sql_flush is rows_deleted_flush
    assert connection.ops.sql_flush(no_style(), ["auth_user"]) == [
        "SET CONSTRAINTS ALL DEFERRED;",
        'DELETE FROM "auth_user";',
    ]


def test_a_flush_empties_tables_whose_rows_refer_to_each_other_and_restarts_the_sequences_when_asked():
    EntryFactory()  # an entry refers to its event and its player
    user = User.objects.create_user("reset-user")
    user.groups.add(Group.objects.create(name="reset group"))  # a link row refers to both
    assert User.objects.create_user("reset-user-2").pk >= 2

    call_command("flush", verbosity=0, interactive=False, reset_sequences=True, inhibit_post_migrate=True)

    left = [model.objects.count() for model in (Entry, Event, Player, User, Group, User.groups.through)]
    assert left == [0, 0, 0, 0, 0, 0]
    assert User.objects.create_user("after-the-reset").pk == 1  # the sequence restarted, as asked
