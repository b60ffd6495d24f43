"""The overall standings 総合順位 (art. 41): computed into the event's standings rows, which pages read a
slice at a time."""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction

from django.db import connection, transaction
from django.utils import timezone

from core.announce import announce
from core.queue import enqueue_on_commit
from players.reading import search_needle
from tournament import selectors
from tournament.engine.standings import GameRecord, PenaltyDeduction, compute_standings
from tournament.engine.substitutes import substitute_credit
from tournament.models import Entry, Event, StandingsRow, StandingsSnapshot
from tournament.options import standings_lots, standings_options
from tournament.services.locks import lock_event


def _exact(text: str, parsed: dict[str, Fraction]) -> Fraction:
    """A stored game-points value ("n/d" or "n") as a Fraction. Values repeat a great deal across a
    large field (the same final scores and placement points), so each text is parsed once."""
    value = parsed.get(text)
    if value is None:
        numerator, _, denominator = text.partition("/")
        value = parsed[text] = Fraction(int(numerator), int(denominator or 1))
    return value


STANDINGS_RECOMPUTE = "tournament.standings_recompute"  # the task's pinned name (tournament.tasks)
OUT_OF_THE_EVENT = (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED)


def _tie_order(entry: tuple) -> tuple[bool, int]:
    """The order equal players are listed in (the engine keeps the order it is given for ties): players
    still in the event first, then those withdrawn or disqualified, each by entry. Art. 41 gives tied players
    the same rank; listing a withdrawn player first would put her at the head of the leaders before anyone
    has played, and push out of the short lists the player confirmed in her place."""
    return entry[5] in OUT_OF_THE_EVENT, entry[0]


def public_rounds_before(event: Event) -> tuple[int | None, int | None]:
    """The round the public results stop before (None: every round is public), and the first round still
    being checked when the event publishes results only once checked. Hiding the last rounds and checking
    share the one path: the public sees the rounds before the earlier of the two."""
    checking = selectors.event_first_unchecked_round_number(event) if event.results_after_check else None
    bounds = [n for n in (event.standings_hidden_from_round, checking) if n is not None]
    return (min(bounds) if bounds else None), checking


def _standings_computed(event: Event, *, before_round: int | None = None):
    """The engine's standings rows, best first, with each entry's row of ``event_entry_rows`` and the
    game points as stored (text), by (entry, round). With ``before_round``, only the games and penalties of
    the rounds before it (the public standings of an event that hides its last rounds)."""
    entries = selectors.event_entry_rows(event)
    parsed: dict[str, Fraction] = {}
    games, shown, left_out = [], {}, False
    for entry_id, number, text, advanced in selectors.event_results_in_force_text(event):
        if before_round is not None and number >= before_round:
            left_out = True
            continue
        games.append(GameRecord(entry_id, number, _exact(text, parsed), advanced))
        shown[entry_id, number] = text
    deductions = [
        PenaltyDeduction(*row)
        for row in selectors.event_penalty_point_rows(event)
        if before_round is None or (row[2] is not None and row[2] < before_round)
    ]
    substitutes = selectors.event_substitutes(event)  # 代走: their games count as the ruleset says
    if substitutes:
        ruleset = event.ruleset
        games, deductions = substitute_credit(
            games,
            deductions,
            substitutes,
            ruleset.substitute_result,
            ruleset.substitute_fixed_points,
            ruleset.substitute_uma,
        )
        for game in games:
            shown.setdefault((game.player_id, game.round_number), str(game.game_points))
    disqualified = {entry[0] for entry in entries if entry[5] == Entry.Status.DISQUALIFIED}
    ranked = [entry for entry in entries if entry[0] not in substitutes]
    if before_round is None:  # the public standings of hidden rounds do not tell who left in them
        ranked.sort(key=_tie_order)
    lots = standings_lots(event, [entry[0] for entry in entries])
    rows = compute_standings(
        [entry[0] for entry in ranked], games, deductions, disqualified, standings_options(event), lots
    )
    return rows, {entry[0]: entry for entry in entries}, shown, left_out


def standings_rows(event: Event) -> list[dict]:
    """Standings rows, best first, computed now (seating and the finals read the order from these).
    ``history`` holds ``[round, game points, advanced]`` per game."""
    rows, by_id, shown, _left_out = _standings_computed(event)
    out = []
    for row in rows:
        entry_id, player_id, name, club, country, status, _ = by_id[row.player_id]
        out.append(
            {
                "entry": entry_id,
                "player": player_id,
                "name": name,
                "club": club,
                "country": country,
                "status": status,
                "rank": row.rank,
                "award_rank": row.award_rank,
                "advances": row.advances,
                "total_points": str(row.total_points),
                "games": row.games,
                "penalty_points": row.penalty_points,
                "history": [[g.round_number, shown[entry_id, g.round_number], g.advanced] for g in row.history],
            }
        )
    return out


STANDINGS_ROW_COLUMNS = (
    "event",
    "position",
    "entry",
    "rank",
    "award_rank",
    "advances",
    "total_points",
    "games",
    "penalty_points",
    "status",
    "name",
    "club",
    "country",
    "history",
    "search",
)


def _standings_rows_replace(event_id: int, lines: list[tuple]) -> None:
    """Replace the event's standings rows with ``lines`` (values in the order of ``STANDINGS_ROW_COLUMNS``).

    Written without model instances: 10,000 rows through ``bulk_create`` cost several seconds of
    per-value preparation, most of the recompute's 2-second budget. PostgreSQL takes them by ``COPY``,
    other databases by one prepared ``INSERT`` run for every row.
    """
    StandingsRow.objects.filter(event_id=event_id).delete()
    if not lines:
        return
    table = connection.ops.quote_name(StandingsRow._meta.db_table)
    columns = ", ".join(
        connection.ops.quote_name(StandingsRow._meta.get_field(name).column) for name in STANDINGS_ROW_COLUMNS
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for line in lines:
                    copy.write_row(line)
        else:
            marks = ", ".join(["%s"] * len(STANDINGS_ROW_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", lines)


@transaction.atomic
def standings_recompute(*, event_id: int, requested_at: datetime | None = None) -> StandingsSnapshot | None:
    """Recompute unless a recompute already started after ``requested_at`` (bursts coalesce).

    The rows replace the event's ``StandingsRow``s in the same transaction as the snapshot's time, so a
    page reads the old standings or the new ones, never a mix, and is not held up while this runs.
    """
    event = lock_event(event_id)
    computed_at = selectors.event_standings_computed_at(event.pk)
    if computed_at and requested_at and computed_at >= requested_at:
        return None
    started = timezone.now()
    before_round, checking = public_rounds_before(event)
    rows, by_id, shown, left_out = _standings_computed(event, before_round=before_round)
    hidden_from = before_round if left_out else None
    checking_from = checking if left_out and checking is not None and checking == before_round else None
    folded_clubs: dict[str, str] = {}
    lines = []
    for position, row in enumerate(rows):
        entry_id, _, name, club, country, status, search = by_id[row.player_id]
        club = club or ""
        if club not in folded_clubs:
            folded_clubs[club] = search_needle(club)
        history = [[g.round_number, shown[entry_id, g.round_number], g.advanced] for g in row.history]
        lines.append(
            (
                event.pk,
                position,
                entry_id,
                row.rank,
                row.award_rank,
                row.advances,
                str(row.total_points),
                row.games,
                row.penalty_points,
                status,
                name,
                club,
                country or "",
                json.dumps(history),
                f"{search} {folded_clubs[club]}" if folded_clubs[club] else search,
            )
        )
    _standings_rows_replace(event.pk, lines)
    round_numbers = sorted({number for _, number in shown})
    snapshot, _ = StandingsSnapshot.objects.update_or_create(
        event=event,
        defaults={
            "computed_at": started,
            "rounds_included": selectors.event_completed_round_count(event),
            "round_numbers": round_numbers,
            "row_count": len(lines),
            "hidden_from_round": hidden_from,
            "checking_from_round": checking_from,
        },
    )
    announce("standings", event.pk, computed_at=started.isoformat())
    return snapshot


def standings_schedule_recompute(*, event_id: int) -> None:
    """Queue a standings recompute after commit; bursts coalesce in the task itself.

    The request time is taken when the commit has happened (inside the callback), so a recompute that
    started later is sure to see this change: tasks queued during a burst find a newer snapshot and
    return at once. Taking it before the commit would let a recompute that began between the request
    and the commit hide the change.
    """
    enqueue_on_commit(STANDINGS_RECOMPUTE, event_id, commit_time=True)
