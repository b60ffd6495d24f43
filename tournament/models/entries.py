"""An entry: a player's place in an event, with its status and the player's personal link."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournament.models.base import author_name_field
from tournament.models.events import Event


def personal_link_token() -> str:
    return secrets.token_urlsafe(24)


class Entry(models.Model):
    """A player's place in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        AWAY = "away", _("Away (not seated until back)")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(verbose_name=_("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE)
    substitute_for = models.ForeignKey(
        "self",
        verbose_name=_("substitute for"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="substitutes",
    )
    status_reason = models.CharField(verbose_name=_("status reason"), max_length=200, blank=True)
    disqualified_by_penalty = models.ForeignKey(
        "Penalty",
        verbose_name=_("disqualified by penalty"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_(
            "Disqualified automatically by this penalty (art. 43); cancelling it lifts the "
            "disqualification unless an organizer confirmed it. Empty: a director's decision."
        ),
    )
    disqualification_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disqualification confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    disqualification_confirmed_by_name = author_name_field(_("disqualification confirmed by (name from an archive)"))
    disqualification_confirmed_at = models.DateTimeField(
        verbose_name=_("disqualification confirmed at"),
        null=True,
        blank=True,
        help_text=_("Confirmed by an organizer: stays even if the penalty is cancelled."),
    )
    registered_at = models.DateTimeField(verbose_name=_("registered at"), auto_now_add=True)
    link_token = models.CharField(
        verbose_name=_("link token"),
        max_length=40,
        unique=True,
        default=personal_link_token,
        editable=False,
        help_text=_("The player's personal link to their own page in this event."),
    )

    class Meta:
        ordering = ["event", "player__display_name"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="entry_player_once_per_event")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return gettext("%(player)s @ %(event)s") % {"player": self.player, "event": self.event}

    @property
    def award_eligible(self) -> bool:
        return self.status != self.Status.DISQUALIFIED

    @property
    def disqualification_confirmed(self) -> bool:
        return self.disqualification_confirmed_at is not None
