"""A signed-in account reads pages in its own language, whatever the browser says."""

from __future__ import annotations

from django.utils import translation

SESSION_KEY = "account_language"


class AccountLanguageMiddleware:
    """After ``LocaleMiddleware`` (cookie, Accept-Language): the account's choice, kept in its session
    at sign-in and by the switch, wins. No query: the session already holds it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        language = session.get(SESSION_KEY) if session is not None and request.user.is_authenticated else None
        if language and translation.check_for_language(language):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
