"""Discipline: penalties (fouls, art. 37 and 43) and rulings (the directors' decisions, art. 44)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.models.base import author_name_field
from tournament.models.entries import Entry
from tournament.models.events import Event
from tournament.models.tables import Table


def _penalty_label(effect) -> str:
    return effect.label


# The engine names each foul (its labels are read in the language of the moment, taikai.i18n): read when
# shown, not when this module is imported.
PENALTY_KIND_CHOICES = [(kind.value, lazy(_penalty_label, str)(effect)) for kind, effect in PENALTY_EFFECTS.items()]


class Penalty(models.Model):
    """A foul logged by a referee. Never deleted: a cancellation records who and why."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="penalties")
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="penalties",
    )
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="penalties")
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round number"), null=True, blank=True)
    hand_number = models.PositiveSmallIntegerField(
        verbose_name=_("hand number"), null=True, blank=True, help_text=_("The hand the rights are lost for.")
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=30, choices=PENALTY_KIND_CHOICES)
    points = models.PositiveIntegerField(
        verbose_name=_("points"),
        default=0,
        help_text=_("Penalty points deducted from the event total (art. 37)."),
    )
    reason = models.CharField(verbose_name=_("reason"), max_length=300)
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("logged by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    logged_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("logged through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Logged by a program of the event's, through this API token."),
    )
    logged_by_name = author_name_field(_("logged by (name from an archive)"))
    logged_at = models.DateTimeField(verbose_name=_("logged at"), auto_now_add=True)
    cancelled_at = models.DateTimeField(verbose_name=_("cancelled at"), null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("cancelled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    cancelled_by_name = author_name_field(_("cancelled by (name from an archive)"))
    cancel_reason = models.CharField(verbose_name=_("cancel reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["event", "logged_at"]
        indexes = [models.Index(fields=["table", "hand_number"])]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return gettext("%(kind)s: %(player)s") % {
            "kind": self.get_kind_display().split(" — ")[0],
            "player": self.entry.player,
        }


class Ruling(models.Model):
    """A director's decision (art. 44), attached to the event and optionally a table or player."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rulings")
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulings",
    )
    entry = models.ForeignKey(
        Entry,
        verbose_name=_("entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulings",
    )
    decision = models.TextField(verbose_name=_("decision"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("decided through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by a program of the event's, through this API token."),
    )
    decided_by_name = author_name_field(_("decided by (name from an archive)"))
    decided_at = models.DateTimeField(verbose_name=_("decided at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "decided_at"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")

    def __str__(self) -> str:
        return gettext("Ruling at %(event)s (%(time)s)") % {
            "event": self.event,
            "time": f"{self.decided_at:%Y-%m-%d %H:%M}",
        }


class TableReseat(models.Model):
    """A table re-seated after its players sat in the wrong seats: the seats before and after (entry ids, East
    first), where each seat of the game went, the hand versions written under the real seats (``[hand number,
    version]``, in play order) and the one ruling (art. 44) that records who decided it, when and why. Never
    edited."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="reseats")
    ruling = models.OneToOneField(
        Ruling, verbose_name=_("ruling"), null=True, on_delete=models.SET_NULL, related_name="reseat"
    )
    seats_before = models.JSONField(verbose_name=_("seats before"), default=list)
    seats_after = models.JSONField(verbose_name=_("seats after"), default=list)
    # each seat of the game (0.., East first, art. 42: not a player absent before it) → the same player's real one
    moved = models.JSONField(verbose_name=_("seats of the game moved"), default=list)
    hand_versions = models.JSONField(verbose_name=_("hand versions written"), default=list, blank=True)

    class Meta:
        ordering = ["table", "pk"]
        verbose_name = _("re-seat")
        verbose_name_plural = _("re-seats")

    def __str__(self) -> str:
        return gettext("%(table)s re-seated") % {"table": self.table}
