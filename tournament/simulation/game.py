"""One simulated game, without the database: the game flow of a hanchan 半荘 and random but legal hands.

Each game is an East-South game: the deal passes round the table twice, the dealer 親 repeats 連荘 on
a dealer win or when tenpai 聴牌 at an exhaustive draw 荒牌流局 (and at an abortive draw 途中流局), honba
本場 go up on draws and dealer wins and back to 0 on a non-dealer win, and the game stops after the last
South hand without a dealer repeat, or at a hand cap. Wins use han/fu pairs that exist (the services
reject the others). :mod:`tournament.simulation.play` plays these games through the services.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.services import han_fu_exists
from taikai.errors import TaikaiError
from tournament.engine.dealer import next_dealer_position
from tournament.engine.overtime import OvertimeHandResult, overtime_progress
from tournament.engine.penalties import PenaltyKind

HAND_CAP = 16  # a game stops after this many hands even while the dealer keeps repeating
SIMULATED_CLUB = "Simulation"

# How hands end, in thousandths of hands (roughly what tournament score sheets show).
ABORTIVE_DRAW_PER_MILLE = 15  # 途中流局
EXHAUSTIVE_DRAW_PER_MILLE = 160  # 荒牌流局
TSUMO_PER_MILLE = 300  # 自摸和; the rest are ron 栄和
MULTIPLE_RON_PER_MILLE = 30  # of the rons: two winners on one discard (ダブロン)
YAKUMAN_PER_MILLE = 4  # of the wins
RIICHI_PER_MILLE = 180  # each seat that can pay the stick declares riichi 立直 this often
TENPAI_PER_MILLE = 350  # a seat without riichi is tenpai at an exhaustive draw this often

# Han of a win (limits from 5 han: mangan 満貫 … 13+ counted yakuman 数え役満) and the fu of a win
# below 5 han, as relative weights.
HAN_WEIGHTS = {1: 260, 2: 260, 3: 200, 4: 120, 5: 60, 6: 40, 7: 20, 8: 20, 9: 8, 10: 5, 11: 3, 12: 2, 13: 2}
FU_WEIGHTS = {20: 300, 25: 70, 30: 400, 40: 220, 50: 80, 60: 40, 70: 20, 80: 10, 90: 6, 100: 3, 110: 2}

# Seed 004 incidents, in thousandths (only with their flags).
RIGHTS_PENALTY_PER_MILLE = 12  # of hands: an art. 35 / 36 ①② foul before the hand is recorded
RIGHTS_PENALTY_KINDS = (PenaltyKind.REVEALED_HAND, PenaltyKind.OUT_OF_TURN, PenaltyKind.WRONG_HAND_SIZE)
CANCELLED_PER_MILLE = 250  # of those: cancelled at once (the referee misread the situation)
WALL_WRECKED_PER_MILLE = 5  # of regular hands: art. 36 ③, the hand is replayed from the shuffle 洗札
DELIBERATE_FOUL_PER_MILLE = 2  # of hands: art. 37 penalty points; disqualifying in tournament play
ABSENT_BEFORE_PER_MILLE = 25  # of tables: a player absent before the game 対局前の欠員 (art. 42)
ABSENT_DURING_PER_MILLE = 25  # of tables: a player who leaves during the game 対局中の欠員
LEAVE_AFTER_HANDS = (1, 8)  # ... after this many hands (at least, at most)
OVERTIME_THRESHOLD = 30000  # a game that ends with nobody above this goes to overtime
OVERTIME_RANDOM_PER_MILLE = 100  # of the other games: overtime all the same
OVERTIME_HAND_CAP = 9  # the directors close an overtime still going after 3年春 (art. 44)
OVERTIME_CLOSED_PER_MILLE = 100  # of overtime hands after which it goes on: the directors close it all the same
CLOCK_CLAIM_PER_MILLE = 300  # of clock turns played at an incident hand: the discard is claimed (拾)
FINAL_FOUL_PER_MILLE = 300  # of final games: an art. 37 foul at the final table (art. 43 in the final)
DISQUALIFICATION_LIFTED_PER_MILLE = 250  # of art. 37 fouls: cancelled at once (art. 43 lifted)
DISQUALIFICATION_CONFIRMED_PER_MILLE = 500  # of the others: an organizer confirms the disqualification
FINAL_HAND_CAP = 12  # a final's overtime hands before the directors take it over (art. 44)


@dataclass(frozen=True)
class Incidents:
    """The seed 004 incidents a simulation plays; none by default."""

    penalties: bool = False
    absences: bool = False
    overtime: bool = False
    final: bool = False  # the event ends with a final (art. 40) of its ``final_games`` games


NO_INCIDENTS = Incidents()


class SimulationError(TaikaiError):
    """The simulation cannot go on (bad arguments, or the pairing engine refused the request)."""


# --- One game, without the database -------------------------------------------------------------


@dataclass
class GameState:
    """Where a simulated game stands between two hands."""

    players: int
    start_points: int
    riichi_stick: int
    max_hands: int = HAND_CAP
    dealer: int = 0  # 親, seat position
    wind: int = 0  # prevailing wind 場風: 0 East round 東場, 1 South round 南場
    honba: int = 0  # 本場
    deposits: int = 0  # riichi deposits 供託 on the table, in points
    hands: int = 0
    points: list[int] = field(default_factory=list)
    over: bool = False
    active: list[int] = field(default_factory=list)  # seat positions still playing (art. 42), in order
    overtime: bool = False  # playing overtime hands 延長戦 (art. 39)
    overtime_hands: int = 0
    overtime_closed: bool = False  # closed by the directors at the cap (art. 44)
    overtime_results: list[OvertimeHandResult] = field(default_factory=list)  # for the engine's decision
    decided_by_final: bool = False  # a final's overtime hand: art. 40 decides after it, not art. 39
    abortive_draws: bool = True  # the ruleset plays abortive draws 途中流局 (the EMA and WRC rules do not)

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [self.start_points] * self.players
        if not self.active:
            self.active = list(range(self.players))


def per_mille(rng: random.Random, share: int) -> bool:
    return rng.randrange(1000) < share


def fu_allowed(*, han: int, fu: int, tsumo: bool) -> bool:
    """The han/fu pairs a hand can have (seed 001), as the services check them."""
    return han_fu_exists(han=han, fu=fu, tsumo=tsumo)


def win_value_draw(rng: random.Random, *, tsumo: bool) -> dict:
    """Han, fu and yakuman of one random win, as a score sheet writes them."""
    if per_mille(rng, YAKUMAN_PER_MILLE):
        return {"han": 0, "yakuman": 1}  # 役満
    han = rng.choices(list(HAN_WEIGHTS), weights=list(HAN_WEIGHTS.values()))[0]
    if han >= 5:
        return {"han": han}  # a limit hand 満貫以上 is paid without fu
    fus = [fu for fu in FU_WEIGHTS if fu_allowed(han=han, fu=fu, tsumo=tsumo)]
    fu = rng.choices(fus, weights=[FU_WEIGHTS[fu] for fu in fus])[0]
    return {"han": han, "fu": fu}


def _winners_draw(rng: random.Random, seats: Sequence[int], riichi: Sequence[int], count: int) -> list[int]:
    """``count`` distinct winners among ``seats``; a seat in riichi is twice as likely to win."""
    winners: list[int] = []
    while len(winners) < count:
        left = [s for s in seats if s not in winners]
        winners.append(rng.choices(left, weights=[2 if s in riichi else 1 for s in left])[0])
    return winners


def hand_draw(rng: random.Random, state: GameState, *, barred: dict[int, frozenset[str]] | None = None) -> dict:
    """The next hand of the game in the services' hand format (``tournament.services.hand_input``).

    Only the seats still playing take part. ``barred`` maps a seat to the wins ("ron", "tsumo") a
    penalty took from it this hand: it is not drawn as such a winner; when nobody may win the drawn
    way, the hand is an exhaustive draw."""
    active = state.active
    barred = barred or {}
    hand = {
        "dealer_position": state.dealer,
        "honba": state.honba,
        "deposits_in": state.deposits,
        "riichi_positions": [],
        "wins": [],
        "tenpai_positions": [],
    }
    if state.overtime:
        hand["overtime"] = True  # 延長戦 (art. 39)
    if state.abortive_draws and per_mille(rng, ABORTIVE_DRAW_PER_MILLE):  # e.g. nine terminals 九種九牌
        return {**hand, "outcome": "abortive_draw"}
    riichi = [seat for seat in active if state.points[seat] >= state.riichi_stick and per_mille(rng, RIICHI_PER_MILLE)]
    hand["riichi_positions"] = riichi
    roll = rng.randrange(1000)
    if roll < EXHAUSTIVE_DRAW_PER_MILLE:
        return _exhaustive_draw(rng, hand, active, riichi)
    if roll < EXHAUSTIVE_DRAW_PER_MILLE + TSUMO_PER_MILLE:
        allowed = [s for s in active if "tsumo" not in barred.get(s, ())]
        if not allowed:
            return _exhaustive_draw(rng, hand, active, riichi)
        (winner,) = _winners_draw(rng, allowed, riichi, 1)
        win = {"winner": winner, "discarder": None, **win_value_draw(rng, tsumo=True)}
        return {**hand, "outcome": "tsumo", "wins": [win]}
    allowed = [s for s in active if "ron" not in barred.get(s, ())]
    count = 2 if len(active) >= 3 and per_mille(rng, MULTIPLE_RON_PER_MILLE) else 1
    if not allowed:
        return _exhaustive_draw(rng, hand, active, riichi)
    winners = _winners_draw(rng, allowed, riichi, min(count, len(allowed)))
    discarder = rng.choice([s for s in active if s not in winners])
    wins = [{"winner": w, "discarder": discarder, **win_value_draw(rng, tsumo=False)} for w in winners]
    return {**hand, "outcome": "ron", "wins": wins}


def _exhaustive_draw(rng: random.Random, hand: dict, active: Sequence[int], riichi: Sequence[int]) -> dict:
    """荒牌流局: the seats in riichi are tenpai, the others now and then."""
    tenpai = set(riichi) | {s for s in active if per_mille(rng, TENPAI_PER_MILLE)}
    return {**hand, "outcome": "exhaustive_draw", "tenpai_positions": sorted(tenpai)}


def replayed_hand(state: GameState) -> dict:
    """A hand stopped by a wrecked wall (art. 36 ③): recorded as replayed, it moves no points."""
    hand = {
        "dealer_position": state.dealer,
        "honba": state.honba,
        "deposits_in": state.deposits,
        "riichi_positions": [],
        "wins": [],
        "tenpai_positions": [],
        "outcome": "replayed",
    }
    if state.overtime:
        hand["overtime"] = True
    return hand


def game_advance(state: GameState, hand: dict, deltas: Sequence[int], deposits_out: int) -> None:
    """Move the game on after a recorded hand: points, deposits, dealer, honba, and whether it is over.

    The deal goes round the seats still playing (the engine's ``next_dealer_position``, as the services
    default it). In overtime the game ends when the engine says so (art. 39 ②: a winner above every
    other player, or a hand without a winner); the directors close one still going after
    ``OVERTIME_HAND_CAP`` hands. A final's overtime hand ends the game after it: art. 40 decides."""
    state.points = [p + d for p, d in zip(state.points, deltas, strict=True)]
    state.deposits = deposits_out
    state.hands += 1
    active = state.active
    deal = next_dealer_position(
        playing=active,
        dealer=state.dealer,
        honba=state.honba,
        outcome=hand["outcome"],
        winners=tuple(w["winner"] for w in hand.get("wins", ())),
        tenpai=tuple(hand.get("tenpai_positions", ())),
    )
    state.dealer, state.honba = deal.position, deal.honba
    state.wind += deal.wind_advances
    if state.decided_by_final:
        state.overtime_hands += hand["outcome"] != "replayed"
        state.over = hand["outcome"] != "replayed"
    elif state.overtime:
        _overtime_advance(state, hand)
    else:
        state.over = state.wind >= 2 or state.hands >= state.max_hands


def _overtime_advance(state: GameState, hand: dict) -> None:
    """Art. 39 ②: the engine's decision over the game's overtime hands so far."""
    replayed = hand["outcome"] == "replayed"
    state.overtime_hands += not replayed
    state.overtime_results.append(
        OvertimeHandResult(
            winners=tuple(w["winner"] for w in hand.get("wins", ())),
            points_after=tuple(state.points),
            playing=tuple(state.active),
            replayed=replayed,
        )
    )
    progress = overtime_progress(state.overtime_results)
    if not progress.over and state.overtime_hands >= OVERTIME_HAND_CAP:
        state.overtime_closed = True  # the directors close it (art. 44)
    state.over = progress.over or state.overtime_closed


def seat_leaves(state: GameState, position: int) -> None:
    """Art. 42: the player at ``position`` leaves between two hands. When it was their deal, the next
    seat still playing deals; passing back to the first seat starts the next wind round (the engine's
    ``next_dealer_position``)."""
    playing = state.active
    state.active = [p for p in state.active if p != position]
    deal = next_dealer_position(
        playing=playing, playing_next=state.active, dealer=state.dealer, honba=state.honba, outcome="replayed"
    )
    state.dealer = deal.position
    state.wind += deal.wind_advances
    if deal.wind_advances and not state.overtime:
        state.over = state.wind >= 2


def overtime_wanted(rng: random.Random, state: GameState) -> bool:
    """Art. 39 ①: a winner has to be decided when nobody still playing ended above the threshold;
    now and then an event wants one all the same."""
    top = max(state.points[p] for p in state.active)
    return top <= OVERTIME_THRESHOLD or per_mille(rng, OVERTIME_RANDOM_PER_MILLE)


def tables_partition(entry_ids: Sequence[int], table_size: int) -> list[list[int]]:
    """Split players in order into the fewest tables of at most ``table_size``, sizes within one of
    each other (17 players at four → 4, 4, 3, 3, 3)."""
    count = len(entry_ids)
    if count < 2:
        raise SimulationError("too_few_players", _("a round needs at least two players"))
    tables = math.ceil(count / table_size)
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    out, start = [], 0
    for size in sizes:
        out.append(list(entry_ids[start : start + size]))
        start += size
    return out
