"""Request validation: every bad request maps to a stable error code (seating protocol)."""

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.pairing import ERROR_CODES, parse_request, seat_round

PLAYERS = list(range(1, 9))


@pytest.mark.parametrize(
    ("request_data", "code"),
    [
        ([1, 2, 3], "invalid_request"),
        ({"players": PLAYERS, "colour": "red"}, "unknown_field"),
        ({}, "invalid_field"),
        ({"players": [1, 2, 2, 3]}, "duplicate_player"),
        ({"players": [1, 2.5, 3]}, "invalid_player_id"),
        ({"players": [1, True, 3]}, "invalid_player_id"),
        ({"players": PLAYERS, "history": [[[1, 2, 3, 99]]]}, "unknown_player"),
        ({"players": PLAYERS, "history": [[[1, 2, 3, 4], [5, 6, 7, 1]]]}, "duplicate_in_history"),
        ({"players": PLAYERS, "history": [[[1, 2, 3, 4, 5]]]}, "invalid_history_table"),
        ({"players": PLAYERS, "history": [[[1]]]}, "invalid_history_table"),
        ({"players": PLAYERS, "standings": [1, 2, 1]}, "duplicate_in_standings"),
        ({"players": PLAYERS, "standings": [1, 77]}, "unknown_player"),
        ({"players": PLAYERS, "absent": [77]}, "unknown_player"),
        ({"players": PLAYERS, "table_size": 5}, "invalid_table_size"),
        ({"players": PLAYERS, "table_size": 2}, "invalid_table_size"),
        ({"players": PLAYERS, "mode": "knockout"}, "invalid_mode"),
        ({"players": PLAYERS, "mode": "interval"}, "invalid_step"),
        ({"players": PLAYERS, "mode": "interval", "step": 0}, "invalid_step"),
        ({"players": PLAYERS, "mode": "random", "step": 2}, "invalid_step"),
        ({"players": PLAYERS, "remainder": "two"}, "invalid_remainder"),
        ({"players": PLAYERS, "round": 3}, "round_mismatch"),
        ({"players": PLAYERS, "history": [[[1, 2, 3, 4]]], "total_rounds": 1}, "round_mismatch"),
        ({"players": PLAYERS, "seed": "abc"}, "invalid_field"),
        ({"players": PLAYERS, "time_limit_s": 0}, "invalid_field"),
        ({"players": PLAYERS, "time_limit_s": "fast"}, "invalid_field"),
    ],
)
def test_protocol_bad_request_raises_its_code(request_data, code):
    # when
    with pytest.raises(TournamentError) as caught:
        parse_request(request_data)
    # then
    assert caught.value.code == code
    assert code in ERROR_CODES


@pytest.mark.parametrize(
    ("request_data", "code"),
    [
        ({"players": [1, 2]}, "too_few_players"),
        ({"players": [1, 2, 3], "remainder": "bye"}, "too_few_players"),
        ({"players": [1, 2, 3, 4, 5], "absent": [1, 2, 3]}, "too_few_players"),
        ({"players": [1, 2, 3, 4], "table_size": 7}, "invalid_table_size"),
    ],
)
def test_protocol_bad_request_answers_an_error_dict(request_data, code):
    # when
    response = seat_round(request_data)
    # then
    assert set(response) == {"error"}
    assert response["error"]["code"] == code
    assert isinstance(response["error"]["message"], str) and response["error"]["message"]


def test_protocol_defaults_mode_to_swiss_when_standings_are_given():
    assert parse_request({"players": PLAYERS, "standings": [3, 1]}).mode == "swiss"
    assert parse_request({"players": PLAYERS}).mode == "random"


def test_protocol_string_and_integer_ids_are_distinct_players():
    request = parse_request({"players": [1, "1", "a", 2]})
    assert request.players == (1, "1", "a", 2)
