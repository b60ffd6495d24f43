"""Known no-repeat schedules: parallel classes of lines of affine geometries AG(k, q).

The points of AG(k, q) are the vectors of GF(q)^k; a line is ``{x + t·d : t in GF(q)}``. Lines with
one direction ``d`` partition the points (a parallel class = one round of ``q^(k-1)`` tables of
``q``), and two points lie on exactly one line, so no pair meets twice over all
``(q^k - 1) / (q - 1)`` classes. With q = 4: 16 players × 5 rounds (the affine plane AG(2, 4)),
64 × 21, 256 × 85; with q = 3 (three-player tables): 9 × 4, 27 × 13, 81 × 40.

A point is numbered by its coordinates read as base-q digits.
"""

from __future__ import annotations

from functools import cache

# GF(4) = {0, 1, ω, ω²} coded 0, 1, 2, 3: addition is XOR, multiplication by table (ω² = ω + 1).
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)

MAX_DIMENSION = 6


def _field(order: int):
    if order == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    if order in (2, 3, 5, 7):
        return (lambda a, b: (a + b) % order), (lambda a, b: (a * b) % order)
    raise ValueError(f"no field of order {order} here")


def affine_dimension(player_count: int, order: int) -> int | None:
    """k with order**k == player_count (k >= 2), or None."""
    dimension, size = 1, order
    while size < player_count and dimension < MAX_DIMENSION:
        dimension += 1
        size *= order
    return dimension if size == player_count and dimension >= 2 else None


@cache
def affine_parallel_classes(order: int, dimension: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """All parallel classes of AG(dimension, order), each a tuple of lines of point numbers."""
    add, mul = _field(order)
    points = [_digits(number, order, dimension) for number in range(order**dimension)]
    directions = [vector for vector in points if _is_normalised(vector)]
    classes = []
    for direction in directions:
        seen: set[int] = set()
        lines = []
        for start in points:
            number = _number(start, order)
            if number in seen:
                continue
            line = tuple(
                _number(tuple(add(x, mul(t, d)) for x, d in zip(start, direction, strict=True)), order)
                for t in range(order)
            )
            seen.update(line)
            lines.append(line)
        classes.append(tuple(lines))
    return tuple(classes)


def _digits(number: int, base: int, length: int) -> tuple[int, ...]:
    digits = []
    for _ in range(length):
        number, digit = divmod(number, base)
        digits.append(digit)
    return tuple(digits)


def _number(digits: tuple[int, ...], base: int) -> int:
    value = 0
    for digit in reversed(digits):
        value = value * base + digit
    return value


def _is_normalised(vector: tuple[int, ...]) -> bool:
    """A direction is counted once: its first non-zero coordinate is 1."""
    for coordinate in vector:
        if coordinate:
            return coordinate == 1
    return False


def known_schedule(player_count: int, table_size: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """The longest no-repeat schedule known here for ``player_count`` players, or None."""
    dimension = affine_dimension(player_count, table_size)
    if dimension is None:
        return None
    return affine_parallel_classes(table_size, dimension)
