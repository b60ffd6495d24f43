"""A rating for four-player games: Elo generalised to placements.

A game with n players (4, or 3 at a three-player table) is read as the n·(n − 1)/2 pairs of its players:
in each pair the better placed player wins (score 1), the other loses (0); a tie at the table is a draw
(1/2 each). Each pair is an Elo game:

    expected  E_ab = 1 / (1 + 10^((R_b − R_a) / 400))
    change    Δ_ab = K / (n − 1) · (S_ab − E_ab)      (Δ_ba = −Δ_ab)

and a player's change in the game is the sum over the other n − 1 players: dividing by n − 1 keeps a whole
game worth one two-player Elo game (a first place against three equals moves at most K). Ratings start at
1500; K = 32. Every player's change is computed from the ratings before the game; the games of an event
are taken round by round (the tables of one round share no player), the events in the series' order.

Exact and reproducible: ``decimal.Decimal`` in one context (28 digits, half even), each pair's change
rounded to 0.0001 once and given to one player with its sign and to the other with the opposite sign, so
the changes of a game sum to exactly 0, and each pair is taken in the order of its players' ids, so the
order of the seats changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext

START = Decimal(1500)
K = Decimal(32)
SCALE = Decimal(400)
QUANTUM = Decimal("0.0001")
CONTEXT = Context(prec=28, rounding=ROUND_HALF_EVEN)
ONE, HALF, ZERO = Decimal(1), Decimal("0.5"), Decimal(0)


@dataclass(frozen=True, slots=True)
class Game:
    """One table's result: (player id, place) of each player, place 1 the best (ties share a place)."""

    places: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class PlayerElo:
    player_id: int
    rating: Decimal
    games: int


def expected(rating: Decimal, other: Decimal) -> Decimal:
    """The chance that a player rated ``rating`` beats one rated ``other``."""
    with localcontext(CONTEXT):
        return ONE / (ONE + Decimal(10) ** ((other - rating) / SCALE))


def game_changes(ratings: Mapping[int, Decimal], game: Game, *, k: Decimal = K) -> dict[int, Decimal]:
    """Each player's change in ``game``, from ``ratings`` (a player not in it starts at ``START``)."""
    players = sorted(game.places)
    ids = [player for player, _ in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player sits twice at one table")
    changes = dict.fromkeys(ids, ZERO)
    if len(players) < 2:
        return changes
    with localcontext(CONTEXT):
        share = k / (len(players) - 1)
        for i, (a, place_a) in enumerate(players):
            for b, place_b in players[i + 1 :]:
                score = ONE if place_a < place_b else ZERO if place_a > place_b else HALF
                e = expected(ratings.get(a, START), ratings.get(b, START))
                delta = (share * (score - e)).quantize(QUANTUM)
                changes[a] += delta
                changes[b] -= delta
    return changes


def elo_ratings(games: Iterable[Game], *, k: Decimal = K) -> tuple[PlayerElo, ...]:
    """Every player's rating after ``games`` (in order), best first (equal ratings by player id)."""
    ratings: dict[int, Decimal] = {}
    played: dict[int, int] = {}
    for game in games:
        changes = game_changes(ratings, game, k=k)
        with localcontext(CONTEXT):
            for player, change in changes.items():
                ratings[player] = ratings.get(player, START) + change
                played[player] = played.get(player, 0) + 1
    rows = sorted(ratings.items(), key=lambda item: (-item[1], item[0]))
    return tuple(PlayerElo(player, rating, played[player]) for player, rating in rows)


def rating_text(rating: Decimal, places: int = 1) -> str:
    """A rating as the page shows it (1 decimal place, half even)."""
    with localcontext(CONTEXT):
        return str(rating.quantize(Decimal(1).scaleb(-places)))


def ranks_of(values: Sequence[Decimal]) -> list[int]:
    """Competition ranks of values given best first (equal values share a rank)."""
    ranks: list[int] = []
    for index, value in enumerate(values):
        ranks.append(ranks[-1] if index and value == values[index - 1] else index + 1)
    return ranks
