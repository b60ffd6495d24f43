"""Which tests each pass of ``bin/test`` runs (``tests/fixtures/passes.py``, README "Tests")."""

import pytest

from tests.fixtures.passes import EMBEDDED, SERVICES, current_pass, runs_in

pytestmark = pytest.mark.once


def test_a_run_by_hand_names_no_pass_and_the_services_pass_is_named_by_its_requirement():
    assert current_pass({}) is None
    assert current_pass({"TAIKAI_REQUIRE_SERVICES": "1"}) == SERVICES
    assert current_pass({"TAIKAI_TEST_PASS": "embedded"}) == EMBEDDED
    assert current_pass({"TAIKAI_TEST_PASS": "services", "TAIKAI_REQUIRE_SERVICES": "1"}) == SERVICES


def test_an_unknown_pass_is_refused():
    with pytest.raises(ValueError, match="TAIKAI_TEST_PASS"):
        current_pass({"TAIKAI_TEST_PASS": "postgres"})


@pytest.mark.parametrize(
    ("markers", "embedded", "services"),
    [
        (set(), True, True),
        ({"django_db"}, True, True),
        ({"once"}, True, False),
        ({"e2e"}, False, True),
        ({"e2e", "embedded"}, True, True),
        ({"e2e", "once"}, True, False),
        ({"services"}, True, True),  # it fails or skips by itself where its services are missing
    ],
)
def test_each_test_runs_in_the_passes_its_markers_name(markers, embedded, services):
    assert runs_in(markers, EMBEDDED) is embedded
    assert runs_in(markers, SERVICES) is services


@pytest.mark.parametrize("markers", [set(), {"once"}, {"e2e"}, {"e2e", "once"}])
def test_a_run_that_names_no_pass_runs_every_test(markers):
    assert runs_in(markers, None)
