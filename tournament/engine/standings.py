"""Overall standings (総合順位), art. 41, with penalty deductions and disqualification (art. 43).

Seed 004, art. 41: the player who advanced more often (勝ち進んだ回数) ranks higher; with equal advances
the higher total (総合点) ranks higher; equal totals too share the rank (同順位).

The precedence is an event setting: an ordered tuple of keys from ``PRECEDENCE_KEYS``, validated for
unknown and repeated keys. The default is the article's ``("advances", "total_points")``; a Swiss event
may rank by ``("total_points",)`` alone. Equal players share a rank, the next rank skips (1, 2, 2, 4).

An event may end its precedence with ``"lot"`` (抽選): players still equal are then ordered by lot, drawn from a
seeded ``random.Random`` the caller passes in (``draw_lots``: the event's seed draws the same lots again, so
the order can be checked by anyone). Without it, equal players share the rank.

Totals are game points (``Fraction``) minus penalty points (反則点, art. 37: raw points, /1000).
Disqualified players (失格, art. 43) stay listed with their rank but lose award eligibility
(受賞資格): their ``award_rank`` is None, and the players after them move up in ``award_rank``.

A full recompute of 10,000 players × 10 rounds runs well under the 2 s budget: totals are summed as
integers over one common denominator, and the sort compares integers (``benchmarks/standings.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import TournamentError

PRECEDENCE_KEYS = (
    "advances",  # 勝ち進んだ回数
    "total_points",  # 総合点
    "lot",  # 抽選: ties broken by lot (the last key only)
)
DEFAULT_PRECEDENCE = ("advances", "total_points")
THOUSAND = 1000


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of one player: the round, its game points and whether the player advanced."""

    player_id: Hashable
    round_number: int
    game_points: Fraction
    advanced: bool


@dataclass(frozen=True, slots=True)
class PenaltyDeduction:
    """Penalty points (反則点) to subtract, in raw points (e.g. 400 = 100 × 4 players)."""

    player_id: Hashable
    points: int
    round_number: int | None = None


@dataclass(frozen=True)
class StandingsOptions:
    precedence: tuple[str, ...] = DEFAULT_PRECEDENCE

    def __post_init__(self) -> None:
        precedence = tuple(self.precedence)
        if not precedence:
            raise TournamentError("empty_precedence", _("the precedence needs at least one key"), field="precedence")
        for key in precedence:
            if key not in PRECEDENCE_KEYS:
                raise TournamentError(
                    "unknown_precedence_key",
                    _("unknown precedence key %(key)s; known: %(known)s")
                    % {"key": repr(key), "known": ", ".join(PRECEDENCE_KEYS)},
                    field="precedence",
                )
        if len(set(precedence)) != len(precedence):
            raise TournamentError("duplicate_precedence_key", _("a precedence key is repeated"), field="precedence")
        if "lot" in precedence[:-1] or precedence == ("lot",):
            raise TournamentError(
                "lot_not_last", _("the lot breaks the ties the other keys leave: it comes last"), field="precedence"
            )
        object.__setattr__(self, "precedence", precedence)


@dataclass(frozen=True, slots=True)
class StandingRow:
    player_id: Hashable
    rank: int  # 1-based; ties share (1, 2, 2, 4)
    award_rank: int | None  # rank among award-eligible players; None when disqualified (失格)
    advances: int
    total_points: Fraction  # game points minus penalty points / 1000
    games: int
    penalty_points: int  # raw points deducted (反則点)
    disqualified: bool
    history: tuple[GameRecord, ...]  # in round order


def draw_lots(player_ids: Sequence[Hashable], rng: random.Random) -> dict[Hashable, int]:
    """Each player's lot number (1 draws first) for the ties a ``"lot"`` precedence breaks: ``player_ids``
    shuffled with ``rng``. Give the players in a stable order (by id) and a seeded ``rng``: the same seed and
    players draw the same lots."""
    drawn = list(player_ids)
    rng.shuffle(drawn)
    return {player_id: number for number, player_id in enumerate(drawn, start=1)}


def compute_standings(
    player_ids: Sequence[Hashable],
    games: Iterable[GameRecord],
    deductions: Iterable[PenaltyDeduction] = (),
    disqualified: Collection[Hashable] = frozenset(),
    options: StandingsOptions | None = None,
    lots: Mapping[Hashable, int] | None = None,
) -> tuple[StandingRow, ...]:
    """Rank every player of the event; rows come out in standing order (ties in ``player_ids`` order).
    ``lots``: each player's lot number (``draw_lots``), needed when the precedence ends with ``"lot"``."""
    options = options or StandingsOptions()
    if "lot" in options.precedence and (lots is None or any(p not in lots for p in player_ids)):
        raise TournamentError("lots_missing", _("ties by lot need every player's lot"), field="lots")
    index_of = {player_id: i for i, player_id in enumerate(player_ids)}
    if len(index_of) != len(player_ids):
        raise TournamentError("duplicate_player", _("a player is listed twice"), field="player_ids")
    count = len(player_ids)
    histories: list[list[GameRecord]] = [[] for _ in range(count)]
    advances = [0] * count
    denominators: set[int] = {THOUSAND}
    for record in games:
        i = index_of.get(record.player_id)
        if i is None:
            raise TournamentError(
                "unknown_player",
                _("game for unknown player %(player)s") % {"player": repr(record.player_id)},
                field="games",
            )
        points = record.game_points
        if points.__class__ is not Fraction and (points.__class__ is not int):
            raise TournamentError("invalid_game_points", _("game points are an integer or a Fraction"), field="games")
        histories[i].append(record)
        if record.advanced:
            advances[i] += 1
        denominators.add(points.denominator)

    # Sum exactly as integers over one common denominator: far faster than adding Fractions one by one.
    common = math.lcm(*denominators)
    scaled = [0] * count
    for i, history in enumerate(histories):
        scaled[i] = sum(r.game_points.numerator * (common // r.game_points.denominator) for r in history)
    penalty_points = [0] * count
    for deduction in deductions:
        i = index_of.get(deduction.player_id)
        if i is None:
            raise TournamentError(
                "unknown_player",
                _("penalty for unknown player %(player)s") % {"player": repr(deduction.player_id)},
            )
        if isinstance(deduction.points, bool) or not isinstance(deduction.points, int) or deduction.points < 0:
            raise TournamentError("invalid_penalty_points", _("penalty points are a non-negative integer"))
        penalty_points[i] += deduction.points
    per_point = common // THOUSAND
    for i in range(count):
        scaled[i] -= penalty_points[i] * per_point

    key_columns = {"advances": advances, "total_points": scaled}
    if lots is not None and "lot" in options.precedence:
        key_columns["lot"] = [-lots[player_id] for player_id in player_ids]  # lot 1 first
    columns = [key_columns[key] for key in options.precedence]
    keys = [tuple(column[i] for column in columns) for i in range(count)]
    order = sorted(range(count), key=keys.__getitem__, reverse=True)
    # sorted(reverse=True) keeps equal keys in input order, so ties list in player_ids order.

    excluded = set(disqualified)
    rows = []
    rank = award_rank = eligible_seen = 0
    previous_key = previous_award_key = None
    for position, i in enumerate(order):
        key = keys[i]
        if key != previous_key:
            rank = position + 1
            previous_key = key
        player_id = player_ids[i]
        is_out = player_id in excluded
        if is_out:
            this_award_rank = None
        else:
            if key != previous_award_key:
                award_rank = eligible_seen + 1
                previous_award_key = key
            eligible_seen += 1
            this_award_rank = award_rank
        history = histories[i]
        history.sort(key=_round_of)
        rows.append(
            StandingRow(
                player_id=player_id,
                rank=rank,
                award_rank=this_award_rank,
                advances=advances[i],
                total_points=Fraction(scaled[i], common),
                games=len(history),
                penalty_points=penalty_points[i],
                disqualified=is_out,
                history=tuple(history),
            )
        )
    return tuple(rows)


def _round_of(record: GameRecord) -> int:
    return record.round_number
