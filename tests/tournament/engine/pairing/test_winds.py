"""Seat orders (East 東, South 南, West 西, North 北) keep every player's seat counts within 1."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.designs import known_schedule
from tournament.engine.pairing.winds import open_seats, order_table, plan_seats, seat_shortfall


def test_winds_table_gives_each_player_a_seat_they_lack():
    # given each player has sat in three seats and lacks a different one
    seat_counts = [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    # when
    ordered = order_table([3, 2, 1, 0], seat_counts, random.Random(1))
    # then player p sits in seat p: all counts become (1, 1, 1, 1)
    assert ordered == [0, 1, 2, 3]


def test_winds_three_player_table_avoids_the_crowded_seat():
    # given player 0 has been East twice
    seat_counts = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    ordered = order_table([0, 1, 2], seat_counts, random.Random(5))
    assert ordered[0] != 0


@settings(max_examples=20, deadline=None)
@given(
    design=st.sampled_from([(16, 4), (64, 4), (27, 3)]),
    rounds=st.integers(min_value=1, max_value=12),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_winds_plan_keeps_seat_counts_within_one(design, rounds, seed):
    # given a shuffled prefix of a known schedule
    players, size = design
    schedule = list(known_schedule(players, size))
    random.Random(seed).shuffle(schedule)
    schedule = schedule[:rounds]
    # when
    planned = plan_seats(schedule, size)
    # then tables keep their members and after every round each player's counts differ by <= 1
    counts = [[0] * size for _ in range(players)]
    for original, seated in zip(schedule, planned, strict=True):
        assert [sorted(t) for t in original] == [sorted(t) for t in seated]
        for table in seated:
            for seat, player in enumerate(table):
                counts[player][seat] += 1
        assert max(max(c) - min(c) for c in counts) <= 1


@pytest.mark.parametrize(
    ("counts", "mask"),
    [
        ([0, 0, 0, 0], 0b1111),  # round 1: every seat is open
        ([1, 0, 0, 0], 0b1110),  # was East once
        ([1, 1, 0, 0], 0b1100),  # West and North left
        ([1, 1, 1, 0], 0b1000),  # only North keeps the counts within 1
        ([2, 0, 1, 0], 0b1010),  # off balance: South and North are the lowest
        ([1, 0, 1], 0b010),  # a three-player event
    ],
)
def test_winds_open_seats_are_the_least_used(counts, mask):
    assert open_seats(counts) == mask


E, S, W, N = 0b0001, 0b0010, 0b0100, 0b1000


@pytest.mark.parametrize(
    ("masks", "shortfall"),
    [
        ((E, S, W, N), 0),  # round 4: each lacks a different seat
        ((N, W, S, E), 0),  # order does not matter
        ((E, E, W, N), 1),  # two lack only East: one of them sits elsewhere
        ((E, E, E, E), 3),
        ((E | S, E | S, E | S, W | N), 1),  # three players share two seats
        ((E | S, E | S, W | N, W | N), 0),  # round 3: pairs lacking different pairs of seats
        ((N, E | S | W | N, E | S | W | N), 1),  # three-player table has no North
        ((E | S | W, E | S | W, E | S | W), 0),
    ],
)
def test_winds_seat_shortfall_counts_members_without_an_open_seat(masks, shortfall):
    # by hand: size minus the most members that can take distinct open seats among seats 0..size-1
    assert seat_shortfall(masks) == shortfall


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=3, max_size=4),
    seed=st.integers(0, 1000),
)
def test_winds_no_shortfall_means_order_table_gives_everyone_an_open_seat(counts, seed):
    # given a table whose members can all sit at a least-used seat
    members = list(range(len(counts)))
    masks = tuple(open_seats(c) for c in counts)
    ordered = order_table(members, counts, random.Random(seed))
    got_open = all(open_seats(counts[player]) >> seat & 1 for seat, player in enumerate(ordered))
    # then the seat order found table by table does give each one (and cannot if there is a shortfall)
    assert got_open == (seat_shortfall(masks) == 0)
