"""The event so far, on integer player indices: who met whom, who sat where, who had byes.

Players are numbered by their position in the request's ``players`` list; every engine module works
on these indices and ``protocol`` maps them back to the ids as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class IndexedHistory:
    """History facts per player index.

    * ``meetings[p]``: {other player: times met}, symmetric.
    * ``seat_counts[p][s]``: times ``p`` sat in seat ``s`` (0 = East 東, 1 = South 南, 2 = West 西,
      3 = North 北).
    * ``last_table[p]``: ``p``'s table number (1-based) in the previous round, or None.
    * ``bye_counts[p]``: earlier rounds in which ``p`` was not seated (bye or absence).
    * ``rounds``: the earlier rounds as tuples of tables of indices, in seat order.
    """

    meetings: tuple[dict[int, int], ...]
    seat_counts: tuple[list[int], ...]
    last_table: tuple[int | None, ...]
    bye_counts: tuple[int, ...]
    rounds: tuple[tuple[tuple[int, ...], ...], ...]

    def met(self, first: int, second: int) -> int:
        return self.meetings[first].get(second, 0)


def index_history(player_count: int, rounds: Sequence[Sequence[Sequence[int]]], seats: int) -> IndexedHistory:
    """Build the per-player facts from earlier rounds given as tables of player indices."""
    meetings: list[dict[int, int]] = [{} for _ in range(player_count)]
    seat_counts = [[0] * seats for _ in range(player_count)]
    played = [0] * player_count
    last_table: list[int | None] = [None] * player_count
    for round_index, tables in enumerate(rounds):
        is_last = round_index == len(rounds) - 1
        for table_number, table in enumerate(tables, start=1):
            for seat, player in enumerate(table):
                seat_counts[player][seat] += 1
                played[player] += 1
                if is_last:
                    last_table[player] = table_number
                met = meetings[player]
                for other in table:
                    if other != player:
                        met[other] = met.get(other, 0) + 1
    byes = tuple(len(rounds) - count for count in played)
    return IndexedHistory(
        meetings=tuple(meetings),
        seat_counts=tuple(seat_counts),
        last_table=tuple(last_table),
        bye_counts=byes,
        rounds=tuple(tuple(tuple(table) for table in tables) for tables in rounds),
    )
