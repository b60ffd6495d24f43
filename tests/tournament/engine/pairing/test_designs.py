"""Affine-geometry schedules: every parallel class partitions the field, no pair meets twice."""

import itertools

import pytest

from tournament.engine.pairing.designs import (
    _solve_gf2,
    affine_dimension,
    affine_parallel_classes,
    doubled_spread_schedule,
    known_schedule,
)


@pytest.mark.parametrize(
    ("players", "table_size", "rounds"),
    [(16, 4, 5), (64, 4, 21), (256, 4, 85), (9, 3, 4), (27, 3, 13), (81, 3, 40)],
)
def test_known_schedule_has_every_pair_exactly_once(players, table_size, rounds):
    schedule = known_schedule(players, table_size)
    assert len(schedule) == rounds  # (q^k - 1) / (q - 1) parallel classes
    pair_counts = {}
    for tables in schedule:
        seated = sorted(player for table in tables for player in table)
        assert seated == list(range(players))
        assert all(len(table) == table_size for table in tables)
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                pair_counts[pair] = pair_counts.get(pair, 0) + 1
    # a 2-design: all C(n, 2) pairs, each once
    assert len(pair_counts) == players * (players - 1) // 2
    assert set(pair_counts.values()) == {1}


@pytest.mark.parametrize(("players", "table_size"), [(20, 4), (17, 4), (4, 4), (12, 3), (32, 3)])
def test_no_known_schedule(players, table_size):
    assert known_schedule(players, table_size) is None


def test_gf4_plane_lines_through_origin():
    # AG(2, 4): the line through 0 in direction (1, 1) is {(t, t)}: points 0, 5, 10, 15 (x + 4y)
    classes = affine_parallel_classes(4, 2)
    assert any((0, 5, 10, 15) in {tuple(sorted(line)) for line in lines} for lines in classes)


def test_affine_dimension():
    assert affine_dimension(256, 4) == 4
    assert affine_dimension(48, 4) is None


def test_designs_32_players_10_rounds_never_meet_twice():
    # computed from the construction: every round a partition into 8 tables of 4, no pair twice
    schedule = known_schedule(32, 4)
    assert schedule == doubled_spread_schedule()
    assert len(schedule) == 10
    pair_counts = {}
    for tables in schedule:
        assert sorted(player for table in tables for player in table) == list(range(32))
        assert [len(table) for table in tables] == [4] * 8
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                pair_counts[pair] = pair_counts.get(pair, 0) + 1
    assert set(pair_counts.values()) == {1}
    # each player meets 3 × 10 = 30 of the 31 others: all but his twin 2x ^ 1
    assert len(pair_counts) == 32 * 30 // 2
    assert all((2 * x, 2 * x + 1) not in pair_counts for x in range(16))


def test_designs_gf2_elimination_solves_and_reports_no_solution():
    # x0 + x1 = 1, x1 = 1 (bit 2 is the right-hand side): x0 = 0, x1 = 1
    assert _solve_gf2([0b111, 0b110], 2) == [0, 1]
    # x0 = 1 and x0 = 0 cannot both hold
    with pytest.raises(ValueError):
        _solve_gf2([0b11, 0b01], 1)
