"""A schedule known in advance: checked on import (problems, repeats, groups against their bound), and its
winds balanced (each player once in each seat every four rounds)."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.errors import TournamentError
from tournament.engine.pairing.schedule import event_planned, schedule_checked, winds_balanced

PLAYERS = list(range(1, 9))
TWO_ROUNDS = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]


def test_a_good_schedule_has_no_problems_and_its_repeats_are_counted():
    report = schedule_checked(TWO_ROUNDS, PLAYERS, PLAYERS, [4])
    # 1–2, 5–6, 3–4 and 7–8 meet twice
    assert report.problems == () and report.rounds == 2 and report.repeat_pairs == 4 and report.max_meetings == 2


def test_every_problem_is_named_with_its_round():
    bad = [[[1, 2, 3, 4], [5, 6, 7, 1]], [[1, 2, 3, 9], [5, 6, 7]]]
    problems = schedule_checked(bad, PLAYERS, PLAYERS, [4]).problems
    assert "round 1: 1 is seated 2 times" in problems and "round 1: 8 is not seated" in problems
    assert "round 2: 9 is not a player of the event" in problems and "round 2, table 2: 3 players" in problems
    assert "round 2: 4 is not seated" in problems


def test_group_pairs_are_counted_against_their_lower_bound():
    team = [{"kind": "team", "members": [1, 2, 5], "policy": "never"}]
    report = schedule_checked(TWO_ROUNDS, PLAYERS, PLAYERS, [4], team)
    # round 1: 1–2 together; round 2: 1–5, 1–2, 2–5 together; three members over two tables: 1 pair a round
    assert report.groups == {"team": {"pairs": 4, "lower_bound": 2}}


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_balanced_winds_seat_each_player_once_in_each_seat_every_four_rounds(rng, tables):
    players = list(range(tables * 4))
    schedule = []
    for _ in range(4):
        rng.shuffle(players)
        schedule.append([players[i * 4 : i * 4 + 4] for i in range(tables)])
    balanced = winds_balanced(schedule, 4)
    for before, after in zip(schedule, balanced, strict=True):  # the same tables, seats reordered
        assert [sorted(t) for t in before] == [sorted(t) for t in after]
    seats = Counter((player, seat) for tables_ in balanced for table in tables_ for seat, player in enumerate(table))
    assert set(seats.values()) == {1} and len(seats) == len(players) * 4


def _request(players: int, **more) -> dict:
    return {
        "players": list(range(1, players + 1)),
        "table_size": 4,
        "mode": "random",
        "remainder": "three",
        "seed": 3,
        "time_limit_s": 0.3,
        **more,
    }


def test_a_planned_event_seats_everyone_once_a_round_and_a_known_design_never_repeats():
    # 16 players over 5 rounds: the affine plane of order 4 has no pair meeting twice
    planned = event_planned(_request(16), 5)
    report = schedule_checked(planned, list(range(1, 17)), list(range(1, 17)), [4])
    assert report.problems == () and report.rounds == 5 and report.repeat_pairs == 0


def test_a_planned_event_with_three_player_tables_seats_everyone():
    planned = event_planned(_request(18), 4)
    report = schedule_checked(planned, list(range(1, 19)), list(range(1, 19)), [3, 4])
    assert report.problems == () and sorted(len(t) for t in planned[0]) == [3, 3, 4, 4, 4]


def test_a_plan_that_would_give_byes_is_refused():
    with pytest.raises(TournamentError) as info:
        event_planned(_request(18, remainder="bye"), 3)
    assert info.value.code == "plan_has_byes"


def test_a_planned_event_keeps_a_never_group_apart():
    team = {"kind": "team", "members": [1, 2, 3, 4], "policy": "never"}
    planned = event_planned(_request(16, groups=[team]), 4)
    assert schedule_checked(planned, list(range(1, 17)), list(range(1, 17)), [4], [team]).groups["team"]["pairs"] == 0
