"""Known no-repeat schedules: parallel classes of lines of affine geometries AG(k, q), and 32 × 10.

The points of AG(k, q) are the vectors of GF(q)^k; a line is ``{x + t·d : t in GF(q)}``. Lines with
one direction ``d`` partition the points (a parallel class = one round of ``q^(k-1)`` tables of
``q``), and two points lie on exactly one line, so no pair meets twice over all
``(q^k - 1) / (q - 1)`` classes. With q = 4: 16 players × 5 rounds (the affine plane AG(2, 4)),
64 × 21, 256 × 85; with q = 3 (three-player tables): 9 × 4, 27 × 13, 81 × 40.

A point is numbered by its coordinates read as base-q digits.

32 players at tables of four have no affine geometry; ``doubled_spread_schedule`` builds 10 rounds
without a repeat from two spreads of GF(2)^4 (a resolvable group-divisible design: each player meets
30 of the other 31).
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
    if (player_count, table_size) == (DOUBLED_PLAYERS, 4):
        return doubled_spread_schedule()
    dimension = affine_dimension(player_count, table_size)
    if dimension is None:
        return None
    return affine_parallel_classes(table_size, dimension)


# 32 players, 10 rounds: a resolvable group-divisible design (the social golfer schedule 8-4-10)

# Two spreads of GF(2)^4 (the numbers 0-15 added by XOR) without a common subspace; each subspace is
# {0, a, b, a ^ b}, given by (a, b).
DOUBLED_SPREADS = (
    ((3, 4), (2, 13), (6, 10), (1, 8), (5, 11)),
    ((2, 4), (3, 8), (7, 9), (5, 10), (1, 12)),
)
DOUBLED_DIMENSION = 4
DOUBLED_PLAYERS = 2 << DOUBLED_DIMENSION


def _subspace(generators: tuple[int, int]) -> frozenset[int]:
    a, b = generators
    return frozenset((0, a, b, a ^ b))


def _solve_gf2(rows: list[int], unknowns: int) -> list[int]:
    """A solution of the linear system over GF(2) whose row ``r`` has bit ``u`` for unknown ``u`` and
    bit ``unknowns`` for its right-hand side; free unknowns are set to 0."""
    pivots: list[tuple[int, int]] = []  # (pivot unknown, row)
    for row in rows:
        for unknown, pivot_row in pivots:
            if row >> unknown & 1:
                row ^= pivot_row
        low = row & ((1 << unknowns) - 1)
        if not low:
            if row:
                raise ValueError("the system has no solution")
            continue
        unknown = low.bit_length() - 1
        pivots = [(u, r ^ row if r >> unknown & 1 else r) for u, r in pivots]
        pivots.append((unknown, row))
    values = [0] * unknowns
    for unknown, row in pivots:
        values[unknown] = row >> unknowns & 1
    return values


@cache
def doubled_spread_schedule() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """32 players (``2x + e``, x in GF(2)^4, e in {0, 1}) over 10 rounds of 8 tables of 4, no pair twice.

    Each of the ten subspaces L of the two spreads gives a round: for every coset C of L and every
    e, the table {2y + (f_L(y) XOR e) : y in C}. Two vectors x ≠ y differ by a vector of exactly one
    subspace of each spread (L1, L2); the four pairs between {2x, 2x+1} and {2y, 2y+1} meet once each
    exactly when f_L1(x) + f_L1(y) + f_L2(x) + f_L2(y) = 1 (mod 2). The 120 equations in the 160
    unknowns f_L(y) are solved by elimination. Players 2x and 2x+1 never meet.
    """
    subspaces = [_subspace(generators) for spread in DOUBLED_SPREADS for generators in spread]
    vectors = 1 << DOUBLED_DIMENSION
    unknowns = len(subspaces) * vectors

    def holding(spread: int, difference: int) -> int:
        first = spread * len(DOUBLED_SPREADS[0])
        return next(
            index for index in range(first, first + len(DOUBLED_SPREADS[spread])) if difference in subspaces[index]
        )

    rows = []
    for x in range(vectors):
        for y in range(x + 1, vectors):
            row = 1 << unknowns
            for spread in range(len(DOUBLED_SPREADS)):
                subspace = holding(spread, x ^ y)
                row ^= 1 << (subspace * vectors + x)
                row ^= 1 << (subspace * vectors + y)
            rows.append(row)
    values = _solve_gf2(rows, unknowns)

    rounds = []
    for index, subspace in enumerate(subspaces):
        flip = values[index * vectors : (index + 1) * vectors]
        tables = []
        seen: set[int] = set()
        for start in range(vectors):
            if start in seen:
                continue
            coset = sorted(start ^ vector for vector in subspace)
            seen.update(coset)
            for e in (0, 1):
                tables.append(tuple(2 * y + (flip[y] ^ e) for y in coset))
        rounds.append(tuple(tables))
    return tuple(rounds)
