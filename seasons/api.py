"""Series in the REST API (``/api/v1/series/<slug>/…``, wired by ``config/urls.py``), read-only:

* ``/api/v1/series/<slug>/``: the series, its rule and the events it counted;
* ``…/standings``: the series standings, a page at a time;
* ``…/ratings?kind=ema|elo``: the EMA ranking projection or the Elo rating by placement, a page at a time.

They read the rows the recompute stored (never computing). Public series only: a private one is 404.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response

from core.api import PAGE, PAGE_SIZE, PAGED_READ_ERRORS, READ_ERRORS, page_of, paged
from seasons import selectors
from seasons.models import Series, SeriesRating, SeriesStanding
from taikai.errors import TaikaiError
from tournament.api_v1.base import EventApiView

app_name = "seasons_api"


class SeriesEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    ends_on = serializers.DateField(allow_null=True, help_text="The event's last day (or its first).")
    mers_weight = serializers.CharField(allow_null=True, help_text="The MERS weight previewed (exact `n` or `n/d`).")


class SeriesWaitingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    reason = serializers.CharField(
        help_text="`not_finished` (or its final standings not computed yet), or "
        "`last_rounds_hidden` (it counts once the event shows its last rounds)."
    )


class SeriesSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.CharField(
        help_text="`sum` (of points), `best_n` (the best N events' points) or `place_points` (points by place)."
    )
    best_n = serializers.IntegerField(allow_null=True, help_text="N, with the best_n rule.")
    place_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="The points of 1st, 2nd, 3rd … place, with place_points."
    )
    computed_at = serializers.DateTimeField(allow_null=True, help_text="When the rows were last computed.")
    as_of = serializers.DateField(allow_null=True, help_text="The EMA projection's day of reckoning.")
    events = SeriesEventSerializer(many=True, help_text="The finished public events counted, in order.")
    events_waiting = SeriesWaitingSerializer(many=True, help_text="The public events held but not counted yet.")


class SeriesResultSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.CharField(help_text="The event's total points, exact: `n` or `n/d`.")
    value = serializers.CharField(help_text="What the rule makes of it (points, or points by place).")
    counted = serializers.BooleanField(help_text="False: left out by best N.")


class SeriesStandingSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    total = serializers.CharField(help_text="Exact: `n` or `n/d`.")
    results = serializers.SerializerMethodField()

    class Meta:
        model = SeriesStanding
        fields = ("rank", "player", "name", "total", "events", "results")

    @extend_schema_field(SeriesResultSerializer(many=True))
    def get_results(self, row) -> list:
        return [{"event": r[0], "place": r[1], "points": r[2], "value": r[3], "counted": r[4]} for r in row.results]


class SeriesRatingSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    value = serializers.CharField(help_text="Exact: a fraction `n/d` (EMA) or a decimal (Elo).")
    shown = serializers.CharField(help_text="As the page shows it: 2 decimals (EMA), 1 (Elo).")
    count = serializers.IntegerField(help_text="Results counted (EMA) or games played (Elo).")
    part_a = serializers.SerializerMethodField(help_text="EMA: part A, 2 decimals; null for the Elo.")
    part_b = serializers.SerializerMethodField(help_text="EMA: part B, 2 decimals; null for the Elo.")

    class Meta:
        model = SeriesRating
        fields = ("rank", "player", "name", "value", "shown", "count", "part_a", "part_b")

    def get_part_a(self, row) -> str | None:
        return row.detail.get("part_a")

    def get_part_b(self, row) -> str | None:
        return row.detail.get("part_b")


SeriesStandingPage = page_of(SeriesStandingSerializer)
SeriesRatingPage = page_of(SeriesRatingSerializer)
KIND = OpenApiParameter(
    "kind",
    str,
    enum=SeriesRating.Kind.values,
    description="ema: the EMA ranking projection (default); elo: the Elo rating by placement.",
)


class SeriesView(EventApiView):
    def series(self, slug: str) -> Series:
        series = selectors.series_get(slug)
        if series is None or not series.is_public:
            raise Http404("no such series")
        return series


class SeriesDetail(SeriesView):
    @extend_schema(
        operation_id="series_read",
        tags=["series"],
        summary="A series: its rule and the events it counts",
        responses={200: SeriesSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        series = self.series(slug)
        events = [
            {"id": e[0], "name": e[1], "slug": e[2], "ends_on": e[3], "mers_weight": e[4]}
            for e in series.events_counted
        ]
        body = {
            "slug": series.slug,
            "name": series.name,
            "rule": series.rule,
            "best_n": series.best_n,
            "place_points": series.place_points or [],
            "computed_at": series.computed_at,
            "as_of": series.as_of,
            "events": events,
            "events_waiting": [{"id": e[0], "name": e[1], "slug": e[2], "reason": e[3]} for e in series.events_waiting],
        }
        return Response(SeriesSerializer(body).data)


class SeriesStandings(SeriesView):
    @extend_schema(
        operation_id="series_standings",
        tags=["series"],
        parameters=[PAGE, PAGE_SIZE],
        summary="The series standings, best first, a page at a time",
        responses={200: SeriesStandingPage, **PAGED_READ_ERRORS},
    )
    def get(self, request, slug: str):
        return paged(self, selectors.series_standings_all(self.series(slug)), SeriesStandingSerializer)


class SeriesRatings(SeriesView):
    @extend_schema(
        operation_id="series_ratings",
        tags=["series"],
        parameters=[KIND, PAGE, PAGE_SIZE],
        summary="The series' ratings (EMA projection or Elo by placement), best first, a page at a time",
        responses={200: SeriesRatingPage, **PAGED_READ_ERRORS},
    )
    def get(self, request, slug: str):
        series = self.series(slug)
        kind = request.query_params.get("kind", SeriesRating.Kind.EMA)
        if kind not in SeriesRating.Kind.values:
            raise TaikaiError("invalid_parameter", "kind is ema or elo", field="kind")
        return paged(self, selectors.series_ratings_all(series, kind), SeriesRatingSerializer)


urlpatterns = [
    path("<slug:slug>/", SeriesDetail.as_view(), name="series"),
    path("<slug:slug>/standings", SeriesStandings.as_view(), name="series_standings"),
    path("<slug:slug>/ratings", SeriesRatings.as_view(), name="series_ratings"),
]
