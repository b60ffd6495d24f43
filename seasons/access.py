"""Who may write a series. A series is shared by its events, so (STYLE: no organizer reaches another event,
directly or through an object that events share) only these may change or delete it:

* a superuser;
* an organizer of EVERY event of the series (an empty series: its owner only).

An organizer may add to a series only events they organize. Everything is asked of ``tournament.access``,
the one policy."""

from __future__ import annotations

from collections.abc import Iterable

from seasons import selectors
from seasons.models import Series
from tournament import access


def may_create_series(actor: access.Actor) -> bool:
    return access.manages_any(actor)


def may_write_series(actor: access.Actor, series: Series) -> bool:
    event_ids = selectors.series_event_ids(series)
    if not event_ids and not actor.is_superuser:  # an empty series: its owner's alone
        owner = series.owner_id is not None and series.owner_id == getattr(actor.user, "pk", None)
        return owner and actor.token is None and access.manages_any(actor)
    return access.may_manage_every(actor, event_ids)


def may_add_events(actor: access.Actor, event_ids: Iterable[int]) -> bool:
    return all(access.may_manage(actor, event_id) for event_id in event_ids)
