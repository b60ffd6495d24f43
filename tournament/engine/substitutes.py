"""Substitutes 代走 in the standings: a substitute's games and penalties as the ruleset counts them.

``own``: the absent player is credited with the substitute's games and penalties as played; ``fixed``: the
absent player gets a fixed number of raw points (−15000 counts −15 game points) plus the ruleset's
substitute placement points in place of the uma (0 by default, and under the EMA and WRC presets: such a
game counts −15 in all) and last place (no advance) for each game the substitute played, and the
substitute's penalties are the substitute's alone (dropped from the standings); ``none``: the games count for
nobody. A substitute is never ranked.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from .standings import GameRecord, PenaltyDeduction

OWN, FIXED, NONE = "own", "fixed", "none"
RULES = (OWN, FIXED, NONE)


def substitute_credit(
    games: list[GameRecord],
    deductions: list[PenaltyDeduction],
    substitutes: Mapping,
    rule: str,
    fixed_points: int,
    fixed_uma: Fraction | int = 0,
) -> tuple[list[GameRecord], list[PenaltyDeduction]]:
    """The games and penalties as they count in the standings: a substitute's go to the absent player
    (``own``: as played; ``fixed``: ``fixed_points`` raw points, ``fixed_uma`` placement points and last
    place, its penalties dropped) or to nobody (``none``)."""
    if not substitutes:
        return games, deductions
    counted = [g for g in games if g.player_id not in substitutes]
    for game in games:
        absent = substitutes.get(game.player_id)
        if absent is None or rule == NONE:
            continue
        if rule == FIXED:
            fixed = Fraction(fixed_points, 1000) + Fraction(fixed_uma)
            counted.append(GameRecord(absent, game.round_number, fixed, False))
        else:
            counted.append(GameRecord(absent, game.round_number, game.game_points, game.advanced))
    kept = [d for d in deductions if d.player_id not in substitutes]
    if rule == OWN:
        kept += [
            PenaltyDeduction(substitutes[d.player_id], d.points, d.round_number)
            for d in deductions
            if d.player_id in substitutes
        ]
    return counted, kept


def substitute_credit_shift(
    played: list[Fraction], rule: str, fixed_points: int, fixed_uma: Fraction | int = 0
) -> Fraction:
    """What the standings' totals move by when the substitutes' games (their game points as ``played``) are
    credited as the ruleset says: 0 under ``own``; under ``fixed`` the fixed score of each game less what
    was played; under ``none`` minus what was played. The EMA results add it back when they check that the
    points balance."""
    made = sum(played, Fraction(0))
    if rule == OWN:
        return Fraction(0)
    if rule == FIXED:
        return (Fraction(fixed_points, 1000) + Fraction(fixed_uma)) * len(played) - made
    return -made
