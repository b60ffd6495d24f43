"""What every view of the API shares: who is asking, what they may read and write, and the answers to
give when they may not (401 without credentials, 403 with credentials that do not allow it, 404 for
nothing there)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers, permissions, renderers
from rest_framework.pagination import PageNumberPagination
from rest_framework.views import APIView

from taikai.errors import Forbidden, TaikaiError
from taikai.text import MAX_LIST_ITEMS, longest_list_path
from tournament import access, selectors
from tournament.api import SessionWithTableCards
from tournament.api_v1.auth import ApiTokenAuthentication
from tournament.models import Event, Round, Table


class JSONParser(parsers.JSONParser):
    """JSON bodies; a body nested too deep to read is bad input (400), like any other unreadable one."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from exc
        where = longest_list_path(data)
        if where is not None:
            raise exceptions.ParseError(f"JSON parse error - {where} holds more than {MAX_LIST_ITEMS} items")
        return data


class Pages(PageNumberPagination):
    """``?page=`` (from 1) and ``?page_size=`` (up to 500; 100 by default)."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        """A ``page_size`` that is not a whole number from 1 to 500 is refused (400), not replaced."""
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise TaikaiError(
                "invalid_parameter",
                _("page_size is a whole number from 1 to %(max)s") % {"max": self.max_page_size},
                field="page_size",
            )
        return int(raw)


class ApiView(APIView):
    authentication_classes = [ApiTokenAuthentication, SessionWithTableCards]
    permission_classes = [permissions.AllowAny]  # each view asks tournament.access itself
    renderer_classes = [renderers.JSONRenderer]
    parser_classes = [JSONParser]
    # the throttles are the site's (REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES: address, account, token)

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
