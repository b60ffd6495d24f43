"""The player across events in the REST API (``/api/v1/profiles/…``, wired by ``config/urls.py``), read-only,
with the rules of the pages (``profiles/views.py``) and their selectors:

* ``/api/v1/profiles/?q=…``: the search over every player shown publicly (name, kana, romaji, club,
  country, EMA number), a page at a time; no ``q`` (or one that folds to nothing) finds nobody, as the page;
* ``/api/v1/profiles/<id>/``: a player's profile: their public events (dates, venue, place, points), a page
  at a time, and, where hands were recorded hand by hand, their wins, deal-ins 放銃 and yaku. A player merged
  away leads (302) to the player kept; a player not shown publicly (profile switched off, no public event)
  is 404 to everyone but the player, signed in with the account linked to them.

Each answer runs a fixed number of queries whatever the player's history.
"""

from __future__ import annotations

from django.http import Http404, HttpResponseRedirect
from django.urls import path, reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from core.api import PAGE, PAGE_SIZE, PAGED_READ_ERRORS, Pages, page_of, paged
from profiles import selectors
from tournament.api_v1 import serializers as s
from tournament.api_v1.base import EventApiView
from tournament.models import Event

app_name = "profiles_api"

QUERY_LENGTH = selectors.QUERY_LENGTH


class ProfileFoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")
    reading = serializers.CharField(help_text="The name's reading in kana or romaji; empty when none.")
    club = serializers.CharField()
    country = serializers.CharField(help_text="ISO 3166-1 alpha-2, or empty.")
    external_id = serializers.SerializerMethodField(help_text="The EMA number (an outside id); null when none.")
    url = serializers.SerializerMethodField(help_text="The player's profile in this API.")

    def get_external_id(self, player) -> str | None:
        return player.external_id or None

    def get_url(self, player) -> str:
        return self.context["request"].build_absolute_uri(reverse("profiles_api:profile", args=[player.pk]))


class YakuCountSerializer(serializers.Serializer):
    yaku = serializers.CharField(help_text="The yaku, as the tile calculator names it (`riichi`, `pinfu`…).")
    count = serializers.IntegerField(help_text="The wins that named it.")


class HandCountsSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    tsumo = serializers.IntegerField(help_text="Wins by self-draw.")
    ron = serializers.IntegerField(help_text="Wins on another player's discard.")
    deal_ins = serializers.IntegerField(help_text="放銃: hands won by ron on the player's discard.")
    yaku = YakuCountSerializer(many=True, help_text="Most frequent first.")


class ProfileEventSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The event's id.")
    name = serializers.CharField()
    slug = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    entry = serializers.IntegerField(help_text="The player's entry in the event.")
    place = serializers.IntegerField(allow_null=True, help_text="The rank in the public standings; null before any.")
    points = s.FractionField(
        allow_null=True, help_text="The total points in the public standings, exact; null before any."
    )
    games = serializers.IntegerField(allow_null=True, help_text="Games counted in the public standings.")
    hands = HandCountsSerializer(
        allow_null=True,
        help_text="From the hands recorded hand by hand; null for an event of final scores only.",
    )


class ProfileEventPage(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ProfileEventSerializer(many=True, help_text="Newest event first.")


class ProfileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reading = serializers.CharField(help_text="The name's reading in kana or romaji; empty when none.")
    club = serializers.CharField()
    country = serializers.CharField(help_text="ISO 3166-1 alpha-2, or empty.")
    external_id = serializers.CharField(allow_null=True, help_text="The EMA number (an outside id); null when none.")
    listed = serializers.BooleanField(help_text="False: the player switched their profile off (only they see it).")
    events = ProfileEventPage(help_text="The player's public events, a page at a time (`page`, `page_size`).")
    hands = HandCountsSerializer(
        allow_null=True,
        help_text="The sum over this page's events recorded hand by hand; null when the page has none.",
    )


ProfileFoundPage = page_of(ProfileFoundSerializer)
QUERY = OpenApiParameter(
    "q",
    str,
    description="Name (kanji, kana or romaji), club, country (a code or a name) "
    f"or EMA number; its first {QUERY_LENGTH} characters. None: nobody is found.",
)


def hand_counts(tally: selectors.HandCounts) -> dict:
    return {
        "wins": tally.wins,
        "tsumo": tally.tsumo,
        "ron": tally.ron,
        "deal_ins": tally.deal_ins,
        "yaku": [{"yaku": key, "count": count} for key, count in tally.yaku_rows],
    }


class ProfileSearch(EventApiView):
    @extend_schema(
        operation_id="profiles_search",
        tags=["profiles"],
        parameters=[QUERY, PAGE, PAGE_SIZE],
        summary="Players shown publicly whose name, reading, club, country or EMA number matches, a page at a time",
        responses={200: ProfileFoundPage, **PAGED_READ_ERRORS},
    )
    def get(self, request):
        query = selectors.search_query(request.query_params.get("q"))
        return paged(self, selectors.players_search(query), ProfileFoundSerializer, request=request)


class ProfileDetail(EventApiView):
    @extend_schema(
        operation_id="profile_read",
        tags=["profiles"],
        parameters=[PAGE, PAGE_SIZE],
        summary="A player's profile: their public events (place, points) and hands, a page of events at a time",
        responses={
            200: ProfileSerializer,
            302: OpenApiResponse(description="Merged away: the player kept."),
            **PAGED_READ_ERRORS,
        },
    )
    def get(self, request, player_id: int):
        head = selectors.profile_head(player_id)
        if head is None:
            raise Http404("no such player")
        if head.merged_into is not None:
            return HttpResponseRedirect(reverse("profiles_api:profile", args=[head.merged_into]))
        player = head.player
        own = request.user.is_authenticated and player.user_id == request.user.pk
        if not own and not (head.listed and head.public):
            raise Http404("no such player")
        pages = Pages()
        entries = list(pages.paginate_queryset(selectors.player_public_entries(player), request, view=self))
        counts = selectors.entries_hand_counts(entries)
        total, with_hands, rows = selectors.HandCounts(), False, []
        for entry in entries:
            event, hands = entry.event, None
            if event.entry_mode == Event.EntryMode.HANDS:
                total.add(counts[entry.pk])
                with_hands, hands = True, hand_counts(counts[entry.pk])
            ranked = entry.standing_rank is not None
            rows.append(
                {
                    "id": event.pk,
                    "name": event.name,
                    "slug": event.slug,
                    "starts_on": event.starts_on,
                    "ends_on": event.ends_on,
                    "venue": event.venue,
                    "entry": entry.pk,
                    "place": entry.standing_rank,
                    "points": entry.standing_total_points if ranked else None,
                    "games": entry.standing_games if ranked else None,
                    "hands": hands,
                }
            )
        body = {
            "id": player.pk,
            "name": player.display_name,
            "reading": player.reading,
            "club": player.club,
            "country": player.country,
            "external_id": player.external_id or None,
            "listed": head.listed,
            "events": {
                "count": pages.page.paginator.count,
                "next": pages.get_next_link(),
                "previous": pages.get_previous_link(),
                "results": rows,
            },
            "hands": hand_counts(total) if with_hands else None,
        }
        response = Response(ProfileSerializer(body).data)
        if own:
            response["Cache-Control"] = "private, no-store"
        return response


urlpatterns = [
    path("", ProfileSearch.as_view(), name="search"),
    path("<int:player_id>/", ProfileDetail.as_view(), name="profile"),
]
