"""Loads the demo's series: the demo's finished event and its running one in a league scored by place, so
the series standings, the ratings and the players' profiles have something to show. Local use only;
``bin/serve`` runs it after ``demo_event``."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from seasons import services
from seasons.models import Series, SeriesEvent
from tournament.models import Event

SLUG = "demo-league"
EVENTS = ("spring-open", "autumn-cup")  # demo_event's: finished, and running (listed as not counted yet)
PLACE_POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Command(BaseCommand):
    help = "Load the demo series (a league of the demo's events, points by place). Local use only."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="do nothing when the demo series exists")

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError(f"demo_refused: {_('the demo data is for local use, not production mode')}")
        if Series.objects.filter(slug=SLUG).exists():
            if not if_empty:
                self.stdout.write(_("Demo data already loaded."))
            return
        events = list(Event.objects.filter(slug__in=EVENTS))
        if not events:
            raise CommandError(f"demo_missing: {_('load the demo events first (manage.py demo_event)')}")
        owner = get_user_model().objects.filter(username="organizer").first()
        series = Series.objects.create(
            name="Demo League 2026 リーグ",
            slug=SLUG,
            rule=Series.Rule.PLACE_POINTS,
            place_points=PLACE_POINTS,
            owner=owner,
            is_public=True,
        )
        SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event=event) for event in events)
        services.series_recompute(series_id=series.pk)  # here, not queued: the pages are read at once
        self.stdout.write(
            _("Demo series: %(series)s at %(url)s")
            % {"series": series.name, "url": reverse("seasons:standings", args=[SLUG])}
        )
