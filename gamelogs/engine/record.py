"""One game as a platform's log tells it: who sat where, under which rules, and every hand with its outcome.

Points are integers (the log's hundreds multiplied out); the end-of-game points of a log (its uma included)
are ``Fraction`` read from the log's decimal text, never floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

MELD_KINDS = ("chi", "pon", "kan_open", "kan_closed", "kan_added", "nuki")
DRAW_KINDS = (
    "exhaustive",  # 荒牌流局: the wall ran out
    "nine_terminals",  # 九種九牌
    "four_riichi",  # 四家立直
    "triple_ron",  # 三家和
    "four_kans",  # 四槓散了
    "four_winds",  # 四風連打
    "nagashi_mangan",  # 流し満貫
)


class GameLogError(ValueError):
    """A log Taikai cannot read: ``code`` is stable (``not_a_game_log``, ``game_not_finished``), ``where``
    names the place in the file (a line, an element, a JSON path)."""

    def __init__(self, code: str, message: str, where: str = "") -> None:
        super().__init__(f"{message} ({where})" if where else message)
        self.code = code
        self.message = message
        self.where = where


@dataclass(frozen=True)
class LogRules:
    """The rules a log's game was played under, as far as the log says them."""

    players: int  # 4, or 3 for a three-player game (三麻)
    hanchan: bool  # 半荘 (east and south); False: east only (東風)
    aka_dora: bool  # 赤ドラ
    open_tanyao: bool  # 喰いタン
    start_points: int  # 配給原点
    lobby: str = ""  # the platform's lobby (Tenhou's ロビー number; "" for the public lobbies)


@dataclass(frozen=True)
class Meld:
    """A call (鳴き) or a kan, with the platform's tile ids (Tenhou: 0-135, four of each tile)."""

    kind: str  # one of MELD_KINDS
    tiles: tuple[int, ...]
    taken_from: int | None = None  # the seat whose discard was called; None for a closed kan or nuki


@dataclass(frozen=True)
class Win:
    """One winner of a hand (和了): a multiple ron is several ``Win`` of one hand."""

    winner: int  # seat (0 = the log's first player)
    payer: int | None  # the discarder for a ron (放銃); None for a tsumo
    concealed: tuple[int, ...]  # the closed tiles, the winning tile included
    melds: tuple[Meld, ...]
    win_tile: int
    fu: int
    points: int  # the hand's value as the log prices it, before honba and deposits
    limit: str | None  # mangan, haneman, baiman, sanbaiman, yakuman
    yaku: tuple[tuple[int, int], ...]  # (the platform's yaku id, han); yakuman as (id, 13)
    dora_indicators: tuple[int, ...]
    ura_indicators: tuple[int, ...]
    deltas: tuple[int, ...]  # each seat's change of points by this win (honba and deposits included)
    responsible: int | None = None  # 責任払い (pao): the seat that pays for the yakuman

    @property
    def tsumo(self) -> bool:
        return self.payer is None

    @property
    def han(self) -> int:
        return sum(han for _, han in self.yaku)


@dataclass(frozen=True)
class Draw:
    """A hand that ended without a win (流局)."""

    kind: str  # one of DRAW_KINDS
    tenpai: tuple[int, ...]  # the seats that showed a ready hand (聴牌)
    deltas: tuple[int, ...]


@dataclass(frozen=True)
class Hand:
    """One hand (局) of the game."""

    index: int  # 0 = 東1局 … 4 = 南1局 (the platform's count, four per wind)
    honba: int  # 本場
    deposits: int  # 供託: riichi sticks on the table when the hand starts
    dealer: int  # 親, a seat
    start_scores: tuple[int, ...]
    riichi: tuple[int, ...]  # seats whose riichi (立直) was accepted (its stick paid), in seat order
    outcome: tuple[Win, ...] | Draw

    @property
    def wind(self) -> int:
        """0 east, 1 south, 2 west, 3 north (場風)."""
        return self.index // 4

    @property
    def end_scores(self) -> tuple[int, ...]:
        """The scores once the hand is settled (riichi sticks paid in, the outcome's changes)."""
        scores = [score - 1000 * (seat in self.riichi) for seat, score in enumerate(self.start_scores)]
        outcomes = self.outcome if isinstance(self.outcome, tuple) else (self.outcome,)
        for outcome in outcomes:
            scores = [score + delta for score, delta in zip(scores, outcome.deltas, strict=True)]
        return tuple(scores)


@dataclass(frozen=True)
class GameLog:
    """A whole game: the platform, its id when the log has one, the players in seat order, the hands."""

    platform: str  # "tenhou"
    game_id: str
    players: tuple[str, ...]
    rules: LogRules
    hands: tuple[Hand, ...]
    final_scores: tuple[int, ...]
    final_points: tuple[Fraction, ...]  # the platform's points at the end (uma and oka included)
    left: tuple[int, ...] = ()  # seats that disconnected during the game (回線切断)
    account_ids: tuple[str, ...] = ()  # the platform's account id of each seat, when the log says them
    played_at: datetime | None = None  # when the game was played (naive, the platform's time), if the log says
