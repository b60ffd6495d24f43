"""Reads compiled once: a queryset whose shape never changes, only the values it is filtered by, turned into SQL
the first time it runs on a connection and run again after with other values.

Django builds and compiles a queryset's SQL every time it is evaluated; for the reads a write repeats on every
call (a hand write reads its table, its round, its hand, its clock and the game so far), building the SQL costs
more than running it. A ``PreparedRead`` keeps the SQL and the compiler that made it (which knows how to read
the rows back: the columns' converters, the related rows of a ``select_related``) and runs the same statement
with the values of the call, through the connection's cursor (its wrappers, so the queries are counted as
any other).

The queryset is built by a function of the values, each an integer (an id, a hand's number) passed as it is to
a filter (an exact or a comparison lookup); it is compiled with markers in their place, and each marker must come
out once as a parameter of the SQL, or the read refuses to be prepared. Models (with ``select_related``, deferred
fields) and ``values_list`` rows (flat or not) are read back; a queryset with ``prefetch_related`` or another kind
of rows is refused.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.transaction import TransactionManagementError

# Each stands for one value of the call while the SQL is compiled: integers within the range of every integer
# field (Django compiles a value out of a field's range to no SQL at all), unlikely as a constant of a filter
# (one that is, found twice among the parameters, is refused, never mistaken).
_MARKER_BASE = 32_719


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, int], ...]  # (position in the SQL's parameters, position in the call's values)
    compiler: object
    converters: dict
    kind: type
    locks: bool  # a select_for_update: only inside a transaction


def _outside_transaction(connection) -> bool:
    features = connection.features
    return features.has_select_for_update and features.supports_transactions and connection.get_autocommit()


class PreparedRead:
    """``build(*values)`` returns the queryset; ``list(*values)``, ``get(*values)`` and ``first(*values)`` run it.
    One compiled statement per database connection (a connection belongs to one thread)."""

    def __init__(self, build: Callable[..., QuerySet], *, using: str = DEFAULT_DB_ALIAS):
        self._build = build
        self._arity = len(inspect.signature(build).parameters)
        self._using = using
        self._compiled = threading.local()

    def _prepared(self) -> tuple[object, _Compiled]:
        connection = connections[self._using]
        compiled = getattr(self._compiled, "statement", None)
        if compiled is None or compiled.compiler.connection is not connection:
            compiled = self._compile(connection)
            self._compiled.statement = compiled
        return connection, compiled

    def _compile(self, connection) -> _Compiled:
        markers = [_MARKER_BASE + index for index in range(self._arity)]
        queryset = self._build(*markers)
        kind = queryset._iterable_class
        if kind not in (ModelIterable, ValuesListIterable, FlatValuesListIterable):
            raise TypeError(f"a prepared read gives models or values_list rows, not {kind.__name__}")
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise TypeError("a prepared read reads one statement: no prefetch_related, no related manager")
        compiler = queryset.query.get_compiler(using=self._using)
        sql, params = compiler.as_sql()
        slots = []
        for index, marker in enumerate(markers):
            found = [position for position, param in enumerate(params) if param == marker]
            if len(found) != 1:
                raise ValueError(f"value {index} of a prepared read must be one parameter of its SQL: {sql}")
            slots.append((found[0], index))
        fields = [column[0] for column in compiler.select[0 : compiler.col_count]]
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=tuple(slots),
            compiler=compiler,
            converters=compiler.get_converters(fields),
            kind=kind,
            locks=bool(queryset.query.select_for_update),
        )

    def _rows(self, values: tuple) -> tuple[_Compiled, list]:
        if len(values) != self._arity:
            raise TypeError(f"a prepared read takes {self._arity} values, not {len(values)}")
        connection, compiled = self._prepared()
        if compiled.locks and _outside_transaction(connection):  # as Django's compiler refuses it
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(compiled.params)
        for position, index in compiled.slots:
            params[position] = values[index]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        return compiled, rows

    def list(self, *values) -> list:
        compiled, rows = self._rows(values)
        if compiled.kind is FlatValuesListIterable:
            return [row[0] for row in rows]
        if compiled.kind is ValuesListIterable:
            return [tuple(row) for row in rows]
        return self._instances(compiled, rows)

    def first(self, *values):
        """The first row, or None (the queryset orders its rows)."""
        found = self.list(*values)
        return found[0] if found else None

    def get(self, *values):
        """The one row, as ``QuerySet.get``: ``DoesNotExist`` without one, ``MultipleObjectsReturned`` with more."""
        found = self.list(*values)
        if len(found) == 1:
            return found[0]
        model = self._compiled.statement.compiler.query.model
        if not found:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        raise model.MultipleObjectsReturned(f"get() returned more than one {model._meta.object_name}")

    @staticmethod
    def _instances(compiled: _Compiled, rows: list) -> list:
        """The rows as ``ModelIterable`` makes them: the model, its related rows read along, its annotations."""
        compiler = compiled.compiler
        db = compiler.using
        select, klass_info = compiler.select, compiler.klass_info
        model = klass_info["model"]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        populators = get_related_populators(klass_info, select, db)
        annotations = compiler.annotation_col_map or {}
        instances = []
        for row in rows:
            instance = model.from_db(db, names, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in annotations.items():
                setattr(instance, name, row[position])
            instances.append(instance)
        return instances
