"""Keys that are not accounts: a table's scorekeeper card (link and PIN) and an event's API tokens."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.base import RevocableRecord
from tournament.models.events import Event
from tournament.models.tables import Table
from tournament.options import table_numbers_parse


class ScorekeeperKey(RevocableRecord):
    """A link and PIN that let someone without an account keep one table's score in its round.

    Only digests are stored: the link and the PIN are shown once, on the printed table card.
    """

    MAX_FAILED_PINS = 5

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="scorekeeper_keys")
    token_digest = models.CharField(verbose_name=_("token digest"), max_length=64, unique=True)
    pin_hash = models.CharField(verbose_name=_("pin hash"), max_length=128)
    failed_pins = models.PositiveSmallIntegerField(verbose_name=_("failed pins"), default=0)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    issued_at = models.DateTimeField(verbose_name=_("issued at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "-issued_at"]
        # Translators: a table card (卓カード): the link and PIN that let a scorekeeper keep one table's score
        verbose_name = _("scorekeeper key")
        verbose_name_plural = _("scorekeeper keys")

    def __str__(self) -> str:
        return gettext("Scorekeeper key of %(table)s (%(time)s)") % {
            "table": self.table,
            "time": f"{self.issued_at:%Y-%m-%d %H:%M}",
        }

    @property
    def locked(self) -> bool:
        return self.failed_pins >= self.MAX_FAILED_PINS


class ApiToken(RevocableRecord):
    """A secret that lets a program (a scoreboard, a stream overlay, club or federation software) use the
    API for one event, within its scope. Only the secret's SHA-256 digest is stored: the secret is shown
    once, when the token is issued.

    * ``read``: every read of the event, public or not; no write;
    * ``referee``: the reads, and at its tables (``tables``, empty: every table) what a referee records:
      hands, corrections, voids, results, penalties, absences, rulings, the clock;
    * ``organizer``: everything the API does in the event, registering players included; never another
      event, and never accounts, roles or tokens.
    """

    class Scope(models.TextChoices):
        READ = "read", _("Read")
        REFEREE = "referee", _("Referee")
        ORGANIZER = "organizer", _("Organizer")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(
        verbose_name=_("name"),
        max_length=120,
        help_text=_("What the token is for, e.g. “stream overlay, hall B”."),
    )
    scope = models.CharField(verbose_name=_("scope"), max_length=10, choices=Scope.choices, default=Scope.READ)
    tables = models.CharField(
        verbose_name=_("tables"),
        max_length=200,
        blank=True,
        help_text=_("Referee scope only: the table numbers it covers, e.g. 1-8, 12. Empty: every table."),
    )
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(
        verbose_name=_("expires at"), null=True, blank=True, help_text=_("Empty: until revoked.")
    )
    last_used_at = models.DateTimeField(verbose_name=_("last used at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return gettext("API token #%(number)s “%(name)s” (%(scope)s) of %(event)s") % {
            "number": self.pk,
            "name": self.name,
            "scope": self.get_scope_display(),
            "event": self.event,
        }

    def clean(self) -> None:
        try:
            table_numbers_parse(self.tables)
        except ValueError as exc:
            raise ValidationError({"tables": str(exc)}) from exc
        if self.tables.strip() and self.scope != self.Scope.REFEREE:
            raise ValidationError({"tables": gettext("only a referee token covers some tables")})

    @property
    def table_numbers(self) -> frozenset[int] | None:
        """The tables a referee token covers, or None for every table."""
        return table_numbers_parse(self.tables) or None
