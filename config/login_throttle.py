"""Sign-in throttling for the admin and the site's sign-in page: after ``LOGIN_FAILURES_PER_ACCOUNT``
wrong passwords for one user name, or ``LOGIN_FAILURES_PER_ADDRESS`` from one address, sign-in is refused
for ``LOGIN_LOCKOUT_SECONDS`` (counted in the configured cache, shared by every process with Redis).
Every failure and lockout is logged to ``taikai.security``."""

from __future__ import annotations

import logging

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from config.throttling import client_address

log = logging.getLogger("taikai.security")


def _keys(request, username: str) -> tuple[str, str]:
    address = client_address(request) if request is not None else "unknown"
    return f"login-fail:user:{username.strip().casefold()}", f"login-fail:addr:{address}"


def login_locked(request, username: str) -> bool:
    user_key, address_key = _keys(request, username)
    counts = cache.get_many([user_key, address_key])
    return (counts.get(user_key, 0) >= settings.LOGIN_FAILURES_PER_ACCOUNT
            or counts.get(address_key, 0) >= settings.LOGIN_FAILURES_PER_ADDRESS)  # fmt: skip


def login_failed(request, username: str) -> None:
    for key in _keys(request, username):
        if not cache.add(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired meanwhile
                cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)
    log.warning("sign-in failed for %r from %s", username, _keys(request, username)[1].rsplit(":", 1)[-1])


def login_succeeded(request, username: str) -> None:
    cache.delete(_keys(request, username)[0])


class ThrottleMixin:
    locked_message = _("Too many wrong passwords: sign-in is locked for a while. Try again in 15 minutes.")

    def clean(self):
        username = self.data.get("username", "")
        if login_locked(self.request, username):
            log.warning("sign-in refused (locked) for %r", username)
            raise forms.ValidationError(self.locked_message, code="locked")
        try:
            data = super().clean()
        except forms.ValidationError:
            login_failed(self.request, username)
            raise
        login_succeeded(self.request, username)
        return data


class ThrottledAuthenticationForm(ThrottleMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottleMixin, AdminAuthenticationForm):
    pass
