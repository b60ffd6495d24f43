"""What every view of the API that reads an event or a table shares (the tournament's, and those of the apps
built on it): who is asking (an API token, a session, a table card), what they may read and write, and the
answers to give when they may not (401 without credentials, 403 with credentials that do not allow it,
404 for nothing there). What any API view shares (JSON, paging, errors) is ``core.api``'s."""

from __future__ import annotations

from django.http import Http404
from rest_framework import exceptions

from core.api import ApiView
from taikai.errors import Forbidden
from tournament import access, selectors
from tournament.api import SessionWithTableCards
from tournament.api_v1.auth import ApiTokenAuthentication
from tournament.models import Event, Round, Table


# An API view of an event or a table: each view asks ``tournament.access`` itself. (A comment, not a docstring:
# the schema would show a docstring as every operation's description.)
class EventApiView(ApiView):
    authentication_classes = [ApiTokenAuthentication, SessionWithTableCards]

    @property
    def actor(self) -> access.Actor:
        return access.actor_for(self.request)

    def require(self, allowed: bool, what: str) -> None:
        """Go on only if ``allowed``: else 401 for nobody at all (no account, token or table card), 403."""
        if allowed:
            return
        if self.actor.anonymous:
            raise exceptions.NotAuthenticated(f"sign in or give an API token to {what}")
        access.require(False, what)

    def event(self, slug: str) -> Event:
        """The event, if the caller may read it."""
        event = selectors.event_get(slug)
        if event is None:
            raise Http404("no such event")
        self.require(access.may_read(self.actor, event), "read this event")
        return event

    def table(self, table_id: int) -> Table:
        """The table with its event, if the caller may read it."""
        table = selectors.table_with_event(table_id)
        if table is None or (
            table.round.status == Round.Status.DRAFT and not access.may_manage(self.actor, table.round.event_id)
        ):
            raise Http404("no such table")  # a seating draft is the organizers' until published
        self.require(access.may_read_table(self.actor, table), "read this table")
        return table

    def staff(self, event_id: int) -> bool:
        """Whether the caller works in the event (a role or a token): they see who recorded what."""
        actor = self.actor
        return access.holds_role(actor, event_id) or actor.grant(event_id).reader

    def refuse_token(self, what: str) -> None:
        if self.actor.token is not None:
            raise Forbidden("token_not_allowed", f"an API token cannot {what}: sign in as an organizer")
