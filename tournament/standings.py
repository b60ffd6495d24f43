"""Recompute an event's standings (art. 41) into its snapshot; the public page reads the snapshot."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournament.engine.standings import GameRecord, StandingsOptions, compute_standings
from tournament.models import Entry, Event, SeatResult, StandingsSnapshot


def _fraction_text(value) -> str:
    return str(value)


def standings_rows(event: Event) -> list[dict]:
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("id"))
    results = SeatResult.objects.filter(table__round__event=event, is_current=True).values_list(
        "entry_id", "table__round__number", "game_points", "advanced", "table__number", "placement", "forfeit"
    )
    games = []
    details: dict[tuple[int, int], dict] = {}
    for entry_id, round_number, game_points, advanced, table_number, placement, forfeit in results:
        games.append(GameRecord(entry_id, round_number, game_points, advanced))
        details[(entry_id, round_number)] = {
            "table": table_number,
            "placement": placement,
            "forfeit": forfeit,
        }
    deductions = penalty_deductions(event)
    disqualified = {e.id for e in entries if e.status == Entry.Status.DISQUALIFIED}
    rows = compute_standings(
        [e.id for e in entries],
        games,
        deductions,
        disqualified,
        StandingsOptions(precedence=event.precedence),
    )
    by_id = {e.id: e for e in entries}
    out = []
    for row in rows:
        entry = by_id[row.player_id]
        out.append(
            {
                "entry": entry.id,
                "player": entry.player_id,
                "name": entry.player.display_name,
                "club": entry.player.club,
                "country": entry.player.country,
                "status": entry.status,
                "rank": row.rank,
                "award_rank": row.award_rank,
                "advances": row.advances,
                "total_points": _fraction_text(row.total_points),
                "games": row.games,
                "penalty_points": row.penalty_points,
                "history": [
                    {
                        "round": g.round_number,
                        "points": _fraction_text(g.game_points),
                        "advanced": g.advanced,
                        **details.get((entry.id, g.round_number), {}),
                    }
                    for g in row.history
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
