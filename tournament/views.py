"""Public pages: plain, server-rendered, a fixed number of queries each, whatever the size of the field.

The costly part of a page (the standings' rows, a page of the seating) is kept in the cache for the
version of what it shows (:mod:`tournament.pages`); that version is the ETag of the standings and of the
seating, so a phone that polls gets a 304.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from core.pages import page_number
from scoring.templatetags.yaku import yaku_text
from scoring.yaku_names import chosen_style, yaku_labels
from taikai.errors import TaikaiError
from taikai.spreadsheet import csv_writer
from tournament import access, selectors
from tournament.localtime import event_time_zone_activate
from tournament.models import Round
from tournament.pages import cached_value, etag_of, fragment, public_event_or_404
from tournament.services.entries import player_account_link as entry_player_account_link
from tournament.services.late import seat_arrive
from tournament.services.teams import team_standings_for
from tournament.templatetags.taikai import rule_change_note


@require_safe
def event_list(request):
    return render(request, "tournament/event_list.html", {"events": selectors.event_public_list()})


HOME_LEADERS = 8


@require_safe
def event_home(request, slug):
    """The event at a glance: its rounds, how far the latest one is, and the leaders (a fixed number of
    rows, whatever the size of the field), kept for the version of the rounds, of the latest round's tables
    and of the standings."""
    event = public_event_or_404(slug)
    computed_at = selectors.event_standings_computed_at(event.pk)
    rounds = selectors.event_published_round_states(event)  # (id, number, status), by number
    latest = selectors.tables_version(selectors.round_tables_by_id(rounds[-1][0])) if rounds else None

    def body():
        published = [Round(pk=pk, event=event, number=number, status=status) for pk, number, status in rounds]
        finished, tables = (latest.finished, latest.tables) if latest else (0, 0)
        return {
            "event": event,
            "rounds": published,
            "latest": published[-1] if published else None,
            "tables_finished": finished,
            "tables": tables,
            "computed_at": computed_at,
            "top": selectors.event_standings_top(event, HOME_LEADERS) if computed_at else [],
        }

    version = (event.pk, event.time_zone, computed_at, tuple(rounds), latest)
    context = {
        "event": event,
        "body": fragment(version, "tournament/_event_home_body.html", body),
        "directs": access.holds_role(access.actor_for(request), event.pk),
    }  # the board's link: its directors
    return render(request, "tournament/event_home.html", context)


STANDINGS_PER_PAGE = 100
PRECEDENCE_WORDS = {
    "advances": gettext_lazy("advances"),
    "total_points": gettext_lazy("total points"),
    # Translators: the standings' last key: ties broken by lot 抽選, drawn from the event's seed
    "lot": gettext_lazy("by lot (seed %(seed)s)"),
}


def _precedence_words(event) -> str:
    """Art. 41: what orders the standings, in words ("advances, then total points"); a draw by lot names its
    seed (anyone can draw the same lots again)."""
    words = [str(PRECEDENCE_WORDS.get(key, key)) for key in event.precedence]
    if "lot" in event.precedence:
        words[-1] = words[-1] % {"seed": event.draw_seed}
    # Translators: joins the keys that order the standings: "advances, then total points"
    return gettext(", then ").join(words)


@require_safe
def standings(request, slug):
    """The standings, a page at a time. A phone that polls sends back the ETag and gets a 304 until the
    standings are computed again."""
    event = public_event_or_404(slug)
    query = (request.GET.get("q") or "").strip()[:80]
    snapshot = selectors.event_standings(event)
    computed_at = snapshot.computed_at if snapshot else None
    pages = -(-snapshot.row_count // STANDINGS_PER_PAGE) if snapshot and not query else None
    number = page_number(request, pages)
    rule_changes = cached_value(  # a rule change computes the standings again: a new version
        (event.pk, computed_at),
        "rule-changes",
        lambda: [rule_change_note(change) for change in selectors.event_rule_changes(event)],
    )
    etag = etag_of(event.pk, computed_at, number, query, request.user.pk, tuple(rule_changes))
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified

    def table():
        view = selectors.standings_view(snapshot, query=query)
        page = Paginator(view.rows, STANDINGS_PER_PAGE).get_page(number)
        return {
            "event": event,
            "rows": page.object_list,
            "page": page,
            "query": query,
            "round_numbers": view.round_numbers,
        }

    context = {
        "event": event,
        "snapshot": snapshot,
        "query": query,
        "etag": etag,
        "precedence_words": _precedence_words(event),
        "rule_changes": rule_changes,
        "table": fragment((event.pk, computed_at, number, query), "tournament/_standings_table.html", table)
        if snapshot
        else "",
    }
    response = render(request, "tournament/standings.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


TABLES_PER_PAGE = 50


@require_safe
def round_seating(request, slug, number):
    """A round's seating, 50 tables a page, with "find my table" by name, kana or romaji. The ETag is the
    version of the round's tables: a phone that polls gets a 304 until a result or a table changes."""
    event = public_event_or_404(slug)
    round_ = selectors.event_published_round(event, number)
    if round_ is None:
        raise Http404("no such round")
    event_time_zone_activate(event)  # the announced start in the event's time zone
    version = selectors.tables_version(selectors.round_tables(round_))
    query = (request.GET.get("q") or "").strip()[:80]
    window = _seating_window(request, round_, version, TABLES_PER_PAGE)
    checking = round_being_checked(request, event, round_)
    etag = etag_of(
        event.pk,
        round_.pk,
        round_.status,
        version,
        window[1],
        page_number(request),
        query,
        request.user.pk,
        checking,
        round_.starts_at,
        translation.get_language(),
    )
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified
    context = {
        "event": event,
        "round": round_,
        "being_checked": checking,
        **_seating_page(request, event, round_, version, query=query, window=window, being_checked=checking),
    }
    response = render(request, "tournament/round.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _seating_window(request, round_, version, per_page: int):
    """The page of tables asked for, and how many hand writes its tables have seen (for the cache and the
    ETag: the running scores of games in progress change with every hand)."""
    page = Paginator(range(version.tables), per_page).get_page(request.GET.get("page"))
    if not version.tables:
        return page, 0
    return page, selectors.round_tables_page_hands(round_, start=page.start_index() - 1, stop=page.end_index())


def round_being_checked(request, event, round_) -> bool:
    """Does the public see this round as being checked (its results not shown yet)? An event that publishes
    results only once checked, a round not checked yet, and nobody with a role in the event asking."""
    if not event.results_after_check or round_.checked_at is not None:
        return False
    return not access.holds_role(access.actor_for(request), event.pk)


def _seating_page(
    request,
    event,
    round_,
    version,
    *,
    query: str,
    per_page=TABLES_PER_PAGE,
    link_players=True,
    window=None,
    being_checked=False,
) -> dict:
    """A page of the round's tables and the seats found for ``query``, both cached for the tables' version
    (people between rounds look for the same names again and again)."""
    page, hands = window or _seating_window(request, round_, version, per_page)
    start, stop = page.start_index() - 1, page.end_index()

    def cards():
        tables = selectors.round_tables_page(round_, start=start, stop=stop)
        selectors.tables_running_points(tables)
        return {
            "event": event,
            "tables": tables if version.tables else [],
            "link_players": link_players,
            "being_checked": being_checked,
        }

    found = (
        cached_value((round_.pk, version, query), "find-seats", lambda: selectors.round_find_seats(round_, query))
        if query
        else []
    )
    return {
        "page": page,
        "query": query,
        "found": found,
        "cards": fragment(
            (round_.pk, version, hands, per_page, page.number, link_players, being_checked),
            "tournament/_seating_tables.html",
            cards,
        ),
    }


VENUE_TABLES = 9  # a projector page: 3 rows of 3 tables, names whole, in text readable from 10 m
VENUE_STANDINGS = 12  # rows of a standings page
VENUE_STANDINGS_PAGES = 4  # the venue rotates through the top 48


@require_safe
def venue(request, slug):
    """The projector page (1920 × 1080, read from across the hall): the round's timer, large, then in turn
    every page of the round's seating and the first pages of the standings, a page every 20 s. Nothing to
    type: people find their seat on their phones."""
    event = public_event_or_404(slug)
    round_ = selectors.event_latest_published_round(event)
    view = "standings" if request.GET.get("view") == "standings" else "seating"
    seating, seating_pages = {}, 0
    if round_:
        version = selectors.tables_version(selectors.round_tables(round_))
        seating_pages = -(-version.tables // VENUE_TABLES)
        if view == "seating":
            seating = _seating_page(
                request,
                event,
                round_,
                version,
                query="",
                per_page=VENUE_TABLES,
                link_players=False,
                being_checked=round_being_checked(request, event, round_),
            )
    standings_pages = -(
        -selectors.event_standings_count(event, VENUE_STANDINGS * VENUE_STANDINGS_PAGES) // VENUE_STANDINGS
    )
    if view == "standings" or not seating_pages:
        view = "standings"
        number = _venue_page(request, standings_pages)
        rows = selectors.event_standings_slice(event, (number - 1) * VENUE_STANDINGS, number * VENUE_STANDINGS)
    else:
        number, rows = seating["page"].number, []
    context = {
        "event": event,
        "round": round_,
        "view": view,
        "rows": rows,
        "page_number": number,
        "pages": seating_pages if view == "seating" else standings_pages,
        "with_advances": "advances" in event.precedence,
        "next": _venue_next(view, number, seating_pages, standings_pages),
        "server_ms": int(time.time() * 1000),
        **seating,
    }
    return render(request, "tournament/venue.html", context)


def _venue_page(request, pages: int) -> int:
    try:
        number = int(request.GET.get("page", "1"))
    except ValueError:
        number = 1
    return min(max(number, 1), max(pages, 1))


def _venue_next(view: str, number: int, seating_pages: int, standings_pages: int) -> str:
    """The page after this one: every seating page, then every standings page, then round again."""
    if view == "seating" and number < seating_pages:
        return f"?view=seating&page={number + 1}"
    if view == "standings" and number < standings_pages:
        return f"?view=standings&page={number + 1}"
    if view == "seating" and standings_pages:
        return "?view=standings&page=1"
    return "?view=seating&page=1" if seating_pages else "?view=standings&page=1"


@require_safe
def player_page(request, slug, entry_id):
    """A player's page: public with its event, and otherwise open to that player (their personal link or
    account) and to the event's organizers and referees. The games, hand by hand, are the cached part: one
    query tells whether any of the player's tables changed (:func:`selectors.entry_tables_state`)."""
    entry = selectors.entry_for_page(slug, entry_id)
    event = entry.event if entry else None
    if entry is None or not (event.is_public or access.may_see_player(access.actor_for(request), entry)):
        raise Http404("no such player in this event")
    event_time_zone_activate(event)
    state = selectors.entry_tables_state(entry)

    def games():
        played = selectors.entry_games(state)
        start = event.ruleset.start_points
        in_progress = [
            (game, start + sum(h.delta or 0 for h in game.hands), len(game.hands))
            for game in played
            if game.result is None and game.hands
        ]
        return {
            "event": event,
            "games": played,
            "results": [g for g in played if g.result],
            "in_progress": in_progress,
            "with_hands": any(g.hands for g in played),
        }

    actor = access.actor_for(request)
    context = {
        "event": event,
        "entry": entry,
        "seat": state.next_seat,
        "standing": entry.standing,
        "may_link_account": _may_link_account(actor, entry),
        "check_in_seat": _seat_to_check_in(actor, entry),
        "games_part": fragment((event.pk, entry.pk, state.version), "tournament/_player_games.html", games),
    }
    return render(request, "tournament/player.html", context)


def _seat_to_check_in(actor, entry):
    """The seat the player may say "I am here" for, on their own page only (their link or account)."""
    if entry.event.late_absent_minutes is None:
        return None
    if entry.pk not in actor.player_entries and actor.own_entries.get(entry.event_id) != entry.pk:
        return None
    return selectors.entry_seat_to_check_in(entry)


def _may_link_account(actor, entry) -> bool:
    """The player, signed in, on a page opened with their personal link, and the player has no account yet.

    Not the event's staff: they hold every player's link of their event, and a player linked to an account
    opens that player's pages in every event, other organizers' private ones included. A superuser links
    a player who also runs the event, in the admin."""
    return (
        actor.signed_in
        and entry.pk in actor.player_entries
        and entry.player.user_id is None
        and not access.holds_role(actor, entry.event_id)
    )


@require_POST
def player_here(request, slug, entry_id):
    """ "I am here": the player, from their own page (their personal link or account), checks in at the table of
    the round in play, so the late players' clock does not mark them absent (art. 42). Only the player: a referee
    checks players in from the table's sheet."""
    entry = selectors.entry_for_page(slug, entry_id)
    if entry is None:
        raise Http404("no such player in this event")
    actor = access.actor_for(request)
    access.require(
        entry.pk in actor.player_entries or actor.own_entries.get(entry.event_id) == entry.pk,
        gettext("check in for this player: open the player's personal link first"),
    )
    seat = selectors.entry_seat_to_check_in(entry)
    if seat is None:
        raise TaikaiError("no_seat_to_check_in", gettext("no table of a round in play waits for you"), field="seat")
    seat_arrive(seat=seat, how=seat.Arrival.PLAYER, user=request.user)
    messages.success(request, gettext("You are checked in at your table."))
    return redirect("tournament:player", slug, entry.pk)


@require_POST
def player_account_link(request, slug, entry_id):
    """The player links their own account from their page (opened with their personal link), so that the
    account opens their pages on any device. Nobody else links a player to an account but a superuser."""
    entry = selectors.entry_for_page(slug, entry_id)
    if entry is None:
        raise Http404("no such player in this event")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    access.require(
        entry.pk in access.actor_for(request).player_entries,
        gettext("link this player to your account: open the player's personal link first"),
    )
    access.require(
        not access.holds_role(access.actor_for(request), entry.event_id),
        gettext("link a player of your own event to your account: a superuser does it in the admin"),
    )
    entry_player_account_link(entry=entry, user=request.user)
    return redirect("tournament:player", slug, entry.pk)


@functools.cache
def _icon() -> bytes:
    return (Path(__file__).parent / "static" / "tournament" / "icon.svg").read_bytes()


@require_safe
def favicon(request):
    """``/favicon.ico``, which every browser asks for: the site's icon (an SVG, which browsers take here)."""
    response = HttpResponse(_icon(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def web_manifest(request):
    """The web app manifest: a phone that adds the site to its home screen gets its name, icon and colour."""
    manifest = {
        "name": "Taikai",
        "short_name": "Taikai",
        "start_url": "/",
        "display": "standalone",
        "theme_color": "#0b6e4f",
        "background_color": "#ffffff",
        "icons": [{"src": static("tournament/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def standings_csv(request, slug):
    event = public_event_or_404(slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = csv_writer(response)
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
    for row in selectors.event_standings_rows(event).iterator(chunk_size=2000):
        writer.writerow(
            [
                row.rank,
                row.award_rank or "",
                row.name,
                row.club,
                row.country,
                row.advances,
                row.total_points,
                row.games,
                row.penalty_points,
                row.status,
            ]
        )
    return response


@require_safe
def teams(request, slug):
    """The team standings (団体戦) beside the individual standings: each team's score under the event's team
    rule, round by round, and its members. At most MAX_TEAMS_SHOWN teams (an event's teams are few)."""
    event = public_event_or_404(slug)
    if not event.team_rule:
        raise Http404("not a team event")
    rows = team_standings_for(event)[:MAX_TEAMS_SHOWN]
    rounds = [number for number, _score in rows[0].rounds] if rows else []
    return render(request, "tournament/teams.html", {"event": event, "rows": rows, "rounds": rounds})


@require_safe
def teams_csv(request, slug):
    event = public_event_or_404(slug)
    if not event.team_rule:
        raise Http404("not a team event")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-teams.csv"'
    writer = csv_writer(response)
    writer.writerow(["rank", "team", "score", "members"])
    for row in team_standings_for(event):
        writer.writerow([row.rank, row.team.name, row.score, " / ".join(row.members)])
    return response


MAX_TEAMS_SHOWN = 500


@require_safe
def hands_csv(request, slug):
    event = public_event_or_404(slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-hands.csv"'
    writer = csv_writer(response)
    writer.writerow(
        [
            "round",
            "table",
            "hand",
            "version",
            "label",
            "outcome",
            "honba",
            "deposits_in",
            "riichi",
            "wins",
            "deltas_E",
            "deltas_S",
            "deltas_W",
            "deltas_N",
            "deposits_out",
            "recorded_via",
            "recorded_at",
            "yaku",
        ]
    )
    names = yaku_labels(chosen_style(request, event))
    being_checked = event.results_after_check and not access.holds_role(access.actor_for(request), event.pk)
    for v in selectors.event_hand_versions(event):
        if being_checked and v.hand.table.round.checked_at is None:
            continue  # the public gets a round's hands once the round is checked
        deltas = list(v.deltas) + [""] * (4 - len(v.deltas))
        wins = "; ".join(
            f"{w['winner']}<-{w['discarder'] if w['discarder'] is not None else 'tsumo'} "
            + (f"yakuman×{w['yakuman']}" if w.get("yakuman") else f"{w['han']}han {w['fu']}fu")
            for w in v.wins
        )
        writer.writerow(
            [
                v.hand.table.round.number,
                v.hand.table.number,
                v.hand.number,
                v.version,
                v.label,
                v.outcome,
                v.honba,
                v.deposits_in,
                " ".join(map(str, v.riichi_positions)),
                wins,
                *deltas,
                v.deposits_out,
                v.recorded_via,
                v.recorded_at.isoformat(),
                "; ".join(yaku_text(w.get("yaku"), names) for w in v.wins),
            ]
        )
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


EMA_ROWS_PER_PAGE = 100


@require_safe
def ema_results(request, slug):
    """The event's results for the EMA ranking (MERS), 100 players a page: place, name, country, EMA number
    (or non-member), points as the EMA writes them and the base rank; the problems that keep the file from
    being sent; the MERS weight as a preview; the file's downloads (CSV, .xlsx) once nothing is wrong."""
    event = public_event_or_404(slug)
    ema = selectors.event_ema(event)
    page = Paginator(ema.report.rows, EMA_ROWS_PER_PAGE).get_page(page_number(request))
    return render(
        request,
        "tournament/ema.html",
        {"event": event, "ema": ema, "page": page, "non_members": len(ema.report.non_members)},
    )
