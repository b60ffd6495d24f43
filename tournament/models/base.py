"""What the records share: the winds of the seats, who wrote a row an archive named, and the two bases of
records never edited in place (a versioned record, a revocable grant)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

SEAT_WIND_CHOICES = [  # a seat's wind at the start of the game (0..3, its position), as people read it
    # Translators: East (東), the wind of a seat, in one letter
    (0, pgettext_lazy("seat wind", "E")),
    # Translators: South (南), the wind of a seat, in one letter
    (1, pgettext_lazy("seat wind", "S")),
    # Translators: West (西), the wind of a seat, in one letter
    (2, pgettext_lazy("seat wind", "W")),
    # Translators: North (北), the wind of a seat, in one letter
    (3, pgettext_lazy("seat wind", "N")),
]


AUTHOR_NAME_MAX_LENGTH = 150  # an account's name (Django's username) or "table card #n", "API token #n"


def author_name_field(verbose_name) -> models.CharField:
    """Who wrote a row, as the archive it was imported from named them, when no account here has that name
    (a table card, an API token or an account of the other database): kept as text, never entered by hand."""
    return models.CharField(
        verbose_name=verbose_name,
        max_length=AUTHOR_NAME_MAX_LENGTH,
        blank=True,
        editable=False,
        help_text=_("As named by the imported archive (no account here)."),
    )


class VersionedQuerySet(models.QuerySet):
    def current(self):
        """The current version of each record (its newest: for a hand, voided or not; ``in_force`` leaves a
        voided hand out); older versions stay for the audit trail."""
        return self.filter(is_current=True)


class VersionedRecord(models.Model):
    """One version of a record that is never edited in place: a correction adds the next version,
    marks it current and the one before not, and names who recorded it and when.

    The record it versions holds the head number (``Hand.current_version``, ``Table.result_version``):
    that is the row a writer locks and the optimistic check (``expected_version``) compares against.
    """

    version = models.PositiveIntegerField(verbose_name=_("version"))
    is_current = models.BooleanField(verbose_name=_("is current"), default=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_by_card = models.ForeignKey(
        "ScorekeeperKey",
        verbose_name=_("recorded by card"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by the table's scorekeeper, through this table card (no account)."),
    )
    recorded_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("recorded through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by a program of the event's, through this API token."),
    )
    recorded_by_name = author_name_field(_("recorded by (name from an archive)"))
    # how the archive this version came from said it was recorded, when no account, card or token here has it
    recorded_via_archived = models.CharField(max_length=12, blank=True, default="", editable=False)
    recorded_at = models.DateTimeField(verbose_name=_("recorded at"), auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def author(self) -> str:
        """Who recorded this version, for people: an account, a table card, an API token, the name an
        imported archive gave, or nobody (a simulation)."""
        if self.recorded_by_card_id:
            return gettext("table card #%(number)s") % {"number": self.recorded_by_card_id}
        if self.recorded_by_token_id:
            return gettext("API token #%(number)s") % {"number": self.recorded_by_token_id}
        return str(self.recorded_by or self.recorded_by_name)

    @property
    def recorded_via(self) -> str:
        """How this version was recorded, without naming anyone: account, table card, API token or ""."""
        if self.recorded_by_card_id:
            return "table card"
        if self.recorded_by_token_id:
            return "api token"
        return "account" if self.recorded_by_id else self.recorded_via_archived


class RevocableRecord(models.Model):
    """A grant that can be revoked but is never deleted: revoking records who and when."""

    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(verbose_name=_("revoked at"), null=True, blank=True)

    class Meta:
        abstract = True

    def revoke(self, by) -> None:
        """Revoke it now (a row already revoked keeps its first revocation); ``by`` is a user or None."""
        if self.revoked_at is None:
            self.revoked_at, self.revoked_by = timezone.now(), by
            self.save(update_fields=["revoked_at", "revoked_by"])
