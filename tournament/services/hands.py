"""Recording a hand 局: a new hand, or a correction as a new version of one, checked against the table,
the rights seed 004 takes away, and the scoring service.

A hand is numbered from 1 in play order; its seats are the game's (art. 42: a player absent before the
game is not one), numbered 0.. from the game's East. Labels (East 1, 2 honba; 1年春 in overtime) are
worked out from the dealer sequence when the hand is recorded.
"""

from __future__ import annotations

import itertools

from django.db import transaction

from scoring.services import hand_settle
from taikai.errors import TaikaiError, VersionConflict
from tournament import selectors
from tournament.engine.overtime import overtime_hand_at, regular_hand_label
from tournament.engine.penalties import PenaltyKind, check_win_allowed
from tournament.models import HandVersion, Round, Seat, Table
from tournament.services.common import authorship
from tournament.services.hand_input import HandInput, parse_hand_input, recorded_hand
from tournament.services.locks import lock_hand, lock_table


@transaction.atomic
def hand_record(
    *, table: Table, number: int, expected_version: int, data: dict, user=None, note: str = ""
) -> HandVersion:
    """Record hand ``number`` of ``table`` (a new hand with ``expected_version`` 0, or a correction of
    the version the referee saw). Raises ``VersionConflict`` when someone saved first."""
    table = lock_table(table.pk)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError(
            "table_finished", "the table's result is confirmed; reopen it to correct hands", field="table"
        )
    if number < 1:
        raise TaikaiError("invalid_number", "hands are numbered from 1", field="number")
    if table.round.status == Round.Status.DRAFT:
        raise TaikaiError(
            "round_not_published", "publish the round's seating before recording hands", field="table"
        )
    hand = lock_hand(table, number)
    if hand.current_version != expected_version:
        raise VersionConflict(current_version=hand.current_version, expected_version=expected_version)
    if hand.current_version == 0 and number > 1 and not selectors.table_hand_is_recorded(table, number - 1):
        raise TaikaiError("hand_out_of_order", f"hand {number - 1} has not been recorded yet", field="number")

    event = table.round.event
    game_seats = selectors.table_game_seats(table)
    active = [i for i, seat in enumerate(game_seats) if seat.plays_hand(number)]
    deposits_before = selectors.table_deposits_before(table, number)
    data = dict(data)
    data.setdefault("deposits_in", deposits_before)
    hand_input = parse_hand_input(data, players=len(game_seats), ruleset=event.ruleset, active=active)
    hand_check_rights(table=table, hand_number=number, game_seats=game_seats, hand_input=hand_input)
    overtime = bool(data.get("overtime"))
    if overtime and not event.overtime_enabled:
        raise TaikaiError("overtime_disabled", "this event has no overtime (art. 39)", field="overtime")
    if hand_input.deposits_in != deposits_before:
        raise TaikaiError(
            "deposits_mismatch",
            f"{deposits_before} points of riichi deposits were left on the table by the previous hand",
            field="deposits_in",
        )
    settlement = hand_settle(recorded_hand(hand_input, active=active), event.ruleset)
    deltas = [0] * len(game_seats)
    for seat_index, position in enumerate(active):
        deltas[position] = settlement.deltas[seat_index]
    HandVersion.objects.filter(hand=hand, is_current=True).update(is_current=False)
    version = HandVersion.objects.create(
        hand=hand,
        version=hand.current_version + 1,
        label=hand_label(table, number, hand_input, players=len(game_seats), overtime=overtime),
        overtime=overtime,
        dealer_position=hand_input.dealer_position,
        honba=hand_input.honba,
        deposits_in=hand_input.deposits_in,
        riichi_positions=list(hand_input.riichi_positions),
        outcome=hand_input.outcome,
        wins=[_win_record(w) for w in hand_input.wins],
        tenpai_positions=list(hand_input.tenpai_positions),
        deltas=deltas,
        deposits_out=settlement.deposits_out,
        **authorship(user),
        note=note,
    )
    hand.current_version = version.version
    hand.save(update_fields=["current_version"])
    _update_overtime_year(table)
    return version


@transaction.atomic
def hand_void(*, table: Table, number: int, expected_version: int, user=None, note: str = "") -> HandVersion:
    """Void hand ``number`` as entered by mistake: a new version that takes it out of the game (no points
    move). Only the last hand of the game can be voided; the next hand recorded takes its number."""
    table = lock_table(table.pk)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError(
            "table_finished", "the table's result is confirmed; reopen it to correct hands", field="table"
        )
    hand = lock_hand(table, number)
    if hand.current_version != expected_version:
        raise VersionConflict(current_version=hand.current_version, expected_version=expected_version)
    current = selectors.table_hand_version(table, number)
    if current is None or current.outcome == HandVersion.Outcome.VOID:
        raise TaikaiError("hand_not_recorded", f"hand {number} is not recorded", field="number")
    if selectors.table_hands_recorded(table) != number:
        raise TaikaiError("hand_not_last", f"only the last hand can be voided; void the hands after {number} first",
                          field="number")  # fmt: skip
    HandVersion.objects.filter(hand=hand, is_current=True).update(is_current=False)
    version = HandVersion.objects.create(
        hand=hand, version=hand.current_version + 1, label=current.label, overtime=current.overtime,
        dealer_position=current.dealer_position, honba=current.honba, deposits_in=current.deposits_in,
        outcome=HandVersion.Outcome.VOID, deltas=[0] * len(current.deltas), deposits_out=current.deposits_in,
        note=note or "voided: entered by mistake", **authorship(user),
    )  # fmt: skip
    hand.current_version = version.version
    hand.save(update_fields=["current_version"])
    _update_overtime_year(table)
    return version


def _win_record(win) -> dict:
    return {"winner": win.winner, "discarder": win.discarder, "han": win.han, "fu": win.fu,
            "yakuman": win.yakuman, "yaku": [list(y) for y in win.yaku], "hand": win.hand}  # fmt: skip


def hand_check_rights(
    *, table: Table, hand_number: int, game_seats: list[Seat], hand_input: HandInput
) -> None:
    """Refuse a win by a player whose foul took that right away for this hand (arts. 35, 36 ①②,
    38 ⑤), and anything but a replay for a hand whose wall was wrecked (art. 36 ③)."""
    kinds_in_hand = selectors.table_penalty_kinds(table, hand_number=hand_number)
    if PenaltyKind.WALL_WRECKED in kinds_in_hand and hand_input.outcome != "replayed":
        raise TaikaiError(
            "hand_must_be_replayed",
            "art. 36 ③: this hand was stopped; record it as replayed",
            field="outcome",
        )
    if not kinds_in_hand:
        return
    for win in hand_input.wins:
        seat = game_seats[win.winner]
        kinds = selectors.table_penalty_kinds(table, hand_number=hand_number, entry_id=seat.entry_id)
        try:
            check_win_allowed(kinds, "tsumo" if win.discarder is None else "ron")
        except TaikaiError as exc:
            raise exc.at("wins", prefix=f"{seat.entry.player}: ") from exc


def prevailing_wind(dealer_positions: list[int]) -> int:
    """0 = East round 東場, 1 = South 南場, …: it advances each time the deal passes back to seat 0."""
    wind = 0
    for before, after in itertools.pairwise(dealer_positions):
        if after < before:
            wind += 1
    return min(wind, 3)


def hand_label(
    table: Table, number: int, hand_input: HandInput, *, players: int, overtime: bool = False
) -> str:
    """East 1, South 4, 2 honba … for a regular hand; 1年春 (Y1 Spring) … for an overtime hand (art. 39)."""
    if overtime:
        hand = overtime_hand_at(selectors.overtime_seasons_played(table, before_number=number))
        return f"{hand.label_ja} ({hand.label_en})"
    dealers = [*selectors.table_dealers_before(table, number), hand_input.dealer_position]
    return regular_hand_label(
        prevailing_wind(dealers), hand_input.dealer_position + 1, hand_input.honba, players=players
    )


def _update_overtime_year(table: Table) -> None:
    """Art. 39: the game's overtime year is that of its last overtime hand (placement points × year)."""
    seasons = selectors.overtime_seasons_played(table)
    year = overtime_hand_at(seasons - 1).year if seasons else 0
    if table.overtime_year != year:
        table.overtime_year = year
        table.save(update_fields=["overtime_year"])
