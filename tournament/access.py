"""Who may do what in an event: the one policy every entry point asks before it writes.

The roles, per event:

* **organizer:** the event's owner and its co-organizers: everything in the event;
* **referee:** the tables they cover (all, or some table numbers): hands, results, absences, penalties,
  rulings, the clock, the final's decision;
* **scorekeeper:** someone without an account who opened a table card (link + PIN): that table only, in
  its round: hands, the result, the clock;
* **player:** their own page, through their personal link or their account. Players write nothing;
* **API token:** a program's secret for one event (:class:`tournament.models.ApiToken`): ``read`` reads the
  event, ``referee`` is a referee of its tables, ``organizer`` an organizer of the event. A request with a
  token is the token's alone: no account, no session, no other event, and never a superuser.

A superuser may do everything. Nobody else may write anything: an entry point that finds no role answers
403 (or sends an anonymous visitor to sign in), before any service runs. The admin asks for the model
permission too (the staff groups of :mod:`tournament.services.roles`); the console and the API ask for
the role only. The services trust their caller: the simulation and the commands call them directly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.utils.translation import gettext as _

from taikai.errors import Forbidden
from tournament import selectors
from tournament.models import ApiToken, EventRole, ScorekeeperKey
from tournament.options import table_numbers_parse

SESSION_SCOREKEEPER_KEYS = "taikai_scorekeeper_keys"
SESSION_PLAYER_ENTRIES = "taikai_player_entries"


@dataclass(frozen=True)
class Grant:
    """What one person holds in one event."""

    organizer: bool = False
    referee: bool = False
    referee_tables: frozenset[int] | None = None  # None: every table
    reader: bool = False  # reads the event even when it is not public (a read token)
    head_referee: bool = False  # a head referee: also unlocks checked rounds

    def covers(self, table_number: int | None) -> bool:
        """Referees everywhere, or at this table; a question about no table needs every table."""
        if self.organizer or (self.referee and self.referee_tables is None):
            return True
        return self.referee and table_number is not None and table_number in self.referee_tables


def token_grant(token: ApiToken) -> Grant:
    """What an API token holds in its event."""
    if token.scope == ApiToken.Scope.ORGANIZER:
        return Grant(organizer=True, reader=True)
    if token.scope == ApiToken.Scope.REFEREE:
        return Grant(referee=True, referee_tables=token.table_numbers, reader=True)
    return Grant(reader=True)


class Actor:
    """The person behind a request: an account with its roles, and what the session opened without one
    (table cards, personal links); or a program holding an API token, and nothing else."""

    def __init__(
        self, user, *, cards: dict[int, int] | None = None, player_entries=frozenset(), token: ApiToken | None = None
    ):
        self.token = token
        if token is not None:  # a token's request is the token's alone
            user, cards, player_entries = AnonymousUser(), None, frozenset()
        self.user = user
        self.cards = dict(cards or {})  # table id → the table card (key id) this session opened
        self.scorekeeper_tables = frozenset(self.cards)
        self.player_entries = frozenset(player_entries)

    def author_at(self, table):
        """Who a record made at ``table`` names: the token, the account, or else the table card that opened it."""
        if self.token is not None:
            return self.token
        if self.signed_in or table.pk not in self.cards:
            return self.user
        return ScorekeeperKey(pk=self.cards[table.pk])

    @property
    def author(self):
        """Who a record made away from a table names: the token or the account."""
        return self.token if self.token is not None else self.user

    @property
    def is_superuser(self) -> bool:
        return bool(getattr(self.user, "is_superuser", False) and self.user.is_active)

    @property
    def signed_in(self) -> bool:
        """Signed in with an account (a token is not an account)."""
        return bool(getattr(self.user, "is_authenticated", False))

    @property
    def anonymous(self) -> bool:
        """Nobody at all: no account, no token and nothing opened in this session."""
        return self.token is None and not self.signed_in and not self.scorekeeper_tables and not self.player_entries

    @cached_property
    def grants(self) -> dict[int, Grant]:
        if self.token is not None:
            return {self.token.event_id: token_grant(self.token)}
        if not self.signed_in or not self.user.is_active:
            return {}
        merged: dict[int, Grant] = {}
        heads = set()
        for event_id, kind, tables, head in selectors.user_roles_held(self.user.pk):
            grant = merged.get(event_id, Grant())
            if head and kind == EventRole.Kind.REFEREE:
                heads.add(event_id)
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
        for event_id in heads:
            if not merged[event_id].organizer:
                merged[event_id] = replace(merged[event_id], head_referee=True)
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
    """The request's actor, built once per request: the API token the request was authenticated with
    (the API's requests), else the account and what the session opened."""
    actor = getattr(request, "_taikai_actor", None)
    if actor is None and isinstance(getattr(request, "auth", None), ApiToken):
        actor = Actor(None, token=request.auth)
        request._taikai_actor = actor
    elif actor is None:
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


def may_manage_every(actor: Actor, event_ids) -> bool:
    """An object several events share (a player, a series): a superuser, or a signed-in organizer (never a
    token) of every one of ``event_ids``, so no organizer reaches another's event through it. With no
    event, any organizer (the caller may narrow that, as a series does to its owner)."""
    if actor.is_superuser:
        return True
    if actor.token is not None or not actor.signed_in:
        return False
    if not event_ids:
        return manages_any(actor)
    return all(may_manage(actor, event_id) for event_id in event_ids)


def may_referee(actor: Actor, event_id: int, table_number: int | None = None) -> bool:
    """Absences, penalties, rulings, reopening a table, the final's decision: at this table, or (without
    a table) anywhere in the event."""
    return actor.grant(event_id).covers(table_number)


def may_check_round(actor: Actor, event_id: int) -> bool:
    """Marking a round's results checked (it locks the round): its organizers and referees."""
    grant = actor.grant(event_id)
    return grant.organizer or grant.referee


def may_unlock_round(actor: Actor, event) -> bool:
    """Unlocking a checked round: the event's owner (or a superuser), its head referees, or a program with an
    organizer token."""
    if actor.is_superuser:
        return True
    if actor.token is not None:
        return actor.grant(event.pk).organizer
    if not (actor.signed_in and actor.user.is_active):
        return False
    return event.owner_id == actor.user.pk or actor.grant(event.pk).head_referee


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


def may_read(actor: Actor, event) -> bool:
    """An event's records through the API: a public event, or any role or token in it."""
    return event.is_public or holds_role(actor, event.pk) or actor.grant(event.pk).reader


def may_read_table(actor: Actor, table) -> bool:
    """A table's records: its event's readers, and the table's scorekeeper."""
    return table.pk in actor.scorekeeper_tables or may_read(actor, table.round.event)


def may_issue_tokens(actor: Actor, event_id: int) -> bool:
    """Issuing and revoking API tokens: an organizer signed in with an account; never a token."""
    return actor.token is None and may_manage(actor, event_id)


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
    """A filter on ``path`` (an event id lookup): the events where the actor holds a role (or a token), or
    with ``manage`` only those they organize."""
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
