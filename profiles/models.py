"""The player across events: a merge of two ``Player`` rows that are one person (kept, never deleted, and
undone exactly), and whether a player's profile is listed publicly.

``players.models.Player`` is one row per person across every event; these records sit beside it, in this
app, so that the players app and the tournament app know nothing of them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players.models import Player


class PlayerMerge(models.Model):
    """``merged`` is the same person as ``kept``: the entries listed in ``entry_ids`` moved from the one to
    the other (with the account link and the external id when only ``merged`` had them). The merged player's
    row stays; while the merge is in force (not undone) it is hidden from search and its profile leads to
    the kept player. Undoing moves exactly those entries (and the link and id) back."""

    kept = models.ForeignKey(
        Player, verbose_name=_("kept player"), on_delete=models.PROTECT, related_name="merges_kept"
    )
    merged = models.ForeignKey(
        Player, verbose_name=_("merged player"), on_delete=models.PROTECT, related_name="merges_merged"
    )
    entry_ids = models.JSONField(verbose_name=_("entries moved"), default=list, blank=True)
    moved_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account link moved"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    moved_external_id = models.CharField(verbose_name=_("external id moved"), max_length=40, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(verbose_name=_("at"), default=timezone.now)
    undone_at = models.DateTimeField(verbose_name=_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("undone by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        constraints = [
            models.UniqueConstraint(
                fields=["merged"], condition=Q(undone_at__isnull=True), name="player_merged_away_once"
            ),
            models.CheckConstraint(condition=~Q(kept=F("merged")), name="player_merge_two_players"),
        ]

    def __str__(self) -> str:
        return gettext("%(merged)s (#%(merged_id)s) into %(kept)s (#%(kept_id)s)") % {
            "merged": self.merged,
            "merged_id": self.merged_id,
            "kept": self.kept,
            "kept_id": self.kept_id,
        }

    @property
    def in_force(self) -> bool:
        return self.undone_at is None


class ProfileSetting(models.Model):
    """A player's choice about their public profile, made by the player (signed in with the account linked
    to them). No row: listed."""

    player = models.OneToOneField(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="profile_setting"
    )
    listed = models.BooleanField(
        verbose_name=_("listed publicly"),
        default=True,
        help_text=_("Off: the profile page answers 404 to everyone else and search leaves the player out."),
    )
    changed_at = models.DateTimeField(verbose_name=_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("profile setting")
        verbose_name_plural = _("profile settings")

    def __str__(self) -> str:
        return f"{self.player}: {'listed' if self.listed else 'not listed'}"
