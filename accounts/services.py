"""An account's language preference: read at sign-in, written by the language switch."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import AccountPreference
from taikai.errors import TaikaiError

LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)


def language_checked(language: str) -> str:
    """``language`` if the site speaks it, else a coded refusal naming the field."""
    if language not in LANGUAGE_CODES:
        raise TaikaiError(
            "unknown_language",
            _("language must be one of %(codes)s") % {"codes": ", ".join(LANGUAGE_CODES)},
            field="language",
        )
    return language


def account_language(*, user) -> str | None:
    """The language the account chose, or None if it never chose one."""
    if not getattr(user, "is_authenticated", False):
        return None
    return AccountPreference.objects.filter(user=user).values_list("language", flat=True).first()


@transaction.atomic
def account_language_set(*, user, language: str) -> str:
    """Keep ``language`` as the account's own (only the account itself calls this)."""
    language = language_checked(language)
    AccountPreference.objects.update_or_create(user=user, defaults={"language": language})
    return language
