"""Seat orders (East 東, South 南, West 西, North 北) keep every player's seat counts within 1."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.designs import known_schedule
from tournament.engine.pairing.winds import (
    CROSS_WEIGHT,
    DEFICIT_CAP,
    DETOUR_WEIGHT,
    SHORT_LIGHT_WEIGHT,
    SeatBook,
    can_end_even,
    open_seats,
    order_table,
    plan_seats,
    seat_cost_vector,
    seat_outcome,
    short_tables_weigh_as_crosses,
    split_cost,
)


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


@pytest.mark.parametrize(
    ("counts", "rounds_left", "reachable"),
    [
        ((1, 1, 1, 1), 0, True),  # 4 games: 1 each
        ((2, 1, 1, 0), 0, False),  # spread 2 now, no game left
        ((2, 1, 1, 0), 1, True),  # a North next brings 2, 1, 1, 1
        ((2, 1, 0, 0), 4, True),  # 7 games: 2, 2, 2, 1 after S, W, W, N
        ((2, 2, 0, 0), 3, True),  # 7 games: 2, 2, 2, 1 after W, W, N
        ((2, 2, 0, 0), 2, True),  # 6 games: 2, 2, 1, 1 after W, N
        ((2, 2, 0, 0), 1, False),  # 5 games: only one seat may hold 2
        ((3, 1, 1, 1), 2, False),  # 8 games: a count of 3 can never come back to 2
        ((2, 1, 1), 1, True),  # three seats: 5 games, 2, 2, 1
    ],
)
def test_winds_even_end_reachable_by_hand(counts, rounds_left, reachable):
    assert can_end_even(list(counts), rounds_left) == reachable


@pytest.mark.parametrize(
    ("rounds_left", "other_seat"),
    [
        # no round left: East makes 2, 1, 1, 0 for good (a cross), uneven now (a detour), 1 game short
        (0, CROSS_WEIGHT + DETOUR_WEIGHT + 1),
        # four rounds left (8 games): 2, 1, 1, 0 can still end 2, 2, 2, 2: only the detour and deficit
        (4, DETOUR_WEIGHT + 1),
    ],
)
def test_winds_seat_cost_of_a_player_lacking_north(rounds_left, other_seat):
    assert seat_cost_vector((1, 1, 1, 0), 4, rounds_left) == (other_seat, other_seat, other_seat, 0)


def test_winds_a_three_player_table_costs_a_player_who_needs_north_a_cross_on_every_seat():
    # North would even him out, and the table has East, South, West only: every seat is a cross, so the
    # search gives the short table to somebody else
    vector = seat_cost_vector((1, 1, 1, 0), 3, 0)
    assert len(vector) == 3 and all(cost >= CROSS_WEIGHT for cost in vector)
    # a player lacking East loses nothing at the short table
    assert min(seat_cost_vector((0, 1, 1, 1), 3, 0)) == 0


@pytest.mark.parametrize(
    ("sizes", "as_crosses"),
    [
        ((4, 4, 4, 4, 3), True),  # 19 players: 3 of 19 at the short table, the search can choose them
        ((4, 4, 4, 3, 3), True),  # 18: 6 of 18, a third
        ((4, 4, 3, 3, 3), False),  # 17: 9 of 17 sit at one whatever the search does
        ((4, 4, 4, 4), True),  # no short table
        ((3, 3, 3), True),  # a three-player event: no table is short
    ],
)
def test_winds_short_tables_weigh_as_crosses_while_they_seat_at_most_a_third(sizes, as_crosses):
    assert short_tables_weigh_as_crosses(sizes) is as_crosses


def test_winds_many_short_tables_cost_two_detours_a_seat_below_any_cross():
    light = seat_cost_vector((1, 1, 1, 0), 3, 0, short_as_cross=False)
    # each seat: two detours, and the game it leaves him short of North (his deficit)
    assert light == (SHORT_LIGHT_WEIGHT + 1,) * 3 and SHORT_LIGHT_WEIGHT + DEFICIT_CAP < CROSS_WEIGHT
    # a real cross at a full table is unchanged, and a player lacking East still loses nothing
    assert seat_cost_vector((1, 1, 1, 0), 4, 0, short_as_cross=False) == seat_cost_vector((1, 1, 1, 0), 4, 0)
    assert min(seat_cost_vector((0, 1, 1, 1), 3, 0, short_as_cross=False)) == 0


def test_winds_table_cost_counts_the_one_player_who_cannot_get_his_seat():
    # given two players lacking only East, one lacking West, one lacking North, no round left
    counts = [(0, 1, 1, 1), (0, 1, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    book = SeatBook(counts, 0)
    # then the best seat order leaves one of the two without East: one cross, one detour, 1 game short
    assert split_cost(book.cost([0, 1, 2, 3])) == (1, 1, 1)
    ordered = book.order([3, 2, 1, 0], random.Random(4))
    assert ordered[0] in (0, 1) and ordered[2] == 2 and ordered[3] == 3


def test_winds_seat_outcome_names_what_a_seat_did():
    # lacking North at a table of four with no round left: East is a cross, North keeps him even
    assert seat_outcome((1, 1, 1, 0), 4, 0, 0).crossed
    assert not seat_outcome((1, 1, 1, 0), 4, 3, 0).crossed
    # at a three-player table only North would have kept him even: the table is short, not the seat
    outcome = seat_outcome((1, 1, 1, 0), 3, 0, 0)
    assert outcome.short_table and not outcome.crossed
    # with rounds left, East is only a detour
    outcome = seat_outcome((1, 1, 1, 0), 4, 0, 4)
    assert outcome.detoured and not outcome.crossed
    # 3, 1, 1, 1 and this round + 1 more (8 games): a count of 3 never comes back to 2
    assert seat_outcome((3, 1, 1, 1), 4, 1, 1).out_of_reach
    # with one more round (9 games) 3, 2, 2, 2 is even: not out of reach
    assert not seat_outcome((3, 1, 1, 1), 4, 1, 2).out_of_reach


@settings(max_examples=80, deadline=None)
@given(
    counts=st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=3, max_size=4),
    rounds_left=st.integers(0, 4),
    seed=st.integers(0, 1000),
)
def test_winds_order_table_takes_the_cheapest_seat_order(counts, rounds_left, seed):
    # given any table, the order chosen costs no more than any other order (all tried here)
    members = list(range(len(counts)))
    ordered = order_table(members, counts, random.Random(seed), rounds_left)
    assert sorted(ordered) == members

    def cost(order):
        return sum(
            seat_cost_vector(tuple(counts[player]), len(order), rounds_left)[seat] for seat, player in enumerate(order)
        )

    assert cost(ordered) == min(cost(order) for order in itertools.permutations(members))
    # and when some order gives every member one of his least used seats, the chosen one does
    if any(
        all(open_seats(counts[p]) >> seat & 1 for seat, p in enumerate(order))
        for order in itertools.permutations(members)
    ):
        assert all(open_seats(counts[player]) >> seat & 1 for seat, player in enumerate(ordered))
