"""A series (league or season) of events, its standings and its ratings as last computed.

The computed rows (``SeriesStanding``, ``SeriesRating``) are written by one service after an event of the
series is finished, or the series changes; pages and the API only read them, a page at a time by position.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournament.fields import FractionField
from tournament.models import Event


class Series(models.Model):
    class Rule(models.TextChoices):
        SUM = "sum", _("sum of points")
        BEST_N = "best_n", _("best N events' points")
        PLACE_POINTS = "place_points", _("points by place")

    name = models.CharField(verbose_name=_("name"), max_length=160)
    slug = models.SlugField(verbose_name=_("slug"), max_length=80, unique=True)
    rule = models.CharField(verbose_name=_("rule"), max_length=16, choices=Rule.choices, default=Rule.SUM)
    best_n = models.PositiveSmallIntegerField(
        verbose_name=_("best N"),
        null=True,
        blank=True,
        help_text=_("With the best N rule: how many of each player's events count."),
    )
    place_points = models.JSONField(
        verbose_name=_("points by place"),
        default=list,
        blank=True,
        help_text=_("With points by place: the points of 1st, 2nd, 3rd … place, e.g. [25, 18, 15, 12, 10]."),
    )
    is_public = models.BooleanField(verbose_name=_("is public"), default=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    events = models.ManyToManyField(Event, verbose_name=_("events"), through="SeriesEvent", related_name="series")
    computed_at = models.DateTimeField(verbose_name=_("computed at"), null=True, blank=True, editable=False)
    as_of = models.DateField(verbose_name=_("ratings as of"), null=True, blank=True, editable=False)
    standings_count = models.PositiveIntegerField(default=0, editable=False)
    ema_count = models.PositiveIntegerField(default=0, editable=False)
    elo_count = models.PositiveIntegerField(default=0, editable=False)
    # [[event id, name, slug, ends on, MERS weight], …]
    events_counted = models.JSONField(default=list, editable=False)
    # the public events held but not counted yet, and why: [[event id, name, slug, reason], …]
    events_waiting = models.JSONField(default=list, editable=False)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The public standings page (the admin's "View on site")."""
        return reverse("seasons:standings", args=[self.slug])

    def clean(self):
        if self.rule == self.Rule.BEST_N and not self.best_n:
            raise ValidationError({"best_n": _("Give N: how many events count.")})
        if self.rule == self.Rule.PLACE_POINTS:
            points = self.place_points
            if (
                not isinstance(points, list)
                or not points
                or len(points) > 1000
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
            ):
                raise ValidationError(
                    {"place_points": _("A list of 1 to 1000 whole numbers: the points of 1st, 2nd, 3rd … place.")}
                )


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="series_events")
    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("event of the series")
        verbose_name_plural = _("events of the series")
        constraints = [models.UniqueConstraint(fields=["series", "event"], name="series_event_once")]

    def __str__(self) -> str:
        return str(self.event_id)


class SeriesStanding(models.Model):
    """One player's line of the series standings as last computed (``position`` 0 is first)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="standings")
    position = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    total = FractionField()
    events = models.PositiveIntegerField(default=0)
    results = models.JSONField(default=list)  # [event id, place, points "n/d", value "n/d", counted] each

    class Meta:
        ordering = ["series_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["series", "position"], name="series_standing_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name} ({self.series_id})"


class SeriesRating(models.Model):
    """One player's rating of one kind as last computed (``position`` 0 is first)."""

    class Kind(models.TextChoices):
        EMA = "ema", _("EMA ranking projection")
        ELO = "elo", _("Elo by placement")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=3, choices=Kind.choices)
    position = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    value = models.CharField(max_length=60)  # exact: a fraction "n/d" (EMA) or a decimal (Elo)
    shown = models.CharField(max_length=20)  # as shown: 2 decimals (EMA), 1 (Elo)
    count = models.PositiveIntegerField(default=0)  # results counted (EMA), games played (Elo)
    detail = models.JSONField(default=dict)  # EMA: part A, part B (shown and exact)

    class Meta:
        ordering = ["series_id", "kind", "position"]
        constraints = [
            models.UniqueConstraint(fields=["series", "kind", "position"], name="series_rating_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.rank}. {self.name} ({self.series_id})"
