"""Reproducible draws, without a database: the same seed draws the same seating and the same lots 抽選."""

import random
from fractions import Fraction

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.pairing.protocol import seat_round
from tournament.engine.standings import GameRecord, StandingsOptions, compute_standings, draw_lots

PLAYERS = list(range(1, 25))


def request(mode: str, seed: int, **more) -> dict:
    return {
        "players": PLAYERS,
        "history": [[PLAYERS[i : i + 4] for i in range(0, 24, 4)]],
        "standings": PLAYERS if mode == "swiss" else [],
        "absent": [],
        "table_size": 4,
        "mode": mode,
        "remainder": "three",
        "round": 2,
        "total_rounds": 4,
        "seed": seed,
        "time_limit_s": 5.0,
        **more,
    }


@pytest.mark.parametrize("mode", ["random", "swiss"])
def test_the_same_seed_draws_the_same_seating_twice(mode):
    # given one request
    # when it is drawn twice
    first, second = seat_round(request(mode, 1017)), seat_round(request(mode, 1017))
    # then both draws are the same, table by table and seat by seat
    assert first["tables"] == second["tables"]
    assert first["report"] == second["report"]


def test_another_seed_draws_another_random_seating():
    drawn = {tuple(map(tuple, seat_round(request("random", seed))["tables"])) for seed in (1, 2, 3)}
    assert len(drawn) > 1


def test_lots_drawn_with_the_same_seed_are_the_same():
    players = list(range(1, 41))
    assert draw_lots(players, random.Random("taikai-lot:7")) == draw_lots(players, random.Random("taikai-lot:7"))
    assert sorted(draw_lots(players, random.Random(1)).values()) == list(range(1, 41))


def tied_standings(lots):
    games = [GameRecord(player, 1, Fraction(10), False) for player in (1, 2, 3)] + [
        GameRecord(4, 1, Fraction(30), True)
    ]
    options = StandingsOptions(precedence=("advances", "total_points", "lot"))
    return compute_standings([1, 2, 3, 4], games, options=options, lots=lots)


def test_a_tie_broken_by_lot_follows_the_lots_and_is_reproducible():
    # given three players with equal advances and points, and one ahead
    lots = draw_lots([1, 2, 3, 4], random.Random("taikai-lot:42"))
    # when the standings break the tie by lot, twice
    first = tied_standings(lots)
    again = tied_standings(draw_lots([1, 2, 3, 4], random.Random("taikai-lot:42")))
    # then the leader stays first, the tied three follow their lots, each with a rank of its own, both times
    assert first[0].player_id == 4
    assert [row.player_id for row in first[1:]] == sorted((1, 2, 3), key=lots.__getitem__)
    assert [row.rank for row in first] == [1, 2, 3, 4]
    assert [row.player_id for row in first] == [row.player_id for row in again]


def test_without_the_lot_key_equal_players_share_a_rank():
    games = [GameRecord(player, 1, Fraction(10), False) for player in (1, 2)]
    assert [row.rank for row in compute_standings([1, 2], games)] == [1, 1]


@pytest.mark.parametrize("precedence", [("lot", "total_points"), ("lot",)])
def test_the_lot_comes_last_after_another_key(precedence):
    with pytest.raises(TournamentError) as error:
        StandingsOptions(precedence=precedence)
    assert error.value.code == "lot_not_last"


def test_a_tie_by_lot_needs_every_players_lot():
    with pytest.raises(TournamentError) as error:
        tied_standings(lots=None)
    assert error.value.code == "lots_missing"
