"""How many tables, which of them one seat short, who sits out, and which table number each group gets.

* ``plan_tables``: with ``remainder="three"`` the fewest tables one seat short so that everybody
  plays (17 → 4+4+3+3+3); with ``"bye"`` only full tables and ``n mod table_size`` byes. When short
  tables cannot absorb the remainder (5 players at tables of 4; three-player events, whose short table
  would be a two-player game) byes are used instead.
* ``choose_byes``: the players with the fewest byes so far sit out (a round in which an active player
  was not seated counts as a bye: bye and absence are treated alike); ties go to the caller's order.
* ``number_tables``: table numbers follow the groups' order (table 1 = the first group), except that
  nobody gets the table number they had last round (WRC rule against tile memorisation): a group
  takes the smallest free number none of its players had; that keeps the order nearly intact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taikai.i18n import ngettext

from ..errors import InvariantViolation, TournamentError


@dataclass(frozen=True)
class TablePlan:
    """Table sizes in table order (full tables first) and the number of players sitting out."""

    sizes: tuple[int, ...]
    byes: int

    @property
    def seated(self) -> int:
        return sum(self.sizes)


def plan_tables(active_count: int, table_size: int, remainder: str) -> TablePlan:
    """Split ``active_count`` players into tables of ``table_size`` (see the module docstring)."""
    short = 0
    if remainder == "three" and table_size == 4:
        short = (table_size - active_count % table_size) % table_size
        if short * (table_size - 1) > active_count:
            short = 0  # not enough players for that many short tables: byes instead
    if short:
        full = (active_count - short * (table_size - 1)) // table_size
        return TablePlan(sizes=(table_size,) * full + (table_size - 1,) * short, byes=0)
    full = active_count // table_size
    if full == 0:
        raise TournamentError(
            "too_few_players",
            ngettext(
                "%(count)s active player cannot fill a table of %(size)s",
                "%(count)s active players cannot fill a table of %(size)s",
                active_count,
            )
            % {"count": active_count, "size": table_size},
            field="absent",
        )
    return TablePlan(sizes=(table_size,) * full, byes=active_count - full * table_size)


def choose_byes(ordered_players: Sequence[int], bye_counts: Sequence[int], byes: int) -> list[int]:
    """Pick ``byes`` players to sit out: fewest byes so far first; among equals, the last in order.

    ``ordered_players`` lists candidates best first (standings order for Swiss, a seeded shuffle for
    random seating), so with equal bye counts the lowest-ranked player sits out.
    """
    if byes <= 0:
        return []
    position = {player: index for index, player in enumerate(ordered_players)}
    ranked = sorted(ordered_players, key=lambda player: (bye_counts[player], -position[player]))
    return ranked[:byes]


def number_tables(groups: Sequence[Sequence[int]], last_table: Sequence[int | None]) -> list[int]:
    """Return a table number (1-based) for each group; see the module docstring.

    ``last_table[player]`` is the table number the player had in the previous round, or None.
    """
    count = len(groups)
    free = list(range(1, count + 1))
    numbers: list[int] = [0] * count
    for index, group in enumerate(groups):
        forbidden = {last_table[player] for player in group}
        chosen = next((number for number in free[: len(forbidden) + 1] if number not in forbidden), free[0])
        free.remove(chosen)
        numbers[index] = chosen
    _repair_conflicts(groups, last_table, numbers)
    if sorted(numbers) != list(range(1, count + 1)):
        raise InvariantViolation("table numbers are not a permutation")
    return numbers


def _conflicts(group: Sequence[int], number: int, last_table: Sequence[int | None]) -> int:
    return sum(1 for player in group if last_table[player] == number)


def _repair_conflicts(groups: Sequence[Sequence[int]], last_table: Sequence[int | None], numbers: list[int]) -> None:
    """Swap the numbers of a conflicting group with the nearest group that makes both conflict-free."""
    count = len(groups)
    for index in range(count):
        if not _conflicts(groups[index], numbers[index], last_table):
            continue
        for distance in range(1, count):
            swapped = False
            for other in (index - distance, index + distance):
                if not 0 <= other < count:
                    continue
                if _conflicts(groups[index], numbers[other], last_table) == 0 and (
                    _conflicts(groups[other], numbers[index], last_table) == 0
                ):
                    numbers[index], numbers[other] = numbers[other], numbers[index]
                    swapped = True
                    break
            if swapped or distance > 64:
                break
