"""Settle one hand: who pays whom, and what stays on the table.

A hand ends in a ron (栄和, one or more winners on one discard), a tsumo (自摸和), an exhaustive
draw (荒牌流局, with tenpai/noten payments 不聴罰符), an abortive draw (途中流局), a nagashi mangan
(流し満貫, where the ruleset plays it) or a replay (a hand stopped and played again from the shuffle,
art. 36 ③: nothing moves). The prices of the wins come from :func:`.schemes.win_payment` (honba 本場
included); this module moves them between seats, together with the riichi deposits (供託, 立直棒).

Ruleset options read here: several rons all paid or head bump 頭ハネ; abortive draws played or not (a
ruleset without them refuses one); nagashi mangan played or not (each nagashi winner is paid as a
mangan tsumo, the price given by the caller, and the deposits stay on the table as at a draw); pao
責任払い for the yakuman the ruleset names (the responsible player pays a tsumo whole, and half of a
ron with the discarder).

Deposits are counted in points. Every settlement keeps
``sum(deltas) + deposits_out - deposits_in == 0``: points only move between the seats and the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import InvariantViolation, ScoringError
from .schemes import Points, WinPayment, as_points

HAND_KINDS = ("ron", "tsumo", "exhaustive_draw", "abortive_draw", "nagashi_mangan", "replay")
DRAW_KINDS = ("exhaustive_draw", "abortive_draw", "replay")
# 責任払い: the yakuman a ruleset may name for pao (those whose last meld can be fed by another player).
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")
MULTIPLE_RON_RULES = ("all", "head_bump")  # head_bump: 頭ハネ, only the first winner is paid
HONBA_RULES = ("every_winner", "first_winner")  # who of several ron winners gets the honba
GAME_END_DEPOSIT_RULES = ("to_top", "lost")


@dataclass(frozen=True)
class SettleOptions:
    """Table rules for settling a hand."""

    multiple_ron: str = "all"  # double/triple ron (ダブロン/トリロン) each paid, or head_bump 頭ハネ
    honba_to: str = "every_winner"  # on a multiple ron: every winner gets the honba, or only the first
    noten_payment_total: int = 3000  # 不聴罰符: total moved from noten to tenpai players
    riichi_stick: int = 1000  # 立直棒: deposit per riichi declaration
    point_unit: int = 100  # smallest amount one noten payment may be a multiple of
    abortive_draws: bool = True  # 途中流局: played (off: an abortive draw is refused)
    nagashi_mangan: bool = False  # 流し満貫: played as a mangan tsumo for each nagashi winner
    pao_yakuman: tuple[str, ...] = ()  # 責任払い: the yakuman for which the responsible player pays

    def __post_init__(self) -> None:
        for name in ("abortive_draws", "nagashi_mangan"):
            if not isinstance(getattr(self, name), bool):
                raise ScoringError(
                    "invalid_option",
                    # Translators: name is a settlement option (abortive_draws, nagashi_mangan).
                    _("%(name)s must be true or false") % {"name": name},
                    field=name,
                )
        object.__setattr__(self, "pao_yakuman", tuple(self.pao_yakuman))
        for key in self.pao_yakuman:
            if key not in PAO_YAKUMAN:
                raise ScoringError(
                    "invalid_option",
                    _("pao applies to %(keys)s, not to %(key)s") % {"keys": ", ".join(PAO_YAKUMAN), "key": repr(key)},
                    field="pao_yakuman",
                )
        if self.multiple_ron not in MULTIPLE_RON_RULES:
            raise ScoringError(
                "invalid_option", _("unknown multiple_ron rule %(rule)s") % {"rule": repr(self.multiple_ron)}
            )
        if self.honba_to not in HONBA_RULES:
            raise ScoringError("invalid_option", _("unknown honba_to rule %(rule)s") % {"rule": repr(self.honba_to)})
        if self.noten_payment_total < 0 or self.riichi_stick < 0:
            raise ScoringError("invalid_option", _("noten payment and riichi stick must not be negative"))
        if self.point_unit <= 0:
            raise ScoringError("invalid_option", _("point_unit must be greater than 0"))


@dataclass(frozen=True)
class Win:
    winner: int
    discarder: int | None  # None for a tsumo (and a nagashi mangan)
    payment: WinPayment
    responsible: int | None = None  # 責任払い (pao): the seat that fed the yakuman's last meld
    pao_yakuman: str = ""  # the yakuman the responsible seat answers for


@dataclass(frozen=True)
class HandOutcome:
    """How one hand ended. Seats are numbered 0..seats-1 in turn order."""

    seats: int  # m: 2, 3 or 4
    dealer_seat: int | None  # 親; None only for a scheme without a dealer (ω=0)
    kind: str  # one of HAND_KINDS
    deposits_in: int = 0  # points of riichi deposits on the table before the hand (供託)
    riichi_seats: tuple[int, ...] = ()  # seats whose riichi stood this hand; each puts in one stick
    wins: tuple[Win, ...] = ()
    tenpai_seats: tuple[int, ...] = ()  # exhaustive draw only: seats that were tenpai 聴牌


@dataclass(frozen=True)
class Settlement:
    deltas: tuple[Points, ...]  # per seat, deposits included
    deposits_out: int  # points of deposits left on the table after the hand
    winners: tuple[int, ...] = ()  # paid winners, in turn order from the discarder
    deposits_to: int | None = None  # the seat that collected the deposits (None: none collected)


def settle_hand(outcome: HandOutcome, options: SettleOptions | None = None) -> Settlement:
    """Point changes of one hand; raises ``ScoringError`` for an outcome that cannot happen."""
    options = options or SettleOptions()
    _validate(outcome)
    deltas: list[Points] = [0] * outcome.seats
    for seat in outcome.riichi_seats:
        deltas[seat] -= options.riichi_stick
    pool = outcome.deposits_in + options.riichi_stick * len(outcome.riichi_seats)

    winners: tuple[int, ...] = ()
    if outcome.kind == "abortive_draw" and not options.abortive_draws:
        raise ScoringError(
            "abortive_draw_not_played", _("the ruleset plays no abortive draws 途中流局"), field="outcome"
        )
    if outcome.kind == "nagashi_mangan" and not options.nagashi_mangan:
        raise ScoringError(
            "nagashi_mangan_not_played", _("the ruleset plays no nagashi mangan 流し満貫"), field="outcome"
        )
    for win in outcome.wins:
        if win.responsible is not None and win.pao_yakuman not in options.pao_yakuman:
            raise ScoringError(
                "pao_not_played",
                _("the ruleset has no pao 責任払い for %(yakuman)s") % {"yakuman": repr(win.pao_yakuman)},
                field="wins",
            )
    if outcome.kind == "ron":
        winners = _settle_ron(outcome, options, deltas)
    elif outcome.kind == "tsumo":
        winners = _settle_tsumo(outcome, deltas)
    elif outcome.kind == "nagashi_mangan":  # each paid as a mangan tsumo; a draw for the deposits
        for win in outcome.wins:
            _settle_tsumo(HandOutcome(outcome.seats, outcome.dealer_seat, "tsumo", wins=(win,)), deltas)
    elif outcome.kind == "exhaustive_draw":
        for seat, amount in enumerate(
            noten_payments(
                outcome.seats,
                outcome.tenpai_seats,
                total=options.noten_payment_total,
                unit=options.point_unit,
            )
        ):
            deltas[seat] += amount

    deposits_to = None
    if winners:  # the first winner in turn order from the discarder takes every deposit
        if pool:
            deposits_to = winners[0]
            deltas[deposits_to] += pool
        pool = 0
    settlement = Settlement(
        deltas=tuple(as_points(d) for d in deltas),
        deposits_out=pool,
        winners=winners,
        deposits_to=deposits_to,
    )
    _check_zero_sum(settlement, outcome.deposits_in)
    return settlement


def turn_distance(seats: int, origin: int, seat: int) -> int:
    """How many turns after ``origin`` the seat ``seat`` plays (1 = the next player)."""
    return (seat - origin) % seats


def _settle_ron(outcome: HandOutcome, options: SettleOptions, deltas: list[Points]) -> tuple[int, ...]:
    discarder = outcome.wins[0].discarder
    assert discarder is not None  # checked by _validate
    ordered = sorted(outcome.wins, key=lambda win: turn_distance(outcome.seats, discarder, win.winner))
    if options.multiple_ron == "head_bump":
        ordered = ordered[:1]
    for position, win in enumerate(ordered):
        amount = Fraction(win.payment.ron)
        if position > 0 and options.honba_to == "first_winner":
            amount -= (outcome.seats - 1) * win.payment.honba_per_payer
        if win.responsible is not None and win.responsible != discarder:  # 責任払い: half each
            deltas[win.responsible] -= amount / 2
            deltas[discarder] -= amount - amount / 2
        else:
            deltas[discarder] -= amount
        deltas[win.winner] += amount
    return tuple(win.winner for win in ordered)


def _settle_tsumo(outcome: HandOutcome, deltas: list[Points]) -> tuple[int, ...]:
    win = outcome.wins[0]
    payment = win.payment
    winner_is_dealer = win.winner == outcome.dealer_seat
    if (payment.tsumo_dealer is None) != (winner_is_dealer or outcome.dealer_seat is None):
        raise ScoringError(
            "payment_mismatch",
            _("the win's payment was priced for a non-dealer winner")
            if payment.tsumo_dealer is not None
            else _("the win's payment was priced for a dealer winner"),
            field="wins",
        )
    for seat in range(outcome.seats):
        if seat == win.winner:
            continue
        amount = payment.tsumo_dealer if seat == outcome.dealer_seat else payment.tsumo_non_dealer
        assert amount is not None
        deltas[seat if win.responsible is None else win.responsible] -= amount  # 責任払い: all of it
        deltas[win.winner] += amount
    return (win.winner,)


def noten_payments(seats: int, tenpai_seats: tuple[int, ...], *, total: int, unit: int) -> tuple[int, ...]:
    """不聴罰符: the noten players pay ``total`` to the tenpai players, shared equally on each side.

    Nobody pays when no one or everyone is tenpai. When ``total`` does not split into multiples of
    ``unit`` on both sides, the largest smaller amount that does is exchanged (never more than
    ``total``): e.g. 2000 among 1 tenpai and 3 noten players moves 1800 (600 each).
    """
    tenpai = len(set(tenpai_seats))
    noten = seats - tenpai
    if tenpai == 0 or noten == 0:
        return (0,) * seats
    step = math.lcm(tenpai, noten) * unit
    exchanged = total // step * step
    return tuple(exchanged // tenpai if seat in tenpai_seats else -(exchanged // noten) for seat in range(seats))


def game_end_deposits(final_points: tuple[Points, ...], deposits: int, rule: str = "to_top") -> tuple[int, ...]:
    """Deposits left on the table when the game ends: to the top player, or lost.

    ``to_top``: the player with the most points takes them; on a tie, the first in seat order.
    ``lost``: nobody gets them (the returned deltas are all zero).
    """
    if rule not in GAME_END_DEPOSIT_RULES:
        raise ScoringError(
            "invalid_option", _("unknown game-end deposit rule %(rule)s") % {"rule": repr(rule)}, field="rule"
        )
    if deposits < 0:
        raise ScoringError("invalid_deposits", _("deposits must not be negative"), field="deposits")
    if not final_points:
        raise ScoringError("invalid_seats", _("there must be at least one player"), field="final_points")
    deltas = [0] * len(final_points)
    if rule == "to_top":
        top = max(range(len(final_points)), key=lambda seat: (final_points[seat], -seat))
        deltas[top] = deposits
    return tuple(deltas)


def _check_zero_sum(settlement: Settlement, deposits_in: int) -> None:
    balance = sum(Fraction(d) for d in settlement.deltas) + settlement.deposits_out - deposits_in
    if balance != 0:
        raise InvariantViolation(f"settlement does not sum to zero (off by {balance})")


def _validate(outcome: HandOutcome) -> None:
    seats = outcome.seats
    if seats not in (2, 3, 4):
        raise ScoringError("invalid_seats", _("a table has 2, 3 or 4 seats"), field="seats")
    if outcome.kind not in HAND_KINDS:
        raise ScoringError("invalid_kind", _("unknown hand end %(kind)s") % {"kind": repr(outcome.kind)}, field="kind")
    if outcome.dealer_seat is not None:
        _check_seat(outcome.dealer_seat, seats, "dealer_seat")
    if outcome.deposits_in < 0:
        raise ScoringError("invalid_deposits", _("deposits must not be negative"), field="deposits_in")
    _check_distinct_seats(outcome.riichi_seats, seats, "riichi_seats")
    _check_distinct_seats(outcome.tenpai_seats, seats, "tenpai_seats")
    if outcome.tenpai_seats and outcome.kind != "exhaustive_draw":
        raise ScoringError("invalid_tenpai", _("tenpai seats belong to an exhaustive draw"), field="tenpai_seats")
    winners = tuple(win.winner for win in outcome.wins)
    _check_distinct_seats(winners, seats, "wins")

    for win in outcome.wins:
        if win.responsible is not None:
            _check_seat(win.responsible, seats, "wins")
            if win.responsible == win.winner:
                raise ScoringError("invalid_wins", _("a winner cannot be responsible for their own win"), field="wins")
    if outcome.kind in DRAW_KINDS:
        if outcome.wins:
            raise ScoringError("invalid_wins", _("a drawn hand has no winner"), field="wins")
        if outcome.kind == "replay" and outcome.riichi_seats:
            raise ScoringError("invalid_riichi", _("a replayed hand has no riichi"), field="riichi_seats")
    elif outcome.kind == "nagashi_mangan":
        if not outcome.wins or any(win.discarder is not None or win.responsible is not None for win in outcome.wins):
            raise ScoringError(
                "invalid_wins", _("a nagashi mangan has one or more winners and no discarder"), field="wins"
            )
    elif outcome.kind == "tsumo":
        if len(outcome.wins) != 1 or outcome.wins[0].discarder is not None:
            raise ScoringError("invalid_wins", _("a tsumo has one winner and no discarder"), field="wins")
    else:
        if not 1 <= len(outcome.wins) <= seats - 1:
            raise ScoringError("invalid_wins", _("a ron has one to m-1 winners"), field="wins")
        discarders = {win.discarder for win in outcome.wins}
        if len(discarders) != 1 or None in discarders:
            raise ScoringError("invalid_wins", _("every ron winner takes the same discard"), field="wins")
        (discarder,) = discarders
        _check_seat(discarder, seats, "wins")
        if discarder in winners:
            raise ScoringError("invalid_wins", _("the discarder cannot win on their own discard"), field="wins")


def _check_seat(seat: int, seats: int, field: str) -> None:
    if not 0 <= seat < seats:
        raise ScoringError(
            "invalid_seat",
            _("seat %(seat)s is not at a table of %(seats)s") % {"seat": seat, "seats": seats},
            field=field,
        )


def _check_distinct_seats(listed: tuple[int, ...], seats: int, field: str) -> None:
    for seat in listed:
        _check_seat(seat, seats, field)
    if len(set(listed)) != len(listed):
        raise ScoringError(
            "duplicate_seat",
            # Translators: field is riichi_seats, tenpai_seats or wins.
            _("a seat is listed twice in %(field)s") % {"field": field},
            field=field,
        )
