"""Rounds 回戦 and their checks (locking a round's results, and unlocking them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Seating draft")
        PUBLISHED = "published", _("Published")
        # Translators: a round or a table whose game is being played
        PLAYING = "playing", _("Playing")
        COMPLETED = "completed", _("Completed")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds")
    # Translators: the number of a round, a table or a hand
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    is_final = models.BooleanField(verbose_name=_("final 決勝戦 (art. 40)"), default=False)
    seating_report = models.JSONField(verbose_name=_("seating report"), default=dict, blank=True)
    draw_seed = models.BigIntegerField(
        verbose_name=_("draw seed"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The seed the seating was drawn with (empty: seated by hand or from a fixed schedule)."),
    )
    # the seating request the engine was given (../shared/seating-protocol.md): a replay draws from it again
    seating_request = models.JSONField(verbose_name=_("seating request"), default=dict, blank=True, editable=False)
    timer_started_at = models.DateTimeField(
        verbose_name=_("timer started at"),
        null=True,
        blank=True,
        help_text=_("When the round's play started: the venue screen's timer counts from it."),
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    # The announced start: set when the round is published, or by hand; late players count from it.
    starts_at = models.DateTimeField(
        verbose_name=_("announced start"),
        null=True,
        blank=True,
        help_text=_("When the round starts, as announced to the players; late players are marked absent from it."),
    )
    # A round whose results a referee or an organizer checked is locked: nothing of it changes until unlocked.
    checked_at = models.DateTimeField(verbose_name=_("checked at"), null=True, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("checked through the API token"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_number_once_per_event")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return gettext("%(event)s — round %(number)s") % {"event": self.event, "number": self.number}


class RoundCheck(models.Model):
    """Every check (locking a round's results) and every unlocking, with who, when and, to unlock, why."""

    class Kind(models.TextChoices):
        CHECK = "check", _("checked and locked")
        UNLOCK = "unlock", _("unlocked")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="checks")
    kind = models.CharField(verbose_name=_("kind"), max_length=8, choices=Kind.choices)
    reason = models.TextField(verbose_name=_("reason"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("API token"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        ordering = ["round", "at", "id"]
        verbose_name = _("round check")
        verbose_name_plural = _("round checks")

    def __str__(self) -> str:
        return f"{self.round} · {self.get_kind_display()}"


class RoundGuardOverride(models.Model):
    """An organizer seated a round although a guard refused it (a table of the previous round without a result,
    check-in still open): which guard, what it said, why, who and when."""

    class Guard(models.TextChoices):
        PREVIOUS_ROUND_UNFINISHED = "previous_round_unfinished", _("a table of the previous round has no result")
        CHECK_IN_OPEN = "check_in_open", _("check-in is still open")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="round_guard_overrides"
    )
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round number"))
    guard = models.CharField(verbose_name=_("guard"), max_length=32, choices=Guard.choices)
    refusal = models.TextField(verbose_name=_("what the guard said"), blank=True)
    reason = models.TextField(verbose_name=_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("API token"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_name = models.CharField(verbose_name=_("by (name)"), max_length=150, blank=True)  # from an imported archive
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "round_number", "at", "id"]
        verbose_name = _("round guard override")
        verbose_name_plural = _("round guard overrides")

    def __str__(self) -> str:
        return gettext("round %(number)s: %(guard)s") % {"number": self.round_number, "guard": self.get_guard_display()}
