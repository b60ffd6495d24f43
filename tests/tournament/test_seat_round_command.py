"""``manage.py seat_round``: one request (JSON) on stdin, the response (JSON) on stdout, per
``shared/seating-protocol.md``; a bad request prints ``{"error": {"code", "message"}}`` and exits 2.

Expected table sizes come from the protocol (17 → 4+4+3+3+3); the error codes are the engine's
documented ``ERROR_CODES``. Subprocess runs are few (each starts Django); the other bad requests go
through ``call_command`` with stdin replaced.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

# The command reads stdin, seats with the engine and prints: no database, cache or broker is involved.
pytestmark = pytest.mark.once

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BAD_REQUEST_STATUS = 2


def run_shell(stdin_text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "seat_round"],
        input=stdin_text,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        timeout=120,
    )


def run_in_process(stdin_text: str, monkeypatch) -> tuple[dict, int]:
    """(printed JSON, exit status) of the command run through ``call_command``."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    out = io.StringIO()
    status = 0
    try:
        call_command("seat_round", stdout=out)
    except CommandError as error:
        status = error.returncode
    return json.loads(out.getvalue()), status


def test_seventeen_player_swiss_round_is_4_4_3_3_3_with_everyone_once():
    # given 18 registered players, one absent, standings after round 1
    players = list(range(1, 19))
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15], [16, 17, 18]]]
    standings = [4, 8, 12, 15, 18, 3, 7, 11, 14, 17, 2, 6, 10, 13, 16, 1, 5, 9]
    request = {
        "players": players,
        "history": history,
        "standings": standings,
        "absent": [9],
        "mode": "swiss",
        "remainder": "three",
        "round": 2,
        "total_rounds": 4,
        "seed": 5,
        "time_limit_s": 0.5,
    }
    completed = run_shell(json.dumps(request))
    assert completed.returncode == 0, completed.stderr
    response = json.loads(completed.stdout)
    # then the protocol's 17 → 4+4+3+3+3, the 17 active players each seated once, no byes
    assert sorted((len(table) for table in response["tables"]), reverse=True) == [4, 4, 3, 3, 3]
    seated = [player for table in response["tables"] for player in table]
    assert sorted(seated) == [player for player in players if player != 9]
    assert response["byes"] == []
    assert set(response["report"]) == {
        "repeat_pairs",
        "max_meetings",
        "seat_imbalance_max",
        "same_table_as_last_round",
        "rank_spread_mean",
        "seat_above_ideal",
        "seat_trade",
    }


def test_string_ids_are_echoed_as_strings():
    # given string ids, one of which looks like an integer
    players = ["007", "alice", "bob", "carol", "dave", "erin", "frank", "grace"]
    completed = run_shell(json.dumps({"players": players, "mode": "random", "seed": 3, "time_limit_s": 0.5}))
    assert completed.returncode == 0, completed.stderr
    response = json.loads(completed.stdout)
    seated = [player for table in response["tables"] for player in table]
    # then the very same strings come back ("007" is not turned into 7)
    assert sorted(seated) == sorted(players)
    assert all(isinstance(player, str) for player in seated)


def test_malformed_json_from_the_shell_is_invalid_json_with_status_2():
    completed = run_shell('{"players": [1, 2, 3, 4')
    assert completed.returncode == BAD_REQUEST_STATUS
    response = json.loads(completed.stdout)
    assert set(response) == {"error"}
    assert set(response["error"]) == {"code", "message"}
    assert response["error"]["code"] == "invalid_json"


def test_bad_request_from_the_shell_prints_the_protocol_error_with_status_2():
    completed = run_shell(json.dumps({"players": [1, 2, 3, 4], "table_size": 5}))
    assert completed.returncode == BAD_REQUEST_STATUS
    assert json.loads(completed.stdout) == {
        "error": {"code": "invalid_table_size", "message": "table_size must be 3 or 4"}
    }


BAD_REQUESTS = [
    # the protocol's list: duplicate or unknown ids in history, table size other than 3 or 4,
    # fewer active players than one table
    ({"players": [1, 2, 3, 4, 5], "history": [[[1, 2, 3, 4], [4, 5]]]}, "duplicate_in_history"),
    ({"players": [1, 2, 3, 4], "history": [[[1, 2, 3, 99]]]}, "unknown_player"),
    ({"players": [1, 2, 3, 4], "table_size": 2}, "invalid_table_size"),
    ({"players": [1, 2, 3, 4], "absent": [3, 4]}, "too_few_players"),
    ({"players": [1, 2, 3, 4, 5], "absent": [3, 4, 5], "remainder": "bye"}, "too_few_players"),
    ({"players": [1, 2, 3, 4, 5, 6], "table_size": 3, "absent": [1, 2, 3, 4]}, "too_few_players"),
    ([1, 2, 3, 4], "invalid_request"),
]


@pytest.mark.parametrize(("request_body", "code"), BAD_REQUESTS)
def test_bad_request_prints_its_code_and_exits_2(request_body, code, monkeypatch):
    response, status = run_in_process(json.dumps(request_body), monkeypatch)
    assert status == BAD_REQUEST_STATUS
    assert set(response) == {"error"}
    assert set(response["error"]) == {"code", "message"}
    assert response["error"]["code"] == code


@pytest.mark.parametrize("text", ["", "not json", "{'players': [1]}", '{"players": [1, 2, 3, 4]} trailing'])
def test_anything_but_one_json_document_is_invalid_json(text, monkeypatch):
    response, status = run_in_process(text, monkeypatch)
    assert status == BAD_REQUEST_STATUS
    assert response["error"]["code"] == "invalid_json"


def test_in_process_run_seats_a_three_player_event_without_repeats(monkeypatch):
    # given 9 players at tables of three after one round: 3 tables, nobody meets a tablemate again
    players = list(range(9))
    first_round = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    request = {"players": players, "history": [first_round], "table_size": 3, "mode": "random", "seed": 1}
    response, status = run_in_process(json.dumps(request), monkeypatch)
    assert status == 0
    assert sorted(len(table) for table in response["tables"]) == [3, 3, 3]
    met_before = {frozenset(pair) for table in first_round for pair in itertools.combinations(table, 2)}
    for table in response["tables"]:
        assert not any(frozenset(pair) in met_before for pair in itertools.combinations(table, 2))
    assert response["report"]["repeat_pairs"] == 0


@pytest.mark.parametrize(
    ("stdin_text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"players": ["\\ud800", 2, 3, 4]}', "players[0] holds a lone UTF-16 surrogate"),
        ('{"players": [1, 2, 3, 4], "\\udfff": 1}', "holds a lone UTF-16 surrogate"),
    ],
    ids=["nested 100,000 deep", "lone surrogate", "lone surrogate in a key"],
)
def test_json_the_parser_or_the_output_cannot_take_is_invalid_json(stdin_text, message, monkeypatch):
    response, status = run_in_process(stdin_text, monkeypatch)
    assert status == BAD_REQUEST_STATUS and response["error"]["code"] == "invalid_json"
    assert message in response["error"]["message"]


def test_deep_nesting_or_bytes_that_are_not_utf8_from_the_shell_are_coded_errors_not_tracebacks():
    for stdin in (b"[" * 100_000 + b"]" * 100_000, b'{"players": [1, 2, 3, 4], "seed": "\xff"}'):
        result = subprocess.run(
            [sys.executable, "manage.py", "seat_round"],
            input=stdin,
            cwd=PROJECT_ROOT,
            capture_output=True,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
            timeout=120,
        )
        assert result.returncode == BAD_REQUEST_STATUS, result.stderr[-2000:]
        assert json.loads(result.stdout)["error"]["code"] == "invalid_json"
        assert b"Traceback" not in result.stderr


def test_seat_round_command_keeps_a_team_apart(monkeypatch):
    # given a version 2 request with a never team and a forbidden pair
    request = {
        "version": 2,
        "players": list(range(1, 13)),
        "groups": [{"kind": "team", "members": [1, 2, 3], "policy": "never"}],
        "forbidden_pairs": [[4, 5]],
        "seed": 3,
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    out = io.StringIO()
    # when
    call_command("seat_round", stdout=out)
    # then
    response = json.loads(out.getvalue())
    assert response["version"] == 2
    table_of = {player: index for index, table in enumerate(response["tables"]) for player in table}
    assert len({table_of[1], table_of[2], table_of[3]}) == 3
    assert table_of[4] != table_of[5]
    assert response["report"]["groups"]["breaks"] == []
    assert response["report"]["groups"]["kinds"]["team"] == {"pairs": 0, "event_pairs": 0, "lower_bound": 0}
