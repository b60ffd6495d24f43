"""Substitutes 代走: who may be seated for an absent player, and who was."""

from __future__ import annotations

from django.db.models import Q

from players.models import Player
from players.reading import search_needle
from tournament.models import (
    Entry,
    Event,
)

SUBSTITUTES_SHOWN = 20


def substitute_eligible(event: Event):
    """The stored players who may be seated as a substitute in the event: every player who is not one of its
    players (a substitute of it already may be chosen again; the service says when not)."""
    entered = Entry.objects.filter(event=event, substitute_for__isnull=True).values("player_id")
    return Player.objects.exclude(pk__in=entered)


def substitute_candidates(event: Event, query: str) -> list[Player]:
    """The eligible players whose name or reading (kana or romaji), club or external id (an EMA number)
    matches ``query``, at most ``SUBSTITUTES_SHOWN``, in name order; none for an empty query."""
    query = " ".join((query or "").split())[:100]
    needle = search_needle(query)
    if not needle:
        return []
    matches = Q(search__contains=needle) | Q(club__icontains=query) | Q(external_id__iexact=query)
    return list(
        substitute_eligible(event).filter(matches).order_by("display_name", "reading", "pk")[:SUBSTITUTES_SHOWN]
    )


def event_substitutes(event: Event) -> dict[int, int]:
    """Substitute 代走 entry id → the absent player's entry id, of the event."""
    return dict(Entry.objects.filter(event=event, substitute_for__isnull=False).values_list("id", "substitute_for_id"))
