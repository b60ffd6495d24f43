"""Local searches over groupings (``search``): the annealing's contract."""

import itertools
import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.history import index_history
from tournament.engine.pairing.search import CostModel, anneal

FAR = time.monotonic() + 3600


def anybody(count):
    return lambda player, rng: rng.randrange(count)


def total_cost(model, groups):
    return sum(model.table_cost(group) for group in groups)


def test_anneal_sorts_a_shuffled_field_into_consecutive_ranks():
    # given 16 players without history dealt at random: the best grouping is ranks 0-3, 4-7, ...
    players = list(range(16))
    random.Random(2).shuffle(players)
    groups = [players[i : i + 4] for i in range(0, 16, 4)]
    model = CostModel.for_players(index_history(16, [], 4).meetings, list(range(16)))
    cost = anneal(groups, model, anybody(16), random.Random(1), FAR, 20_000, (3.0, 0.05))
    # then four tables of spread 3 (by hand: 4 × 3 = 12)
    assert cost == 12
    assert sorted(sorted(group) for group in groups) == [list(range(i, i + 4)) for i in range(0, 16, 4)]


def test_anneal_returns_the_best_grouping_seen_not_the_last():
    # given a grouping already optimal and a search that stays hot (it wanders uphill all the time)
    groups = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    model = CostModel.for_players(index_history(12, [], 4).meetings, list(range(12)))
    cost = anneal(groups, model, anybody(12), random.Random(3), FAR, 500, (50.0, 50.0))
    assert cost == 9
    assert groups == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_anneal_stops_at_the_deadline_with_a_valid_grouping():
    groups = [[3, 0, 5, 6], [1, 2, 4, 7]]
    model = CostModel.for_players(index_history(8, [], 4).meetings, list(range(8)))
    cost = anneal(groups, model, anybody(8), random.Random(0), time.monotonic() - 1, 10_000, (3.0, 0.05))
    assert groups == [[3, 0, 5, 6], [1, 2, 4, 7]]
    assert cost == total_cost(model, groups)


@settings(max_examples=20, deadline=None)
@given(count=st.sampled_from([8, 12, 16, 20]), rounds=st.integers(0, 4), seed=st.integers(0, 10**6))
def test_anneal_never_worsens_and_keeps_every_player_once(count, rounds, seed):
    rng = random.Random(seed)
    history = []
    for _ in range(rounds):
        shuffled = list(range(count))
        rng.shuffle(shuffled)
        history.append([shuffled[i : i + 4] for i in range(0, count, 4)])
    rank = list(range(count))
    rng.shuffle(rank)
    model = CostModel.for_players(index_history(count, history, 4).meetings, rank)
    groups = [list(range(i, i + 4)) for i in range(0, count, 4)]
    before = total_cost(model, groups)
    cost = anneal(groups, model, anybody(count), rng, FAR, 2_000, (3.0, 0.05))
    assert cost == total_cost(model, groups) <= before
    assert sorted(itertools.chain.from_iterable(groups)) == list(range(count))
    assert all(len(group) == 4 for group in groups)


def test_anneal_stops_at_the_floor():
    # given an optimal grouping and its cost as the floor: no exchange is tried, even a hot one
    groups = [[0, 1, 2, 3], [4, 5, 6, 7]]
    model = CostModel.for_players(index_history(8, [], 4).meetings, list(range(8)))
    calls = []

    def partner(player, rng):
        calls.append(player)
        return rng.randrange(8)

    assert anneal(groups, model, partner, random.Random(0), FAR, 10_000, (50.0, 50.0), floor=6) == 6
    assert calls == []
