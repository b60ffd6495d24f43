"""Hands 局: one row per hand of a table's game, its content in versions (a correction is a new version)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.base import VersionedQuerySet, VersionedRecord
from tournament.models.tables import Table


class Hand(models.Model):
    """One hand 局 of a table's game. Its content lives in versions: a correction is a new version."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"), help_text=_("Order within the game, from 1."))
    current_version = models.PositiveIntegerField(verbose_name=_("current version"), default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_once_per_table")]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return gettext("%(table)s — hand %(number)s") % {"table": self.table, "number": self.number}


class HandVersionQuerySet(VersionedQuerySet):
    def in_force(self):
        """The version in force of each hand of the game: its current version, unless that voids it (a hand
        voided as entered by mistake has none)."""
        return self.current().exclude(outcome=HandVersion.Outcome.VOID)


class HandVersion(VersionedRecord):
    class Outcome(models.TextChoices):
        RON = "ron", _("Ron 栄和")
        TSUMO = "tsumo", _("Tsumo 自摸和")
        EXHAUSTIVE_DRAW = "exhaustive_draw", _("Exhaustive draw 荒牌流局")
        ABORTIVE_DRAW = "abortive_draw", _("Abortive draw 途中流局")
        REPLAYED = "replayed", _("Stopped and replayed (art. 36 ③)")
        VOID = "void", _("Void (entered by mistake)")

    hand = models.ForeignKey(Hand, verbose_name=_("hand"), on_delete=models.CASCADE, related_name="versions")
    # Translators: the name of a hand within its game, such as "East 1" (東1局)
    label = models.CharField(verbose_name=_("label"), max_length=30)
    overtime = models.BooleanField(
        verbose_name=_("overtime"),
        default=False,
        help_text=_("An overtime hand 延長戦 (art. 39): 1年春, 1年夏, …"),
    )
    dealer_position = models.PositiveSmallIntegerField(verbose_name=_("dealer position"))
    honba = models.PositiveSmallIntegerField(verbose_name=_("honba"), default=0)  # 本場
    # 供託 carried in, in points
    deposits_in = models.PositiveIntegerField(verbose_name=_("deposits in"), default=0)
    riichi_positions = models.JSONField(verbose_name=_("riichi positions"), default=list, blank=True)
    outcome = models.CharField(verbose_name=_("outcome"), max_length=16, choices=Outcome.choices)
    # [{winner, discarder, han, fu, yakuman, yaku, limit, hand}]
    wins = models.JSONField(verbose_name=_("wins"), default=list, blank=True)
    tenpai_positions = models.JSONField(verbose_name=_("tenpai positions"), default=list, blank=True)
    # per seat position, deposits included
    deltas = models.JSONField(verbose_name=_("deltas"), default=list)
    deposits_out = models.PositiveIntegerField(verbose_name=_("deposits out"), default=0)
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)

    objects = HandVersionQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="hand_version_once"),
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(is_current=True), name="hand_one_current_version"
            ),
        ]
        verbose_name = _("hand version")
        verbose_name_plural = _("hand versions")

    def __str__(self) -> str:
        return gettext("%(hand)s v%(version)s") % {"hand": self.hand, "version": self.version}
