"""The REST API, version 1 (``/api/v1/``): events and their rules, players and entries, rounds and their
seatings, tables with their seats, hands (every version), results, penalties, absences, rulings and the
clock, standings and exports; described by the OpenAPI schema at ``/api/v1/schema/`` (docs at
``/api/v1/docs/``).

Thin like every entry point: each view asks :mod:`tournament.access` who may do it, reads through the
selectors and writes through the services the console uses, so a hand recorded here is checked exactly
as one recorded at the table.

* ``auth``: sessions for the browser, API tokens (``Authorization: Bearer …``) for programs, the throttles;
* ``base``: the views' shared checks (who reads, who writes, 401 or 403);
* ``serializers``: what goes in and out, points as integers or exact fractions written ``"n/d"``;
* ``events``, ``tables``, ``teams``, ``exports``: the views.
"""
