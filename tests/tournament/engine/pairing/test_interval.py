"""Interval seating: fixed rank steps."""

import pytest

from tournament.engine.pairing.interval import seat_interval


@pytest.mark.parametrize(
    ("count", "sizes", "step", "expected"),
    [
        # step 4: 1-5-9-13, 2-6-10-14, ... (0-based ranks here)
        (16, (4, 4, 4, 4), 4, [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]),
        # step 1: the top four together (final tables)
        (8, (4, 4), 1, [[0, 1, 2, 3], [4, 5, 6, 7]]),
        # step 2 over 3 tables: a block of two tables, then one table alone
        (12, (4, 4, 4), 2, [[0, 2, 4, 6], [1, 3, 5, 7], [8, 9, 10, 11]]),
        # a short table stops taking players; its block-mate takes the rest
        (7, (4, 3), 2, [[0, 2, 4, 6], [1, 3, 5]]),
    ],
)
def test_interval_steps(count, sizes, step, expected):
    assert seat_interval(list(range(count)), sizes, step) == expected
