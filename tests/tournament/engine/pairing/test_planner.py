"""Random events planned over the rounds left (``planner``): fewest repeated meetings over the plan."""

import itertools
import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.history import index_history
from tournament.engine.pairing.planner import plan_random

FAR = time.monotonic() + 3600


def repeated_meetings(rounds, history=()):
    counts = {}
    for tables in [*history, *rounds]:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    return sum(count - 1 for count in counts.values())


def test_planner_finds_five_rounds_without_a_repeat_for_sixteen():
    # the affine plane of order 4 shows 16 players can play 5 rounds at tables of four without a repeat
    meetings = index_history(16, [], 4).meetings
    plan = plan_random([list(range(16))] * 5, (4,) * 4, meetings, None, random.Random(3), FAR)
    assert repeated_meetings(plan.rounds) == 0 == plan.planned_repeats


@settings(max_examples=10, deadline=None)
@given(count=st.integers(12, 30), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_planner_never_worse_than_its_start_and_seats_everyone(count, rounds, seed):
    # given any start plan: every round the players shuffled into tables of four and three
    rng = random.Random(seed)
    count -= count % 4
    sizes = (4,) * (count // 4)
    start = []
    for _ in range(rounds):
        players = list(range(count))
        rng.shuffle(players)
        start.append([players[i : i + 4] for i in range(0, count, 4)])
    meetings = index_history(count, [], 4).meetings
    seated = [list(range(count))] * rounds
    plan = plan_random(seated, sizes, meetings, None, random.Random(seed), FAR, start=start)
    # then every planned round seats everyone once at the planned sizes
    for tables in plan.rounds:
        assert sorted(p for table in tables for p in table) == list(range(count))
        assert sorted(len(table) for table in tables) == sorted(sizes)
    # and the plan repeats no more than its start, and says how much it repeats
    assert plan.planned_repeats == repeated_meetings(plan.rounds) <= repeated_meetings(start)


def test_planner_is_reproducible_for_a_seed():
    meetings = index_history(18, [], 4).meetings
    first = plan_random([list(range(18))] * 6, (4, 4, 4, 3, 3), meetings, None, random.Random(7), FAR)
    second = plan_random([list(range(18))] * 6, (4, 4, 4, 3, 3), meetings, None, random.Random(7), FAR)
    assert first == second
