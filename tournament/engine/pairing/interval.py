"""Interval seating: a fixed rank step between tablemates (1-5-9-13 with step 4; 1-2-3-4 with step 1).

Players are taken best first in blocks of ``step`` tables; inside a block they are dealt round the
tables one by one, so with full tables table j of the block gets the ranks j, j+step, j+2·step, … .
The last block has as many tables as are left, and a table one seat short simply stops taking
players. Step 1 is strict top-down grouping (final tables).
"""

from __future__ import annotations

from collections.abc import Sequence


def seat_interval(order: Sequence[int], sizes: Sequence[int], step: int) -> list[list[int]]:
    """Groups in table order; ``order`` lists the seated players best first."""
    groups: list[list[int]] = []
    position = 0
    for block_start in range(0, len(sizes), step):
        block_sizes = sizes[block_start : block_start + step]
        block = [[] for _ in block_sizes]
        remaining = sum(block_sizes)
        table = 0
        while remaining:
            if len(block[table]) < block_sizes[table]:
                block[table].append(order[position])
                position += 1
                remaining -= 1
            table = (table + 1) % len(block_sizes)
        groups.extend(block)
    return groups
