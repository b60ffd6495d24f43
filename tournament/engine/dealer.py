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

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from taikai.i18n import _

from .errors import TournamentError
from .overtime import regular_hand_label

HANCHAN_WINDS = 2  # 半荘戦: a game is the East round 東場 then the South round 南場
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
        players=len(order),
        dealer=order.index(dealer),
        honba=honba,
        outcome=outcome,
        winners=tuple(order.index(w) for w in winners),
        tenpai=tuple(order.index(t) for t in tenpai),
    )
    position, wind_advances = order[deal.dealer], deal.wind_advances
    if position not in following_seats:  # the dealer-to-be has left: the next seat still playing deals
        later = [p for p in following_seats if p > position]
        position = later[0] if later else following_seats[0]
        wind_advances = wind_advances or not later
    return NextDealer(position, deal.honba, wind_advances)


def prevailing_wind(dealer_positions: Sequence[int]) -> int:
    """The prevailing wind 場風 of the last of these hands, from their dealers' positions in play order: 0 =
    East round 東場, 1 = South 南場, …; it advances each time the deal passes back round to a lower seat."""
    wind = 0
    for before, after in itertools.pairwise(dealer_positions):
        if after < before:
            wind += 1
    return min(wind, 3)


@dataclass(frozen=True)
class GameStand:
    """Where a regular game stands after its last hand: ``over`` once the deal would pass beyond the last
    hand of its last wind round (South 4 in a hanchan 半荘, or South 3 in a game made three-player by art. 42).
    The last hand played is ``wind`` / ``dealer_number`` (1.. among its ``players``) / ``honba``."""

    over: bool
    wind: int
    dealer_number: int
    honba: int
    players: int  # seats that played the last hand
    players_next: int  # seats that play from the next hand on (art. 42: fewer after a player left)
    winds: int = HANCHAN_WINDS

    def last_hand_label(self, language: str) -> str:
        """The last hand played: ``南2局``, ``South 2, 1 honba``."""
        return regular_hand_label(self.wind, self.dealer_number, self.honba, players=self.players, language=language)

    def end_label(self, language: str) -> str:
        """The hand after which the game is over when the deal passes on: ``南4局``, ``South 4``."""
        return regular_hand_label(self.winds - 1, self.players_next, players=self.players_next, language=language)


def regular_game_stand(
    *,
    dealers: Sequence[int],
    playing: Sequence[int],
    honba: int,
    next_deal: NextDealer,
    playing_next: Sequence[int],
    winds: int = HANCHAN_WINDS,
) -> GameStand:
    """Is the regular game over after its last hand? ``dealers`` are the dealer positions of every hand
    played, in order (the last one's ``playing`` seats and ``honba``), ``next_deal`` what
    ``next_dealer_position`` gives after it, ``playing_next`` the seats playing on. The game is over when
    the deal would pass from the last seat of the last wind round: a dealer's repeat 連荘 there, a draw
    with the dealer tenpai, an abortive draw or a replay (art. 36 ③) go on."""
    if not dealers:
        raise TournamentError("no_hands", _("no hand has been played"), field="dealers")
    if dealers[-1] not in playing:
        raise TournamentError("invalid_dealer", _("the dealer is not at the table"), field="dealer")
    wind = prevailing_wind(dealers)
    return GameStand(
        over=wind + int(next_deal.wind_advances) >= winds,
        wind=wind,
        dealer_number=list(playing).index(dealers[-1]) + 1,
        honba=honba,
        players=len(playing),
        players_next=len(playing_next),
        winds=winds,
    )
