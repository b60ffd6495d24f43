"""The language switch shown on every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import activate
from django.views.decorators.http import require_POST

from accounts.middleware import SESSION_KEY
from accounts.services import account_language_set, language_checked


def _next_page(request) -> str:
    candidate = request.POST.get("next") or request.headers.get("Referer") or "/"
    if url_has_allowed_host_and_scheme(candidate, {request.get_host()}, require_https=request.is_secure()):
        return candidate
    return "/"


@require_POST
def language_switch(request):
    """Switch the pages to ``language``: for this browser (a cookie) and, when signed in, for the
    account (its preference, kept across devices). An unknown language is a 400 naming the field."""
    language = language_checked(request.POST.get("language", ""))
    if request.user.is_authenticated:
        account_language_set(user=request.user, language=language)
        request.session[SESSION_KEY] = language
    activate(language)
    response = HttpResponseRedirect(_next_page(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=False,
    )
    return response
