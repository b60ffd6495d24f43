"""Affine-geometry schedules: every parallel class partitions the field, no pair meets twice."""

import itertools

import pytest

from tournament.engine.pairing.designs import affine_dimension, affine_parallel_classes, known_schedule


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


@pytest.mark.parametrize(("players", "table_size"), [(32, 4), (20, 4), (17, 4), (4, 4), (12, 3)])
def test_no_known_schedule(players, table_size):
    assert known_schedule(players, table_size) is None


def test_gf4_plane_lines_through_origin():
    # AG(2, 4): the line through 0 in direction (1, 1) is {(t, t)}: points 0, 5, 10, 15 (x + 4y)
    classes = affine_parallel_classes(4, 2)
    assert any((0, 5, 10, 15) in {tuple(sorted(line)) for line in lines} for lines in classes)


def test_affine_dimension():
    assert affine_dimension(256, 4) == 4
    assert affine_dimension(48, 4) is None
