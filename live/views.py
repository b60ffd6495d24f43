"""The directors' board, and the hall's actions: call a referee, take and close a call, give a table more
time or one more hand. Thin: each checks the role, then calls a service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from live import selectors
from live.services.allowances import table_allowance_give
from live.services.calls import referee_call, referee_call_close, referee_call_take
from taikai.errors import TaikaiError
from tournament import access
from tournament import selectors as tournament_selectors
from tournament.localtime import event_time_zone_activate
from tournament.models import Event
from tournament.outbox import outbox_refusal, wants_json
from tournament.services.clock import clocks_read

BOARD_POLL_MS = 15000  # how often the board polls when the live stream cannot be opened


@require_http_methods(["GET"])
def board_pick(request):
    """``/console/board/``: which event's board. The events where the actor is an organizer or a referee, today's
    first: the only one of today (or the only one at all) opens at once, several are listed to choose. The
    old address ``?event=<slug>`` opens that event's board."""
    actor = access.actor_for(request)
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    slug = request.GET.get("event")
    if slug:
        return redirect("live:board_event", slug)
    events = _board_events(actor)
    only = events.only()
    if only is not None:
        return redirect("live:board_event", only.slug)
    return render(request, "live/board_pick.html", {"events": events})


def _board_events(actor) -> selectors.BoardEvents:
    """The events whose board the actor may open (a role of organizer or referee, never a token)."""
    found = selectors.board_events(access.events_where(actor))

    def mine(events: list) -> list:
        return [event for event in events if access.holds_role(actor, event.pk)]

    return selectors.BoardEvents(mine(found.today), mine(found.others))


@require_http_methods(["GET"])
def board(request, slug: str):
    """Every table of the round on one screen: hands played, the current hand, the clock, the pace, extra
    time, and flags on what needs a director (a call, a table behind, totals that do not add up, a result
    not confirmed after the round's end). Only for the event's organizers and referees: to anyone else the
    event has no board (404)."""
    actor = access.actor_for(request)
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    event = tournament_selectors.event_get(slug)
    if event is None or not access.holds_role(actor, event.pk):
        raise Http404("no event of yours")
    event_time_zone_activate(event)
    shown = selectors.board(event)
    clocks = clocks_read([row.table for row in shown.tables]) if shown.tables else {}
    for row in shown.tables:
        row.clock = clocks.get(row.table.pk)
        row.clock_left = _time_left(row.clock)
    context = {
        "board": shown,
        "event": event,
        "calls": selectors.open_calls(event),
        "refresh_ms": BOARD_POLL_MS,
        "may_give_all": access.may_referee(actor, event.pk),
        "today": _board_events(actor).today,
    }
    return render(request, "live/board.html", context)


def _time_left(clock: dict | None) -> str:
    """The bank left to the seat on turn, as m:ss (empty without a running clock)."""
    if not clock or clock["status"] != "running" or clock["seat_on_turn"] is None:
        return ""
    seconds = max(0, clock["remaining_ms"][clock["seat_on_turn"]] // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _table_or_404(table_id: int):
    table = tournament_selectors.table_with_event(table_id)
    if table is None:
        raise Http404("no such table")
    return table


def _done(request, run, then: str):
    """Run an action: its refusal is shown as a message on the page it came from (403s stay 403s); a
    device's queue sending it (``tournament/outbox.py``) gets its answer in JSON."""
    try:
        message = run()
    except TaikaiError as exc:
        if exc.status == 403:
            raise
        if wants_json(request):
            return outbox_refusal(exc)
        messages.error(request, exc.message)
    else:
        if wants_json(request):
            return JsonResponse({"ok": True, "message": str(message)})
        messages.success(request, message)
    return redirect(then)


@require_POST
def call_referee(request, table_id: int):
    """The table sheet's "Call a referee": its scorekeeper, a referee or an organizer."""
    table = _table_or_404(table_id)
    actor = access.actor_for(request)
    access.require(access.may_score(actor, table), _("call a referee to this table"))

    def run():
        referee_call(
            table=table,
            reason=request.POST.get("reason", ""),
            note=request.POST.get("note", ""),
            user=actor.author_at(table),
        )
        return _("A referee is called to this table.")

    return _done(request, run, reverse("console:table", args=[table.pk]))


def _call_or_404(call_id: int):
    call = selectors.call_for(call_id)
    if call is None:
        raise Http404("no such call")
    return call


def _board_url(event) -> str:
    return reverse("live:board_event", args=[event.slug])


def _board_of(call) -> str:
    return _board_url(call.table.round.event)


@require_POST
def call_take(request, call_id: int):
    call = _call_or_404(call_id)
    actor = access.actor_for(request)
    access.require(access.may_referee(actor, call.table.round.event_id, call.table.number), _("take this call"))

    def run():
        referee_call_take(call=call, user=request.user)
        return _("You have taken the call of table %(number)s.") % {"number": call.table.number}

    return _done(request, run, _board_of(call))


@require_http_methods(["GET", "POST"])
def call_close(request, call_id: int):
    call = _call_or_404(call_id)
    actor = access.actor_for(request)
    access.require(access.may_referee(actor, call.table.round.event_id, call.table.number), _("close this call"))
    if request.method == "POST":
        try:
            referee_call_close(call=call, note=request.POST.get("note", ""), user=request.user)
        except TaikaiError as exc:
            if exc.status == 403:
                raise
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The call of table %(number)s is closed.") % {"number": call.table.number})
            return redirect(_board_of(call))
    return render(request, "live/call_close.html", {"call": call, "event": call.table.round.event})


@require_POST
def allowance_give(request, slug: str):
    """More time or one more hand for one table (its referee or an organizer) or for every table still
    playing (a referee of the whole event or an organizer)."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404("no such event")
    actor = access.actor_for(request)
    round_ = selectors.board_round(event)
    which = request.POST.get("table", "")
    tables = list(round_.tables.all()) if round_ else []
    if which != "all":
        tables = [t for t in tables if str(t.number) == which]
        number = tables[0].number if tables else None
        access.require(access.may_referee(actor, event.pk, number), _("give this table more time"))
    else:
        access.require(access.may_referee(actor, event.pk), _("give every table more time"))

    def run():
        given = table_allowance_give(
            tables=tables,
            minutes=_number(request, "minutes"),
            hands=_number(request, "hands"),
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
        return _("Recorded as a ruling (art. 44) at %(tables)s.") % {
            "tables": ", ".join(str(a.table.number) for a in given)
        }

    return _done(request, run, _board_url(event))


def _number(request, name: str) -> int:
    raw = (request.POST.get(name) or "0").strip()
    try:
        return int(raw)
    except ValueError:
        raise TaikaiError(f"invalid_{name}", _("%(field)s is a whole number") % {"field": name}, field=name) from None
