"""The overall standings 総合順位 (art. 41): computed into the event's snapshot, which pages read."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.utils import timezone

from tournament import selectors
from tournament.engine.standings import GameRecord, PenaltyDeduction, compute_standings
from tournament.models import Entry, Event, StandingsSnapshot
from tournament.options import standings_options
from tournament.services.locks import lock_event
from tournament.services.queue import STANDINGS_RECOMPUTE, enqueue_on_commit


def _exact(text: str, parsed: dict[str, Fraction]) -> Fraction:
    """A stored game-points value ("n/d" or "n") as a Fraction. Values repeat a great deal across a
    large field (the same final scores and placement points), so each text is parsed once."""
    value = parsed.get(text)
    if value is None:
        numerator, _, denominator = text.partition("/")
        value = parsed[text] = Fraction(int(numerator), int(denominator or 1))
    return value


def standings_rows(event: Event) -> list[dict]:
    """Standings rows, best first. ``history`` holds ``[round, game points, advanced]`` per game:
    compact, because the snapshot of a 10,000-player event holds 100,000 of them."""
    entries = selectors.event_entry_rows(event)
    parsed: dict[str, Fraction] = {}
    games, shown = [], {}
    for entry_id, number, text, advanced in selectors.event_current_results_text(event):
        games.append(GameRecord(entry_id, number, _exact(text, parsed), advanced))
        shown[entry_id, number] = text
    deductions = [PenaltyDeduction(*row) for row in selectors.event_penalty_point_rows(event)]
    disqualified = {entry[0] for entry in entries if entry[5] == Entry.Status.DISQUALIFIED}
    rows = compute_standings([entry[0] for entry in entries], games, deductions, disqualified,
                             standings_options(event))  # fmt: skip
    by_id = {entry[0]: entry for entry in entries}
    out = []
    for row in rows:
        entry_id, player_id, name, club, country, status = by_id[row.player_id]
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
                "history": [
                    [g.round_number, shown[entry_id, g.round_number], g.advanced] for g in row.history
                ],
            }
        )
    return out


@transaction.atomic
def standings_recompute(*, event_id: int, requested_at: datetime | None = None) -> StandingsSnapshot | None:
    """Recompute unless a recompute already started after ``requested_at`` (bursts coalesce)."""
    event = lock_event(event_id)
    computed_at = selectors.event_standings_computed_at(event.pk)
    if computed_at and requested_at and computed_at >= requested_at:
        return None
    started = timezone.now()
    rows = standings_rows(event)
    rounds = selectors.event_completed_round_count(event)
    snapshot, _ = StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": rows, "computed_at": started, "rounds_included": rounds}
    )
    return snapshot


def standings_schedule_recompute(*, event_id: int) -> None:
    """Queue a standings recompute after commit; bursts coalesce in the task itself.

    The request time is taken when the commit has happened (inside the callback), so a recompute that
    started later is sure to see this change: tasks queued during a burst find a newer snapshot and
    return at once. Taking it before the commit would let a recompute that began between the request
    and the commit hide the change.
    """
    enqueue_on_commit(STANDINGS_RECOMPUTE, event_id, commit_time=True)
