"""The quality report, checked against hand counts."""

from fractions import Fraction

from tournament.engine.pairing.history import index_history
from tournament.engine.pairing.report import quality_report


def test_report_counts_by_hand():
    # given two earlier rounds over players 0..7
    rounds = [
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        [[0, 1, 4, 5], [2, 3, 6, 7]],
    ]
    history = index_history(8, rounds, 4)
    # when this round seats 0 and 1 together a third time, and 2, 3 a second time
    tables = [[0, 1, 2, 3], [4, 5, 6, 7]]
    rank = [0, 1, 2, 3, 4, 5, 6, 7]
    report = quality_report(history, tables, rank)
    # then, by hand:
    # pairs 0-1, 4-5, 2-3, 6-7 met 3 times (2 extra each); 0-2, 0-3, 1-2, 1-3, 4-6, 4-7, 5-6, 5-7 twice (1 extra)
    assert report.repeat_pairs == 4 * 2 + 8 * 1
    assert report.max_meetings == 3
    # player 0 sat East three times, never North: 3 - 0
    assert report.seat_imbalance_max == 3
    # last round 0,1,4,5 sat at table 1 and 2,3,6,7 at table 2: 0,1 and 6,7 keep their number
    assert report.same_table_as_last_round == 4
    assert report.rank_spread_mean == Fraction(3)
    assert report.as_dict()["rank_spread_mean"] == 3.0


def test_report_first_round_is_clean():
    history = index_history(4, [], 4)
    report = quality_report(history, [[0, 1, 2, 3]], None)
    assert (report.repeat_pairs, report.max_meetings, report.seat_imbalance_max) == (0, 1, 1)
    assert report.same_table_as_last_round == 0
    assert report.as_dict()["rank_spread_mean"] is None


# Three rounds of one table of four, each player moving one seat on: 0 sat E, N, W and lacks South;
# 1 lacks West; 2 lacks North; 3 lacks East.
ROTATED = [[[0, 1, 2, 3]], [[1, 2, 3, 0]], [[2, 3, 0, 1]]]


def test_report_seat_trade_counts_players_kept_off_the_seat_they_lack():
    history = index_history(4, ROTATED, 4)
    # when round 4 is the last and everyone keeps the seat of round 1: each sits a seat he had
    report = quality_report(history, [[0, 1, 2, 3]], None, rounds_left=0, traded_for="repeats")
    # then, by hand, all four are crossed (their missing seat was at the table) and above ideal
    assert report.seat_trade.crossed == 4
    assert report.seat_above_ideal == 4
    assert report.seat_trade.traded_for == "repeats"
    # when each gets the seat he lacks: 3 East, 0 South, 1 West, 2 North
    even = quality_report(history, [[3, 0, 1, 2]], None, rounds_left=0)
    assert (even.seat_trade.crossed, even.seat_above_ideal, even.seat_imbalance_max) == (0, 0, 0)


def test_report_seat_trade_with_rounds_left_is_a_detour():
    # given the same counts and four rounds still to come (8 games: 2 of each seat is still reachable)
    history = index_history(4, ROTATED, 4)
    report = quality_report(history, [[0, 1, 2, 3]], None, rounds_left=4, traded_for="standings", cross_ranks=8)
    assert report.seat_trade.crossed == 0
    assert report.seat_trade.detoured == 4
    assert report.as_dict()["seat_trade"] == {
        "crossed": 0,
        "short_table": 0,
        "out_of_reach": 0,
        "detoured": 4,
        "traded_for": "standings",
        "cross_ranks": 8,
    }


def test_report_seat_trade_short_table():
    # given player 2 lacks North (see ROTATED) and sits East at a three-player table (no North), 3
    # (lacking East) sits South, and a newcomer West
    history = index_history(5, ROTATED, 4)
    report = quality_report(history, [[2, 3, 4]], None, rounds_left=0)
    # then 2 counts against the short table, not as a trade; 3 could have had East here: crossed
    assert report.seat_trade.short_table == 1
    assert report.seat_trade.crossed == 1
