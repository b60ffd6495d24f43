""" "My tables": the tables of running rounds the person may act on, a page at a time; and a scorekeeper's
table card: the link from the card's QR code, then its PIN."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.forms import ScorekeeperPinForm
from tournament.models import Table
from tournament.pages import fragment
from tournament.services.roles import scorekeeper_key_unlock, token_digest

TABLES_PER_PAGE = 50


def _scope_key(scopes, actor: access.Actor) -> tuple:
    """The tables an actor's console lists, as a stable value (the cached list is shared by equal scopes)."""
    events = [
        (event_id, None if numbers is None else sorted(numbers)) for event_id, numbers in sorted((scopes or {}).items())
    ]
    return scopes is None, events, sorted(actor.scorekeeper_tables)


@require_http_methods(["GET"])
def my_tables(request):
    actor = access.actor_for(request)
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    scopes = access.console_scopes(actor)
    tables = selectors.tables_playing_in(scopes, table_ids=actor.scorekeeper_tables)
    status = request.GET.get("status", "")
    if status in Table.Status.values:
        tables = tables.filter(status=status)
    round_number = request.GET.get("round", "")
    if round_number.isdigit():
        tables = tables.filter(round__number=int(round_number))
    version = selectors.tables_version(tables)
    page = Paginator(range(version.tables), TABLES_PER_PAGE).get_page(request.GET.get("page"))
    listed = fragment(
        (_scope_key(scopes, actor), status, round_number, version, page.number),
        "tournament/console/_tables_list.html",
        lambda: _tables_listed(tables[page.start_index() - 1 : page.end_index()] if version.tables else []),
    )
    return render(
        request,
        "tournament/console/tables.html",
        {
            "page": page,
            "status": status,
            "round": round_number,
            "statuses": Table.Status.choices,
            "listed": listed,
            "live_slug": _one_event_slug(scopes, actor),
            "directs": access.referees_any(actor),
            "late_tables": selectors.tables_late_warnings(tables, now=timezone.now()),
        },
    )


def _tables_listed(tables) -> dict:
    """A page of My tables: its tables, and whether any of their events runs a chess clock (the clock column)."""
    tables = list(tables)
    return {"tables": tables, "has_clocks": any(table.round.event.clock_bank_seconds for table in tables)}


def _one_event_slug(scopes, actor) -> str | None:
    """The event whose live stream the list follows, when every table it may list is in that one event (a
    referee's or a scorekeeper's usual day); None, and the list polls, otherwise."""
    if scopes is None:
        return None  # a superuser: every event
    event_ids = set(scopes) | set(selectors.tables_event_ids(actor.scorekeeper_tables))
    return selectors.event_slug(event_ids.pop()) if len(event_ids) == 1 else None


@require_http_methods(["GET", "POST"])
def table_card(request, token: str):
    """A scorekeeper's table card: the link opens this page, the PIN opens the table for this session."""
    form = ScorekeeperPinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            key = scorekeeper_key_unlock(token=token, pin=form.cleaned_data["pin"])
        except TaikaiError as exc:
            form.add_error("pin" if exc.field == "pin" else None, exc.message)
            status = 403 if exc.code in ("key_invalid", "key_locked") else 400
        else:
            opened = set(request.session.get(access.SESSION_SCOREKEEPER_KEYS, []))
            request.session[access.SESSION_SCOREKEEPER_KEYS] = sorted(opened | {key.pk})
            request.session.cycle_key()
            return redirect("console:table", key.table_id)
    elif request.method == "POST":
        status = 400
    table = selectors.scorekeeper_card_table(token_digest(token))
    return render(request, "tournament/console/card.html", {"form": form, "table": table}, status=status)
