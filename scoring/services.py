"""The scoring engine as the tournament app uses it: the only door from ``tournament`` into
``scoring.engine`` (an import contract in ``pyproject.toml`` keeps it so).

* ``win_evaluate``: a win given as tiles (``../shared/hand-format.md``) → its yaku, han, fu, yakuman;
* ``win_check_han_fu``: a win given as han/fu, refused when no hand can have that pair (seed 001);
* ``hand_settle``: a recorded hand → each seat's point changes and the deposits 供託 left (seed 000);
  ``hand_settler``: the same for many hands under one ruleset;
* ``game_end_deposit_shares``: deposits still on the table when the game ends (to the top, or lost).

Refusals are ``ScoringError`` (a ``TaikaiError``) with the engine's stable codes.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.engine import evaluate_hand, hand_from_dict
from scoring.engine.errors import ScoringError
from scoring.engine.han_fu import han_fu_exists, han_fu_problem
from scoring.engine.schemes import WinPayment, win_payment
from scoring.engine.settle import PAO_YAKUMAN, HandOutcome, Win, game_end_deposits, settle_hand
from scoring.options import ruleset_engine_rules, ruleset_settle_options, ruleset_uses_raw_fu

if TYPE_CHECKING:
    from scoring.models import Ruleset

__all__ = [
    "PAO_YAKUMAN",
    "EvaluatedWin",
    "HandSettlement",
    "RecordedHand",
    "RecordedWin",
    "game_end_deposit_shares",
    "han_fu_exists",
    "hand_settle",
    "hand_settler",
    "win_check_han_fu",
    "win_evaluate",
]

WIND_LETTERS = "ESWN"


@dataclass(frozen=True)
class RecordedWin:
    """A win as a score sheet writes it. Seats are numbered among the players in the hand."""

    winner: int
    discarder: int | None  # None for a tsumo 自摸和
    han: int
    fu: int
    yakuman: int = 0  # 役満 units; 0 for a hand paid by its han
    responsible: int | None = None  # 責任払い (pao): the seat that fed the yakuman's last meld
    pao_yakuman: str = ""  # the yakuman the responsible seat answers for


@dataclass(frozen=True)
class RecordedHand:
    """One hand among ``seats`` players (those still playing), numbered 0.. in turn order."""

    seats: int
    dealer_seat: int  # 親
    kind: str  # ron, tsumo, exhaustive_draw, abortive_draw, replay (art. 36 ③)
    honba: int = 0  # 本場
    deposits_in: int = 0  # 供託 on the table before the hand, in points
    riichi_seats: tuple[int, ...] = ()  # 立直
    wins: tuple[RecordedWin, ...] = ()
    tenpai_seats: tuple[int, ...] = ()  # 聴牌 at an exhaustive draw 荒牌流局


@dataclass(frozen=True)
class HandSettlement:
    deltas: tuple[int, ...]  # per seat of the hand, deposits included
    deposits_out: int


@dataclass(frozen=True)
class EvaluatedWin:
    han: int
    fu: int
    yakuman: int
    yaku: tuple[tuple[str, int], ...]


def win_check_han_fu(*, han: int, fu: int, tsumo: bool, ruleset: Ruleset, field: str) -> None:
    problem = han_fu_problem(han=han, fu=fu, tsumo=tsumo, raw_fu=ruleset_uses_raw_fu(ruleset))
    if problem is not None:
        raise problem.at(field)


def han_fu_pairs(ruleset: Ruleset) -> dict:
    """The fu each han from 1 to 4 can have, for ron and for tsumo, under the ruleset: what a referee's
    han/fu picker offers. From 5 han (mangan 満貫) the fu do not count."""
    raw = ruleset_uses_raw_fu(ruleset)
    candidates = [20, 25, *range(22, 111, 2)] if raw else [20, 25, *range(30, 111, 10)]
    return {
        kind: {
            han: sorted(
                fu for fu in set(candidates) if han_fu_exists(han=han, fu=fu, tsumo=kind == "tsumo", raw_fu=raw)
            )
            for han in range(1, 5)
        }
        for kind in ("ron", "tsumo")
    }


def win_evaluate(hand: dict, *, seat: int, dealer_seat: int, seats: int, tsumo: bool, ruleset: Ruleset) -> EvaluatedWin:
    """Score the winner's tiles: the seat wind follows from the seat's place after the dealer."""
    seat_wind = WIND_LETTERS[(seat - dealer_seat) % seats]
    parsed = hand_from_dict({**hand, "seat_wind": seat_wind, "tsumo": tsumo, "dealer": seat == dealer_seat})
    result = evaluate_hand(parsed, ruleset_engine_rules(ruleset, players=seats))
    return EvaluatedWin(result.han, result.fu, result.yakuman, tuple(tuple(y) for y in result.yaku))


def win_points(
    ruleset: Ruleset, *, han: int, fu: int, yakuman: int, dealer: bool, tsumo: bool, seats: int
) -> int | None:
    """What a win brings its winner from the other players under the ruleset, no honba (本場) or riichi
    sticks: the figure a platform's log gives beside han and fu. None when the ruleset cannot price it."""
    rules = ruleset_engine_rules(ruleset, players=seats)
    try:
        paid = _win_priced(rules, han=0 if yakuman else han, fu=fu, yakuman=yakuman, dealer=dealer, honba=0)
    except ScoringError:
        return None
    if not tsumo:
        total = paid.ron
    elif dealer or paid.tsumo_dealer is None:
        total = paid.tsumo_non_dealer * (seats - 1)
    else:
        total = paid.tsumo_dealer + paid.tsumo_non_dealer * (seats - 2)
    return int(total)


def hand_settle(hand: RecordedHand, ruleset: Ruleset) -> HandSettlement:
    """Price every win under the ruleset's scheme for the players in the hand, then settle the hand."""
    return _settled(hand, ruleset_engine_rules(ruleset, players=hand.seats), ruleset_settle_options(ruleset))


def hand_settler(ruleset: Ruleset) -> Callable[[RecordedHand], HandSettlement]:
    """``hand_settle`` for many hands under one ruleset (an archive's): the ruleset read once per number
    of players, not once per hand."""
    rules = functools.cache(lambda seats: ruleset_engine_rules(ruleset, players=seats))
    options = ruleset_settle_options(ruleset)
    return lambda hand: _settled(hand, rules(hand.seats), options)


def _win_priced(rules, *, han: int, fu: int, yakuman: int, dealer: bool, honba: int) -> WinPayment:
    return win_payment(
        rules.scheme, rules.limits, han=han, fu=fu, fu_is_fixed=fu == 25, yakuman=yakuman, dealer=dealer, honba=honba
    )


def _settled(hand: RecordedHand, rules, options) -> HandSettlement:
    wins = []
    for w in hand.wins:
        try:
            payment = _win_priced(
                rules, han=w.han, fu=w.fu, yakuman=w.yakuman, dealer=w.winner == hand.dealer_seat, honba=hand.honba
            )
        except ScoringError as exc:
            raise exc.at("wins") from exc
        wins.append(
            Win(
                winner=w.winner,
                discarder=w.discarder,
                payment=payment,
                responsible=w.responsible,
                pao_yakuman=w.pao_yakuman,
            )
        )
    outcome = HandOutcome(
        seats=hand.seats,
        dealer_seat=hand.dealer_seat,
        kind=hand.kind,
        deposits_in=hand.deposits_in,
        riichi_seats=hand.riichi_seats,
        wins=tuple(wins),
        tenpai_seats=hand.tenpai_seats,
    )
    settlement = settle_hand(outcome, options)
    return HandSettlement(tuple(int(d) for d in settlement.deltas), settlement.deposits_out)


PRICED_HAN = (*range(1, 14), "Y1", "Y2")  # the han a referee's picker offers (tournament.forms.HAN_CHOICES)


def win_price_list(ruleset: Ruleset, *, seats: int) -> dict:
    """Every win a referee's picker can record at a table of ``seats`` players, priced as ``hand_settle``
    prices it, for a device that settles queued hands offline (``settle.js``): ``"han|fu|dealer"`` (han as
    picked, ``Y1``/``Y2`` for yakuman; fu 0 from 5 han) → ``[ron, tsumo_dealer, tsumo_non_dealer]`` without
    honba, then what one honba adds to each and to every payer. Honba add linearly (``a·t`` a payer), so
    the device prices any honba from the two; a price that is not a whole number is left out."""
    rules = ruleset_engine_rules(ruleset, players=seats)
    pairs = han_fu_pairs(ruleset)
    prices = {}
    for han in PRICED_HAN:
        yakuman = int(han[1:]) if isinstance(han, str) else 0
        fus = sorted(set(pairs["ron"].get(han, [])) | set(pairs["tsumo"].get(han, []))) if han in range(1, 5) else [0]
        for fu in fus:
            for dealer in (False, True):
                try:
                    bare, one = (
                        _win_priced(
                            rules, han=0 if yakuman else han, fu=fu, yakuman=yakuman, dealer=dealer, honba=honba
                        )
                        for honba in (0, 1)
                    )
                except ScoringError:
                    continue
                amounts = [bare.ron, bare.tsumo_dealer or 0, bare.tsumo_non_dealer]
                steps = [
                    one.ron - bare.ron,
                    (one.tsumo_dealer or 0) - (bare.tsumo_dealer or 0),
                    one.tsumo_non_dealer - bare.tsumo_non_dealer,
                    one.honba_per_payer,
                ]
                if all(isinstance(a, int) for a in amounts + steps):
                    prices[f"{han}|{fu}|{int(dealer)}"] = amounts + steps
    return prices


def hand_settle_options(ruleset: Ruleset) -> dict:
    """The ruleset's settlement options (``SettleOptions``), for the device's ``settle.js``."""
    return dataclasses.asdict(ruleset_settle_options(ruleset))


def game_end_deposit_shares(points: Sequence[int], deposits: int, ruleset: Ruleset) -> tuple[int, ...]:
    return tuple(int(d) for d in game_end_deposits(tuple(points), deposits, ruleset.deposits_at_end))
