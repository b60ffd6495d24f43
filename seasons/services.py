"""Every write of the seasons app: a series' events, and its standings and ratings computed again.

The computed rows are written here only, by ``series_recompute`` (run by the Celery task
``seasons.series_recompute``); it is queued after commit when a series' events change, and when the
tournament announces standings computed for a finished event (``core/announce.py``: the final
standings are computed after ``event_finish``, so the series reads them once they are there, never before).
"""

from __future__ import annotations

import json
from datetime import date

from django.db import transaction
from django.utils import timezone

from core.queue import enqueue_on_commit
from seasons import selectors
from seasons.engine.elo import Game, elo_ratings, ranks_of, rating_text
from seasons.engine.ema_ranking import RankedResult, decimal_text, ema_ranking
from seasons.engine.series import EventResult, SeriesRule, series_standings
from seasons.models import Series, SeriesEvent, SeriesRating, SeriesStanding
from tournament import selectors as tournament_selectors
from tournament.models import Event

SERIES_RECOMPUTE = "seasons.series_recompute"


def series_rule(series: Series) -> SeriesRule:
    """A ``Series`` row → the engine's rule, in one place."""
    points = tuple(series.place_points or ()) if series.rule == Series.Rule.PLACE_POINTS else ()
    return SeriesRule(
        kind=series.rule, best_n=series.best_n if series.rule == Series.Rule.BEST_N else None, place_points=points
    )


def series_schedule_recompute(*, series_id: int) -> None:
    """Queue the series' recompute after commit (kept in the outbox until the broker has it)."""
    enqueue_on_commit(SERIES_RECOMPUTE, series_id)


@transaction.atomic
def series_events_set(*, series: Series, event_ids) -> None:
    """The series holds exactly these events (the caller has checked the actor may add each one and write
    the series); its standings and ratings are computed again after commit."""
    wanted = set(event_ids)
    SeriesEvent.objects.filter(series=series).exclude(event_id__in=wanted).delete()
    held = set(selectors.series_event_ids(series))
    SeriesEvent.objects.bulk_create([SeriesEvent(series=series, event_id=e) for e in sorted(wanted - held)])
    series_schedule_recompute(series_id=series.pk)


def on_announcement(subject: str, event_id: int, facts: dict) -> None:
    """The subscriber to the tournament's announcements: standings computed for a finished event queue the
    recompute of each series holding it."""
    if subject != "standings":
        return
    with transaction.atomic():
        for series_id in selectors.series_ids_of_finished_event(event_id):
            series_schedule_recompute(series_id=series_id)


WAIT_PRIVATE, WAIT_NOT_FINISHED, WAIT_HIDDEN = "private", "not_finished", "last_rounds_hidden"


def event_not_counted_because(event: Event) -> str | None:
    """Why a series does not count this event yet, or None when it does.

    * ``private``: private events never leave their readers;
    * ``not_finished``: an event counts once finished and its final standings computed;
    * ``last_rounds_hidden``: the event still hides its last rounds (``standings_hidden_from_round``), so its
      stored standings stop before them; counting them would give wrong totals, and the Elo, read game by
      game, would publish the hidden results. It counts once the organizer shows them (the standings are
      computed again, and their announcement queues this series' recompute).
    """
    if not event.is_public:
        return WAIT_PRIVATE
    snapshot = tournament_selectors.event_standings(event) if event.status == Event.Status.FINISHED else None
    if snapshot is None:
        return WAIT_NOT_FINISHED
    if snapshot.hidden_from_round is not None:
        return WAIT_HIDDEN
    return None


def _last_day(event: Event) -> date | None:
    return event.ends_on or event.starts_on


@transaction.atomic
def series_recompute(*, series_id: int, as_of: date | None = None) -> Series | None:
    """Compute the series' standings, its EMA ranking projection and its Elo ratings from its finished
    events, and replace the stored rows (a page reads the old ones or the new ones, never a mix). The same
    events give the same rows: running it twice changes nothing. ``as_of``: the day of reckoning of the
    EMA projection (today by default)."""
    series = Series.objects.select_for_update().filter(pk=series_id).first()
    if series is None:
        return None
    as_of = as_of or timezone.localdate()
    events, waiting = [], []
    for event in selectors.series_events(series):
        reason = event_not_counted_because(event)
        if reason is None:
            events.append(event)
        elif reason != WAIT_PRIVATE:  # a private event is never named on the series' public pages
            waiting.append([event.pk, event.name, event.slug, reason])
    results, ranked, games, names, counted = [], [], [], {}, []
    for event in events:
        ema = tournament_selectors.event_ema(event)
        entries = tournament_selectors.event_entries_with_ids(event)
        seen = set()
        for row in ema.report.rows:
            player_id = entries[row.entry_id].player_id
            if player_id in seen:
                continue
            seen.add(player_id)
            names[player_id] = row.name
            results.append(EventResult(event.pk, player_id, row.place, row.points))
            if ema.mers is not None:
                ranked.append(RankedResult(event.pk, player_id, row.base_rank, ema.mers.total, _last_day(event)))
        tables: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for number, table, player_id, placement in selectors.event_game_places(event):
            tables.setdefault((number, table), []).append((player_id, placement))
            names.setdefault(player_id, "")
        games.extend(Game(tuple(places)) for places in tables.values())
        last = _last_day(event)
        counted.append(
            [
                event.pk,
                event.name,
                event.slug,
                last.isoformat() if last else None,
                str(ema.mers.total) if ema.mers is not None else None,
            ]
        )
    missing = [pid for pid, name in names.items() if not name]  # seated, never ranked (a substitute)
    names.update(selectors.player_names(missing))
    lines = series_standings(results, series_rule(series), event_order=[e.pk for e in events])
    SeriesStanding.objects.filter(series=series).delete()
    SeriesStanding.objects.bulk_create(
        SeriesStanding(
            series=series,
            position=position,
            player_id=line.player_id,
            rank=line.rank,
            name=names[line.player_id],
            total=line.total,
            events=line.events,
            results=[[r.event_id, r.place, str(r.points), str(r.value), r.counted] for r in line.results],
        )
        for position, line in enumerate(lines)
    )
    SeriesRating.objects.filter(series=series).delete()
    ema_rows = ema_ranking(ranked, as_of=as_of)
    SeriesRating.objects.bulk_create(
        SeriesRating(
            series=series,
            kind=SeriesRating.Kind.EMA,
            position=position,
            player_id=row.player_id,
            rank=row.rank,
            name=names[row.player_id],
            value=str(row.score),
            shown=decimal_text(row.score),
            count=row.results,
            detail={
                "part_a": decimal_text(row.part_a),
                "part_b": decimal_text(row.part_b),
                "part_a_exact": str(row.part_a),
                "part_b_exact": str(row.part_b),
                "part_a_count": row.part_a_count,
            },
        )
        for position, row in enumerate(ema_rows)
    )
    elo_rows = elo_ratings(games)
    ranks = ranks_of([row.rating for row in elo_rows])
    SeriesRating.objects.bulk_create(
        SeriesRating(
            series=series,
            kind=SeriesRating.Kind.ELO,
            position=position,
            player_id=row.player_id,
            rank=rank,
            name=names.get(row.player_id, ""),
            value=str(row.rating),
            shown=rating_text(row.rating),
            count=row.games,
        )
        for position, (row, rank) in enumerate(zip(elo_rows, ranks, strict=True))
    )
    series.computed_at, series.as_of = timezone.now(), as_of
    series.standings_count, series.ema_count, series.elo_count = len(lines), len(ema_rows), len(elo_rows)
    series.events_counted, series.events_waiting = json.loads(json.dumps(counted)), waiting
    series.save(
        update_fields=[
            "computed_at",
            "as_of",
            "standings_count",
            "ema_count",
            "elo_count",
            "events_counted",
            "events_waiting",
        ]
    )
    return series
