"""Registering players in an event, and an organizer marking one away, withdrawn or back."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.csv_import import player_find_or_create
from players.models import Player
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Entry, Event
from tournament.services.locks import lock_entry
from tournament.services.standings import standings_schedule_recompute

STATUSES_SET_BY_ORGANIZERS = (Entry.Status.ACTIVE, Entry.Status.AWAY, Entry.Status.WITHDRAWN)


@transaction.atomic
def entry_register(*, event: Event, player: Player) -> Entry:
    entry, created = _entry_register(event=event, player=player)
    if created:
        _standings_follow_new_entries(event)
    return entry


def _standings_follow_new_entries(event: Event) -> None:
    """Standings already computed list every entry: a player registered since (one confirmed from the
    waiting list in a withdrawn player's place) is listed once they are computed again."""
    if selectors.event_standings_computed_at(event.pk) is not None:
        standings_schedule_recompute(event_id=event.pk)


def _entry_register(*, event: Event, player: Player) -> tuple[Entry, bool]:
    if event.status == Event.Status.FINISHED:
        raise TaikaiError("event_finished", _("the event is finished; no new entries"), field="event")
    entry, created = Entry.objects.get_or_create(event=event, player=player)
    if not created and entry.status != Entry.Status.ACTIVE:
        messages = {
            Entry.Status.AWAY: _("%(player)s is away (not seated until back)"),
            Entry.Status.WITHDRAWN: _("%(player)s is withdrawn"),
            Entry.Status.DISQUALIFIED: _("%(player)s is disqualified"),
        }
        # Translators: status is the entry's status, in lower case.
        message = messages.get(entry.status) or _("%(player)s is %(status)s")
        raise TaikaiError(
            "entry_inactive",
            message % {"player": player, "status": str(entry.get_status_display()).lower()},
            field="player",
        )
    return entry, created


@transaction.atomic
def entries_register(*, event: Event, players: Sequence[Player]) -> list[Entry]:
    """Register several players at once; players already registered keep their entry."""
    registered = [_entry_register(event=event, player=player) for player in players]
    if any(created for _entry, created in registered):
        _standings_follow_new_entries(event)
    return [entry for entry, _created in registered]


@transaction.atomic
def entry_register_player(*, event: Event, player: Player | None = None, values: dict | None = None) -> Entry:
    """Register one player: a stored ``player``, or one given by ``values`` (the columns of the player
    import: a known ``external_id`` names the stored player, otherwise a new player is created). Nothing is
    written if the player cannot be registered."""
    if player is None:
        player = player_find_or_create(values=values or {})
    return entry_register(event=event, player=player)


def entry_status_set(*, entry: Entry, status: str, reason: str = "") -> Entry:
    """Mark a player away (not seated until back), withdrawn, or active again. A disqualification is not
    changed here: it is lifted with its penalty, or stays (``tournament.services.discipline``)."""
    if status not in STATUSES_SET_BY_ORGANIZERS:
        raise TaikaiError(
            "invalid_status",
            _("an entry is set %(statuses)s") % {"statuses": ", ".join(STATUSES_SET_BY_ORGANIZERS)},
            field="status",
        )
    entry = lock_entry(entry.pk)
    if entry.event.status == Event.Status.FINISHED:
        raise TaikaiError("event_finished", _("the event is finished"), field="event")
    if entry.status == Entry.Status.DISQUALIFIED:
        raise TaikaiError(
            "entry_disqualified",
            _("%(player)s is disqualified (art. 43): cancel the penalty that disqualified them")
            % {"player": entry.player},
            field="status",
        )
    if entry.status == status:
        return entry
    entry.status, entry.status_reason = status, reason.strip()[:200]
    entry.save(update_fields=["status", "status_reason"])
    standings_schedule_recompute(event_id=entry.event_id)
    return entry


def registered_message(count: int, event) -> str:
    """The message after players were registered in an event (from the players list or the event's CSV)."""
    return ngettext(
        "%(count)s player registered in %(event)s.", "%(count)s players registered in %(event)s.", count
    ) % {"count": count, "event": event}


def entries_register_imported(event_id: int) -> Callable[[Sequence[Player]], str]:
    """What a players import uploaded on an event's page does with its players, in the import's own
    transaction: registers them in the event (players already registered keep their entry)."""

    def register(players: Sequence[Player]) -> str:
        event = Event.objects.get(pk=event_id)
        return registered_message(len(entries_register(event=event, players=players)), event)

    return register


@transaction.atomic
def player_account_link(*, entry: Entry, user) -> Player:
    """Link the player of ``entry`` to ``user``'s account: the player's own act, from their personal link
    while signed in (the view checks both), so that their account opens their pages from then on. A player
    keeps the account it has; an account is one player."""
    player = Player.objects.select_for_update(no_key=True).get(pk=entry.player_id)
    if player.user_id == user.pk:
        return player
    if player.user_id is not None:
        raise TaikaiError("player_linked", _("%(player)s is already linked to another account") % {"player": player})
    other = Player.objects.filter(user=user).first()
    if other is not None:
        raise TaikaiError("account_linked", _("your account is already linked to %(player)s") % {"player": other})
    player.user = user
    player.save(update_fields=["user"])
    return player
