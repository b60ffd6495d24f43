"""What an account prefers, kept with the account rather than in one browser."""

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
