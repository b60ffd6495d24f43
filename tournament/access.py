"""Who may do what in an event: the one policy every entry point asks before it writes.

The roles, per event:

* **organizer:** the event's owner and its co-organizers: everything in the event;
* **referee:** the tables they cover (all, or some table numbers): hands, results, absences, penalties,
  rulings, the clock, the final's decision;
* **scorekeeper:** someone without an account who opened a table card (link + PIN): that table only, in
  its round: hands, the result, the clock;
* **player:** their own page, through their personal link or their account. Players write nothing.

A superuser may do everything. Nobody else may write anything: an entry point that finds no role answers
403 (or sends an anonymous visitor to sign in), before any service runs. The admin asks for the model
permission too (the staff groups of :mod:`tournament.services.roles`); the console and the API ask for
the role only. The services trust their caller: the simulation and the commands call them directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.db.models import Q
from django.utils.translation import gettext as _

from taikai.errors import Forbidden
from tournament import selectors
from tournament.models import EventRole, ScorekeeperKey
from tournament.options import table_numbers_parse

SESSION_SCOREKEEPER_KEYS = "taikai_scorekeeper_keys"
SESSION_PLAYER_ENTRIES = "taikai_player_entries"


@dataclass(frozen=True)
class Grant:
    """What one person holds in one event."""

    organizer: bool = False
    referee: bool = False
    referee_tables: frozenset[int] | None = None  # None: every table

    def covers(self, table_number: int | None) -> bool:
        """Referees everywhere, or at this table; a question about no table needs every table."""
        if self.organizer or (self.referee and self.referee_tables is None):
            return True
        return self.referee and table_number is not None and table_number in self.referee_tables


class Actor:
    """The person behind a request: an account with its roles, and what the session opened without one
    (table cards, personal links)."""

    def __init__(self, user, *, cards: dict[int, int] | None = None, player_entries=frozenset()):
        self.user = user
        self.cards = dict(cards or {})  # table id → the table card (key id) this session opened
        self.scorekeeper_tables = frozenset(self.cards)
        self.player_entries = frozenset(player_entries)

    def author_at(self, table):
        """Who a record made at ``table`` names: the account, or else the table card that opened it."""
        if self.signed_in or table.pk not in self.cards:
            return self.user
        return ScorekeeperKey(pk=self.cards[table.pk])

    @property
    def is_superuser(self) -> bool:
        return bool(getattr(self.user, "is_superuser", False) and self.user.is_active)

    @property
    def signed_in(self) -> bool:
        return bool(getattr(self.user, "is_authenticated", False))

    @property
    def anonymous(self) -> bool:
        """Nobody at all: no account and nothing opened in this session."""
        return not self.signed_in and not self.scorekeeper_tables and not self.player_entries

    @cached_property
    def grants(self) -> dict[int, Grant]:
        if not self.signed_in or not self.user.is_active:
            return {}
        merged: dict[int, Grant] = {}
        for event_id, kind, tables in selectors.user_roles_held(self.user.pk):
            grant = merged.get(event_id, Grant())
            if kind == EventRole.Kind.ORGANIZER:
                grant = Grant(organizer=True)
            elif not grant.organizer:
                numbers = table_numbers_parse(tables) or None
                if grant.referee and (grant.referee_tables is None or numbers is None):
                    numbers = None
                elif grant.referee:
                    numbers = grant.referee_tables | numbers
                grant = Grant(referee=True, referee_tables=numbers)
            merged[event_id] = grant
        return merged

    @cached_property
    def own_entries(self) -> dict[int, int]:
        """Event id → entry id of the player this account is."""
        return selectors.entries_of_user(self.user.pk) if self.signed_in else {}

    def grant(self, event_id: int) -> Grant:
        if self.is_superuser:
            return Grant(organizer=True)
        return self.grants.get(event_id, Grant())


def actor_for(request) -> Actor:
    """The request's actor, built once per request."""
    actor = getattr(request, "_taikai_actor", None)
    if actor is None:
        session = getattr(request, "session", {})
        keys = selectors.scorekeeper_tables(session.get(SESSION_SCOREKEEPER_KEYS, []))
        cards = {table_id: key_id for key_id, table_id in keys.items()}
        actor = Actor(request.user, cards=cards, player_entries=session.get(SESSION_PLAYER_ENTRIES, []))
        request._taikai_actor = actor
    return actor


# --- The questions ---------------------------------------------------------------------------------


def may_manage(actor: Actor, event_id: int) -> bool:
    """Settings, entries, seating, rounds, roles, table cards, disqualification, finishing the event."""
    return actor.grant(event_id).organizer


def may_referee(actor: Actor, event_id: int, table_number: int | None = None) -> bool:
    """Absences, penalties, rulings, reopening a table, the final's decision: at this table, or (without
    a table) anywhere in the event."""
    return actor.grant(event_id).covers(table_number)


def may_score(actor: Actor, table) -> bool:
    """Recording hands, confirming the result, running the clock at this table."""
    return table.pk in actor.scorekeeper_tables or may_referee(actor, table.round.event_id, table.number)


def may_see_player(actor: Actor, entry) -> bool:
    """A player's own page: the player (link or account) and anyone with a role in the event."""
    return (
        entry.pk in actor.player_entries
        or actor.own_entries.get(entry.event_id) == entry.pk
        or holds_role(actor, entry.event_id)
    )


def holds_role(actor: Actor, event_id: int) -> bool:
    grant = actor.grant(event_id)
    return grant.organizer or grant.referee


def require(allowed: bool, what: str) -> None:
    """Refuse with 403 unless ``allowed``; ``what`` says what was refused, e.g. "record hands at this table"
    (the caller translates it)."""
    if not allowed:
        raise Forbidden(
            "forbidden",
            # Translators: what is the action refused, a verb phrase ("record hands at this table").
            _("your role in this event does not allow you to %(what)s") % {"what": what},
        )


# --- Lists limited to the actor's events -----------------------------------------------------------


def events_where(actor: Actor, *, manage: bool = False, path: str = "pk") -> Q:
    """A filter on ``path`` (an event id lookup): the events where the actor holds a role, or with
    ``manage`` only those they organize."""
    if actor.is_superuser:
        return Q()
    ids = [event_id for event_id, grant in actor.grants.items() if grant.organizer or not manage]
    return Q(**{f"{path}__in": ids})


def manages_any(actor: Actor) -> bool:
    return actor.is_superuser or any(g.organizer for g in actor.grants.values())


def referees_any(actor: Actor) -> bool:
    return actor.is_superuser or bool(actor.grants)


def console_scopes(actor: Actor) -> dict[int, frozenset[int] | None] | None:
    """Event id → the table numbers the actor referees there (None: every table); None for a superuser,
    who sees every event's tables."""
    if actor.is_superuser:
        return None
    return {event_id: None if g.organizer else g.referee_tables for event_id, g in actor.grants.items()}
