"""The public pages of a series: its standings (a page at a time), their CSV, and its ratings with the
maths written out. They read the rows the recompute stored: a page never computes and never writes."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.pages import page_number
from seasons import selectors
from seasons.engine import elo, ema_ranking
from seasons.models import Series, SeriesRating
from taikai.spreadsheet import csv_writer
from tournament.localtime import time_zone_activate

PER_PAGE = 50


def public_series_or_404(slug: str) -> Series:
    """The public series; its times are shown in the time zone its events share (otherwise the site's, and
    the page names it)."""
    series = selectors.series_get(slug)
    if series is None or not series.is_public:
        raise Http404("no such public series")
    time_zone_activate(selectors.series_time_zone(series) or settings.TIME_ZONE)
    return series


class Page:
    """What ``tournament/_pages.html`` reads of a Paginator page, without counting the rows again."""

    def __init__(self, number: int, count: int):
        self.number = number
        self.paginator = type("P", (), {"count": count, "num_pages": max(1, -(-count // PER_PAGE))})()

    def has_previous(self) -> bool:
        return self.number > 1

    def has_next(self) -> bool:
        return self.number < self.paginator.num_pages

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def start(self) -> int:
        return (self.number - 1) * PER_PAGE


def _page(request, count: int) -> Page:
    return Page(page_number(request, max(1, -(-count // PER_PAGE))), count)


@require_safe
def standings(request, slug):
    """The series standings, 50 rows a page: two queries (the series, its rows) whatever its size."""
    series = public_series_or_404(slug)
    page = _page(request, series.standings_count)
    rows = selectors.series_standings_slice(series, page.start, page.start + PER_PAGE)
    events = series.events_counted
    for row in rows:
        by_event = {cell[0]: cell for cell in row.results}
        row.cells = [by_event.get(event[0]) for event in events]
    context = {"series": series, "rows": rows, "page": page, "events": events, "rule": series.get_rule_display()}
    return render(request, "seasons/standings.html", context)


@require_safe
def standings_csv(request, slug):
    """Every row of the series standings, streamed."""
    series = public_series_or_404(slug)
    events = series.events_counted

    class Echo:
        def write(self, value):
            return value

    writer = csv_writer(Echo())

    def lines():
        yield writer.writerow(
            [
                "rank",
                "player",
                "total",
                "events",
                *[f"{e[2]} place" for e in events],
                *[f"{e[2]} points" for e in events],
                *[f"{e[2]} counted" for e in events],
            ]
        )
        for row in selectors.series_standings_all(series).iterator(chunk_size=2000):
            by_event = {cell[0]: cell for cell in row.results}
            cells = [by_event.get(e[0]) for e in events]
            yield writer.writerow(
                [
                    row.rank,
                    row.name,
                    str(row.total),
                    row.events,
                    *[c[1] if c else "" for c in cells],
                    *[c[3] if c else "" for c in cells],
                    *[("yes" if c[4] else "no") if c else "" for c in cells],
                ]
            )

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}_series.csv"'
    return response


@require_safe
def rating(request, slug):
    """The series' ratings (the EMA ranking projection, or the Elo by placement: ``?kind=``), 50 rows a
    page, with how each is computed."""
    series = public_series_or_404(slug)
    kind = request.GET.get("kind") or SeriesRating.Kind.EMA
    if kind not in SeriesRating.Kind.values:
        raise Http404(_("no such rating"))
    count = series.ema_count if kind == SeriesRating.Kind.EMA else series.elo_count
    page = _page(request, count)
    rows = selectors.series_ratings_slice(series, kind, page.start, page.start + PER_PAGE)
    context = {
        "series": series,
        "rows": rows,
        "page": page,
        "kind": kind,
        "extra": f"kind={kind}",
        "kinds": SeriesRating.Kind.choices,
        "start": int(elo.START),
        "k": int(elo.K),
        "scale": int(elo.SCALE),
        "min_results": ema_ranking.MIN_RESULTS,
        "part_b_results": ema_ranking.PART_B_RESULTS,
        "min_to_rank": ema_ranking.MIN_TO_RANK,
    }
    return render(request, "seasons/rating.html", context)
