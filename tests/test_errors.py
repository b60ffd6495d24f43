"""The one error family: every refusal is a ``TaikaiError`` with a code, a message, a field and a status."""

import pytest

from scoring.engine.errors import ScoringError
from taikai.errors import Conflict, TaikaiError, VersionConflict
from tournament.engine.errors import TournamentConflict, TournamentError

pytestmark = pytest.mark.once


def test_engine_errors_are_of_the_family():
    assert issubclass(ScoringError, TaikaiError)
    assert issubclass(TournamentError, TaikaiError)
    assert issubclass(TournamentConflict, Conflict)


def test_a_conflict_answers_409_and_a_refusal_400():
    assert TaikaiError("x", "y").status == 400
    assert VersionConflict(current_version=2, expected_version=1).status == 409
    assert TournamentConflict("clock_stale_turn", "old turn").status == 409


def test_said_of_another_field_keeps_class_code_and_the_original():
    original = ScoringError("impossible_fu", "35 fu cannot happen")
    moved = original.at("wins[0].fu", prefix="Alice: ")
    assert type(moved) is ScoringError
    assert (moved.code, moved.field, moved.message, str(moved)) == (
        "impossible_fu",
        "wins[0].fu",
        "Alice: 35 fu cannot happen",
        "Alice: 35 fu cannot happen",
    )
    assert (original.field, original.message) == (None, "35 fu cannot happen")


def test_as_dict_names_code_message_and_field():
    assert TaikaiError("entry_inactive", "withdrawn", field="player").as_dict() == {
        "code": "entry_inactive",
        "message": "withdrawn",
        "field": "player",
    }
