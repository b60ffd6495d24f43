"""Swiss draw (スイスドロー, seed 004 art. 41): similar standings together, no repeats while possible."""

import itertools
import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.pairing.history import index_history
from tournament.engine.pairing.search import CostModel
from tournament.engine.pairing.swiss import beam_top_down, greedy_by_cost, greedy_top_down, seat_swiss

FAR = time.monotonic() + 3600


def meetings_of(count, rounds):
    return index_history(count, rounds, 4).meetings


def test_art41_swiss_draw_round_one_is_strict_top_down():
    # given no history, standings 0..15 best first
    order = list(range(16))
    # when
    groups = seat_swiss(order, (4, 4, 4, 4), meetings_of(16, []), FAR)
    # then table 1 = the top four, and so on
    assert groups == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


def test_art41_swiss_draw_splits_a_table_that_already_met():
    # given the top four met last round
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    # when they stand 1-4 again
    groups = seat_swiss(list(range(16)), (4, 4, 4, 4), meetings_of(16, history), FAR)
    # then nobody meets twice
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            assert group_met(history, a, b) is False


def group_met(history, a, b):
    return any(a in table and b in table for tables in history for table in tables)


def test_art41_swiss_draw_keeps_standings_tight_around_a_conflict():
    # given only players 0 and 1 have met
    history = [[[0, 1]]]
    meetings = meetings_of(8, history)
    # when
    groups = seat_swiss(list(range(8)), (4, 4), meetings, FAR)
    # then 0 and 1 are apart, and the spread is as small as that allows. By hand: the table of 0 spreads
    # max(A), the table of 1 spreads max(B) - 1; whichever holds 7 pays 7 or 6, the other at best 3 or 4:
    # {0, 2, 3, 4} + {1, 5, 6, 7} = 4 + 6 = 10, {0, 5, 6, 7} + {1, 2, 3, 4} = 7 + 3 = 10.
    assert not any({0, 1} <= set(group) for group in groups)
    assert sum(max(g) - min(g) for g in groups) == 10


def test_objective_repeats_before_standings():
    # given 8 players where the top four all met each other
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    groups = seat_swiss(list(range(8)), (4, 4), meetings_of(8, history), FAR)
    # then two of the top four go to the second table, whatever the spread
    assert sorted(len(set(g) & {0, 1, 2, 3}) for g in groups) == [2, 2]


def test_objective_fewest_repeats_when_repeats_are_unavoidable():
    # given 4 players who met: the only table must repeat, and the report counts it; the grouping holds
    groups = seat_swiss([0, 1, 2, 3], (4,), meetings_of(4, [[[0, 1, 2, 3]]]), FAR)
    assert sorted(groups[0]) == [0, 1, 2, 3]


def random_history(count, rounds, rng):
    history = []
    for _ in range(rounds):
        players = list(range(count))
        rng.shuffle(players)
        history.append([players[i : i + 4] for i in range(0, count - count % 4, 4)])
    return history


@settings(max_examples=25, deadline=None)
@given(count=st.integers(min_value=8, max_value=80), rounds=st.integers(0, 5), seed=st.integers(0, 10**6))
def test_swiss_grouping_seats_everyone_once(count, rounds, seed):
    rng = random.Random(seed)
    count -= count % 4
    meetings = meetings_of(count, random_history(count, rounds, rng))
    order = list(range(count))
    rng.shuffle(order)
    sizes = (4,) * (count // 4)
    rank = [0] * count
    for position, player in enumerate(order):
        rank[player] = position
    model = CostModel.for_players(meetings, rank)
    for groups in (
        seat_swiss(order, sizes, meetings, FAR),
        greedy_top_down(order, sizes, meetings),
        greedy_by_cost(order, sizes, model),
        beam_top_down(order, sizes, model, FAR, 8, 8),
    ):
        assert sorted(p for g in groups for p in g) == list(range(count))
        assert [len(g) for g in groups] == list(sizes)


def test_swiss_beam_out_of_time_completes_greedily():
    # given no history and ranks 0..63: a beam out of time from the start is the greedy grouping,
    # which here is strict top-down
    meetings = meetings_of(64, [])
    model = CostModel.for_players(meetings, list(range(64)))
    groups = beam_top_down(list(range(64)), (4,) * 16, model, time.monotonic() - 1, 8, 8)
    assert groups == [list(range(i, i + 4)) for i in range(0, 64, 4)]


# Seat counts after three rounds at tables of four: each player lacks exactly one seat (E, S, W, N).
def counts_lacking(seat):
    return [0 if index == seat else 1 for index in range(4)]


def test_winds_swiss_round_four_exchanges_middle_ranks_so_everyone_gets_their_missing_seat():
    # given 8 players ranked 0..7 lacking E, S, W, W | N, E, S, N
    lacking = [0, 1, 2, 2, 3, 0, 1, 3]
    seat_counts = [counts_lacking(seat) for seat in lacking]
    meetings = meetings_of(8, [])
    # when seated without and with the seat counts
    plain = seat_swiss(list(range(8)), (4, 4), meetings, FAR)
    balanced = seat_swiss(list(range(8)), (4, 4), meetings, FAR, seat_counts=seat_counts)
    # then strict top-down ({0,1,2,3}: two lack West; {4,5,6,7}: two lack North) costs spread 3 + 3 and
    # leaves one player per table without the seat they lack; exchanging 3 and 4 costs spread 4 + 4 and
    # seats everyone at their missing seat: in a field this small a cross comes before the standings
    assert plain == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert balanced == [[0, 1, 2, 4], [3, 5, 6, 7]]


def test_objective_swiss_seats_never_buy_a_repeat():
    # given the same seat counts, but 3 and 4 have met
    lacking = [0, 1, 2, 2, 3, 0, 1, 3]
    seat_counts = [counts_lacking(seat) for seat in lacking]
    meetings = meetings_of(8, [[[3, 4]]])
    groups = seat_swiss(list(range(8)), (4, 4), meetings, FAR, seat_counts=seat_counts)
    assert not any({3, 4} <= set(group) for group in groups)


def test_objective_swiss_anneal_reaches_top_down_from_any_history_free_field():
    # given 48 players without history, in a shuffled standings order: strict top-down is optimal
    order = list(range(48))
    random.Random(4).shuffle(order)
    groups = seat_swiss(order, (4,) * 12, meetings_of(48, []), FAR, seed=9)
    assert groups == [order[i : i + 4] for i in range(0, 48, 4)]
