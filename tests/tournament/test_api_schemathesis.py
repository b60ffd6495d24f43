"""The REST API against its own OpenAPI schema: schemathesis generates requests for every operation, valid
ones and invalid ones, and sends them to a live server on the loopback; no answer may be a server error
(5xx), and the answers to valid requests must be what the schema says (status codes, content types,
bodies). A bounded run, in the slow set.

The path parameters name real rows (the event, its table 1, hand 1, a seat, a token), so the bodies and
query strings are tried against a table that is playing; the requests carry an organizer token, which may
do every write. The throttles are not under test: their counts are cleared before each request.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest
import requests
import schemathesis
from django.core.cache import cache
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from registration.services import sign_up_create
from tests.factories import RegistrationFactory
from tournament.models import Table, Team
from tournament.services.hands import hand_record
from tournament.services.tokens import api_token_issue

# Run once, against PostgreSQL: what a request can break differs by database (PostgreSQL refuses a NUL in
# text, SQLite stores it), and production runs on PostgreSQL.
pytestmark = [pytest.mark.slow, pytest.mark.services("postgres"), pytest.mark.django_db(transaction=True)]

EXAMPLES_PER_OPERATION = 8  # for each of the two modes, valid and invalid input
# The operations are tried in this many shares, each a test of its own, so that the suite's processes share them
# (one test holding every operation was the suite's longest by far); a share takes every SHARES-th operation.
SHARES = 4
CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]
# The schema as the live server serves it, fetched by a process's first share and read again by its others (it
# depends on the code, not on the rows of a test).
SERVED_SCHEMAS: dict[str, dict] = {}


def schema_served(url: str):
    """The OpenAPI schema served at ``url``, fetched from the live server once a process."""
    if url not in SERVED_SCHEMAS:
        response = requests.get(url, timeout=60)
        response.raise_for_status()
        SERVED_SCHEMAS[url] = response.json()
    return schemathesis.openapi.from_dict(copy.deepcopy(SERVED_SCHEMAS[url]))


def said(exc) -> str:
    """A failure's titles, one line each."""
    failures = exc.exceptions if isinstance(exc, FailureGroup) else [exc]
    return "; ".join(f"{getattr(f, 'title', type(f).__name__)}: {str(f).splitlines()[0][:200]}" for f in failures)


@pytest.fixture
def world(make_event, seated_round):
    event = make_event(8, clock_bank_seconds=600)
    round_ = seated_round(event)
    table = Table.objects.get(round=round_, number=1)
    ron = {
        "outcome": "ron",
        "dealer_position": 0,
        "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}],
    }
    hand_record(table=table, number=1, expected_version=0, data=ron)
    organizer = api_token_issue(event=event, name="schemathesis", scope="organizer")
    spare = api_token_issue(event=event, name="spare", scope="read")
    RegistrationFactory(event=event, cap=1, checkin_opens_at=timezone.now())
    sign_up = sign_up_create(event=event, values={"name": "Signed", "email": "signed@example.org"})
    team = Team.objects.create(event=event, name="Red")
    path = {
        "slug": event.slug,
        "table_id": table.pk,
        "number": 1,
        "position": 3,
        "token_id": spare.token.pk,
        "sign_up_id": sign_up.pk,
        "team_id": team.pk,
        "player_id": table.seats.first().entry.player_id,
    }
    return {"secret": organizer.secret, "path": path}


@pytest.mark.parametrize("share", range(SHARES))
def test_no_request_the_schema_allows_or_not_makes_a_server_error(live_server, world, share):
    schema = schema_served(f"{live_server.url}/api/v1/schema/?format=json")
    headers = {"Authorization": f"Bearer {world['secret']}"}
    sent, server_errors, nonconforming = [], [], []

    def examples(strategy, mode):
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy)
        def run(case):
            cache.clear()
            response = case.call(base_url=live_server.url)
            sent.append(response.status_code)
            where = f"{case.method} {case.formatted_path} ({mode.value}) → {response.status_code}"
            try:
                case.validate_response(response, checks=[not_a_server_error])
            except (Failure, FailureGroup) as exc:  # every failure is collected, then reported at once
                server_errors.append(f"{where}: {said(exc)}")
            if mode is GenerationMode.POSITIVE and response.status_code < 500:
                try:
                    case.validate_response(response, checks=CONFORMANCE)
                except (Failure, FailureGroup) as exc:
                    nonconforming.append(f"{where}: {said(exc)} {response.text[:300]}")

        try:
            run()
        except Unsatisfiable:  # nothing of the operation can be made invalid but its path, which stays real
            assert mode is GenerationMode.NEGATIVE

    every = [result.ok() for result in schema.get_all_operations()]
    assert len(every) >= 36
    operations = every[share::SHARES]
    for operation in operations:
        fixed = {p.name: world["path"][p.name] for p in operation.path_parameters}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            examples(operation.as_strategy(generation_mode=mode, headers=headers, path_parameters=fixed), mode)
    print(
        f"\nschemathesis, share {share + 1} of {SHARES}: {len(operations)} of {len(every)} operations, "
        f"{len(sent)} requests, "
        f"{sum(s >= 500 for s in sent)} server errors, {len(nonconforming)} answers off the schema"
    )
    for line in server_errors + nonconforming:
        print(line)
    print("answers by status:", sorted(Counter(sent).items()))
    assert server_errors == []
    assert nonconforming == []
    assert len(sent) >= len(operations) * 2
