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
