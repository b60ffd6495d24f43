"""The final (決勝戦), art. 40: what follows the last regulation hand and every overtime hand after it.

Seed 004, art. 40:

* ① if the winner (和者) of the last hand of the last regulation game is overall last (総合最下位)
  among the finalists, overtime is played as in art. 39;
* ② if the winner of that hand or of a later one is not overall last, or nobody wins, the overall last
  is eliminated (敗退);
* ③ when eliminations leave three or fewer, they play a three- or two-player game;
* ④ in a two-player game the winner whose total beats the opponent's (対戦者の総合点を上回る) is champion;
  when nobody wins, the higher total is champion;
* ⑤ a final without eliminations: from the last hand of the last game on, a player who wins by tsumo
  (模和) and beats every other total is champion; when nobody wins, the highest total is champion.

Readings:

* "Overall last" is judged on the totals after the hand (the win included). A winner tied for last is
  still last (nobody is below them), which agrees with ④'s "beats" (上回る): a tie does not decide.
* ④ applies at the same points as ①②: after the last hand of the two-player game, then after every
  overtime hand. In a two-player game ①② say the same as ④.
* ⑤: a win that does not decide (a ron, or a tsumo that does not beat every total) decides nothing;
  play goes on into overtime (art. 39), as in ①.
* A tie the seed does not resolve (two finalists tied for last when one must go; tied highest totals
  when nobody won) is left to the directors (art. 44, 大会責任者の裁定): ``directors_ruling`` with the
  tied players.
* The finalists sit at one table: 2 to 4 players.
* 「規定対局の最終戦」 (① the last of the prescribed games): the final lasts ``games`` games, an event
  setting. After an earlier one (``game`` < ``games``) nothing is decided: the same finalists play the
  next game (``next_game``). The decision comes after the last prescribed game, and after every game
  or overtime hand that follows it (a game after an elimination, 40③, is decisive at its end).
* Art. 43: a disqualified finalist (失格, ``eligible`` false) loses award eligibility (受賞資格), so is
  never champion. The decision is taken among the eligible finalists only, as if the others were not
  at the table (a disqualified winner's win decides nothing); the disqualified leave the final and are
  not in ``remaining``. When that would send the hand to overtime, the eligible finalists play on in a
  new game without them instead (40③: 三人戦ないし二人戦), since the disqualified cannot play on at
  the table. One eligible finalist left is champion; none left is the directors' ruling (art. 44).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction

from taikai.i18n import _

from .errors import TournamentError
from .overtime import FIRST_OVERTIME_HAND, OvertimeHand

FINALS_MODES = (
    "elimination",  # 敗退者を出す (40条①〜④)
    "no_elimination",  # 敗退者を出さない (40条⑤)
)
WIN_KINDS = ("ron", "tsumo")  # 栄和, 模和


@dataclass(frozen=True)
class FinalistTotal:
    """A finalist's overall total (総合点) after the hand, in game points; ``eligible`` is false for a
    disqualified finalist (失格, art. 43: award eligibility 受賞資格 lost)."""

    player_id: Hashable
    total: Fraction
    eligible: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.total, bool) or not isinstance(self.total, int | Fraction):
            raise TournamentError("invalid_total", _("a total is an integer or a Fraction"), field="total")
        object.__setattr__(self, "total", Fraction(self.total))


@dataclass(frozen=True)
class FinalsHandOutcome:
    """A decisive hand of the final: the last regulation hand (``overtime_hand`` None) or an overtime one."""

    totals: tuple[FinalistTotal, ...]
    winner: Hashable | None
    win_kind: str | None = None
    overtime_hand: OvertimeHand | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "totals", tuple(self.totals))
        ids = [t.player_id for t in self.totals]
        if not 2 <= len(ids) <= 4:
            raise TournamentError("invalid_finalists", _("a final is played by 2 to 4 players"), field="totals")
        if len(set(ids)) != len(ids):
            raise TournamentError("invalid_finalists", _("a finalist is listed twice"), field="totals")
        if self.winner is None:
            if self.win_kind is not None:
                raise TournamentError("invalid_hand_outcome", _("a drawn hand has no win kind"), field="win_kind")
            return
        if self.winner not in ids:
            raise TournamentError("invalid_hand_outcome", _("the winner is not a finalist"), field="winner")
        if self.win_kind not in WIN_KINDS:
            raise TournamentError("invalid_hand_outcome", _("win kind must be 'ron' or 'tsumo'"), field="win_kind")


@dataclass(frozen=True)
class FinalsDecision:
    """What happens next.

    * ``next_game``: not the last prescribed game yet; ``remaining`` play the next one (40①);
    * ``overtime``: play ``next_overtime_hand`` with the same players;
    * ``eliminate``: ``player_id`` is out; the others (``remaining``) play a ``next_game_players``-player game;
    * ``champion``: ``player_id`` wins the final (優勝);
    * ``directors_ruling``: a tie among ``tied`` the seed does not resolve (art. 44).

    ``disqualified`` lists the finalists out of the final by art. 43 (never champion, not in
    ``remaining``); ``reason`` says why, for the referee's screen.
    """

    kind: str
    reason: str
    player_id: Hashable | None = None
    remaining: tuple[Hashable, ...] = ()
    next_game_players: int | None = None
    next_overtime_hand: OvertimeHand | None = None
    tied: tuple[Hashable, ...] = ()
    disqualified: tuple[Hashable, ...] = ()


def decide_final(
    outcome: FinalsHandOutcome, *, mode: str = "elimination", game: int = 1, games: int = 1
) -> FinalsDecision:
    """Art. 40 after the last hand of game ``game`` of the ``games`` prescribed (or an overtime hand):
    the next prescribed game, overtime, elimination, champion or a directors' ruling, taken among the
    finalists not disqualified (art. 43)."""
    if mode not in FINALS_MODES:
        raise TournamentError(
            "invalid_finals_mode",
            _("mode must be one of %(modes)s") % {"modes": ", ".join(FINALS_MODES)},
            field="mode",
        )
    for name, value in (("games", games), ("game", game)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise TournamentError(
                "invalid_final_games",
                # Translators: name is a field name: games (the prescribed games) or game (this game).
                _("%(name)s is a whole number from 1") % {"name": name},
                field=name,
            )
    eligible = tuple(t for t in outcome.totals if t.eligible)
    disqualified = tuple(t.player_id for t in outcome.totals if not t.eligible)
    if not eligible:
        return FinalsDecision(
            kind="directors_ruling",
            disqualified=disqualified,
            reason=_("every finalist is disqualified (art. 43); the directors decide (art. 44)"),
        )
    if len(eligible) == 1:
        return replace(
            _champion(
                outcome,
                eligible[0].player_id,
                _("the only finalist not disqualified (art. 43: the others lost award eligibility)"),
            ),
            disqualified=disqualified,
        )
    if game < games and outcome.overtime_hand is None:
        if disqualified:
            reason = _(
                "game %(game)s of the %(games)s prescribed games (40① 規定対局): the decision comes "
                "after the last one; %(count)s disqualified (art. 43) leave the final"
            )
        else:
            reason = _(
                "game %(game)s of the %(games)s prescribed games (40① 規定対局): the decision comes after the last one"
            )
        return FinalsDecision(
            kind="next_game",
            remaining=tuple(t.player_id for t in eligible),
            next_game_players=len(eligible),
            disqualified=disqualified,
            reason=reason % {"game": game, "games": games, "count": len(disqualified)},
        )
    if not disqualified:
        return _decide(outcome, mode)
    winner_eligible = outcome.winner is not None and outcome.winner not in disqualified
    among = FinalsHandOutcome(
        totals=eligible,
        winner=outcome.winner if winner_eligible else None,
        win_kind=outcome.win_kind if winner_eligible else None,
        overtime_hand=outcome.overtime_hand,
    )
    decision = _decide(among, mode)
    if outcome.winner in disqualified:
        note = _(
            "decided among the finalists not disqualified (art. 43; the disqualified winner's win decides nothing)"
        )
    else:
        note = _("decided among the finalists not disqualified (art. 43)")
    parts = {"reason": decision.reason, "note": note}
    if decision.kind == "overtime":
        return FinalsDecision(
            kind="eliminate",
            player_id=disqualified[0],
            remaining=decision.remaining,
            next_game_players=len(decision.remaining),
            disqualified=disqualified,
            # Translators: reason is the rule's decision (a clause), note says it was taken without the
            # disqualified finalists.
            reason=_(
                "%(reason)s, %(note)s; the disqualified cannot play on at this table, so the others "
                "play a new game without them (40③)"
            )
            % parts,
        )
    # Translators: reason is the rule's decision (a clause), note says it was taken without the
    # disqualified finalists.
    return replace(decision, reason=_("%(reason)s, %(note)s") % parts, disqualified=disqualified)


def _decide(outcome: FinalsHandOutcome, mode: str) -> FinalsDecision:
    if mode == "no_elimination":
        return _decide_without_elimination(outcome)
    if len(outcome.totals) == 2:
        return _decide_two_player(outcome)
    return _decide_with_elimination(outcome)


def _decide_with_elimination(outcome: FinalsHandOutcome) -> FinalsDecision:
    """40条①②③ with three or four finalists."""
    totals = outcome.totals
    if outcome.winner is not None and _is_overall_last(totals, outcome.winner):
        return _overtime(outcome, _("the winner is overall last (40条①)"))
    lowest = min(t.total for t in totals)
    last = tuple(t.player_id for t in totals if t.total == lowest)
    if len(last) > 1:
        return FinalsDecision(
            kind="directors_ruling",
            reason=_("finalists tied for overall last; the seed does not say who is eliminated (art. 44)"),
            tied=last,
        )
    remaining = tuple(t.player_id for t in totals if t.player_id != last[0])
    if outcome.winner is None:
        reason = _("nobody won: the overall last is eliminated (40条②), the rest play on (40条③)")
    else:
        reason = _("the winner is not overall last: the overall last is eliminated (40条②), the rest play on (40条③)")
    return FinalsDecision(
        kind="eliminate",
        reason=reason,
        player_id=last[0],
        remaining=remaining,
        next_game_players=len(remaining),
    )


def _decide_two_player(outcome: FinalsHandOutcome) -> FinalsDecision:
    """40条④: the winner beating the opponent's total, or the higher total when nobody wins."""
    if outcome.winner is None:
        return _highest_total_champion(outcome, _("nobody won: the higher total is champion (40条④)"))
    winner_total = _total_of(outcome.totals, outcome.winner)
    opponent_total = next(t.total for t in outcome.totals if t.player_id != outcome.winner)
    if winner_total > opponent_total:
        return _champion(outcome, outcome.winner, _("the winner beats the opponent's total (40条④)"))
    return _overtime(outcome, _("the winner does not beat the opponent's total (40条④ with 40条①)"))


def _decide_without_elimination(outcome: FinalsHandOutcome) -> FinalsDecision:
    """40条⑤: only a tsumo beating every other total decides; nobody winning: the highest total."""
    if outcome.winner is None:
        return _highest_total_champion(outcome, _("nobody won: the highest total is champion (40条⑤)"))
    winner_total = _total_of(outcome.totals, outcome.winner)
    beats_everyone = all(t.total < winner_total for t in outcome.totals if t.player_id != outcome.winner)
    if outcome.win_kind == "tsumo" and beats_everyone:
        return _champion(outcome, outcome.winner, _("a tsumo win beating every total (40条⑤)"))
    if outcome.win_kind == "ron":
        return _overtime(outcome, _("a ron win does not decide (40条⑤); play goes on"))
    return _overtime(outcome, _("the tsumo does not beat every total (40条⑤); play goes on"))


def _is_overall_last(totals: tuple[FinalistTotal, ...], player_id: Hashable) -> bool:
    mine = _total_of(totals, player_id)
    return all(t.total >= mine for t in totals)


def _total_of(totals: tuple[FinalistTotal, ...], player_id: Hashable) -> Fraction:
    return next(t.total for t in totals if t.player_id == player_id)


def _overtime(outcome: FinalsHandOutcome, reason: str) -> FinalsDecision:
    following = FIRST_OVERTIME_HAND if outcome.overtime_hand is None else outcome.overtime_hand.next()
    return FinalsDecision(
        kind="overtime",
        reason=reason,
        remaining=tuple(t.player_id for t in outcome.totals),
        next_game_players=len(outcome.totals),
        next_overtime_hand=following,
    )


def _champion(outcome: FinalsHandOutcome, player_id: Hashable, reason: str) -> FinalsDecision:
    return FinalsDecision(kind="champion", reason=reason, player_id=player_id, remaining=(player_id,))


def _highest_total_champion(outcome: FinalsHandOutcome, reason: str) -> FinalsDecision:
    highest = max(t.total for t in outcome.totals)
    top = tuple(t.player_id for t in outcome.totals if t.total == highest)
    if len(top) > 1:
        return FinalsDecision(
            kind="directors_ruling",
            reason=_("nobody won and the highest totals are tied; the seed does not break the tie (art. 44)"),
            tied=top,
        )
    return _champion(outcome, top[0], reason)
