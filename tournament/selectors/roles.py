"""Who holds which role: a user's roles in events, the events they play in, the tables a referee covers."""

from __future__ import annotations

from django.db.models import Case, Q, Value, When

from tournament.models import (
    Entry,
    Event,
    EventRole,
    Round,
    Table,
)


def user_roles_held(user_id: int) -> list[tuple[int, str, str, bool]]:
    """(event id, kind, tables, head referee) of each role the user holds now; owning an event is an organizer
    role."""
    held = list(
        EventRole.objects.filter(user_id=user_id, revoked_at__isnull=True).values_list(
            "event_id", "kind", "tables", "head"
        )
    )
    owned = Event.objects.filter(owner_id=user_id).values_list("pk", flat=True)
    return held + [(event_id, EventRole.Kind.ORGANIZER, "", False) for event_id in owned]


def entries_of_user(user_id: int) -> dict[int, int]:
    """Event id → entry id of the player whose account this is."""
    return dict(Entry.objects.filter(player__user_id=user_id).values_list("event_id", "pk"))


def tables_playing_in(scopes: dict[int, frozenset[int] | None] | None, *, table_ids=()):
    """The tables of published or playing rounds, those still playing first, then by event, round and number
    (a referee looks for the games going on, not the finished ones): ``scopes`` maps an event id
    to the table numbers wanted there (None: every table), None means every event; ``table_ids`` adds
    single tables. A queryset: the caller pages it."""
    where = Q(pk__in=list(table_ids))
    if scopes is None:
        where = Q()
    for event_id, numbers in (scopes or {}).items():
        where |= Q(round__event_id=event_id) & (Q() if numbers is None else Q(number__in=sorted(numbers)))
    return (
        Table.objects.filter(where, round__status__in=[Round.Status.PUBLISHED, Round.Status.PLAYING])
        .select_related("round__event")
        .order_by(
            Case(When(status=Table.Status.PLAYING, then=Value(0)), default=Value(1)),
            "round__event__name",
            "round__number",
            "number",
        )
    )
