"""A seat's result in a table's game, in versions (each confirmation is a new version)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.fields import FractionField
from tournament.models.base import VersionedRecord
from tournament.models.entries import Entry
from tournament.models.tables import Seat, Table


class SeatResult(VersionedRecord):
    """A seat's result in a table's game. Each confirmation is a new version; older ones stay."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="results")
    seat = models.ForeignKey(Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="results")
    final_points = models.IntegerField(verbose_name=_("final points"), null=True, blank=True)
    placement = models.PositiveSmallIntegerField(verbose_name=_("placement"), null=True, blank=True)
    point_score = FractionField(verbose_name=_("point score"))
    placement_points = FractionField(verbose_name=_("placement points"))  # 順位点 × multiplier
    oka = FractionField(verbose_name=_("oka"))
    game_points = FractionField(verbose_name=_("game points"))
    multiplier = models.PositiveSmallIntegerField(verbose_name=_("multiplier"), default=1)
    advanced = models.BooleanField(verbose_name=_("advanced"), default=False)
    forfeit = models.BooleanField(verbose_name=_("forfeit"), default=False)  # 不戦敗 (art. 42)

    class Meta:
        ordering = ["table", "seat__position", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "version"], name="seat_result_version_once"),
            models.UniqueConstraint(
                fields=["seat"], condition=models.Q(is_current=True), name="seat_one_current_result"
            ),
        ]
        indexes = [models.Index(fields=["entry", "is_current"])]
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")

    def __str__(self) -> str:
        return gettext("%(player)s at %(table)s v%(version)s") % {
            "player": self.entry.player,
            "table": self.table,
            "version": self.version,
        }
