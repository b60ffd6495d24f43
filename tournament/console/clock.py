"""The chess clock at the console: a table's clock page, and the clocks of many tables at once
(``clocks``, read by the device)."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.console.common import refused
from tournament.services.clock import clock_state, clocks_read


@require_http_methods(["GET"])
def table_clock(request, table_id: int):
    """The chess clock of art. 38 for a tablet at the table: one tap zone per seat. The server keeps the
    time; the page ticks between answers and resyncs after a reload or a lost connection."""
    table = selectors.table_with_event(table_id)
    if table is None:
        raise Http404("no such table")
    actor = access.actor_for(request)
    if not access.may_score(actor, table):
        return refused(request, actor)
    event = table.round.event
    if not event.clock_bank_seconds:
        return _clock_off(request, actor, table)
    seats = selectors.table_game_seats(table)
    defaults = selectors.next_hand_defaults(selectors.table_hand_sheet(table), players=len(seats))
    context = {
        "table": table,
        "event": event,
        "seats": seats,
        "next_hand": selectors.table_hands_recorded(table) + 1,
        "dealer": defaults["dealer_position"],
        "clock": _clock_shown(table),
    }
    return render(request, "tournament/console/clock.html", context)


def _clock_off(request, actor, table):
    """Art. 38 ①: the time bank is set per hand only when the event needs one. Without it the event plays
    without a chess clock: the page says so, and shows its organizers the setting that turns it on."""
    event = table.round.event
    context = {"table": table, "event": event, "may_manage": access.may_manage(actor, event.pk)}
    return render(request, "tournament/console/clock_off.html", context)


def _clock_shown(table) -> dict | None:
    """The clock as the page is drawn (a copy of the page kept on the device starts from it); None for an
    event without a time bank (the page says so when it asks)."""
    try:
        return clock_state(table=table)
    except TaikaiError:
        return None


CLOCKS_PER_REQUEST = 50


@require_http_methods(["GET"])
def clocks(request):
    """The clocks of the listed tables the actor works at (at most 50: a page of My tables), unlocked."""
    actor = access.actor_for(request)
    try:
        ids = [int(i) for i in request.GET.get("tables", "").split(",") if i][:CLOCKS_PER_REQUEST]
    except ValueError:
        raise TaikaiError(
            "invalid_tables", _("tables is a comma-separated list of table ids"), field="tables"
        ) from None
    tables = [t for t in selectors.tables_with_events(ids) if access.may_score(actor, t)]
    return JsonResponse({str(k): v for k, v in clocks_read(tables).items()})
