"""An account's language preference (read at sign-in, written by the language switch), the record of sign-in
lockouts, and the one-time codes that let a locked-out person in."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AccountPreference, SignInAddress, SignInCode, SignInLockout
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


# --- Sign-in lockouts and one-time codes ------------------------------------------------------------


def lockout_record(*, kind: str, username: str, address: str, seconds: int) -> SignInLockout:
    """Keep a lasting record of a lock that has just started (the lock itself is in the cache)."""
    return SignInLockout.objects.create(
        kind=kind,
        username=username[:150],
        address=address[:64],
        until=timezone.now() + timedelta(seconds=seconds),
    )


SIGNIN_ADDRESSES_KEPT = 20  # per account, the most recent


def signin_address_known(*, username: str, address: str) -> bool:
    """The account named ``username`` signed in from ``address`` before (one query)."""
    return SignInAddress.objects.filter(user__username=username.strip(), address=address[:64]).exists()


@transaction.atomic
def signin_address_note(*, user, address: str) -> None:
    """Remember that ``user`` signed in from ``address`` (its most recent ``SIGNIN_ADDRESSES_KEPT``)."""
    SignInAddress.objects.update_or_create(user=user, address=address[:64], defaults={"last_at": timezone.now()})
    older = SignInAddress.objects.filter(user=user).order_by("-last_at").values_list("pk", flat=True)
    SignInAddress.objects.filter(pk__in=list(older[SIGNIN_ADDRESSES_KEPT:])).delete()


@transaction.atomic
def signin_code_redeem(*, user, code: str, address: str) -> bool:
    """Use ``code`` for ``user``: True once for a live code of theirs (it is then spent). A wrong code counts
    against each live code of the account; after ``MAX_WRONG_TRIES`` they are void."""
    now = timezone.now()
    live = SignInCode.objects.select_for_update(no_key=True).filter(
        user=user, used_at__isnull=True, void_at__isnull=True, expires_at__gt=now
    )
    match = live.filter(digest=SignInCode.digest_of(user.pk, code)).first()
    if match is not None:
        match.used_at, match.used_from = now, address[:64]
        match.save(update_fields=["used_at", "used_from"])
        return True
    for wrong in live:
        wrong.wrong_tries += 1
        if wrong.wrong_tries >= SignInCode.MAX_WRONG_TRIES:
            wrong.void_at = now
        wrong.save(update_fields=["wrong_tries", "void_at"])
    return False
