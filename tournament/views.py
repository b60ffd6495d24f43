"""Public pages: plain, server-rendered, a fixed number of queries each."""

from __future__ import annotations

import csv
import hashlib
import time

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from tournament import access, selectors
from tournament.localtime import event_time_zone_activate


def _event_or_404(slug: str):
    """The public event, its time zone active for the rest of the request (times on its pages)."""
    event = selectors.event_get_public(slug)
    if event is None:
        raise Http404("no such public event")
    event_time_zone_activate(event)
    return event


@require_safe
def event_list(request):
    return render(request, "tournament/event_list.html", {"events": selectors.event_public_list()})


@require_safe
def event_home(request, slug):
    event = _event_or_404(slug)
    snapshot = selectors.event_standings(event)
    rounds = selectors.event_published_rounds(event)
    top = snapshot.rows[:8] if snapshot else []
    return render(
        request,
        "tournament/event_home.html",
        {"event": event, "rounds": rounds, "top": top, "snapshot": snapshot},
    )


STANDINGS_PER_PAGE = 100


@require_safe
def standings(request, slug):
    """The standings, a page at a time. A phone that polls sends back the ETag and gets a 304 until the
    standings are computed again."""
    event = _event_or_404(slug)
    query = (request.GET.get("q") or "").strip()
    computed_at = selectors.event_standings_computed_at(event.pk)
    tag = f"{event.pk}|{computed_at}|{request.GET.get('page', '')}|{query}|{request.user.pk}"
    etag = '"' + hashlib.sha256(tag.encode()).hexdigest()[:32] + '"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified
    view = selectors.event_standings_view(event, query=query, computed_at=computed_at)
    page = Paginator(view.rows if view else [], STANDINGS_PER_PAGE).get_page(request.GET.get("page"))
    context = {"event": event, "snapshot": view, "rows": page.object_list, "page": page, "query": query,
               "round_numbers": view.round_numbers if view else [], "etag": etag}  # fmt: skip
    response = render(request, "tournament/standings.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


TABLES_PER_PAGE = 50


@require_safe
def round_seating(request, slug, number):
    """A round's seating, 50 tables a page, with "find my table" by name, kana or romaji."""
    event = _event_or_404(slug)
    round_ = selectors.event_published_round(event, number)
    if round_ is None:
        raise Http404("no such round")
    return render(
        request, "tournament/round.html", {"event": event, "round": round_, **_seating_page(request, round_)}
    )


def _seating_page(request, round_, per_page: int = TABLES_PER_PAGE) -> dict:
    query = (request.GET.get("q") or "").strip()[:80]
    paginator = Paginator(range(selectors.round_table_count(round_)), per_page)
    page = paginator.get_page(request.GET.get("page"))
    tables = (
        selectors.round_tables_page(round_, start=page.start_index() - 1, stop=page.end_index())
        if paginator.count
        else []
    )
    return {
        "tables": tables,
        "page": page,
        "query": query,
        "found": selectors.round_find_seats(round_, query),
    }


VENUE_TABLES = 24
VENUE_STANDINGS = 16


@require_safe
def venue(request, slug):
    """The projector page: the round's timer, its seating a page at a time (the page turns by itself),
    "find your table", and the top of the standings."""
    event = _event_or_404(slug)
    round_ = selectors.event_latest_published_round(event)
    view = selectors.event_standings_view(event)
    context = {"event": event, "round": round_, "top": view.rows[:VENUE_STANDINGS] if view else [],
               "server_ms": int(time.time() * 1000), **(_seating_page(request, round_, VENUE_TABLES) if round_ else {})}  # fmt: skip
    return render(request, "tournament/venue.html", context)


@require_safe
def player_page(request, slug, entry_id):
    """A player's page: public with its event, and otherwise open to that player (their personal link or
    account) and to the event's organizers and referees."""
    event = selectors.event_get(slug)
    entry = selectors.event_entry_with_player(event, entry_id) if event else None
    if event is not None:
        event_time_zone_activate(event)
    if entry is None or not (event.is_public or access.may_see_player(access.actor_for(request), entry)):
        raise Http404("no such player in this event")
    results = list(selectors.player_results_in_event(event, entry.id))
    view = selectors.event_standings_view(event, query="")
    standing = next(iter(selectors.standing_of(view, entry.id)), None) if view else None
    context = {"event": event, "entry": entry, "results": results, "standing": standing,
               "seat": selectors.entry_current_seat(entry), "games": selectors.entry_games_hand_by_hand(entry)}  # fmt: skip
    return render(request, "tournament/player.html", context)


@require_safe
def standings_csv(request, slug):
    event = _event_or_404(slug)
    snapshot = selectors.event_standings(event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            "rank",
            "award_rank",
            "player",
            "club",
            "country",
            "advances",
            "total_points",
            "games",
            "penalty_points",
            "status",
        ]
    )
    for row in snapshot.rows if snapshot else []:
        writer.writerow([row["rank"], row["award_rank"] or "", csv_text(row["name"]), csv_text(row["club"]),
                         csv_text(row["country"]), row["advances"], row["total_points"], row["games"],
                         row["penalty_points"], row["status"]])  # fmt: skip
    return response


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value) -> str:
    """A person's text in a CSV cell, never read as a formula by a spreadsheet (OWASP CSV injection):
    text starting with = + - @ tab or return gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@require_safe
def hands_csv(request, slug):
    event = _event_or_404(slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-hands.csv"'
    writer = csv.writer(response)
    writer.writerow(["round", "table", "hand", "version", "label", "outcome", "honba", "deposits_in", "riichi",
                     "wins", "deltas_E", "deltas_S", "deltas_W", "deltas_N", "deposits_out", "recorded_via", "recorded_at"])  # fmt: skip
    for v in selectors.event_hand_versions(event):
        deltas = list(v.deltas) + [""] * (4 - len(v.deltas))
        wins = "; ".join(
            f"{w['winner']}<-{w['discarder'] if w['discarder'] is not None else 'tsumo'} "
            + (f"yakuman×{w['yakuman']}" if w.get("yakuman") else f"{w['han']}han {w['fu']}fu")
            for w in v.wins
        )
        writer.writerow([v.hand.table.round.number, v.hand.table.number, v.hand.number, v.version, v.label, v.outcome,
                         v.honba, v.deposits_in, " ".join(map(str, v.riichi_positions)), wins, *deltas, v.deposits_out,
                         v.recorded_via, v.recorded_at.isoformat()])  # fmt: skip
    return response


@require_safe
def player_link(request, token):
    """A player's personal link: it opens their own page, in this browser from now on."""
    entry = selectors.entry_by_link(token)
    if entry is None:
        raise Http404("this personal link is not valid")
    opened = set(request.session.get(access.SESSION_PLAYER_ENTRIES, []))
    request.session[access.SESSION_PLAYER_ENTRIES] = sorted(opened | {entry.pk})
    return redirect("tournament:player", entry.event.slug, entry.pk)
