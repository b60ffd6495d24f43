"""Recording a hand 局: a new hand, or a correction as a new version of one, checked against the table,
the rights seed 004 takes away, and the scoring service.

A hand is numbered from 1 in play order; its seats are the game's (art. 42: a player absent before the
game is not one), numbered 0.. from the game's East. A player who left during the game makes it a three-
or two-player game for the hands after: they are priced among the seats still playing, and the labels
(East 1, 2 honba; 1年春 in overtime), worked out from the dealer sequence, number the deal among them.

Overtime outside the finals (art. 39 ②): the engine decides after each overtime hand whether it goes on
(``tournament.engine.overtime.overtime_progress``); an overtime hand after it ended is refused, and the
table keeps the state (``Table.overtime_state``) the referee's screen shows. In the final the decision
is art. 40's, taken after each confirmed game (:mod:`tournament.services.finals`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import SimpleNamespace

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.announce import announce
from scoring.services import hand_settle
from taikai.errors import TaikaiError, VersionConflict
from tournament import selectors
from tournament.engine.dealer import prevailing_wind
from tournament.engine.game_end import game_ended_early, game_over_message
from tournament.engine.overtime import overtime_hand_at, regular_hand_label
from tournament.engine.penalties import check_win_allowed
from tournament.models import HandVersion, Ruling, Table
from tournament.options import game_end_rules
from tournament.services.checks import require_table_unlocked, round_results_hidden
from tournament.services.clock import clock_stop
from tournament.services.common import authorship, recorder, require_published, token_of
from tournament.services.hand_input import HandInput, parse_hand_input, recorded_hand
from tournament.services.locks import lock_hand, lock_table

OVERTIME_ENDED = {
    "won_with_condition": gettext_lazy(
        # Translators: hand names the last overtime hand played ("1年春 (Y1 Spring)").
        "the overtime ended after %(hand)s: a winner met the win condition (art. 39 ②); no overtime hand follows it"
    ),
    "no_winner": gettext_lazy(
        # Translators: hand names the last overtime hand played ("1年春 (Y1 Spring)").
        "the overtime ended after %(hand)s: a hand ended without a winner (art. 39 ②); no overtime hand follows it"
    ),
    "closed_by_organizer": gettext_lazy(
        # Translators: hand names the last overtime hand played ("1年春 (Y1 Spring)").
        "the overtime ended after %(hand)s: the directors closed it (art. 44) (art. 39 ②); no overtime hand follows it"
    ),
}


@transaction.atomic
def hand_record(
    *, table: Table, number: int, expected_version: int, data: dict, user=None, note: str = ""
) -> HandVersion:
    """Record hand ``number`` of ``table`` (a new hand with ``expected_version`` 0, or a correction of
    the version the referee saw). Raises ``VersionConflict`` when someone saved first."""
    table = lock_table(table.pk)
    require_table_unlocked(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError(
            "table_finished", _("the table's result is confirmed; reopen it to correct hands"), field="table"
        )
    if number < 1:
        raise TaikaiError("invalid_number", _("hands are numbered from 1"), field="number")
    require_published(table)
    hand = lock_hand(table, number)
    if hand.current_version != expected_version:
        raise VersionConflict(current_version=hand.current_version, expected_version=expected_version)
    game = selectors.table_game_so_far(table, number)
    if hand.current_version == 0 and not game.after_recorded_hand:
        raise TaikaiError(
            "hand_out_of_order",
            _("hand %(hand)s has not been recorded yet") % {"hand": number - 1},
            field="number",
        )

    event = table.round.event
    overtime = bool(data.get("overtime"))

    def allowed(hand_input: HandInput) -> None:
        _check_rights(game, hand_input)
        if overtime and not event.overtime_enabled:
            raise TaikaiError("overtime_disabled", _("this event has no overtime (art. 39)"), field="overtime")
        _check_overtime_order(game, overtime, new=hand.current_version == 0)

    priced = _hand_priced(game, data, check=allowed)
    _check_game_not_over(game, priced.deltas)
    version = _version_write(hand, priced, overtime=overtime, user=user, note=note)
    hands = _hands_with(game.hands, version, number)
    table_running_keep(table, hands=hands)
    _update_overtime(table, game.seats, hands, overtime)
    clock_stop(table=table, hand_number=number)  # the hand is over: its clock stops (art. 38)
    _announce_hand(table, number, version)
    return version


def hand_rewrite(*, table: Table, number: int, data: dict, user=None, note: str = "") -> HandVersion:
    """Hand ``number``, in force, written again as ``data`` says: a new version, checked and priced against the
    hands before it only. For a writer that rewrites a game's hands in play order under the table's lock (a
    re-seat: the hands after it are rewritten next); it keeps neither the running score nor the overtime state,
    which that writer keeps once every hand is written (``table_running_keep``, ``table_overtime_keep``)."""
    hand = lock_hand(table, number)
    game = selectors.table_game_so_far(table, number)
    game = replace(game, hands=tuple(h for h in game.hands if h.number < number))
    overtime = bool(data.get("overtime"))

    def allowed(hand_input: HandInput) -> None:
        _check_rights(game, hand_input)
        _check_overtime_order(game, overtime, new=False)

    priced = _hand_priced(game, data, check=allowed)
    _check_game_not_over(game, priced.deltas)
    version = _version_write(hand, priced, overtime=overtime, user=user, note=note)
    _announce_hand(table, number, version)
    return version


def table_overtime_keep(table: Table) -> None:
    """The table's overtime year and state as its hands in force say (after a rewrite of every hand)."""
    hands = selectors.table_hands_in_force(table)
    for h in hands:
        h.number = h.hand.number
    _update_overtime(table, selectors.table_game_seats(table), hands, any(h.overtime for h in hands))


def _version_write(hand, priced: PricedHand, *, overtime: bool, user, note: str) -> HandVersion:
    """The hand's next version as ``priced``, made current (the hand's row is locked; a new hand's is written
    here, with its first version's number)."""
    hand_input = priced.hand_input
    if hand.current_version:  # a correction: the version it replaces is current no more (a new hand has none)
        HandVersion.objects.filter(hand=hand, is_current=True).update(is_current=False)
    hand.current_version += 1
    hand.save(update_fields=["current_version"] if hand.pk else None)
    return HandVersion.objects.create(
        hand=hand,
        version=hand.current_version,
        label=priced.label,
        overtime=overtime,
        dealer_position=hand_input.dealer_position,
        honba=hand_input.honba,
        deposits_in=hand_input.deposits_in,
        riichi_positions=list(hand_input.riichi_positions),
        outcome=hand_input.outcome,
        wins=[_win_record(w) for w in hand_input.wins],
        tenpai_positions=list(hand_input.tenpai_positions),
        deltas=priced.deltas,
        deposits_out=priced.deposits_out,
        **authorship(user),
        note=note,
    )


@dataclass(frozen=True)
class PricedHand:
    """A hand as it would be recorded: checked, named and settled, not written."""

    hand_input: HandInput
    label: str  # as stored: East 1, 1 honba; 1年春 (Y1 Spring)
    deltas: list[int]  # per seat of the game (0 for a seat that left)
    deposits_out: int


def _hand_priced(
    game: selectors.GameSoFar, data: dict, *, check: Callable[[HandInput], None] | None = None
) -> PricedHand:
    """Check and price hand ``game.number`` as ``data`` records it, on the hands in force before it (the
    ``game`` so far); ``check`` refuses what the table's state forbids, once the hand is read."""
    ruleset = game.ruleset
    active = game.playing
    deposits_before = game.deposits_before
    data = dict(data)
    data.setdefault("deposits_in", deposits_before)
    hand_input = parse_hand_input(data, players=len(game.seats), ruleset=ruleset, active=active)
    if check is not None:
        check(hand_input)
    if hand_input.deposits_in != deposits_before:
        raise TaikaiError(
            "deposits_mismatch",
            _("%(points)s points of riichi deposits were left on the table by the previous hand")
            % {"points": deposits_before},
            field="deposits_in",
        )
    settlement = hand_settle(recorded_hand(hand_input, active=active), ruleset)
    deltas = [0] * len(game.seats)
    for seat_index, position in enumerate(active):
        deltas[position] = settlement.deltas[seat_index]
    label = _hand_label(game, hand_input, overtime=bool(data.get("overtime")))
    return PricedHand(hand_input, label, deltas, settlement.deposits_out)


def hand_price(*, table: Table, number: int, data: dict) -> PricedHand:
    """Hand ``number`` as ``data`` would record it now, written nowhere: what a referee whose save was
    refused (another device recorded the hand first) sees beside the version recorded."""
    return _hand_priced(selectors.table_game_so_far(table, number), data)


@transaction.atomic
def hand_void(*, table: Table, number: int, expected_version: int, user=None, note: str = "") -> HandVersion:
    """Void hand ``number`` as entered by mistake: a new version that takes it out of the game (no points
    move). Only the last hand of the game can be voided; the next hand recorded takes its number."""
    table = lock_table(table.pk)
    require_table_unlocked(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError(
            "table_finished", _("the table's result is confirmed; reopen it to correct hands"), field="table"
        )
    hand = lock_hand(table, number)
    if hand.current_version != expected_version:
        raise VersionConflict(current_version=hand.current_version, expected_version=expected_version)
    game = selectors.table_game_so_far(table, number, fouls=False)
    recorded = next((h for h in game.hands if h.number == number), None)  # its version in force
    if recorded is None:
        raise TaikaiError("hand_not_recorded", _("hand %(hand)s is not recorded") % {"hand": number}, field="number")
    if len(game.hands) != number:
        raise TaikaiError(
            "hand_not_last",
            _("only the last hand can be voided; void the hands after %(hand)s first") % {"hand": number},
            field="number",
        )
    HandVersion.objects.filter(hand=hand, is_current=True).update(is_current=False)
    version = HandVersion.objects.create(
        hand=hand,
        version=hand.current_version + 1,
        label=recorded.label,
        overtime=recorded.overtime,
        dealer_position=recorded.dealer_position,
        honba=recorded.honba,
        deposits_in=recorded.deposits_in,
        outcome=HandVersion.Outcome.VOID,
        deltas=[0] * len(recorded.deltas),
        deposits_out=recorded.deposits_in,
        note=note or _("voided: entered by mistake"),
        **authorship(user),
    )
    hand.current_version = version.version
    hand.save(update_fields=["current_version"])
    hands = _hands_with(game.hands, version, number)
    table_running_keep(table, hands=hands)
    _update_overtime(table, game.seats, hands, recorded.overtime)
    _announce_hand(table, number, version)
    return version


def _announce_hand(table: Table, number: int, version: HandVersion) -> None:
    announce(
        "hand",
        table.round.event_id,
        table=table.pk,
        table_number=table.number,
        number=number,
        version=version.version,
        label=version.label,
        being_checked=round_results_hidden(table.round),
    )


def _hands_with(hands, version: HandVersion, number: int) -> list[HandVersion]:
    """The hands in force once ``version`` is hand ``number``'s (a void takes the hand out), in play order."""
    version.number = number
    kept = [h for h in hands if h.number != number]
    if version.outcome != HandVersion.Outcome.VOID:
        kept.append(version)
    return sorted(kept, key=lambda h: h.number)


def table_running_keep(table: Table, *, hands: list[HandVersion] | None = None) -> None:
    """Keep the table's running score in step with its hands in force (called inside every hand write,
    under the table's lock): pages show a game in progress from this one row, not from every hand. A hand
    write passes the ``hands`` in force it has just made; without them they are read."""
    start = table.round.event.ruleset.start_points
    points: list[int] = []
    rows = [h.deltas for h in hands] if hands is not None else list(selectors.table_hand_deltas_in_force(table))
    for deltas in rows:
        points = [p + d for p, d in zip(points or [start] * len(deltas), deltas, strict=False)]
    Table.objects.filter(pk=table.pk).update(
        running_points=points, running_hands=len(rows), running_version=F("running_version") + 1
    )


def _win_record(win) -> dict:
    record = {
        "winner": win.winner,
        "discarder": win.discarder,
        "han": win.han,
        "fu": win.fu,
        "yakuman": win.yakuman,
        "yaku": [list(y) for y in win.yaku],
        "hand": win.hand,
    }
    if win.responsible is not None:  # 責任払い (pao): kept only with a win that names it
        record |= {"responsible": win.responsible, "pao_yakuman": win.pao_yakuman}
    return record


def _check_game_not_over(game: selectors.GameSoFar, deltas: list[int]) -> None:
    """Refuse a hand the game's end before its regular end leaves no room for (under the ruleset's
    ``chombo_ends_game`` or ``busting``): a hand after it, or a correction that ends the game before hands in
    force after it."""
    rules = game_end_rules(game.table.round.event)
    if not (rules.chombo_ends_game or rules.busting):
        return
    hands = [h for h in game.hands if h.number != game.number]
    hands.append(SimpleNamespace(number=game.number, deltas=deltas))
    hands.sort(key=lambda h: h.number)
    points = selectors.points_after_hands(list(game.seats), hands, game.ruleset.start_points)
    end = game_ended_early(rules, points_after=points, chombo_hands=game.chombo_hands)
    if end is None or hands[-1].number <= end.last_hand:
        return
    message = game_over_message(end)
    if game.number <= end.last_hand:
        # Translators: message says where and why the game ended; hand is the last hand of the game.
        message = _("%(message)s: void the hands after hand %(hand)s first") % {
            "message": message,
            "hand": end.last_hand,
        }
    raise TaikaiError("game_over", message, field="number")


def _check_rights(game: selectors.GameSoFar, hand_input: HandInput) -> None:
    """Refuse a win by a player whose foul took that right away for this hand (arts. 35, 36 ①②,
    38 ⑤), and anything but a replay for a hand whose wall was wrecked (art. 36 ③)."""
    if game.wall_wrecked and hand_input.outcome != "replayed":
        raise TaikaiError(
            "hand_must_be_replayed",
            _("art. 36 ③: this hand was stopped; record it as replayed"),
            field="outcome",
        )
    if (
        game.number in game.chombo_hands
        and hand_input.outcome != "replayed"
        and not game_end_rules(game.table.round.event).chombo_ends_game  # then the game ended: refused after
    ):
        raise TaikaiError(
            "hand_must_be_replayed",
            _("a chombo 錯和 was called in this hand: it is played again from the shuffle; record it as replayed"),
            field="outcome",
        )
    if not hand_input.wins:
        return
    # the fouls of this hand, and a wall wrecking before a replay (art. 36 ③: none in the replay)
    fouls = game.rights_fouls
    for win in hand_input.wins:
        seat = game.seats[win.winner]
        kinds = fouls.get(seat.entry_id, [])
        try:
            check_win_allowed(kinds, "tsumo" if win.discarder is None else "ron")
        except TaikaiError as exc:
            raise exc.at("wins", about=str(seat.entry.player)) from exc


def _hand_label(game: selectors.GameSoFar, hand_input: HandInput, *, overtime: bool = False) -> str:
    """East 1, South 4, 2 honba … for a regular hand; 1年春 (Y1 Spring) … for an overtime hand (art. 39).
    The deal is numbered among the seats playing the hand (``game.playing``): art. 42, after a player left,
    a three-player game has East 1 to 3."""
    if overtime:
        hand = overtime_hand_at(game.overtime_seasons_before)
        return f"{hand.label_ja} ({hand.label_en})"
    active = game.playing
    dealers = [*game.dealers_before, hand_input.dealer_position]
    return regular_hand_label(
        prevailing_wind(dealers),
        active.index(hand_input.dealer_position) + 1,
        hand_input.honba,
        players=len(active),
    )


def _check_overtime_order(game: selectors.GameSoFar, overtime: bool, *, new: bool) -> None:
    """Art. 39: overtime hands come after the regular ones; none is added once the directors closed it."""
    table = game.table
    if not overtime and table.overtime_state == Table.Overtime.NONE:
        return  # no overtime hand at the table, none recorded now
    flags = {v.number: v.overtime for v in game.hands}
    flags[game.number] = overtime
    ordered = [flags[n] for n in sorted(flags)]
    if any(before and not after for before, after in itertools.pairwise(ordered)):
        raise TaikaiError(
            "overtime_order", _("overtime hands (art. 39) come after every regular hand"), field="overtime"
        )
    if overtime and new and table.overtime_state == Table.Overtime.CLOSED:
        raise TaikaiError("overtime_over", _("the directors closed this table's overtime (art. 44)"), field="overtime")


def _update_overtime(table: Table, seats, hands: list[HandVersion], overtime: bool) -> None:
    """Art. 39: the game's overtime year is that of its last overtime hand (placement points × year);
    outside the finals the engine decides whether the overtime goes on, and a hand recorded after it
    ended is refused (the whole recording is undone). ``seats`` and ``hands`` are the game's with the hand
    just written."""
    if not overtime and table.overtime_state == Table.Overtime.NONE:
        return
    seasons = selectors.overtime_seasons_in(hands)
    year = overtime_hand_at(seasons - 1).year if seasons else 0
    if table.round.is_final:
        state = Table.Overtime.FINAL if seasons else Table.Overtime.NONE
    else:
        progress = selectors.game_overtime_progress(table, seats, hands)
        if progress.hands_after_end:
            ended = f"{progress.last_hand.label_ja} ({progress.last_hand.label_en})"
            raise TaikaiError("overtime_over", OVERTIME_ENDED[progress.state] % {"hand": ended}, field="overtime")
        state = progress.state
    if (table.overtime_year, table.overtime_state) != (year, state):
        table.overtime_year, table.overtime_state = year, state
        table.save(update_fields=["overtime_year", "overtime_state"])


@transaction.atomic
def table_overtime_close(*, table: Table, reason: str, user=None) -> Table:
    """Art. 44: the directors close an overtime still going (a ruling records it); the game ends with
    the placement points of the year it reached (art. 39 ③)."""
    table = lock_table(table.pk)
    require_table_unlocked(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed"), field="table")
    if table.round.is_final:
        raise TaikaiError(
            "final_overtime", _("the final's overtime is decided by art. 40 after each hand"), field="table"
        )
    progress = selectors.table_overtime_progress(table, closed=False)
    if progress.state != Table.Overtime.PLAYING or progress.last_hand is None:
        raise TaikaiError("overtime_not_playing", _("this table has no overtime going on to close"), field="table")
    if not reason.strip():
        raise TaikaiError("reason_required", _("say why the overtime is closed"), field="reason")
    table.overtime_state = Table.Overtime.CLOSED
    table.save(update_fields=["overtime_state"])
    ended = f"{progress.last_hand.label_ja} ({progress.last_hand.label_en})"
    # Translators: the ruling recorded; hand names the last overtime hand ("1年春 (Y1 Spring)").
    decision = _("Overtime closed after %(hand)s (art. 39, art. 44): %(reason)s") % {
        "hand": ended,
        "reason": reason.strip(),
    }
    Ruling.objects.create(
        event=table.round.event,
        table=table,
        decided_by=recorder(user),
        decided_by_token=token_of(user),
        decision=decision,
    )
    return table
