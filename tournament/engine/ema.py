"""An event's results for the EMA (European Mahjong Association) ranking, MERS: base ranks, the checks a
results file must pass, points written as decimals, and the preview of an event's MERS weight.

Pure Python: the caller reads the standings and passes them in (``EmaLine``, best first).

**Base rank** (the EMA's "Basics for ranking system" page): a player's base rank in a tournament is
``1000 · (N − place) / (N − 1)``, N the number of ranked players, rounded to a whole number, half up (the
rule as the issue gives it: ``round``; the EMA's own example "number 75 out of 100 gets 252" truncates
252.5, the riichi wiki's "3rd of 16 → 867" rounds: to check against the EMA). Tied players share the
place, and so the base rank, of the better place (places 1, 2, 2, 4, 5 of 5 → 1000, 750, 750, 250, 0).
One ranked player alone gets 1000.

**MERS weight** (the EMA's "Basics for ranking system" page, update of the General Assembly of May 2017,
in force from 1 January 2018): ``weight = duration + players + countries + qualification`` with

* duration: 1 day +1, 2 days +2, 3 days +3 (ASSUMED: an event of more than 3 days counts as 3);
* players: ≤ 40 → +0, 41 to 80 → +0.5, more than 80 → +1 (substitutes count, at most 3 of them);
* countries: ≤ 5 → +0, 6 to 9 → +0.5, 10 or more → +1. ASSUMED from the page at
  mahjong-europe.org/ranking/Basicsranking.html; its older copy (Basicsranking2018.html) says 6 to 10
  → +0.5 and more than 10 → +1: the pages disagree on exactly 10 countries. ``COUNTRIES_FULL_FROM``
  holds the edge; CHECK it against the EMA's current rules page before relying on the preview;
* qualification (players must qualify to enter): +1.

It is a preview: the EMA decides an event's weight.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import TournamentError

EMA_NUMBER = re.compile(r"[0-9]{8}")  # EMA ids are 8 digits (the first two name the country's association)
MAX_SUBSTITUTES = 3  # the EMA counts at most 3 substitutes

HALF = Fraction(1, 2)
PLAYERS_HALF_FROM, PLAYERS_FULL_FROM = 41, 81
COUNTRIES_HALF_FROM, COUNTRIES_FULL_FROM = 6, 10  # the older page: 6 and 11 (see the module's docstring)
MAX_DAYS = 3


def is_ema_number(text: str) -> bool:
    return EMA_NUMBER.fullmatch(text) is not None


def base_rank(*, place: int, players: int) -> int:
    """``round(1000 · (players − place) / (players − 1))``, half up; 1000 for a field of one."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise TournamentError("invalid_players", _("the number of players is a whole number from 1"))
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= players:
        raise TournamentError(
            "invalid_place", _("a place is a whole number from 1 to %(players)s") % {"players": players}
        )
    if players == 1:
        return 1000
    exact = Fraction(1000 * (players - place), players - 1)
    return int(exact + HALF)  # non-negative: int() floors


def places_from_ranks(ranks: Sequence[int]) -> list[int]:
    """The places 1..N of rows given best first by their standings rank: equal ranks share the better
    place, the next place skips (ranks 1, 3, 3, 7 of the rows kept → places 1, 2, 2, 4)."""
    places: list[int] = []
    for index, rank in enumerate(ranks):
        if index and rank < ranks[index - 1]:
            raise TournamentError("invalid_ranks", _("the rows are not in standings order"))
        places.append(places[-1] if index and rank == ranks[index - 1] else index + 1)
    return places


def base_ranks(places: Sequence[int]) -> list[int]:
    """The base rank of each place (N = how many places are given; ties already share the better place)."""
    return [base_rank(place=place, players=len(places)) for place in places]


def points_text(value: Fraction | int) -> str:
    """Points as the EMA's pages write them: a decimal, never a fraction (``45.5``, not ``91/2``). Exact
    when the decimal ends (a denominator of 2s and 5s only: ``-12.25``); otherwise rounded to 2 places,
    half away from zero (``10/3`` → ``3.33``). ASCII minus, no thousands separator."""
    number = Fraction(value)
    sign, number = ("-" if number < 0 else ""), abs(number)
    places, denominator = 0, number.denominator
    for factor in (2, 5):
        count = 0
        while denominator % factor == 0:
            denominator //= factor
            count += 1
        places = max(places, count)
    if denominator != 1:  # the decimal never ends
        places = 2
    scaled = int(number * 10**places + (HALF if denominator != 1 else 0))
    if scaled == 0:
        sign = ""
    whole, part = divmod(scaled, 10**places)
    return f"{sign}{whole}" + (f".{part:0{places}d}" if places else "")


@dataclass(frozen=True, slots=True)
class EmaLine:
    """One player of the standings, as read (best first)."""

    entry_id: int
    rank: int  # the standings rank (art. 41): equal players share it
    name: str  # the name shown in the standings
    last_name: str
    first_name: str
    ema_number: str  # empty: not an EMA member
    country: str  # ISO 3166-1 alpha-2
    points: Fraction  # game points after penalties


@dataclass(frozen=True, slots=True)
class EmaRow:
    """One line of the results file: the place among the ranked players and its base rank."""

    place: int
    base_rank: int
    entry_id: int
    name: str
    last_name: str
    first_name: str
    ema_number: str
    country: str
    points: Fraction

    @property
    def member(self) -> bool:
        return bool(self.ema_number)

    @property
    def points_text(self) -> str:
        return points_text(self.points)


@dataclass(frozen=True, slots=True)
class EmaProblem:
    """Why the file cannot be sent yet; ``entry_id`` names the player at fault, if one is."""

    code: str
    message: str
    entry_id: int | None = None

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "entry": self.entry_id}


@dataclass(frozen=True, slots=True)
class EmaReport:
    rows: tuple[EmaRow, ...]
    problems: tuple[EmaProblem, ...]
    imbalance: Fraction
    substitutes: int

    @property
    def non_members(self) -> tuple[EmaRow, ...]:
        """Players without an EMA number: allowed, listed as non-members."""
        return tuple(row for row in self.rows if not row.member)

    @property
    def countries(self) -> int:
        return len({row.country for row in self.rows if row.country})


def ema_report(lines: Sequence[EmaLine], *, imbalance: Fraction, substitutes: int) -> EmaReport:
    """The file's rows (places and base ranks) and every problem that forbids sending it: an EMA number
    that is not 8 digits (an empty one is a non-member: allowed), a player without a country, points that
    do not balance (``imbalance``: what the totals and penalties sum to beyond the forfeits; 0 when they
    balance), more substitutes than the EMA counts, no ranked player at all."""
    places = places_from_ranks([line.rank for line in lines])
    ranks = base_ranks(places)
    rows = tuple(
        EmaRow(
            place=place,
            base_rank=rank,
            entry_id=line.entry_id,
            name=line.name,
            last_name=line.last_name,
            first_name=line.first_name,
            ema_number=line.ema_number.strip(),
            country=line.country.upper(),
            points=Fraction(line.points),
        )
        for line, place, rank in zip(lines, places, ranks, strict=True)
    )
    problems: list[EmaProblem] = []
    if not rows:
        problems.append(EmaProblem("no_ranked_players", _("no player has a result yet")))
    for row in rows:
        if row.ema_number and not is_ema_number(row.ema_number):
            problems.append(
                EmaProblem(
                    "ema_number_invalid",
                    _("%(player)s: the EMA number %(number)s is not 8 digits (leave it empty for a non-member)")
                    % {"player": row.name, "number": row.ema_number},
                    row.entry_id,
                )
            )
        if not row.country:
            problems.append(
                EmaProblem("country_missing", _("%(player)s has no country") % {"player": row.name}, row.entry_id)
            )
    if imbalance:
        problems.append(
            EmaProblem(
                "points_unbalanced",
                _("the points do not balance: the totals with the penalties added back sum to %(sum)s, not 0")
                % {"sum": points_text(imbalance)},
            )
        )
    if substitutes > MAX_SUBSTITUTES:
        problems.append(
            EmaProblem(
                "too_many_substitutes",
                _("%(count)s substitutes played; the EMA counts at most %(most)s")
                % {"count": substitutes, "most": MAX_SUBSTITUTES},
            )
        )
    return EmaReport(rows=rows, problems=tuple(problems), imbalance=imbalance, substitutes=substitutes)


@dataclass(frozen=True, slots=True)
class MersWeight:
    """An event's MERS weight and its four parts."""

    duration: Fraction
    players: Fraction
    countries: Fraction
    qualification: Fraction

    @property
    def total(self) -> Fraction:
        return self.duration + self.players + self.countries + self.qualification


def mers_weight(*, days: int, players: int, countries: int, qualification: bool) -> MersWeight:
    """The MERS weight of an event of ``days`` days, ``players`` ranked players (substitutes included),
    ``countries`` countries, open or for qualified players only. The bands are the module docstring's."""
    for name, value, least in (("days", days, 1), ("players", players, 0), ("countries", countries, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise TournamentError(
                "invalid_mers_input",
                _("%(name)s is a whole number from %(least)s") % {"name": name, "least": least},
                field=name,
            )

    def band(count: int, half_from: int, full_from: int) -> Fraction:
        return Fraction(1) if count >= full_from else HALF if count >= half_from else Fraction(0)

    return MersWeight(
        duration=Fraction(min(days, MAX_DAYS)),
        players=band(players, PLAYERS_HALF_FROM, PLAYERS_FULL_FROM),
        countries=band(countries, COUNTRIES_HALF_FROM, COUNTRIES_FULL_FROM),
        qualification=Fraction(1 if qualification else 0),
    )
