"""What an account prefers, kept with the account rather than in one browser; its sign-in lockouts and the
one-time codes that let a locked-out person in."""

import hashlib
import hmac

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AccountPreference(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="preference",
        verbose_name=_("account"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("account preference")
        verbose_name_plural = _("account preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"


class SignInLockout(models.Model):
    """A sign-in lock, recorded when it starts. The counts themselves live in the cache
    (``config/login_throttle.py``); this is the lasting record of who was locked, from where, and until when."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("an account from one address")
        ADDRESS = "address", _("an address, for every account")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    username = models.CharField(_("account name tried"), max_length=150, blank=True)
    address = models.CharField(_("address"), max_length=64)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    until = models.DateTimeField(_("until"))

    class Meta:
        verbose_name = _("sign-in lockout")
        verbose_name_plural = _("sign-in lockouts")
        ordering = ("-started_at",)

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.username or '—'} @ {self.address}"


class SignInAddress(models.Model):
    """An address an account signed in from with its password (``config/login_throttle.py``): wrong
    passwords from elsewhere do not delay the account here, and wrong passwords sent from here do not
    grow the account's delay (the address's own locks still count them)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("account")
    )
    address = models.CharField(_("address"), max_length=64)
    first_at = models.DateTimeField(_("first sign-in"), auto_now_add=True)
    last_at = models.DateTimeField(_("last sign-in"))

    class Meta:
        verbose_name = _("sign-in address")
        verbose_name_plural = _("sign-in addresses")
        constraints = [models.UniqueConstraint(fields=["user", "address"], name="one_row_per_signin_address")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.address}"


class SignInCode(models.Model):
    """A one-time code an organizer gives a locked-out person at the venue: with their own password it lets
    them in through a lock. Only a digest is kept; the code is shown once, to the organizer."""

    MAX_WRONG_TRIES = 5

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="signin_codes",
        verbose_name=_("account"),
    )
    digest = models.CharField(max_length=64, unique=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="signin_codes_issued",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    wrong_tries = models.PositiveSmallIntegerField(_("wrong tries"), default=0)
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_from = models.CharField(_("used from"), max_length=64, blank=True)
    void_at = models.DateTimeField(_("void at"), null=True, blank=True)

    class Meta:
        verbose_name = _("one-time sign-in code")
        verbose_name_plural = _("one-time sign-in codes")
        ordering = ("-issued_at",)

    def __str__(self) -> str:
        return f"{self.user} ({self.issued_at:%Y-%m-%d %H:%M})"

    @staticmethod
    def digest_of(user_id: int, code: str) -> str:
        """A keyed digest of the code, bound to its account: a code read off one account's record opens
        no other."""
        normalized = "".join(ch for ch in code if ch.isalnum()).upper()
        message = f"{user_id}:{normalized}".encode()
        return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()
