"""Who deals the next hand, and with how many honba 本場 (the usual riichi rule).

The dealer (親) keeps the deal (連荘) when they win (和了連荘), when they are tenpai at an exhaustive
draw (聴牌連荘), and after an abortive draw (途中流局); otherwise the deal passes to the next seat and,
after the last seat, the prevailing wind advances. Honba go up by one after a dealer repeat or any
draw and back to zero when a non-dealer wins. A hand stopped and replayed from the shuffle (art. 36 ③)
is played again with the same dealer and honba.

Art. 42: a player who leaves during the game makes it a three- or two-player game for every hand after;
``next_dealer_position`` passes the deal round the seats still playing, by seat position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taikai.i18n import _

from .errors import TournamentError

OUTCOMES = ("ron", "tsumo", "exhaustive_draw", "abortive_draw", "replayed")


@dataclass(frozen=True)
class NextDeal:
    dealer: int  # index among the seats playing
    honba: int
    wind_advances: bool  # the deal passed from the last seat back to the first


def next_deal(
    *,
    players: int,
    dealer: int,
    honba: int,
    outcome: str,
    winners: tuple[int, ...] = (),
    tenpai: tuple[int, ...] = (),
) -> NextDeal:
    if outcome not in OUTCOMES:
        raise TournamentError(
            "invalid_outcome", _("unknown outcome %(outcome)s") % {"outcome": repr(outcome)}, field="outcome"
        )
    if not 0 <= dealer < players:
        raise TournamentError("invalid_dealer", _("the dealer is not at the table"), field="dealer")
    if outcome == "replayed":
        return NextDeal(dealer, honba, False)
    if outcome in ("ron", "tsumo"):
        repeats = dealer in winners  # 和了連荘
        next_honba = honba + 1 if repeats else 0
    elif outcome == "exhaustive_draw":
        repeats = dealer in tenpai  # 聴牌連荘
        next_honba = honba + 1
    else:  # abortive draw 途中流局: the same dealer deals again
        repeats = True
        next_honba = honba + 1
    if repeats:
        return NextDeal(dealer, next_honba, False)
    following = (dealer + 1) % players
    return NextDeal(following, next_honba, following == 0)


@dataclass(frozen=True)
class NextDealer:
    """The next hand's dealer as a seat position (0.. from the game's East), honba and wind change."""

    position: int
    honba: int
    wind_advances: bool


def next_dealer_position(
    *,
    playing: Sequence[int],
    dealer: int,
    honba: int,
    outcome: str,
    winners: Sequence[int] = (),
    tenpai: Sequence[int] = (),
    playing_next: Sequence[int] | None = None,
) -> NextDealer:
    """Who deals next when seats may have left the game (art. 42, 欠員に応じて三人ないし二人戦).

    ``playing`` are the positions that played the hand (in seat order), ``dealer``, ``winners`` and
    ``tenpai`` positions among them; ``playing_next`` those that play the next hand (default: the
    same). The deal goes round the seats playing as in ``next_deal``; when it falls to a seat that has
    left, the next seat still playing deals, and passing back round to the first seat starts the next
    wind round. Honba are not changed by a player leaving.
    """
    order = list(playing)
    following_seats = order if playing_next is None else list(playing_next)
    if len(set(order)) != len(order) or len(set(following_seats)) != len(following_seats):
        raise TournamentError("invalid_seats", _("a seat is listed twice"), field="playing")
    if not 2 <= len(following_seats) <= len(order) or not set(following_seats) <= set(order):
        raise TournamentError(
            "invalid_seats", _("the next hand is played by 2 or more of the same seats"), field="playing_next"
        )
    for name, positions in (("dealer", (dealer,)), ("winners", winners), ("tenpai", tenpai)):
        if any(p not in order for p in positions):
            raise TournamentError(
                "invalid_dealer",
                # Translators: name is a field name: dealer, winners or tenpai.
                _("%(name)s: a seat that did not play the hand") % {"name": name},
                field=name,
            )
    deal = next_deal(
        players=len(order), dealer=order.index(dealer), honba=honba, outcome=outcome,
        winners=tuple(order.index(w) for w in winners), tenpai=tuple(order.index(t) for t in tenpai),
    )  # fmt: skip
    position, wind_advances = order[deal.dealer], deal.wind_advances
    if position not in following_seats:  # the dealer-to-be has left: the next seat still playing deals
        later = [p for p in following_seats if p > position]
        position = later[0] if later else following_seats[0]
        wind_advances = wind_advances or not later
    return NextDealer(position, deal.honba, wind_advances)
