"""Entries: a player's place in an event, read by link, by id, by name, or the whole field."""

from __future__ import annotations

from players.models import Player
from tournament.models import (
    Entry,
    Event,
)


def entry_by_link(token: str) -> Entry | None:
    return Entry.objects.filter(link_token=token).select_related("event", "player").first()


def event_entry_rows(event: Event) -> list[tuple]:
    """(entry id, player id, name, club, country, status, search keys) of every entry, by entry id."""
    return list(
        Entry.objects.filter(event=event)
        .order_by("id")
        .values_list(
            "id", "player_id", "player__display_name", "player__club", "player__country", "status", "player__search"
        )
    )


def event_entry_statuses(event: Event) -> list[tuple[int, str]]:
    return list(Entry.objects.filter(event=event).order_by("id").values_list("id", "status"))


def event_entries_by_id(event: Event, ids) -> dict[int, Entry]:
    return {e.id: e for e in Entry.objects.filter(event=event, id__in=ids).select_related("player")}


def event_entries_with_players(event: Event) -> list[Entry]:
    return list(Entry.objects.filter(event=event).select_related("player"))


def entries_active_among(ids) -> set[int]:
    return set(Entry.objects.filter(id__in=ids, status=Entry.Status.ACTIVE).values_list("id", flat=True))


def event_entry_with_player(event: Event, entry_id: int) -> Entry | None:
    return Entry.objects.filter(event=event, pk=entry_id).select_related("player").first()


def players_entered_in(events, *, external_id: str = ""):
    """The players entered in any of ``events`` (a queryset), by name."""
    players = Player.objects.filter(entries__event__in=events).distinct().order_by("display_name", "id")
    if external_id:
        players = players.filter(external_id=external_id)
    return players


def event_entries_page(event: Event):
    """The event's entries with their players, by entry id: a queryset the caller pages."""
    return Entry.objects.filter(event=event).select_related("player").order_by("id")


def event_entries_with_ids(event: Event) -> dict[int, Entry]:
    return {e.pk: e for e in Entry.objects.filter(event=event).select_related("player")}


def player_by_id(player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def event_entries_by_name_or_id(event: Event) -> dict[str, Entry]:
    """The event's entries by their player's external id and by display name (for files that name them)."""
    found: dict[str, Entry] = {}
    for entry in Entry.objects.filter(event=event).select_related("player"):
        found.setdefault(entry.player.display_name, entry)
        if entry.player.external_id:
            found[entry.player.external_id] = entry
    return found
