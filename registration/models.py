"""An event's registration: its settings, the sign-ups (pending, confirmed, waiting, withdrawn, refused),
every change of a sign-up with who and when, the messages sent to the player, and the blocked addresses."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournament.models import Entry, Event

# The details a sign-up may ask, in the order of the form.
FIELDS = ("name", "reading", "club", "country", "external_id", "email")
REQUIRED_ALWAYS = ("name", "email")  # a sign-up is someone, and their messages go somewhere


def default_asked() -> list[str]:
    return list(FIELDS)


def default_required() -> list[str]:
    return list(REQUIRED_ALWAYS)


class Registration(models.Model):
    """An event open for sign-ups: when, how many places, and what is asked."""

    event = models.OneToOneField(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="registration")
    opens_at = models.DateTimeField(verbose_name=_("sign-ups open at"))
    closes_at = models.DateTimeField(verbose_name=_("sign-ups close at"))
    cap = models.PositiveIntegerField(
        verbose_name=_("places"), help_text=_("Confirmed players at most; more sign-ups wait in order.")
    )
    approval = models.BooleanField(
        verbose_name=_("organizer approves each sign-up"),
        default=False,
        help_text=_("Each sign-up is pending until an organizer approves it."),
    )
    asked = models.JSONField(verbose_name=_("fields asked"), default=default_asked)
    required = models.JSONField(verbose_name=_("fields required"), default=default_required)
    pending_per_email = models.PositiveSmallIntegerField(
        verbose_name=_("sign-ups per e-mail address"),
        default=2,
        help_text=_("Live sign-ups (pending, waiting or confirmed) with one e-mail address, at most."),
    )
    checkin_opens_at = models.DateTimeField(verbose_name=_("check-in opens at"), null=True, blank=True)
    checkin_closed_at = models.DateTimeField(
        verbose_name=_("check-in closed at"), null=True, blank=True, editable=False
    )
    reminder_sent_at = models.DateTimeField(verbose_name=_("reminder sent at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self) -> str:
        return str(self.event)

    def clean(self) -> None:
        """The details asked and required are known ones, and a detail required is asked."""
        for name in ("asked", "required"):
            value = getattr(self, name)
            if not isinstance(value, list) or any(item not in FIELDS for item in value):
                raise ValidationError({name: _("a list of these details: %(fields)s") % {"fields": ", ".join(FIELDS)}})
        not_asked = [name for name in self.required if name not in self.asked and name not in REQUIRED_ALWAYS]
        if not_asked:
            labels = ", ".join(str(SignUp._meta.get_field(name).verbose_name) for name in not_asked)
            raise ValidationError(
                {
                    "required": _("required but not asked: %(fields)s (ask them too, or do not require them)")
                    % {"fields": labels}
                }
            )

    def is_open(self, now=None) -> bool:
        """Sign-ups are taken now (from ``opens_at``, until ``closes_at``)."""
        now = now or timezone.now()
        return self.opens_at <= now < self.closes_at


class SignUp(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("Pending (awaiting approval)")
        CONFIRMED = "confirmed", _("Confirmed")
        WAITING = "waiting", _("Waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REFUSED = "refused", _("Refused")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="sign_ups")
    state = models.CharField(verbose_name=_("state"), max_length=10, choices=State.choices)
    # the waiting list's order: sign-up order, unless an organizer moved someone (with a reason, recorded)
    rank = models.PositiveIntegerField(verbose_name=_("order"))
    name = models.CharField(verbose_name=_("name"), max_length=80)
    reading = models.CharField(verbose_name=_("reading (kana or romaji)"), max_length=120, blank=True)
    club = models.CharField(verbose_name=_("club / affiliation"), max_length=120, blank=True)
    country = models.CharField(verbose_name=_("country"), max_length=60, blank=True)
    external_id = models.CharField(verbose_name=_("EMA number or other id"), max_length=40, blank=True)
    email = models.EmailField(verbose_name=_("e-mail"))
    language = models.CharField(verbose_name=_("language"), max_length=8, default="en")
    nonce = models.CharField(max_length=24, editable=False)  # part of the private link; a new one revokes it
    entry = models.OneToOneField(
        Entry,
        verbose_name=_("entry"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sign_up",
    )
    # the player made from this sign-up: while it is the entry's player, the sign-up's edits reach it; a stored
    # player the entry moved to (merged by an organizer, here or in the profiles) is never changed by them
    made_player = models.ForeignKey(
        Player,
        verbose_name=_("player made at sign-up"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    checked_in_at = models.DateTimeField(verbose_name=_("checked in at"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("signed up at"), auto_now_add=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["event", "rank"]
        indexes = [models.Index(fields=["event", "state", "rank"]), models.Index(fields=["event", "email"])]
        constraints = [models.UniqueConstraint(fields=["event", "rank"], name="sign_up_rank_unique")]

    def __str__(self) -> str:
        return self.name

    @property
    def own_player(self) -> bool:
        """The entry's player is the one made from this sign-up (not a stored player)."""
        return self.entry_id is not None and self.made_player_id == self.entry.player_id


class SignUpChange(models.Model):
    """One change of a sign-up, kept: its state before and after, what happened, why, who and when."""

    sign_up = models.ForeignKey(SignUp, verbose_name=_("sign-up"), on_delete=models.CASCADE, related_name="changes")
    what = models.CharField(verbose_name=_("what"), max_length=20)
    state_before = models.CharField(verbose_name=_("state before"), max_length=10, blank=True)
    state_after = models.CharField(verbose_name=_("state after"), max_length=10)
    reason = models.CharField(verbose_name=_("reason"), max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("sign-up change")
        verbose_name_plural = _("sign-up changes")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.sign_up}: {self.what}"


class SignUpMessage(models.Model):
    """A message to the player (confirmation, waiting list, promotion, refusal, reminder), in their language:
    sent by e-mail and readable on their private page."""

    sign_up = models.ForeignKey(SignUp, verbose_name=_("sign-up"), on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(verbose_name=_("kind"), max_length=20)
    subject = models.CharField(verbose_name=_("subject"), max_length=200)
    body = models.TextField(verbose_name=_("body"))
    created_at = models.DateTimeField(verbose_name=_("written at"), auto_now_add=True)
    sent_at = models.DateTimeField(verbose_name=_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.subject


class BlockedEmail(models.Model):
    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="blocked_emails")
    email = models.EmailField(verbose_name=_("e-mail"))
    reason = models.CharField(verbose_name=_("reason"), max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("blocked address")
        verbose_name_plural = _("blocked addresses")
        constraints = [models.UniqueConstraint(fields=["event", "email"], name="blocked_email_unique")]

    def __str__(self) -> str:
        return self.email
