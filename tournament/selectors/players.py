"""A player's own page: their line of the standings, their seats and games (two queries in plain SQL),
and the next seat."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection
from django.db.models import F

from tournament.models import (
    SEAT_WIND_CHOICES,
    Entry,
    HandVersion,
    Round,
    SeatReading,
    SeatResult,
    Table,
)
from tournament.selectors.hands import hand_in_words_with_names


@dataclass(frozen=True)
class EntryStanding:
    """A player's line of the standings, as their page shows it."""

    rank: int
    advances: int
    total_points: object
    games: int
    penalty_points: int


STANDING_FIELDS = ("rank", "advances", "total_points", "games", "penalty_points")


def entry_for_page(slug: str, entry_id: int) -> Entry | None:
    """The entry with its event (and ruleset), player and line of the standings (``standing``: an
    ``EntryStanding``, or None before any), in one query."""
    lines = {f"standing_{name}": F(f"standings_rows__{name}") for name in STANDING_FIELDS}
    entry = (
        Entry.objects.filter(event__slug=slug, pk=entry_id)
        .select_related("event__ruleset", "player")
        .annotate(**lines)
        .first()
    )
    if entry is not None:
        values = [getattr(entry, f"standing_{name}") for name in STANDING_FIELDS]
        entry.standing = EntryStanding(*values) if values[0] is not None else None
    return entry


@dataclass
class PlayedHand:
    version: HandVersion
    says: str  # who won from whom, with names
    delta: int | None  # what the player gained or paid (None: not in that hand)


@dataclass(frozen=True)
class GameSeat(SeatReading):
    """A seat at one of the player's tables, as their page shows it."""

    entry_id: int
    position: int
    name: str
    absence: str


@dataclass(frozen=True)
class GameResult:
    """The player's current result at a confirmed table."""

    final_points: int | None
    placement: int | None
    placement_points: object
    multiplier: int
    game_points: object


@dataclass
class PlayedGame:
    round_number: int
    table_number: int
    seat: GameSeat  # the player's
    opponents: list[GameSeat]  # the other seats of the game (art. 42: not those absent before it)
    hands: list[PlayedHand]
    result: GameResult | None = None  # once the table is confirmed
    others: list[GameSeat] = field(default_factory=list)  # every other seat at the table, absentees included


@dataclass(frozen=True)
class NextSeat:
    """Where the player sits in the latest published or playing round."""

    round_number: int
    table_number: int
    wind: str
    finished: bool
    playing: bool = False  # the game is under way: a hand recorded at the table, or the round playing


@dataclass(frozen=True)
class PlayerTables:
    """Every seat at the tables the player sat at (rounds published or later), read by one query with each
    table's status and result version, its round's status, the player's current result and the id of the
    table's newest hand version. Hand and result versions are only ever added, so any record, correction,
    confirmation, reopening, absence, new round or renamed opponent changes ``version``: it names the
    cached part of the player's page, which :func:`entry_games` makes from these rows (and the hands)."""

    entry_id: int
    rows: list[tuple]
    version: str
    next_seat: NextSeat | None


# Columns of a PlayerTables row, by name.
_T, _TNUM, _RNUM, _RSTATUS, _TSTATUS, _ENTRY, _POS, _ABSENCE, _NAME, _HAND, _RESULT = range(11)


# The two reads of a player's page, in plain SQL: every player opens their own page between rounds, so
# these run once per player and are rarely found in the cache; written out, they cost a third of the same
# queries built by the ORM. Each is a few index lookups (a seat's entry, a table's seats).
_PLAYER_SEATS_SQL = """
SELECT s.table_id, t.number, r.number, r.status, t.status,
       (SELECT MAX(v.id) FROM tournament_handversion v JOIN tournament_hand h ON h.id = v.hand_id
         WHERE h.table_id = s.table_id),
       res.version, t.result_version, res.final_points, res.placement, res.placement_points, res.multiplier,
       res.game_points
  FROM tournament_seat s
  JOIN tournament_table t ON t.id = s.table_id
  JOIN tournament_round r ON r.id = s.round_id
  LEFT JOIN tournament_seatresult res ON res.seat_id = s.id AND res.is_current
 WHERE s.entry_id = %s AND r.status <> %s
"""


_TABLE_SEATS_SQL = """
SELECT s.table_id, s.entry_id, s.position, s.absence, s.left_after_hand, p.display_name
  FROM tournament_seat s
  JOIN tournament_entry e ON e.id = s.entry_id
  JOIN players_player p ON p.id = e.player_id
 WHERE s.table_id IN ({tables})
"""


_FRACTIONS = (SeatResult._meta.get_field("placement_points"), SeatResult._meta.get_field("game_points"))


def entry_tables_state(entry: Entry) -> PlayerTables:
    """Two small queries (the player's seats, then everyone at those tables) rather than one that joins
    seven tables: the planner takes longer over that join than the database takes to run both."""
    with connection.cursor() as cursor:
        cursor.execute(_PLAYER_SEATS_SQL, [entry.pk, Round.Status.DRAFT])
        own = {}
        for row in cursor.fetchall():
            exact = [
                field.from_db_value(value, None, connection)
                for field, value in zip(_FRACTIONS, row[10:13:2], strict=True)
            ]
            own[row[0]] = (*row[:10], exact[0], row[11], exact[1])
        seats = []
        if own:
            cursor.execute(_TABLE_SEATS_SQL.format(tables=", ".join(["%s"] * len(own))), list(own))
            seats = cursor.fetchall()
    rows = []
    for table_id, entry_id, position, absence, left_after_hand, name in seats:
        table = own[table_id]
        rows.append((*table[:5], entry_id, position, absence, name, table[5], *table[6:], left_after_hand))
    rows.sort(key=lambda row: (row[_RNUM], row[_T], row[_POS]))
    playing = (Round.Status.PUBLISHED, Round.Status.PLAYING)
    upcoming = [row for row in rows if row[_ENTRY] == entry.pk and row[_RSTATUS] in playing]
    next_seat = None
    if upcoming:
        last = upcoming[-1]
        finished = last[_TSTATUS] == Table.Status.FINISHED
        under_way = last[_HAND] is not None or last[_RSTATUS] == Round.Status.PLAYING
        next_seat = NextSeat(
            last[_RNUM], last[_TNUM], str(SEAT_WIND_CHOICES[last[_POS]][1]), finished, not finished and under_way
        )
    return PlayerTables(entry.pk, rows, "|".join(map(str, rows)), next_seat)


def entry_games(tables: PlayerTables) -> list[PlayedGame]:
    """Each game the player sat in, in round order, with the other seats, the hands in force said with
    names and the player's current result: from the rows of :func:`entry_tables_state`, and one query for
    the hands when the tables have any."""
    by_table: dict[int, list[tuple]] = {}
    for row in tables.rows:
        by_table.setdefault(row[_T], []).append(row)
    with_hands = [table_id for table_id, rows in by_table.items() if rows[0][_HAND] is not None]
    versions: dict[int, list[HandVersion]] = {}
    if with_hands:
        for version in (
            HandVersion.objects.in_force()
            .filter(hand__table_id__in=with_hands)
            .select_related("hand")
            .order_by("hand__number")
        ):
            versions.setdefault(version.hand.table_id, []).append(version)
    games = []
    for table_id, rows in by_table.items():
        seats = [GameSeat(row[_ENTRY], row[_POS], row[_NAME], row[_ABSENCE]) for row in rows]
        own_row = next(row for row in rows if row[_ENTRY] == tables.entry_id)
        own = next(seat for seat in seats if seat.entry_id == tables.entry_id)
        playing = [seat for seat in seats if seat.in_game]
        index = next((i for i, seat in enumerate(playing) if seat.entry_id == tables.entry_id), None)
        names = [seat.name for seat in playing]
        hands = [
            PlayedHand(
                v,
                hand_in_words_with_names(v, names),
                v.deltas[index] if index is not None and index < len(v.deltas) else None,
            )
            for v in versions.get(table_id, [])
        ]
        result = GameResult(*own_row[_RESULT + 2 : _RESULT + 7]) if own_row[_RESULT] is not None else None
        games.append(
            PlayedGame(
                own_row[_RNUM],
                own_row[_TNUM],
                own,
                [s for s in playing if s is not own],
                hands,
                result,
                [s for s in seats if s is not own],
            )
        )
    return games
