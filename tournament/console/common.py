"""What every page of the console asks first: who is refused (sent to sign in, or 403), and the table a
page is about with the person asking."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.utils.translation import gettext as _

from taikai.errors import Forbidden
from tournament import access, selectors


def refused(request, actor: access.Actor):
    """Nobody at all is sent to sign in; someone without the role gets 403."""
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    raise Forbidden("forbidden", _("your role in this event does not allow this"))


def table_and_caller(table_id: int, request):
    """The table with its event (404 when there is none) and whoever asks."""
    table = selectors.table_with_event(table_id)
    if table is None:
        raise Http404("no such table")
    return table, access.actor_for(request)
