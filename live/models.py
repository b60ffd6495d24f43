"""What happens in the hall around the tables' records: a table calling a referee, and the extra time or the
extra hand a director gives one table (art. 44). Both stay in the table's record."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Ruling, ScorekeeperKey, Table


def _account(label) -> models.ForeignKey:
    """An account a hall record names (who called, took, closed, gave); the record stays if it is deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=label
    )


class RefereeCall(models.Model):
    """A table calls a referee: taken by one referee (the others see who), then closed with a note."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("A dispute at the table")
        FOUL = "foul", _("A foul")
        SCORE = "score", _("Scoring")
        CLOCK = "clock", _("The clock")
        OTHER = "other", _("Something else")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="referee_calls", verbose_name=_("table"))
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    note = models.CharField(_("what happened"), max_length=200, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    called_by = _account(_("called by"))
    called_by_card = models.ForeignKey(
        ScorekeeperKey,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("called by the card"),
    )
    taken_by = _account(_("taken by"))
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    closed_by = _account(_("closed by"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closing_note = models.TextField(_("closing note"), blank=True)

    class Meta:
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        ordering = ("called_at",)
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(closed_at__isnull=True), name="one_open_call_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_reason_display()}"

    @property
    def caller(self) -> str:
        if self.called_by_card_id:
            return str(_("the table's scorekeeper"))
        return str(self.called_by or "—")


class TableAllowance(models.Model):
    """Minutes added to one table's round time, or one more hand for it (art. 44), given by a director; the
    decision is also a ruling of the event, with who and when."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="allowances", verbose_name=_("table"))
    minutes = models.PositiveSmallIntegerField(_("minutes added"), default=0)
    hands = models.PositiveSmallIntegerField(_("hands added"), default=0)
    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="+", verbose_name=_("ruling"))
    given_by = _account(_("given by"))
    given_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        verbose_name = _("table allowance")
        verbose_name_plural = _("table allowances")
        ordering = ("given_at",)

    def __str__(self) -> str:
        return f"{self.table}: +{self.minutes} min, +{self.hands}"
