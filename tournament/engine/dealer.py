"""Who deals the next hand, and with how many honba 本場 (the usual riichi rule).

The dealer (親) keeps the deal (連荘) when they win (和了連荘), when they are tenpai at an exhaustive
draw (聴牌連荘), and after an abortive draw (途中流局); otherwise the deal passes to the next seat and,
after the last seat, the prevailing wind advances. Honba go up by one after a dealer repeat or any
draw and back to zero when a non-dealer wins. A hand stopped and replayed from the shuffle (art. 36 ③)
is played again with the same dealer and honba.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        raise TournamentError("invalid_outcome", f"unknown outcome {outcome!r}", field="outcome")
    if not 0 <= dealer < players:
        raise TournamentError("invalid_dealer", "the dealer is not at the table", field="dealer")
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
