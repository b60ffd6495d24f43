"""Re-seating a table that sat wrong: the players took other seats than the seating's and noticed after some
hands. The referee gives the real seats (who sat East, South, West, North); nothing is voided and nothing lost.

The hands name people: who dealt 親, won, dealt in, declared riichi 立直, was tenpai 聴牌 or answers for a
yakuman 責任払い (pao), and the fouls (logged against players) stay theirs. Every hand in force becomes a new
version under the real seats, those people moved to their real seats and the hand priced again by the scoring
engine in play order (a head bump 頭ハネ, the deposits of a multiple ron and a win's seat wind follow the real
seats); the older versions stay in the history. The table's seats become the real ones, the clock's banks,
flags and turn follow the players (art. 38), and one ruling (art. 44) records who re-seated it, when, why and
the seats before and after (``TableReseat`` keeps them with the versions written, for the audit).

Refused, nothing written: a round checked (``round_locked``, 409), a table whose result is confirmed (reopen it
first: its result is then confirmed again from the re-seated hands), a round not published, and real seats
that are not the table's players each once (``invalid_seats``, ``player_not_at_table``, ``duplicate_player``,
``seats_unchanged``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import HandVersion, Seat, Table, TableReseat
from tournament.services.checks import require_table_unlocked
from tournament.services.clock import clock_reseat
from tournament.services.common import require_published
from tournament.services.discipline import ruling_record
from tournament.services.hands import hand_rewrite, table_overtime_keep, table_running_keep
from tournament.services.locks import lock_table


@transaction.atomic
def table_reseat(*, table: Table, players: list, reason: str = "", user=None) -> TableReseat:
    """Put the table's players in their real seats, ``players`` their ids East first, and write every hand in
    force again under them; one ruling records it."""
    table = lock_table(table.pk)
    require_table_unlocked(table)
    require_published(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError(
            "table_finished", _("the table's result is confirmed; reopen it to re-seat the table"), field="table"
        )
    seats = selectors.table_seats(table)
    order = _real_order(seats, players)
    before = [seat.entry_id for seat in seats]
    game_before = [seat.entry_id for seat in seats if seat.in_game]
    _seats_move(seats, order)
    game_after = [seat.entry_id for seat in selectors.table_game_seats(table)]
    moved = [game_after.index(entry_id) for entry_id in game_before]
    written = _hands_rewritten(table, moved, user=user)
    table_running_keep(table)
    table_overtime_keep(table)
    clock_reseat(table=table, moved=moved)
    ruling = ruling_record(
        event=table.round.event, table=table, decision=_decision(table, seats, order, len(written), reason), user=user
    )
    return TableReseat.objects.create(
        table=table,
        ruling=ruling,
        seats_before=before,
        seats_after=[seats[i].entry_id for i in order],
        moved=moved,
        hand_versions=[[version.hand.number, version.version] for version in written],
    )


def _real_order(seats: list[Seat], players) -> list[int]:
    """The real seats as indexes into ``seats`` (East first), or a refusal naming what is wrong."""
    count = len(seats)
    if not isinstance(players, list | tuple) or len(players) != count:
        raise TaikaiError(
            "invalid_seats",
            # Translators: count is the number of players seated at the table.
            _("give the table's %(count)s players, East first") % {"count": count},
            field="seats",
        )
    where = {seat.entry.player_id: i for i, seat in enumerate(seats)}
    order = []
    for value in players:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TaikaiError("invalid_seats", _("each seat is a player's id"), field="seats")
        if value not in where:
            raise TaikaiError(
                "player_not_at_table",
                _("player %(player)s is not seated at this table") % {"player": value},
                field="seats",
            )
        if where[value] in order:
            raise TaikaiError(
                "duplicate_player",
                _("%(player)s is given two seats") % {"player": seats[where[value]].entry.player},
                field="seats",
            )
        order.append(where[value])
    if order == list(range(count)):
        raise TaikaiError("seats_unchanged", _("these are the seats the table has already"), field="seats")
    return order


def _seats_move(seats: list[Seat], order: list[int]) -> None:
    """Each player to their real seat (their absence goes with them, art. 42): out of the way first, as no two
    seats of a table share a position even for a moment."""
    moving = [(seats[i], position) for position, i in enumerate(order) if seats[i].position != position]
    away = len(seats)
    for seat, _position in moving:
        Seat.objects.filter(pk=seat.pk).update(position=seat.position + away)
    for seat, position in moving:
        Seat.objects.filter(pk=seat.pk).update(position=position)


def _hands_rewritten(table: Table, moved: list[int], *, user) -> list[HandVersion]:
    """Every hand in force written again, in play order, its people moved to their real seats."""
    note = _("re-seated: the players' real seats")
    return [
        hand_rewrite(table=table, number=version.hand.number, data=hand_moved(version, moved), user=user, note=note)
        for version in selectors.table_hands_in_force(table)
    ]


def hand_moved(version: HandVersion, moved: list[int]) -> dict:
    """The hand ``version`` records, as a hand-format request, with each seat moved to ``moved[seat]``."""
    wins = []
    for win in version.wins:
        record = {
            "winner": moved[win["winner"]],
            "discarder": None if win.get("discarder") is None else moved[win["discarder"]],
            "han": win.get("han"),
            "fu": win.get("fu"),
            "yakuman": win.get("yakuman") or 0,
            "yaku": win.get("yaku") or [],
        }
        if win.get("hand") is not None:
            record["hand"] = win["hand"]
        if win.get("responsible") is not None:
            record |= {"responsible": moved[win["responsible"]], "pao_yakuman": win.get("pao_yakuman", "")}
        wins.append(record)
    return {
        "outcome": version.outcome,
        "overtime": version.overtime,
        "dealer_position": moved[version.dealer_position],
        "honba": version.honba,
        "riichi_positions": sorted(moved[p] for p in version.riichi_positions),
        "tenpai_positions": sorted(moved[p] for p in version.tenpai_positions),
        "wins": wins,
    }


def _decision(table: Table, seats: list[Seat], order: list[int], hands: int, reason: str) -> str:
    """The ruling's words: the real seats and the seats the table had, the hands written again, why."""

    def listed(indexes) -> str:
        return ", ".join(f"{seat.wind} {seat.entry.player}" for seat in (seats[i] for i in indexes))

    real = ", ".join(
        f"{wind} {seats[i].entry.player}" for wind, i in zip((seat.wind for seat in seats), order, strict=True)
    )
    decision = _(
        "Table %(table)s of round %(round)s re-seated: the players sat %(real)s (the seating said %(before)s); "
        "%(hands)s hands written again under the real seats."
    ) % {
        "table": table.number,
        "round": table.round.number,
        "real": real,
        "before": listed(range(len(seats))),
        "hands": hands,
    }
    return f"{decision} {reason.strip()}".strip()
