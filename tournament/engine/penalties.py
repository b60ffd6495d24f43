"""Fouls and their consequences, seed 004 arts. 35, 36, 37, 38 ⑤ and 43 (反則, 失格).

* art. 35 ① revealing one's hand on purpose without a claim or a win → loses the right to ron
  (栄和) for the hand; claims (拾) and tsumo (模和) stay allowed.
* art. 36 ① drawing or discarding out of turn, ② a wrong draw or discard that leaves a wrong hand size
  → loses the right to claim (拾) and to win (和) for the hand.
* art. 36 ③ wrecking wall or river beyond recovery → the hand is stopped and replayed from the shuffle
  (洗札から対局を再開). Reading: the article sits under the heading 「拾 和の権利を失う反則」 (fouls that
  lose the right to claim and to win), so the offender also has no claim (拾) and no win (和) in the
  replayed hand; without that, wrecking the wall would buy a free reshuffle. The loss holds in the hand
  played from the shuffle, through any further replays of it (``carries_to_replay``).
* art. 37 ① a deliberate foul (swapping tiles, ...) → penalty points (反則点) = 100 × the players at
  the table (the unit is an event setting, 100 by default). They are a deduction from the offender's
  total, not paid to the other players.
* art. 38 ⑤ the time bank reaching 0 → loses the right to claim and to win for the hand and discards
  every drawn tile until the hand ends.
* art. 43 a penalty-point foul in tournament play (大会戦), or conduct the director judges egregious
  (著しく悪質) → disqualification (失格), award eligibility included.
* chombo 錯和 (チョンボ: a false win or a similar foul), not an article of seed 004 but a ruleset's rule (the
  EMA and WRC rules): the ruleset's ``chombo_points`` against the offender's overall total, nothing paid at
  the table; the hand is not played out: the game ends with it under ``chombo_ends_game`` (it is not
  recorded), otherwise it is replayed from the shuffle (recorded as replayed). Only a ruleset that sets
  ``chombo_points`` plays it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from taikai.i18n import LazyText, _, gettext_lazy

from .errors import TournamentError

DEFAULT_PENALTY_UNIT = 100  # 反則点の単位 (points per player at the table)


class PenaltyKind(StrEnum):
    REVEALED_HAND = "art35_revealed_hand"  # 35条① 故意に手札を公開
    OUT_OF_TURN = "art36_out_of_turn"  # 36条① 手番以外で取札・捨札
    WRONG_HAND_SIZE = "art36_wrong_hand_size"  # 36条② 手札の過不足
    WALL_WRECKED = "art36_wall_wrecked"  # 36条③ 山や川をくずす
    DELIBERATE_FOUL = "art37_deliberate_foul"  # 37条① 意図的な反則
    CLOCK_FLAG = "art38_clock_flag"  # 38条⑤ 持ち時間切れ
    EGREGIOUS_CONDUCT = "art43_egregious_conduct"  # 43条 著しく悪質な行動
    CHOMBO = "chombo"  # 錯和: the ruleset's penalty (chombo_points), not an article of seed 004


WIN_KINDS = ("ron", "tsumo")  # 栄和, 模和


@dataclass(frozen=True)
class PenaltyEffect:
    """What a foul does: the rights lost for the hand, a replay, penalty points, disqualification."""

    kind: PenaltyKind
    article: str
    _title: LazyText  # read as ``title``, in the active language
    loses_ron: bool = False  # 栄和の権利
    loses_tsumo: bool = False  # 模和の権利
    loses_claim: bool = False  # 拾の権利
    replays_hand: bool = False  # 洗札から対局を再開
    carries_to_replay: bool = False  # the rights lost hold in the hand replayed from the shuffle too
    has_penalty_points: bool = False  # 反則点
    disqualifies: bool = False  # 失格
    ruleset_points: bool = False  # the ruleset's points (chombo_points) against the overall total

    @property
    def title(self) -> str:
        """The foul, in a few words, in the active language."""
        return str(self._title)

    @property
    def article_fields(self) -> dict[str, str]:
        """The article for a message: ``number`` and ``paragraph`` ("35①" → "35", "①"; "43" → "43", ""; none for a
        ruleset's foul)."""
        number = self.article.rstrip("①②③④⑤⑥⑦⑧⑨⑩")
        return {"number": number, "paragraph": self.article[len(number) :]}

    @property
    def loses_win(self) -> bool:
        return self.loses_ron and self.loses_tsumo

    @property
    def applies_to_hand(self) -> bool:
        """Its consequence is for one hand (rights lost, or the hand replayed): it names table and hand."""
        return self.loses_ron or self.loses_tsumo or self.loses_claim or self.replays_hand

    @property
    def lost_wins(self) -> frozenset[str]:
        """The wins (ron 栄和, tsumo 模和) the foul takes away for its hand."""
        return frozenset(win for win, lost in (("ron", self.loses_ron), ("tsumo", self.loses_tsumo)) if lost)

    @property
    def consequence(self) -> str:
        """What the foul does, in a few words (the labels of the organizer's and referee's screens)."""
        if self.ruleset_points:
            return _("the ruleset's chombo points against the overall total; the game ends or the hand is replayed")
        if self.replays_hand:
            return _("hand replayed; the offender loses claim and win in the replay")
        if self.has_penalty_points:
            return _("penalty points (unit × players)")
        if self.loses_claim and self.loses_win:
            return _("loses claim and win for the hand")
        if self.loses_ron:
            return _("loses ron for the hand")
        if self.disqualifies:
            return _("disqualification")
        # Translators: the consequence of a foul that is only written down.
        return _("recorded")

    @property
    def label(self) -> str:
        if not self.article:
            # Translators: title names the foul (chombo 錯和), consequence says what it does.
            return _("%(title)s — %(consequence)s") % {"title": self.title, "consequence": self.consequence}
        # Translators: number and paragraph make the article ("35", "①"); title names the foul,
        # consequence says what it does.
        return _("Art. %(number)s%(paragraph)s %(title)s — %(consequence)s") % {
            **self.article_fields,
            "title": self.title,
            "consequence": self.consequence,
        }


PENALTY_EFFECTS: dict[PenaltyKind, PenaltyEffect] = {
    effect.kind: effect
    for effect in (
        PenaltyEffect(
            PenaltyKind.REVEALED_HAND,
            "35①",
            gettext_lazy("hand revealed on purpose (手札公開)"),
            loses_ron=True,
        ),
        PenaltyEffect(
            PenaltyKind.OUT_OF_TURN,
            "36①",
            gettext_lazy("draw or discard out of turn (手番外の取札・捨札)"),
            loses_ron=True,
            loses_tsumo=True,
            loses_claim=True,
        ),
        PenaltyEffect(
            PenaltyKind.WRONG_HAND_SIZE,
            "36②",
            gettext_lazy("wrong hand size after a wrong draw or discard (手札の過不足)"),
            loses_ron=True,
            loses_tsumo=True,
            loses_claim=True,
        ),
        PenaltyEffect(
            PenaltyKind.WALL_WRECKED,
            "36③",
            gettext_lazy("wall or river wrecked beyond recovery (山・川の崩壊)"),
            loses_ron=True,
            loses_tsumo=True,
            loses_claim=True,
            replays_hand=True,
            carries_to_replay=True,
        ),
        PenaltyEffect(
            PenaltyKind.DELIBERATE_FOUL,
            "37①",
            gettext_lazy("deliberate foul (意図的な反則)"),
            has_penalty_points=True,
            disqualifies=True,
        ),
        PenaltyEffect(
            PenaltyKind.CLOCK_FLAG,
            "38⑤",
            gettext_lazy("time bank exhausted (持ち時間切れ)"),
            loses_ron=True,
            loses_tsumo=True,
            loses_claim=True,
        ),
        PenaltyEffect(
            PenaltyKind.EGREGIOUS_CONDUCT,
            "43",
            gettext_lazy("egregious conduct judged by the director (著しく悪質な行動)"),
            disqualifies=True,
        ),
        PenaltyEffect(
            PenaltyKind.CHOMBO,
            "",
            gettext_lazy("chombo (錯和)"),
            replays_hand=True,
            ruleset_points=True,
        ),
    )
}


def penalty_effect(kind: PenaltyKind | str) -> PenaltyEffect:
    """The effect of a foul; raises ``unknown_penalty_kind`` for a name that is not one."""
    try:
        return PENALTY_EFFECTS[PenaltyKind(kind)]
    except ValueError:
        raise TournamentError(
            "unknown_penalty_kind", _("unknown penalty kind %(kind)s") % {"kind": repr(kind)}, field="kind"
        ) from None


def penalty_points(kind: PenaltyKind | str, players_at_table: int, unit: int = DEFAULT_PENALTY_UNIT) -> int:
    """Art. 37: penalty points (反則点) = unit × players at the table; 0 for fouls without points."""
    if isinstance(players_at_table, bool) or players_at_table not in (2, 3, 4):
        raise TournamentError(
            "invalid_players_at_table", _("players at the table must be 2, 3 or 4"), field="players_at_table"
        )
    if isinstance(unit, bool) or not isinstance(unit, int) or unit <= 0:
        raise TournamentError("invalid_penalty_unit", _("the penalty unit must be a positive integer"), field="unit")
    return unit * players_at_table if penalty_effect(kind).has_penalty_points else 0


def _effects(penalties_for_seat_in_hand: Iterable[PenaltyKind | str]) -> list[PenaltyEffect]:
    return [penalty_effect(kind) for kind in penalties_for_seat_in_hand]


def _describe(effect: PenaltyEffect) -> str:
    if not effect.article:
        return effect.title
    # Translators: number and paragraph make the article ("35", "①"); title names the foul.
    return _("art. %(number)s%(paragraph)s %(title)s") % {**effect.article_fields, "title": effect.title}


def check_win_allowed(penalties_for_seat_in_hand: Iterable[PenaltyKind | str], win_kind: str) -> None:
    """Raise ``win_forbidden_by_penalty`` if a foul of this hand took away the right to this win.

    ``win_kind`` is ``"ron"`` (栄和) or ``"tsumo"`` (模和). The message names the first such foul.
    """
    if win_kind not in WIN_KINDS:
        raise TournamentError("invalid_win_kind", _("win kind must be 'ron' or 'tsumo'"), field="win_kind")
    for effect in _effects(penalties_for_seat_in_hand):
        if effect.loses_ron if win_kind == "ron" else effect.loses_tsumo:
            if win_kind == "ron":
                # Translators: foul names the article and the foul ("art. 35① hand revealed on purpose").
                message = _("no ron this hand: the right was lost by %(foul)s")
            else:
                # Translators: foul names the article and the foul ("art. 36① draw or discard out of turn").
                message = _("no tsumo this hand: the right was lost by %(foul)s")
            raise TournamentError("win_forbidden_by_penalty", message % {"foul": _describe(effect)}, field="win_kind")


def check_claim_allowed(penalties_for_seat_in_hand: Iterable[PenaltyKind | str]) -> None:
    """Raise ``claim_forbidden_by_penalty`` if a foul of this hand took away the right to claim (拾)."""
    for effect in _effects(penalties_for_seat_in_hand):
        if effect.loses_claim:
            raise TournamentError(
                "claim_forbidden_by_penalty",
                # Translators: foul names the article and the foul ("art. 36① draw or discard out of turn").
                _("no claim this hand: the right was lost by %(foul)s") % {"foul": _describe(effect)},
            )


def fouls_in_force(
    own_hand: Iterable[PenaltyKind | str], replayed_before: Iterable[Iterable[PenaltyKind | str]] = ()
) -> list[PenaltyKind]:
    """The fouls whose rights hold in a hand: those logged for it, and those of the hands just before it
    that were stopped and replayed (``replayed_before``, nearest first) whose loss carries into the
    replay (art. 36 ③: the offender has no claim and no win in the hand played from the shuffle)."""
    kinds = [penalty_effect(kind).kind for kind in own_hand]
    for hand_kinds in replayed_before:
        kinds += [effect.kind for effect in _effects(hand_kinds) if effect.carries_to_replay]
    return kinds


def hand_must_be_replayed(penalties_in_hand: Iterable[PenaltyKind | str]) -> bool:
    """Art. 36 ③: a wrecked wall or river stops the hand; it is replayed from the shuffle."""
    return any(effect.replays_hand for effect in _effects(penalties_in_hand))


def is_disqualifying(kind: PenaltyKind | str, *, tournament_play: bool = True) -> bool:
    """Art. 43: a penalty-point foul disqualifies in tournament play (大会戦); so does egregious conduct.

    Egregious conduct is the director's judgement, so it disqualifies wherever it is recorded.
    """
    effect = penalty_effect(kind)
    if effect.kind is PenaltyKind.EGREGIOUS_CONDUCT:
        return True
    return effect.disqualifies and tournament_play


def disqualifying_penalty(
    penalties_for_player: Iterable[PenaltyKind | str], *, tournament_play: bool = True
) -> PenaltyKind | None:
    """The first foul that disqualifies the player under art. 43, or None."""
    for kind in penalties_for_player:
        if is_disqualifying(kind, tournament_play=tournament_play):
            return PenaltyKind(kind)
    return None
