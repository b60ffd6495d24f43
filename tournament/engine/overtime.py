"""Overtime, art. 39 (延長戦), and the names of regular hands.

Seed 004, art. 39:

* ① overtime is played when a winner has to be decided;
* ② it opens at year 1 spring (1年春) and goes on until a player meeting the win condition
  (勝利条件) wins a hand (和者となる), or a hand ends with nobody winning (和者が出ずに終局);
* ③ if year 1 winter (1年冬) ends undecided, year 2 spring follows and the placement points
  (順位点) are doubled; every further year adds one more time the placement points.

A year is four seasons, one hand each: spring 春, summer 夏, autumn 秋, winter 冬. So year ``y`` has a
placement-point multiplier of ``y`` (year 1 ×1, year 2 ×2, year 3 ×3, ...).

Reading of ②: "終局" is the end of a hand, as in art. 38 ⑤ ("終局まで取札をそのまま捨てる" — until the
hand ends). A drawn overtime hand therefore ends the overtime; art. 40 ② agrees ("あるいは和者が出なかった
場合は総合最下位の者が敗退" — when no one wins, the overall last is eliminated). What "the win condition" is
belongs to the event (in the finals of art. 40: the winner is not overall last, decided by
:mod:`tournament.engine.finals`), so ``overtime_after_hand`` is told whether the hand's winner met it.
An organizer may also close the game (art. 44, the directors' ruling).

Outside the finals the win condition is ``overtime_win_condition_met``: the overtime is played "to decide
a winner" (勝者を決めるため, ①), and a table's winner is its first place (the place that advances, art.
41), so a hand's winner meets the condition when they end the hand with more points than every other
player still at the table (上回る: a tie does not decide, as in art. 40 ④). ``overtime_progress`` walks a
table's overtime hands with these rules: whether the overtime goes on, and how it ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taikai.i18n import _

from .errors import TournamentError

SEASONS_JA = ("春", "夏", "秋", "冬")  # spring, summer, autumn, winter
SEASONS_EN = ("Spring", "Summer", "Autumn", "Winter")
SEASONS_PER_YEAR = 4

WINDS_JA = ("東", "南", "西", "北")  # east, south, west, north
WINDS_EN = ("East", "South", "West", "North")


@dataclass(frozen=True)
class OvertimeHand:
    """One overtime hand: ``year`` from 1, ``season`` 0 (spring 春) to 3 (winter 冬)."""

    year: int
    season: int

    def __post_init__(self) -> None:
        if isinstance(self.year, bool) or not isinstance(self.year, int) or self.year < 1:
            raise TournamentError("invalid_overtime_hand", _("the overtime year starts at 1"), field="year")
        if isinstance(self.season, bool) or not isinstance(self.season, int) or not 0 <= self.season < 4:
            raise TournamentError("invalid_overtime_hand", _("the season is 0 (spring) to 3 (winter)"), field="season")

    @property
    def label_ja(self) -> str:
        """``1年春``, ``1年夏``, ... ``2年春``."""
        return f"{self.year}年{SEASONS_JA[self.season]}"

    @property
    def label_en(self) -> str:
        """``Y1 Spring``, ``Y1 Summer``, ... ``Y2 Spring``."""
        return f"Y{self.year} {SEASONS_EN[self.season]}"

    @property
    def index(self) -> int:
        """0-based position in the overtime: 1年春 is 0, 2年春 is 4."""
        return (self.year - 1) * SEASONS_PER_YEAR + self.season

    @property
    def placement_multiplier(self) -> int:
        """Art. 39 ③: the placement points are multiplied by the year."""
        return placement_multiplier(self.year)

    def next(self) -> OvertimeHand:
        """The hand after this one; after winter 冬 comes the next year's spring 春."""
        return overtime_hand_at(self.index + 1)


FIRST_OVERTIME_HAND = OvertimeHand(year=1, season=0)  # 1年春


def overtime_hand_at(index: int) -> OvertimeHand:
    """The overtime hand at a 0-based position: 0 → 1年春, 3 → 1年冬, 4 → 2年春."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise TournamentError("invalid_overtime_hand", _("the overtime hand index starts at 0"), field="index")
    year, season = divmod(index, SEASONS_PER_YEAR)
    return OvertimeHand(year=year + 1, season=season)


def placement_multiplier(year: int) -> int:
    """Art. 39 ③: year 1 ×1, year 2 ×2, and one more time for every further year."""
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise TournamentError("invalid_overtime_hand", _("the overtime year starts at 1"), field="year")
    return year


@dataclass(frozen=True)
class OvertimeHandOutcome:
    """How an overtime hand ended.

    ``winner_seat`` is None for a drawn hand. ``winner_meets_win_condition`` says whether the winner met
    the event's win condition (勝利条件). ``closed_by_organizer`` ends the game by the directors' ruling.
    """

    winner_seat: int | None
    winner_meets_win_condition: bool = False
    closed_by_organizer: bool = False

    def __post_init__(self) -> None:
        if self.winner_seat is None and self.winner_meets_win_condition:
            raise TournamentError(
                "invalid_hand_outcome",
                _("a drawn hand has no winner to meet the win condition"),
                field="winner_meets_win_condition",
            )


OVERTIME_END_REASONS = (
    "won_with_condition",  # 勝利条件を満たした者が和者となる
    "no_winner",  # 和者が出ずに終局
    "closed_by_organizer",  # 大会責任者の裁定 (art. 44)
)


@dataclass(frozen=True)
class OvertimeDecision:
    """What follows an overtime hand.

    ``game_over`` with a ``reason`` from ``OVERTIME_END_REASONS``; otherwise ``next_hand`` is set.
    ``multiplier`` is the placement-point multiplier the game ends with, or that the next hand plays for.
    """

    game_over: bool
    reason: str | None
    next_hand: OvertimeHand | None
    multiplier: int


def overtime_after_hand(hand: OvertimeHand, outcome: OvertimeHandOutcome) -> OvertimeDecision:
    """Art. 39 ②③: does the game end after this overtime hand, and if not, which hand follows?"""
    if outcome.closed_by_organizer:
        reason = "closed_by_organizer"
    elif outcome.winner_seat is None:
        reason = "no_winner"
    elif outcome.winner_meets_win_condition:
        reason = "won_with_condition"
    else:
        following = hand.next()
        return OvertimeDecision(
            game_over=False, reason=None, next_hand=following, multiplier=following.placement_multiplier
        )
    return OvertimeDecision(game_over=True, reason=reason, next_hand=None, multiplier=hand.placement_multiplier)


def overtime_win_condition_met(points_after: Sequence[int], winner: int, playing: Sequence[int]) -> bool:
    """勝利条件 outside the finals (art. 39 ②): the hand's winner ends it above every other player still
    at the table (``playing``, seat positions; art. 42: a player who left is not compared)."""
    if winner not in playing:
        raise TournamentError("invalid_hand_outcome", _("the winner is not at the table"), field="winner")
    mine = points_after[winner]
    return all(points_after[seat] < mine for seat in playing if seat != winner)


@dataclass(frozen=True)
class OvertimeHandResult:
    """One recorded overtime hand of a table outside the finals: its winners (seat positions), every
    seat's points after it, the seats that played it, and whether it was stopped and replayed (art. 36
    ③: played again in the same season, it decides nothing)."""

    winners: tuple[int, ...]
    points_after: tuple[int, ...]
    playing: tuple[int, ...]
    replayed: bool = False


@dataclass(frozen=True)
class OvertimeProgress:
    """Where a table's overtime stands (art. 39).

    ``state``: ``none`` (no overtime hand yet), ``playing`` (``next_hand`` is to be played), or how it
    ended (``OVERTIME_END_REASONS``). ``last_hand`` is the last season played, ``multiplier`` the
    placement-point multiplier of the game as it stands (its year). ``winner`` is the seat that met the
    win condition. ``hands_after_end`` counts recorded hands that come after the overtime ended: the
    service refuses them, the audit reports them.
    """

    state: str
    last_hand: OvertimeHand | None = None
    next_hand: OvertimeHand | None = None
    multiplier: int = 1
    winner: int | None = None
    hands_after_end: int = 0

    @property
    def over(self) -> bool:
        return self.state in OVERTIME_END_REASONS


def overtime_progress(hands: Sequence[OvertimeHandResult], *, closed_by_organizer: bool = False) -> OvertimeProgress:
    """Art. 39 ②③ over a table's overtime hands in play order: it goes on until a winner meets the win
    condition (``overtime_win_condition_met``) or a hand ends without a winner; ``closed_by_organizer``
    ends one still going (art. 44)."""
    played: OvertimeHand | None = None
    decision: OvertimeDecision | None = None
    winner: int | None = None
    after_end = 0
    for result in hands:
        if decision is not None and decision.game_over:
            after_end += 1
            continue
        if result.replayed:
            continue
        played = FIRST_OVERTIME_HAND if played is None else played.next()
        meeting = [w for w in result.winners if overtime_win_condition_met(result.points_after, w, result.playing)]
        first = meeting[0] if meeting else (result.winners[0] if result.winners else None)
        decision = overtime_after_hand(played, OvertimeHandOutcome(first, bool(meeting)))
        winner = first if meeting else None
    if played is None:  # no overtime hand, or only replays of 1年春 so far
        return OvertimeProgress("playing", next_hand=FIRST_OVERTIME_HAND) if hands else OvertimeProgress("none")
    if not decision.game_over and closed_by_organizer:
        decision = overtime_after_hand(played, OvertimeHandOutcome(None, closed_by_organizer=True))
    return OvertimeProgress(
        state=decision.reason if decision.game_over else "playing",
        last_hand=played,
        next_hand=decision.next_hand,
        multiplier=played.placement_multiplier,
        winner=winner,
        hands_after_end=after_end,
    )


def regular_hand_label(
    round_wind: int, dealer_number: int, honba: int = 0, *, players: int = 4, language: str = "en"
) -> str:
    """The name of a regular hand: ``East 1``, ``South 4, 2 honba``; ``東1局``, ``南4局 2本場``.

    ``round_wind`` 0..3 is the prevailing wind (場風), ``dealer_number`` 1..players the hand within the
    round (局), ``honba`` the repeat counter (本場).
    """
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise TournamentError("invalid_hand_label", _("players must be 2, 3 or 4"), field="players")
    if not 0 <= round_wind < 4:
        raise TournamentError("invalid_hand_label", _("the round wind is 0 (East) to 3 (North)"), field="round_wind")
    if not 1 <= dealer_number <= players:
        raise TournamentError(
            "invalid_hand_label",
            _("the hand number is 1 to %(players)s") % {"players": players},
            field="dealer_number",
        )
    if honba < 0:
        raise TournamentError("invalid_hand_label", _("honba must not be negative"), field="honba")
    if language == "ja":
        base = f"{WINDS_JA[round_wind]}{dealer_number}局"
        return f"{base} {honba}本場" if honba else base
    if language == "en":
        base = f"{WINDS_EN[round_wind]} {dealer_number}"
        return f"{base}, {honba} honba" if honba else base
    raise TournamentError("invalid_hand_label", _("language must be 'en' or 'ja'"), field="language")
