"""Many new rows at once, their primary keys set: on PostgreSQL by ``COPY`` (the ids drawn from the table's
sequence first, in one query), elsewhere by ``bulk_create``.

``bulk_create`` of 100,000 seat results costs seconds of per-value preparation and one ``INSERT … RETURNING``
per thousand rows; ``COPY`` streams them in one statement. It runs on the caller's connection, inside the
caller's transaction: a file refused after it leaves nothing behind.

A time the model sets by itself on creation (``auto_now_add``, ``auto_now``) is taken as the row gives it
(an archive's), else now: it is written with the row, not updated after it.

``rows_inserting`` does the same and lets its caller work while the database reads the rows: the rows are
sent by a thread of their own, and the ``COPY`` ends when the caller's block does (an import audits its tables
while the database writes the seat results).

``RowMaker`` makes the new instances themselves: an archive of 10,000 players holds 250,000 rows, and
``Model.__init__`` (a descriptor and a default looked up per field and row) cost a quarter of its import.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Iterator

from django.db import connection, connections, models
from django.db.models.base import ModelState
from django.utils import timezone
from psycopg.copy import QueuedLibpqWriter

BATCH = 1000

# fields whose Python values psycopg writes as they are (by their exact class: a subclass, such as a fraction
# kept as text, may store something else); every other field's value is prepared by the field
_PLAIN = frozenset(
    {
        models.AutoField,
        models.BigAutoField,
        models.IntegerField,
        models.SmallIntegerField,
        models.BigIntegerField,
        models.PositiveIntegerField,
        models.PositiveSmallIntegerField,
        models.BooleanField,
        models.CharField,
        models.TextField,
        models.DateTimeField,
        models.DateField,
        models.ForeignKey,
        models.OneToOneField,
    }
)


class RowMaker:
    """New, unsaved instances of ``model``, made as ``model(**values)`` makes them but without its per-field
    work: each field's default read once here (a callable default, such as ``list``, called per row), the
    values given by attribute name (``table_id``), a parent by its field name (``table=table``: its key taken
    now, or by ``rows_insert`` when the parent has none yet). No model of the project listens to ``pre_init``
    or ``post_init``, which this does not send."""

    def __init__(self, model: type[models.Model]):
        self.model = model
        self.constant, self.called, self.parents = {}, [], []
        for field in model._meta.concrete_fields:
            if field.has_default() and callable(field.default):
                self.called.append((field.attname, field.default))
            else:
                self.constant[field.attname] = field.get_default()
            if field.many_to_one:
                self.parents.append((field.name, field.attname))

    def __call__(self, **values) -> models.Model:
        row = self.model.__new__(self.model)
        state = row._state = ModelState()
        data = row.__dict__
        data.update(self.constant)
        for name, default in self.called:
            data[name] = default()
        for name, attname in self.parents:
            parent = values.pop(name, None)
            if parent is not None:
                state.fields_cache[name] = parent
                data[attname] = parent.pk
        data.update(values)
        return row


def _automatic_time(field) -> bool:
    return isinstance(field, models.DateField) and (field.auto_now or field.auto_now_add)


def rows_insert(model: type[models.Model], rows: list) -> None:
    """Insert ``rows`` (new instances of ``model``) and set their primary keys; see the module's docstring."""
    with rows_inserting(model, rows):
        pass


@contextlib.contextmanager
def rows_inserting(model: type[models.Model], rows: list) -> Iterator[None]:
    """``rows_insert`` that ends with the block: the rows have their keys when the block starts and are in the
    database when it ends. On PostgreSQL the block runs while the database reads the rows: they are sent by a
    thread of their own (psycopg's ``QueuedLibpqWriter``), and the ``COPY`` ends after the block, so the block
    must not use the connection (no query). A block that raises ends the ``COPY`` as failed."""
    if not rows:
        yield
        return
    meta = model._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    automatic = [field.attname for field in fields if _automatic_time(field)]
    given = [[row.__dict__[name] for name in automatic] for row in rows]  # a new row's values, as given
    now = timezone.now()
    parents = [(field.attname, field.name) for field in fields if field.many_to_one]
    for row in rows:  # a row given its parent before the parent had its key takes the key now
        data = row.__dict__
        for attname, name in parents:
            if data[attname] is None:
                parent = row._state.fields_cache.get(name)
                if parent is not None:
                    data[attname] = parent.pk  # the parent kept as the row's, its key now known
    for row, times in zip(rows, given, strict=True):
        for name, moment in zip(automatic, times, strict=True):
            setattr(row, name, moment or now)
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=BATCH)  # its pre_save sets automatic times to now …
        for name, index in zip(automatic, range(len(automatic)), strict=True):
            _times_set(model, name, [(row, times[index]) for row, times in zip(rows, given, strict=True)])
        yield
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in [meta.pk, *fields])
    values_of = operator.itemgetter(meta.pk.attname, *(field.attname for field in fields))
    # the columns whose values are prepared by their field, by position in the row (the key first): a JSON
    # value each time; any other (a fraction) never changes and rows share it (an archive's 100,000 results
    # hold a few hundred fractions, each read once), so it is prepared once, found again by its identity (the
    # value kept with what it gave, so that its id names no other object while the rows are written)
    prepared, shared = [], []
    for index, field in enumerate(fields, start=1):
        if isinstance(field, models.JSONField):
            prepared.append((index, field))
        elif type(field) not in _PLAIN:
            shared.append((index, field, {}))
    # COPY's errors (a row twice, a number too large) are Django's IntegrityError and DataError, as an INSERT's
    with connection.cursor() as cursor, connection.wrap_database_errors:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(rows)],
        )
        ids = [pk for (pk,) in cursor.fetchall()]
        pk_name = meta.pk.attname
        # the connection itself, not its proxy: each attribute read through the proxy looks it up again
        database, alias = connections[connection.alias], connection.alias
        with _copy_queued(cursor, f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row, pk in zip(rows, ids, strict=True):
                data = row.__dict__  # a new row holds every field's value: read past the fields' descriptors
                data[pk_name] = pk
                row._state.adding, row._state.db = False, alias
                values = list(values_of(data))
                for index, field in prepared:
                    values[index] = field.get_db_prep_save(values[index], database)
                for index, field, done in shared:
                    value = values[index]
                    kept = done.get(id(value))
                    if kept is None:
                        kept = done[id(value)] = (value, field.get_db_prep_save(value, database))
                    values[index] = kept[1]
                copy.write_row(values)
            yield


def _copy_queued(cursor, sql: str):
    """psycopg's ``COPY`` on Django's ``cursor``, its rows sent by a thread of their own (``QueuedLibpqWriter``:
    Django's wrapper passes no writer), kept among the queries where Django keeps them, as its own ``copy``."""
    raw = cursor.cursor
    with getattr(cursor, "debug_sql", _unlogged)(sql):
        return raw.copy(sql, writer=QueuedLibpqWriter(raw))


def _unlogged(sql: str):
    return contextlib.nullcontext()


def _times_set(model, name: str, rows: list[tuple]) -> None:
    """… so the times given are set back: one prepared UPDATE per row, sent as a batch (a ``bulk_update``'s
    CASE over 1,000 ids is far slower)."""
    changed = [(row, moment) for row, moment in rows if moment is not None]
    if not changed:
        return
    meta = model._meta
    field, quote = meta.get_field(name), connection.ops.quote_name
    sql = f"UPDATE {quote(meta.db_table)} SET {quote(field.column)} = %s WHERE {quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(field.get_db_prep_value(moment, connection), row.pk) for row, moment in changed])
    for row, moment in changed:
        setattr(row, name, moment)
