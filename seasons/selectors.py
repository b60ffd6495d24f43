"""Every read of the seasons app: series, their events, and their computed standings and ratings (a page
at a time, by position)."""

from __future__ import annotations

from django.db.models import Exists, Max, Min, OuterRef

from players.models import Player
from profiles.models import ProfileSetting
from seasons.models import Series, SeriesEvent, SeriesRating, SeriesStanding
from tournament.models import Event, SeatResult


def series_get(slug: str) -> Series | None:
    """The series, with the first and last time zone of its events (``series_time_zone``), in one query."""
    zones = {
        "first_zone": Min("series_events__event__time_zone"),
        "last_zone": Max("series_events__event__time_zone"),
    }
    return Series.objects.filter(slug=slug).annotate(**zones).first()


def series_events_time_zone(series: Series) -> str | None:
    """The time zone the series' events share, read now (None when they differ or it has none)."""
    events = Event.objects.filter(pk__in=SeriesEvent.objects.filter(series=series).values("event_id"))
    zones = list(events.order_by().values_list("time_zone", flat=True).distinct()[:2])
    return zones[0] if len(zones) == 1 else None


def series_time_zone(series: Series) -> str | None:
    """The time zone its events share (a series read by ``series_get``); None when they differ or it has none."""
    first = getattr(series, "first_zone", None)
    return first if first and first == getattr(series, "last_zone", None) else None


def series_event_ids(series: Series) -> list[int]:
    return list(SeriesEvent.objects.filter(series=series).values_list("event_id", flat=True))


def series_events(series: Series) -> list[Event]:
    """The series' events in its order: by last day (or first), then id."""
    events = list(Event.objects.filter(pk__in=SeriesEvent.objects.filter(series=series).values("event_id")))
    events.sort(key=lambda e: ((e.ends_on or e.starts_on).toordinal() if (e.ends_on or e.starts_on) else 0, e.pk))
    return events


def series_public_list() -> list[Series]:
    """The public series, by name (the home page lists them)."""
    return list(Series.objects.filter(is_public=True).order_by("name"))


def series_public_of_event(event_id: int) -> list[Series]:
    """The public series an event belongs to, by name (its page links them)."""
    return list(Series.objects.filter(is_public=True, series_events__event_id=event_id).order_by("name"))


def series_ids_of_finished_event(event_id: int) -> list[int]:
    """The series holding this event, when it is finished (none otherwise): one query."""
    return list(
        SeriesEvent.objects.filter(event_id=event_id, event__status=Event.Status.FINISHED)
        .values_list("series_id", flat=True)
        .distinct()
    )


def _profile_hidden() -> Exists:
    """The player hid their profile (``hidden``): their name is shown without a link to it."""
    return Exists(ProfileSetting.objects.filter(player_id=OuterRef("player_id"), listed=False))


def series_standings_slice(series: Series, start: int, stop: int) -> list[SeriesStanding]:
    """The standings rows from position ``start`` to ``stop`` (one query of at most ``stop - start`` rows),
    each with ``hidden``: whether the player hid their profile."""
    return list(
        SeriesStanding.objects.filter(series=series, position__gte=start, position__lt=stop)
        .annotate(hidden=_profile_hidden())
        .order_by("position")
    )


def series_standings_all(series: Series):
    """Every standings row, best first (the CSV export streams them)."""
    return SeriesStanding.objects.filter(series=series).order_by("position")


def series_ratings_slice(series: Series, kind: str, start: int, stop: int) -> list[SeriesRating]:
    return list(
        SeriesRating.objects.filter(series=series, kind=kind, position__gte=start, position__lt=stop)
        .annotate(hidden=_profile_hidden())
        .order_by("position")
    )


def series_ratings_all(series: Series, kind: str):
    return SeriesRating.objects.filter(series=series, kind=kind).order_by("position")


def event_game_places(event: Event) -> list[tuple[int, int, int, int]]:
    """(round number, table number, player id, placement) of every current result with a placement, in
    round and table order: one query."""
    return list(
        SeatResult.objects.current()
        .filter(table__round__event=event, placement__isnull=False)
        .order_by("table__round__number", "table__number", "seat__position")
        .values_list("table__round__number", "table__number", "entry__player_id", "placement")
    )


def player_names(ids) -> dict[int, str]:
    """Player id → display name (none asked: none read)."""
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
