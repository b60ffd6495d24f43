"""The chess clock of a table's hand in play (art. 38)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.tables import Table


class TableClock(models.Model):
    """The chess clock of the hand in play at a table (art. 38), server-authoritative."""

    table = models.OneToOneField(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="clock")
    hand_number = models.PositiveSmallIntegerField(verbose_name=_("hand number"))
    state = models.JSONField(verbose_name=_("state"))
    version = models.PositiveIntegerField(verbose_name=_("version"), default=1)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("table clock")
        verbose_name_plural = _("table clocks")

    def __str__(self) -> str:
        return gettext("Clock of %(table)s, hand %(hand)s") % {"table": self.table, "hand": self.hand_number}
