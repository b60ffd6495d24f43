"""The EMA ranking (MERS) projected from the events held here: each player's ranking score, with its Part A
and Part B, as the European Mahjong Association computes it from tournament results.

What this follows, and where the sources disagree
-------------------------------------------------

* **Result** of a player in an event: the EMA base rank ``round(1000·(N − place)/(N − 1))`` (tied players
  share the better place), from :func:`tournament.engine.ema.base_rank`.
* **Weight** of a result: the event's MERS weight × its age factor on the day of reckoning ``as_of``: 1 for
  an event ended in the last 12 months, 1/2 for one ended in the 12 months before, 0 (left out) for an older
  one (the EMA's ranking pages since the update of 1 January 2018, the UK association's explanation of MERS,
  and a community re-implementation checked against the published ranking all say 1, 0.5, 0). The riichi
  wiki's older page (2014) says full weight 12 months, then 2/3, then 1/3 until three years: the system
  before 2018, not followed. An event ended on the day exactly one year before ``as_of`` still weighs 1;
  exactly two years before, 1/2 (the sources do not say; ASSUMED). The MERS weight is the preview of
  :func:`tournament.engine.ema.mers_weight` for an open event: the EMA decides the real one.
* **Results counted**: only results of weight > 0. A player with fewer than 2 is not ranked (the
  re-implementation; the riichi wiki: "players with only one active tournament are not listed").
* **Padding**: a player with fewer than 5 results gets results of 0 with weight 1 up to 5 (all sources).
* **Part A**: the weighted average ``Σ(result·weight)/Σ weight`` of the best ``5 + ceil(0.8·(n − 5))``
  results (n: the results counted, padding included; with n ≤ 5 all of them). The UK explanation says it
  in other words (with 10, 15, 20 … results the worst 1, 2, 3 … are left out): the same numbers.
* **Part B**: the weighted average of the best 4 results (padding included). The 2014 wiki says best 3:
  the old system, not followed.
* **Best**: by result, then (equal results) the heavier weight, as the re-implementation orders them; the
  UK page notes that the EMA picks by result, never by weight (so a heavy poor result can be picked over a
  light one): followed.
* **Ranking score** = (Part A + Part B) / 2. Players are ranked by it, best first; equal scores share the
  rank.

Sources read: the EMA's "Ranking overview" (mahjong-europe.org/ranking/RankingOverview.html, update of the
General Assembly of 25 May 2017, in force from 1 January 2018, pointing to its "Basics" page); the UK Mahjong
Association's re-explanation of MERS (github.com/tomp31/RiichiUKRankingSystem, ``mers-vs-rukrs.md``); a public
re-implementation of the ranking (its ``PlayerRankingEngine``, which compares itself with the EMA's published
ranks); riichi.wiki and arcturus.su "European Ranking System" (2014, the older system). The EMA's own rules page
itself was not in the sources at hand: CHECK the details above against it before relying on the projection.

Everything is exact (``Fraction``); the pages show decimals with 2 places, as the EMA does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

MIN_RESULTS = 5  # padded up to this with results of 0, weight 1
PART_B_RESULTS = 4
MIN_TO_RANK = 2
HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class RankedResult:
    """One player's base rank in one event, with the event's MERS weight and last day."""

    event_id: int
    player_id: int
    base_rank: int  # 0 to 1000
    mers: Fraction  # the event's MERS weight
    ends_on: date


@dataclass(frozen=True, slots=True)
class WeightedResult:
    event_id: int | None  # None: a padding result (0, weight 1)
    base_rank: int
    weight: Fraction  # MERS weight × age factor
    in_part_a: bool
    in_part_b: bool


@dataclass(frozen=True, slots=True)
class EmaRanking:
    rank: int
    player_id: int
    score: Fraction
    part_a: Fraction
    part_b: Fraction
    results: int  # results counted (weight > 0), padding left out
    part_a_count: int  # how many results Part A averages (padding included)
    detail: tuple[WeightedResult, ...]  # best first, padding included


def years_before(day: date, years: int) -> date:
    """The same day ``years`` years earlier (29 February → 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def age_factor(ends_on: date, as_of: date) -> Fraction:
    """1 for an event ended within the year before ``as_of``, 1/2 within the year before that, else 0 (an
    event ending after ``as_of`` is not yet counted: 0)."""
    if ends_on > as_of:
        return Fraction(0)
    if ends_on >= years_before(as_of, 1):
        return Fraction(1)
    if ends_on >= years_before(as_of, 2):
        return HALF
    return Fraction(0)


def part_a_count(results: int) -> int:
    """``5 + ceil(0.8·(n − 5))`` for n > 5, else n (n counts the padding: at least 5)."""
    if results <= MIN_RESULTS:
        return results
    return MIN_RESULTS + -(-4 * (results - MIN_RESULTS) // 5)


def weighted_average(rows: Sequence[tuple[int, Fraction]]) -> Fraction:
    weight = sum((w for _, w in rows), Fraction(0))
    return sum((Fraction(r) * w for r, w in rows), Fraction(0)) / weight


def ema_ranking(results: Sequence[RankedResult], *, as_of: date) -> tuple[EmaRanking, ...]:
    """Every player with at least 2 results of weight > 0 on ``as_of``, best first."""
    by_player: dict[int, list[tuple[int, Fraction, int]]] = {}
    for result in results:
        if not 0 <= result.base_rank <= 1000:
            raise ValueError("a base rank is from 0 to 1000")
        weight = Fraction(result.mers) * age_factor(result.ends_on, as_of)
        if weight > 0:
            by_player.setdefault(result.player_id, []).append((result.base_rank, weight, result.event_id))
    scored = []
    for player_id, rows in by_player.items():
        if len(rows) < MIN_TO_RANK:
            continue
        rows.sort(key=lambda row: (-row[0], -row[1], row[2]))
        padded: list[tuple[int, Fraction, int | None]] = [*rows]
        padded += [(0, Fraction(1), None)] * max(0, MIN_RESULTS - len(rows))
        count_a = part_a_count(len(padded))
        part_a = weighted_average([(r, w) for r, w, _ in padded[:count_a]])
        part_b = weighted_average([(r, w) for r, w, _ in padded[:PART_B_RESULTS]])
        detail = tuple(
            WeightedResult(event_id, rank, weight, index < count_a, index < PART_B_RESULTS)
            for index, (rank, weight, event_id) in enumerate(padded)
        )
        score = (part_a + part_b) / 2
        scored.append((score, player_id, part_a, part_b, len(rows), count_a, detail))
    scored.sort(key=lambda row: (-row[0], row[1]))
    ranked: list[EmaRanking] = []
    for index, (score, player_id, part_a, part_b, count, count_a, detail) in enumerate(scored):
        rank = ranked[-1].rank if ranked and ranked[-1].score == score else index + 1
        ranked.append(EmaRanking(rank, player_id, score, part_a, part_b, count, count_a, detail))
    return tuple(ranked)


def decimal_text(value: Fraction, places: int = 2) -> str:
    """A score as the EMA shows it: a decimal with ``places`` places, rounded half up (scores are ≥ 0)."""
    scaled = int(Fraction(value) * 10**places + HALF)
    whole, part = divmod(scaled, 10**places)
    return f"{whole}.{part:0{places}d}" if places else str(whole)
