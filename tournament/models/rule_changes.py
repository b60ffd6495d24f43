"""Rules frozen at the start: a change of the standings order, its tie-breaks or the seating's settings made
once round 1 has a result is recorded here (who, when, which setting, before, after, why) and shown on the
public standings as a note. The ruleset (scoring, placement points 順位点 and oka) stays frozen outright."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event


class RuleChange(models.Model):
    """One setting of a started event changed: its value before and after, who changed it and why."""

    class Setting(models.TextChoices):
        STANDINGS_PRECEDENCE = "standings_precedence", _("standings order and tie-breaks")
        SEATING_METHOD = "seating_method", _("seating method")
        SEATING_REMAINDER = "seating_remainder", _("seating remainder")
        DRAW_SEED = "draw_seed", _("draw seed")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rule_changes")
    setting = models.CharField(verbose_name=_("setting"), max_length=32, choices=Setting.choices)
    before = models.JSONField(verbose_name=_("before"), null=True, blank=True)
    after = models.JSONField(verbose_name=_("after"), null=True, blank=True)
    reason = models.TextField(verbose_name=_("reason"))
    after_round = models.PositiveSmallIntegerField(
        verbose_name=_("after round"), help_text=_("The last round with a result when the setting changed.")
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_name = models.CharField(verbose_name=_("by (name)"), max_length=150, blank=True)  # kept if the account goes
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "at", "id"]
        verbose_name = _("rule change")
        verbose_name_plural = _("rule changes")

    def __str__(self) -> str:
        return f"{self.event} · {self.get_setting_display()}"
