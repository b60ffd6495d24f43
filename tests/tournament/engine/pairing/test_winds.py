"""Seat orders (East 東, South 南, West 西, North 北) keep every player's seat counts within 1."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.designs import known_schedule
from tournament.engine.pairing.winds import order_table, plan_seats


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
