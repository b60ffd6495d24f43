"""When a game ends before its last hand, as the ruleset says: the round's time running out, a chombo, a
player below zero.

* **Time up** (the round's time runs out during a hand): the hand in play is always finished; then the
  game ends (``end_after_hand``, the WRC rules) or one more hand is played (``one_more_hand``, the EMA
  rules). ``hands_after_time_up`` gives how many hands start after the one in play.
* **Chombo** 錯和 (a false win or a similar foul the rules punish with a fixed penalty): under
  ``chombo_ends_game`` the game ends with the hand it happened in (the EMA and WRC rules as the issue
  reads them); otherwise the game goes on.
* **Busting** 飛び (トビ): a player whose points fall below zero after a hand ends the game there. Off by
  default: the seeds' standard, the EMA and the WRC rules play on with negative points.

Pure Python; the ruleset's row reaches it through ``tournament.options.game_end_rules``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from taikai.i18n import _

from .errors import TournamentError

END_AFTER_HAND, ONE_MORE_HAND = "end_after_hand", "one_more_hand"
TIME_UP_ENDINGS = (END_AFTER_HAND, ONE_MORE_HAND)
BUSTING, CHOMBO = "busting", "chombo"  # why a game ended early (game_end_reason)


@dataclass(frozen=True)
class GameEndRules:
    """The ruleset's game-end options. ``GameEndRules()`` is the seeds' standard: the game ends after the
    hand in play when time runs out, a chombo does not end it, nobody busts."""

    time_up_ending: str = END_AFTER_HAND
    chombo_ends_game: bool = False
    busting: bool = False  # 飛び: a player below zero ends the game

    def __post_init__(self) -> None:
        if self.time_up_ending not in TIME_UP_ENDINGS:
            raise TournamentError(
                "invalid_game_end_rules",
                _("the time-up ending is one of %(endings)s") % {"endings": ", ".join(TIME_UP_ENDINGS)},
                field="time_up_ending",
            )
        for name in ("chombo_ends_game", "busting"):
            if not isinstance(getattr(self, name), bool):
                raise TournamentError(
                    "invalid_game_end_rules",
                    # Translators: name is a ruleset option (chombo_ends_game, busting).
                    _("%(name)s must be true or false") % {"name": name},
                    field=name,
                )


def hands_after_time_up(rules: GameEndRules) -> int:
    """How many hands start after the hand in play when the round's time runs out: 0 or 1."""
    return 1 if rules.time_up_ending == ONE_MORE_HAND else 0


def game_end_reason(rules: GameEndRules, *, points: Sequence[int], chombo: bool = False) -> str | None:
    """Why the game ends after the hand that left ``points`` (the seats still playing), or None when it goes
    on: ``"chombo"`` (a chombo in that hand, under ``chombo_ends_game``), ``"busting"`` (a player below
    zero, under ``busting``)."""
    if chombo and rules.chombo_ends_game:
        return CHOMBO
    if rules.busting and any(p < 0 for p in points):
        return BUSTING
    return None


@dataclass(frozen=True)
class GameEnd:
    """A game ended before its regular end: after hand ``last_hand`` (0: before any hand was recorded, a
    chombo in the first hand), for ``reason`` (``"chombo"`` or ``"busting"``)."""

    last_hand: int
    reason: str


def game_ended_early(
    rules: GameEndRules, *, points_after: Sequence[Sequence[int]], chombo_hands: Iterable[int] = ()
) -> GameEnd | None:
    """Where the game ends before its regular end, or None. ``points_after[i]`` are the points of the seats
    playing hand ``i + 1`` once it is settled; ``chombo_hands`` the hands a chombo was called in.

    Under ``chombo_ends_game`` the game ends with the hand of its first chombo: that hand is not played out
    (nothing of it is recorded), so the last hand is the one before. Under ``busting`` it ends after the first
    hand that leaves a player below zero. Whichever comes first ends it."""
    first_chombo = min(chombo_hands, default=None) if rules.chombo_ends_game else None
    for number, points in enumerate(points_after, start=1):
        if first_chombo is not None and number >= first_chombo:
            break
        if game_end_reason(rules, points=points) == BUSTING:
            return GameEnd(number, BUSTING)
    if first_chombo is not None:
        return GameEnd(first_chombo - 1, CHOMBO)
    return None


def last_hand_after_time_up(rules: GameEndRules, *, hand_in_play: int) -> int:
    """The game's last hand when the round's time ran out during hand ``hand_in_play``: that hand, or the
    one after it (``one_more_hand``)."""
    return hand_in_play + hands_after_time_up(rules)


def game_over_message(end: GameEnd) -> str:
    """Why no hand follows the game's end before its regular end (a chombo, busting), in the active language."""
    if end.reason == CHOMBO:
        # Translators: hand is the hand a chombo was called in.
        return _(
            "the game ended with the chombo 錯和 of hand %(hand)s (under this ruleset a chombo ends the game): no "
            "hand is recorded from it on"
        ) % {"hand": end.last_hand + 1}
    # Translators: hand is the hand that left a player below zero.
    return _("the game ended after hand %(hand)s: a player is below zero (busting 飛び); no hand follows it") % {
        "hand": end.last_hand
    }


@dataclass(frozen=True)
class TimeUp:
    """The round's time ran out while hand ``hand_in_play`` was played: the game's last hand is ``last_hand``
    (that hand, or one more under ``one_more_hand``) unless it ends before."""

    hand_in_play: int
    last_hand: int

    @property
    def one_more_hand(self) -> bool:
        return self.last_hand > self.hand_in_play


def time_up(rules: GameEndRules, *, hands_before: int) -> TimeUp:
    """The time-up of a game whose ``hands_before`` hands were over when the round's time ran out."""
    in_play = hands_before + 1
    return TimeUp(in_play, last_hand_after_time_up(rules, hand_in_play=in_play))
