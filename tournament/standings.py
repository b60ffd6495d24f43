"""Recompute an event's standings (art. 41) into its snapshot; the public page reads the snapshot."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.db.models import CharField
from django.db.models.functions import Cast
from django.utils import timezone

from tournament.engine.standings import GameRecord, StandingsOptions, compute_standings
from tournament.models import Entry, Event, SeatResult, StandingsSnapshot


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
    entries = list(
        Entry.objects.filter(event=event)
        .order_by("id")
        .values_list("id", "player_id", "player__display_name", "player__club", "player__country", "status")
    )
    # The text of the column, parsed here: 100,000 results read without a converter per value.
    results = (
        SeatResult.objects.filter(table__round__event=event, is_current=True)
        .annotate(points_text=Cast("game_points", CharField()))
        .values_list("entry_id", "table__round__number", "points_text", "advanced")
    )
    parsed: dict[str, Fraction] = {}
    games, shown = [], {}
    for entry_id, number, text, advanced in results:
        games.append(GameRecord(entry_id, number, _exact(text, parsed), advanced))
        shown[entry_id, number] = text
    disqualified = {entry[0] for entry in entries if entry[5] == Entry.Status.DISQUALIFIED}
    rows = compute_standings(
        [entry[0] for entry in entries],
        games,
        penalty_deductions(event),
        disqualified,
        StandingsOptions(precedence=event.precedence),
    )
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


def penalty_deductions(event: Event) -> list:
    """Penalty points (art. 37) deducted from event totals; none until penalties are recorded."""
    from tournament.engine.standings import PenaltyDeduction

    model = _penalty_model()
    if model is None:
        return []
    return [
        PenaltyDeduction(entry_id, points, round_number)
        for entry_id, points, round_number in model.objects.filter(
            event=event, cancelled_at__isnull=True, points__gt=0
        ).values_list("entry_id", "points", "round_number")
    ]


def _penalty_model():
    from django.apps import apps

    try:
        return apps.get_model("tournament", "Penalty")
    except LookupError:
        return None


@transaction.atomic
def standings_recompute(*, event_id: int, requested_at: datetime | None = None) -> StandingsSnapshot | None:
    """Recompute unless a recompute already started after ``requested_at`` (bursts coalesce)."""
    event = Event.objects.select_for_update().get(pk=event_id)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot and requested_at and snapshot.computed_at >= requested_at:
        return None
    started = timezone.now()
    rows = standings_rows(event)
    rounds = event.rounds.filter(status="completed").count()
    snapshot, _ = StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": rows, "computed_at": started, "rounds_included": rounds}
    )
    return snapshot
