"""Sign-in throttling for the admin and the site's sign-in page, made so that guessing is slow and the real
user is never shut out by someone else's guesses:

* an (account, address) pair is locked after ``LOGIN_FAILURES_PER_ACCOUNT`` wrong passwords, for
  ``LOGIN_LOCKOUT_SECONDS``: the guesser's address, not the account;
* an address is locked after ``LOGIN_FAILURES_PER_ADDRESS`` wrong passwords for any accounts;
* the account itself is only slowed down: past ``LOGIN_FAILURES_PER_ACCOUNT`` wrong passwords from
  addresses it never signed in from, each next try from such an address waits 1, 2, 4, … seconds (at
  most ``LOGIN_DELAY_MAX_SECONDS``) after the last of them;
* the account's own addresses (``SignInAddress``: where it signed in with its password before) are not
  delayed by the guesses from elsewhere, and their own wrong passwords do not grow the account's delay
  (their pair and address locks still count them): a stranger rotating addresses cannot keep the real
  user out, who is in at once from an address they used before.

A person locked out on the day (a referee behind the venue's one address, say) gets in with their own
password and a one-time code an organizer gives them (``signin_code_issue``, an action on the roles list).

Counts are in the configured cache (shared by every process with Redis; per process while it is down,
``config/cache.py``). Every failure, lockout and delay is logged to ``taikai.security``; every lockout is
also recorded in the database (``SignInLockout``), and every code used (``SignInCode``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import SignInLockout
from accounts.services import lockout_record, signin_address_known, signin_address_note, signin_code_redeem
from core.caller import client_address

log = logging.getLogger("taikai.security")
now: Callable[[], float] = time.time  # the delays' clock, in seconds (a test moves it instead of sleeping)


def _address(request) -> str:
    return client_address(request) if request is not None else "unknown"


def _keys(request, username: str) -> dict[str, str]:
    address = _address(request)
    account = username.strip().casefold()
    return {
        "pair": f"login-fail:pair:{account}:{address}",
        "address": f"login-fail:addr:{address}",
        "account": f"login-fail:user:{account}",
        "last": f"login-last:user:{account}",
    }


def login_locked(request, username: str) -> bool:
    """The pair or the address is locked."""
    keys = _keys(request, username)
    counts = cache.get_many([keys["pair"], keys["address"]])
    return (
        counts.get(keys["pair"], 0) >= settings.LOGIN_FAILURES_PER_ACCOUNT
        or counts.get(keys["address"], 0) >= settings.LOGIN_FAILURES_PER_ADDRESS
    )


def login_wait_seconds(request, username: str) -> int:
    """How long the account must still wait before its next try from this address (0: it may try now; at
    once from an address it signed in from before)."""
    if request is not None and signin_address_known(username=username, address=_address(request)):
        return 0
    keys = _keys(request, username)
    found = cache.get_many([keys["account"], keys["last"]])
    over = found.get(keys["account"], 0) - settings.LOGIN_FAILURES_PER_ACCOUNT
    if over < 0 or keys["last"] not in found:
        return 0
    delay = min(2**over, settings.LOGIN_DELAY_MAX_SECONDS)
    return max(0, int(found[keys["last"]] + delay - now() + 0.999))


def _count(key: str) -> int:
    if cache.add(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired meanwhile
        cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)
        return 1


def login_failed(request, username: str) -> None:
    keys = _keys(request, username)
    address = keys["address"].rsplit(":", 1)[-1]
    pair, by_address = _count(keys["pair"]), _count(keys["address"])
    if request is None or not signin_address_known(username=username, address=address):
        _count(keys["account"])  # the account's delay grows with guesses from elsewhere only
        cache.set(keys["last"], now(), timeout=settings.LOGIN_LOCKOUT_SECONDS)
    log.warning("sign-in failed for %r from %s", username, address)
    seconds = settings.LOGIN_LOCKOUT_SECONDS
    if pair == settings.LOGIN_FAILURES_PER_ACCOUNT:
        log.warning("lockout: %r from %s for %s s", username, address, seconds)
        lockout_record(kind=SignInLockout.Kind.PAIR, username=username, address=address, seconds=seconds)
    if by_address == settings.LOGIN_FAILURES_PER_ADDRESS:
        log.warning("lockout: address %s for %s s", address, seconds)
        lockout_record(kind=SignInLockout.Kind.ADDRESS, username=username, address=address, seconds=seconds)


def login_succeeded(request, username: str, user=None) -> None:
    keys = _keys(request, username)
    cache.delete_many([keys["pair"], keys["account"], keys["last"]])
    if request is not None and user is not None:
        signin_address_note(user=user, address=_address(request))


class ThrottleMixin:
    locked_message = _(
        "Too many wrong passwords: sign-in is locked for a while. Try again in 15 minutes, or ask an organizer "
        "for a one-time code and enter it with your password on the site's sign-in page."
    )

    def _refusal(self, username: str) -> forms.ValidationError | None:
        """Why this sign-in may not be tried now (a lock or the account's delay), or None."""
        if login_locked(self.request, username):
            log.warning("sign-in refused (locked) for %r", username)
            return forms.ValidationError(self.locked_message, code="locked")
        wait = login_wait_seconds(self.request, username)
        if wait:
            log.warning("sign-in delayed %s s for %r", wait, username)
            return forms.ValidationError(
                ngettext(
                    "Several wrong passwords for this account: wait %(seconds)s second before trying again.",
                    "Several wrong passwords for this account: wait %(seconds)s seconds before trying again.",
                    wait,
                )
                % {"seconds": wait},
                code="delayed",
            )
        return None

    def clean(self):
        """Through a lock only with the right password *and* a live one-time code; either wrong gives the
        same refusal, so the lock tells a guesser nothing about the password."""
        username = self.data.get("username", "")
        code = (self.data.get("code") or "").strip()
        refusal = self._refusal(username)
        if refusal is not None and not code:
            raise refusal
        try:
            data = super().clean()
        except forms.ValidationError:
            login_failed(self.request, username)
            if refusal is not None:
                raise refusal from None
            raise
        if refusal is not None:
            address = _address(self.request)
            if not signin_code_redeem(user=self.get_user(), code=code, address=address):
                log.warning("sign-in refused (locked, code not valid) for %r", username)
                raise refusal
            log.warning("sign-in through a lock with a one-time code for %r from %s", username, address)
        login_succeeded(self.request, username, user=self.get_user())
        return data


class ThrottledAuthenticationForm(ThrottleMixin, AuthenticationForm):
    code = forms.CharField(
        label=_("One-time code (only if an organizer gave you one)"),
        required=False,
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "characters"}),
    )


class ThrottledAdminAuthenticationForm(ThrottleMixin, AdminAuthenticationForm):
    pass
