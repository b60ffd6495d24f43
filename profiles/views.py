"""The public pages of the player across events.

* ``/players/?q=…``: search every player shown publicly, by name (kanji, kana, romaji), club, country or
  external id (an EMA number), 50 a page; each row shows what tells namesakes apart: club, country, the newest
  public event (name, date) and the number of public events;
* ``/players/<id>/``: a player's profile: their public events (dates, venue, place, points), 20 a page, and,
  where hands were recorded hand by hand, their wins, deal-ins 放銃 and yaku; a player merged away leads to
  the player kept; a profile switched off answers 404 to everyone but the player;
* ``POST /players/<id>/listed``: the player, signed in with the account linked to them, switches their
  profile off or on.

Each page runs a fixed number of queries whatever the player's history (a page of events at a time).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.pages import page_number
from profiles import selectors, services
from scoring.yaku_names import naming_context
from taikai.errors import Forbidden, TaikaiError

PLAYERS_PER_PAGE = 50
EVENTS_PER_PAGE = 20
QUERY_LENGTH = selectors.QUERY_LENGTH


@require_safe
def player_search(request):
    query = selectors.search_query(request.GET.get("q"))
    page = Paginator(selectors.with_public_history(selectors.players_search(query)), PLAYERS_PER_PAGE).get_page(
        page_number(request)
    )
    return render(request, "profiles/search.html", {"query": query, "page": page, "players": page.object_list})


def _own(request, player) -> bool:
    return request.user.is_authenticated and player.user_id == request.user.pk


@require_safe
def player_profile(request, player_id: int):
    head = selectors.profile_head(player_id)
    if head is None:
        raise Http404("no such player")
    if head.merged_into is not None:
        return redirect("profiles:player", head.merged_into)
    player, own = head.player, _own(request, head.player)
    if not own and not (head.listed and head.public):
        raise Http404("no such player")
    page = Paginator(selectors.player_public_entries(player), EVENTS_PER_PAGE).get_page(page_number(request))
    entries = list(page.object_list)
    counts = selectors.entries_hand_counts(entries)
    rows = [(entry, counts[entry.pk]) for entry in entries]
    total = selectors.HandCounts()
    for entry, tally in rows:
        if entry.event.entry_mode == entry.event.EntryMode.HANDS:
            total.add(tally)
    with_hands = any(entry.event.entry_mode == entry.event.EntryMode.HANDS for entry in entries)
    naming = naming_context(request)
    yaku = [(naming["yaku_names"].get(key, key), count) for key, count in total.yaku_rows]
    context = {
        "player": player,
        "own": own,
        "listed": head.listed,
        "page": page,
        "rows": rows,
        "total": total,
        "with_hands": with_hands,
        "yaku": yaku,
        **naming,
    }
    response = render(request, "profiles/profile.html", context)
    if own:
        response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def player_listed(request, player_id: int):
    """The player's own switch: only the account linked to the player changes it (403 for anyone else)."""
    head = selectors.profile_head(player_id)
    if head is None or head.merged_into is not None:
        raise Http404("no such player")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _own(request, head.player):
        raise Forbidden("not_your_profile", _("only the player, signed in with their own account, changes this"))
    try:
        setting = services.profile_listed_set(
            player=head.player, user=request.user, listed=request.POST.get("listed") == "1"
        )
    except TaikaiError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Your profile is public.") if setting.listed else _("Your profile is hidden: only you see it.")
        )
    return redirect("profiles:player", head.player.pk)
