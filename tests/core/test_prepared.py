"""Reads compiled once (``core.prepared``): the same rows as the queryset they are built from, for every value they
are run with, the SQL built only the first time; a builder whose values are not plain parameters is refused."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from core.prepared import PreparedRead
from tournament.models import Hand, HandVersion, Round, Seat, Table
from tournament.services.hands import hand_record

pytestmark = pytest.mark.django_db

DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [1], "riichi_positions": [1]}
RON = {"outcome": "ron", "dealer_position": 0, "honba": 1, "wins": [{"winner": 2, "discarder": 3, "han": 3, "fu": 30}]}


@pytest.fixture
def tables(make_event, seated_round):
    """Two tables of one round, the first with two hands recorded."""
    round_ = seated_round(make_event(8))
    first, second = round_.tables.order_by("number")
    hand_record(table=first, number=1, expected_version=0, data=DRAW)
    hand_record(table=first, number=2, expected_version=0, data=RON)
    return first, second


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_models_read_along_their_related_rows_are_the_querysets(tables):
    # given
    read = PreparedRead(lambda table_id: Table.objects.select_related("round__event__ruleset").filter(pk=table_id))
    for table in tables:
        # when
        prepared = read.get(table.pk)
        # then
        expected = Table.objects.select_related("round__event__ruleset").get(pk=table.pk)
        assert _fields(prepared) == _fields(expected)
        assert prepared.running_points == expected.running_points  # a JSON column, read back as a list
        with CaptureQueriesContext(connection) as queries:  # read along: no query to follow them
            assert _fields(prepared.round.event.ruleset) == _fields(expected.round.event.ruleset)
        assert len(queries) == 0


def test_rows_in_order_and_annotations_are_the_querysets(tables):
    # given
    def versions(table_id):
        return HandVersion.objects.current().filter(hand__table_id=table_id).select_related("hand").order_by("-version")

    read = PreparedRead(versions)
    # when
    prepared = read.list(tables[0].pk)
    # then
    expected = list(versions(tables[0].pk))
    assert [_fields(v) for v in prepared] == [_fields(v) for v in expected]
    assert [v.hand.number for v in prepared] == [v.hand.number for v in expected]
    assert read.list(tables[1].pk) == []


def test_values_list_rows_flat_or_not_are_the_querysets(tables):
    # given
    def seats(table_id, position):
        return Seat.objects.filter(table_id=table_id, position__gte=position).order_by("position")

    rows = PreparedRead(lambda table_id, position: seats(table_id, position).values_list("position", "entry_id"))
    flat = PreparedRead(lambda table_id, position: seats(table_id, position).values_list("entry_id", flat=True))
    # when, then
    for table in tables:
        for position in (0, 2):
            assert rows.list(table.pk, position) == list(seats(table.pk, position).values_list("position", "entry_id"))
            assert flat.list(table.pk, position) == list(seats(table.pk, position).values_list("entry_id", flat=True))


def test_deferred_fields_are_read_when_asked_for(tables):
    # given
    read = PreparedRead(lambda round_id: Round.objects.only("id", "checked_at").filter(pk=round_id))
    # when
    round_ = read.get(tables[0].round_id)
    # then
    assert round_.get_deferred_fields() >= {"number", "status"}
    assert round_.number == Round.objects.get(pk=tables[0].round_id).number


def test_the_sql_is_built_once_and_run_with_each_calls_values(tables, monkeypatch):
    # given
    read = PreparedRead(lambda table_id, number: Hand.objects.filter(table_id=table_id, number=number))
    built = []
    compile_first = read._compile
    monkeypatch.setattr(read, "_compile", lambda conn: built.append(conn) or compile_first(conn))
    # when
    found = [read.first(tables[0].pk, number) for number in (1, 2, 3)]
    # then
    assert [h.number if h else None for h in found] == [1, 2, None]
    assert len(built) == 1


def test_get_wants_exactly_one_row(tables):
    read = PreparedRead(lambda table_id: Hand.objects.filter(table_id=table_id))
    with pytest.raises(Hand.MultipleObjectsReturned):
        read.get(tables[0].pk)
    with pytest.raises(Hand.DoesNotExist):
        read.get(tables[1].pk)


def test_a_value_that_is_not_one_parameter_of_the_sql_is_refused(tables):
    used_twice = PreparedRead(lambda table_id: Seat.objects.filter(table_id=table_id, round_id=table_id))
    with pytest.raises(ValueError, match="one parameter"):
        used_twice.list(tables[0].pk)
    unused = PreparedRead(lambda table_id: Seat.objects.all())
    with pytest.raises(ValueError, match="one parameter"):
        unused.list(tables[0].pk)
    with pytest.raises(TypeError, match="takes 1 values"):
        PreparedRead(lambda table_id: Seat.objects.filter(table_id=table_id)).list()


def test_other_kinds_of_rows_are_refused(tables):
    with pytest.raises(TypeError, match="models or values_list"):
        PreparedRead(lambda table_id: Seat.objects.filter(table_id=table_id).values("position")).list(tables[0].pk)
    with pytest.raises(TypeError, match="prefetch_related"):
        PreparedRead(lambda table_id: Table.objects.filter(pk=table_id).prefetch_related("seats")).list(tables[0].pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not connection.features.has_select_for_update, reason="the database has no row locks")
def test_a_locking_read_wants_a_transaction(tables):
    read = PreparedRead(lambda table_id: Table.objects.select_for_update().filter(pk=table_id))
    with transaction.atomic():
        assert read.get(tables[0].pk).pk == tables[0].pk
    with pytest.raises(TransactionManagementError):
        read.get(tables[0].pk)
