"""Table counts, short tables, byes and table numbers."""

import pytest

from tournament.engine.errors import TournamentError
from tournament.engine.pairing.tables import choose_byes, number_tables, plan_tables


@pytest.mark.parametrize(
    ("active", "table_size", "remainder", "sizes", "byes"),
    [
        (16, 4, "three", (4, 4, 4, 4), 0),
        (17, 4, "three", (4, 4, 3, 3, 3), 0),  # the protocol's own example
        (18, 4, "three", (4, 4, 4, 3, 3), 0),
        (19, 4, "three", (4, 4, 4, 4, 3), 0),
        (17, 4, "bye", (4, 4, 4, 4), 1),
        (18, 4, "bye", (4, 4, 4, 4), 2),
        (19, 4, "bye", (4, 4, 4, 4), 3),
        (3, 4, "three", (3,), 0),
        (6, 4, "three", (3, 3), 0),
        (9, 4, "three", (3, 3, 3), 0),
        (5, 4, "three", (4,), 1),  # three short tables would need 9 players: byes instead
        (10, 3, "three", (3, 3, 3), 1),  # three-player event: a short table would be a two-player game
        (10, 3, "bye", (3, 3, 3), 1),
        (4, 4, "bye", (4,), 0),
    ],
)
def test_table_plan(active, table_size, remainder, sizes, byes):
    plan = plan_tables(active, table_size, remainder)
    assert plan.sizes == sizes
    assert plan.byes == byes
    assert plan.seated + plan.byes == active


@pytest.mark.parametrize(
    ("active", "table_size", "remainder"), [(2, 4, "three"), (3, 4, "bye"), (2, 3, "three"), (0, 4, "three")]
)
def test_table_plan_too_few_players(active, table_size, remainder):
    with pytest.raises(TournamentError) as caught:
        plan_tables(active, table_size, remainder)
    assert caught.value.code == "too_few_players"


def test_byes_go_to_fewest_byes_then_lowest_in_order():
    # given players 0..5 best first, player 5 already had a bye
    bye_counts = [0, 0, 0, 0, 0, 1]
    # when two players must sit out
    byes = choose_byes([0, 1, 2, 3, 4, 5], bye_counts, 2)
    # then the two lowest-ranked players without a bye sit out
    assert sorted(byes) == [3, 4]


def test_wrc_table_numbers_avoid_last_rounds_number():
    # given group 0's player 0 sat at table 1 last round
    last_table = [1, None, None, None, 2, None, None, None]
    groups = [[0, 1, 2, 3], [4, 5, 6, 7]]
    # when
    numbers = number_tables(groups, last_table)
    # then the top group takes table 2 and the other table 1
    assert numbers == [2, 1]


def test_table_numbers_follow_group_order_without_conflicts():
    groups = [[0, 1], [2, 3], [4, 5]]
    assert number_tables(groups, [None] * 6) == [1, 2, 3]
