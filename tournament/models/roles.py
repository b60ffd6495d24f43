"""A person's role in one event (co-organizer or referee), revocable, never deleted."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.base import RevocableRecord
from tournament.models.events import Event
from tournament.options import table_numbers_parse


class EventRole(RevocableRecord):
    """A person's role in one event: co-organizer or referee. Revoking keeps the row, with who and when."""

    class Kind(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        REFEREE = "referee", _("Referee")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="event_roles"
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=Kind.choices)
    tables = models.CharField(
        verbose_name=_("tables"),
        max_length=200,
        blank=True,
        help_text=_("Referees only: the table numbers they cover, e.g. 1-8, 12. Empty: every table."),
    )
    head = models.BooleanField(
        verbose_name=_("head referee"),
        default=False,
        help_text=_("Referees only: a head referee may also unlock a checked round, with a reason."),
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("granted by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    granted_at = models.DateTimeField(verbose_name=_("granted at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "kind", "user__username"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "kind"],
                condition=models.Q(revoked_at__isnull=True),
                name="event_role_once_while_held",
            )
        ]

    def __str__(self) -> str:
        return gettext("%(user)s — %(kind)s of %(event)s") % {
            "user": self.user,
            "kind": self.get_kind_display(),
            "event": self.event,
        }

    def clean(self) -> None:
        try:
            table_numbers_parse(self.tables)
        except ValueError as exc:
            raise ValidationError({"tables": str(exc)}) from exc
        if self.tables.strip() and self.kind == self.Kind.ORGANIZER:
            raise ValidationError({"tables": ValidationError(_("an organizer covers the whole event"), code="invalid")})
        if self.head and self.kind != self.Kind.REFEREE:
            raise ValidationError({"head": ValidationError(_("only a referee is a head referee"), code="invalid")})

    @property
    def table_numbers(self) -> frozenset[int] | None:
        """The tables a referee covers, or None for every table."""
        return table_numbers_parse(self.tables) or None
