"""A large finished event written in bulk, for benchmarks: players, entries, rounds of random but legal
table results (final scores that add up, placed by the tournament engine), and its standings.

No hand is played: the event is entered by final scores only, so every table result is what
``table_finish`` would have recorded for those scores (the same engine, the same rules), written with
``bulk_create``. A 10,000-player event of 10 rounds is 25,000 tables, 100,000 seats and 100,000 results.
Optionally the next round is seated and published but not played: the moment between rounds when every
player looks for their table.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from django.db import connection, transaction

from players.models import Player
from scoring.models import Ruleset
from tournament.engine.table_result import SeatOutcome, table_result
from tournament.models import Entry, Event, Round, Seat, SeatResult, StandingsSnapshot, Table
from tournament.options import table_rules
from tournament.services.standings import standings_recompute
from tournament.simulation.game import SimulationError, tables_partition

BENCH_CLUB_PREFIX = "Bench"
BATCH = 2000

# Names and readings (読み) to find players by, in kanji, kana or romaji.
FAMILY_NAMES = (
    ("山田", "やまだ"),
    ("佐藤", "さとう"),
    ("鈴木", "すずき"),
    ("高橋", "たかはし"),
    ("田中", "たなか"),
    ("伊藤", "いとう"),
    ("渡辺", "わたなべ"),
    ("中村", "なかむら"),
    ("小林", "こばやし"),
    ("加藤", "かとう"),
    ("吉田", "よしだ"),
    ("松本", "まつもと"),
    ("井上", "いのうえ"),
    ("木村", "きむら"),
    ("林", "はやし"),
)
GIVEN_NAMES = (
    ("太郎", "たろう"),
    ("花子", "はなこ"),
    ("健", "けん"),
    ("翔", "しょう"),
    ("結衣", "ゆい"),
    ("大輔", "だいすけ"),
    ("美咲", "みさき"),
    ("隆", "たかし"),
    ("陽菜", "ひな"),
    ("誠", "まこと"),
    ("葵", "あおい"),
)
COUNTRIES = ("JP", "JP", "JP", "FR", "DE", "NL", "DK", "US", "SE", "IT")


@dataclass(frozen=True)
class BenchSummary:
    event: Event
    players: int
    rounds: int
    tables: int
    seconds: float
    standings_seconds: float

    def text(self) -> str:
        return (
            f"{self.event.slug}: {self.players} players, {self.rounds} rounds, {self.tables} tables built in "
            f"{self.seconds:.1f} s (standings {self.standings_seconds:.2f} s)"
        )


def bench_player_name(number: int) -> tuple[str, str]:
    """The display name and reading of bench player ``number`` (from 1): unique by their number."""
    family, family_kana = FAMILY_NAMES[number % len(FAMILY_NAMES)]
    given, given_kana = GIVEN_NAMES[(number // len(FAMILY_NAMES)) % len(GIVEN_NAMES)]
    return f"{family} {given} {number:05d}", f"{family_kana} {given_kana}"


def bench_event_drop(event: Event) -> None:
    """Delete a bench event and the players only it had, children first so that nothing is collected
    row by row (the results and seats protect the entries, the entries their players)."""
    player_ids = list(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    with transaction.atomic():
        for queryset in (
            SeatResult.objects.filter(table__round__event=event),
            Seat.objects.filter(round__event=event),
            Table.objects.filter(round__event=event),
            Round.objects.filter(event=event),
            StandingsSnapshot.objects.filter(event=event),
        ):
            queryset._raw_delete(queryset.db)
        event.delete()
        for start in range(0, len(player_ids), BATCH):
            Player.objects.filter(pk__in=player_ids[start : start + BATCH], entries__isnull=True).delete()


def _final_scores(rng: random.Random, players: int, start: int) -> list[int]:
    """Final scores of a game that add up to the start total, in hundreds, none below −20,000."""
    scores = [start + rng.randrange(-250, 251) * 100 for _ in range(players - 1)]
    scores.append(start * players - sum(scores))
    return scores


def _results_of_table(table: Table, seats: list[Seat], rules, rng: random.Random, start: int) -> list[SeatResult]:
    scores = _final_scores(rng, len(seats), start)
    outcome = table_result(
        [SeatOutcome(seat.entry_id, points) for seat, points in zip(seats, scores, strict=True)], rules
    )
    return [
        SeatResult(
            table=table,
            seat=seat,
            entry_id=seat.entry_id,
            version=1,
            final_points=r.final_points,
            placement=r.placement,
            point_score=r.point_score,
            placement_points=r.placement_points,
            oka=r.oka,
            game_points=r.game_points,
            multiplier=outcome.multiplier,
            advanced=r.advanced,
            forfeit=r.forfeit,
        )
        for seat, r in zip(seats, outcome.seats, strict=True)
    ]


def _round_build(event: Event, number: int, entry_ids: list[int], rng: random.Random, *, played: bool) -> int:
    """Seat one round by a seeded shuffle; a played round gets a result at every table. Returns its tables."""
    status = Round.Status.COMPLETED if played else Round.Status.PUBLISHED
    round_ = Round.objects.create(event=event, number=number, status=status)
    order = list(entry_ids)
    rng.shuffle(order)
    groups = tables_partition(order, event.table_size)
    tables = Table.objects.bulk_create(
        [
            Table(
                round=round_,
                number=n,
                status=Table.Status.FINISHED if played else Table.Status.PLAYING,
                result_version=1 if played else 0,
            )
            for n in range(1, len(groups) + 1)
        ],
        batch_size=BATCH,
    )
    seats = Seat.objects.bulk_create(
        [
            Seat(table=table, round=round_, entry_id=entry_id, position=position)
            for table, group in zip(tables, groups, strict=True)
            for position, entry_id in enumerate(group)
        ],
        batch_size=BATCH,
    )
    if played:
        rules, start = table_rules(event), event.ruleset.start_points
        results, at = [], 0
        for table, group in zip(tables, groups, strict=True):
            results += _results_of_table(table, seats[at : at + len(group)], rules, rng, start)
            at += len(group)
        SeatResult.objects.bulk_create(results, batch_size=BATCH)
    return len(tables)


def _statistics_refresh() -> None:
    """Let the query planner know the tables' new sizes, as the database's own maintenance (autovacuum on
    PostgreSQL) would within minutes of a large import: until then it plans for the empty tables it last
    measured, and joins that should use an index scan whole tables instead."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def bench_event_build(
    *,
    players: int,
    rounds: int,
    slug: str,
    replace: bool = False,
    next_round: bool = False,
    seed: int = 1,
    ruleset: Ruleset | None = None,
    owner=None,
) -> BenchSummary:
    """Build a public event of ``players`` × ``rounds`` completed rounds with its standings; with
    ``next_round`` the next round is seated and published too (the event is then still running).

    An existing event with the slug is refused (``event_exists``) unless ``replace`` is given.
    """
    if players < 2 or rounds < 1:
        raise SimulationError("invalid_arguments", "at least 2 players and 1 round")
    started = time.perf_counter()
    existing = Event.objects.filter(slug=slug).first()
    if existing is not None:
        if not replace:
            raise SimulationError("event_exists", f"an event with the slug {slug!r} already exists (use --replace)")
        bench_event_drop(existing)
    rng = random.Random(seed)
    ruleset = ruleset or Ruleset.objects.get(slug="standard")
    with transaction.atomic():
        event = Event.objects.create(
            name=f"Bench {players} players × {rounds} rounds",
            slug=slug,
            ruleset=ruleset,
            owner=owner,
            planned_rounds=rounds + int(next_round),
            entry_mode=Event.EntryMode.FINAL_SCORES,
            is_public=True,
            status=Event.Status.RUNNING if next_round else Event.Status.FINISHED,
        )
        people = []
        for number in range(1, players + 1):
            name, reading = bench_player_name(number)
            people.append(
                Player(
                    display_name=name,
                    reading=reading,
                    club=f"{BENCH_CLUB_PREFIX} club {number % 97:02d}",
                    country=COUNTRIES[number % len(COUNTRIES)],
                )
            )
        people = Player.objects.bulk_create(people, batch_size=BATCH)
        entries = Entry.objects.bulk_create([Entry(event=event, player=p) for p in people], batch_size=BATCH)
        entry_ids = [entry.pk for entry in entries]
        tables = sum(_round_build(event, n, entry_ids, rng, played=True) for n in range(1, rounds + 1))
        if next_round:
            tables += _round_build(event, rounds + 1, entry_ids, rng, played=False)
    standings_started = time.perf_counter()
    standings_recompute(event_id=event.pk)
    finished = time.perf_counter()
    _statistics_refresh()
    return BenchSummary(event, players, rounds, tables, finished - started, finished - standings_started)
