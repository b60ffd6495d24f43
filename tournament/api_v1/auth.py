"""Who calls the API: an API token (``Authorization: Bearer <secret>``, or ``Token <secret>``) for programs,
or the browser's session (sign-in, or a scorekeeper's table card). Passwords are never taken here: a
guessed password goes through the throttled sign-in pages only.

A request that presents a token is the token's alone (:class:`tournament.access.Actor`): the session it
may also carry is not read. An unknown, revoked or expired token answers 401 whatever the endpoint.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from taikai.errors import TaikaiError
from tournament.api import SessionWithTableCards
from tournament.services.tokens import api_token_authenticate

SCHEMES = ("bearer", "token")


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <secret>`` (or ``Token <secret>``): the request acts as that token. Other
    schemes (Basic among them) are not read here."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() not in SCHEMES:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "write the header as “Authorization: Bearer <token>”", code="token_invalid"
            )
        try:
            token = api_token_authenticate(header[1].decode("latin-1"))
        except TaikaiError as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        return AnonymousUser(), token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


def is_token(auth) -> bool:
    return auth is not None and hasattr(auth, "digest")


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = ApiTokenAuthentication
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token of one event, issued by its organizers (read, referee or organizer "
            "scope). `Authorization: Bearer <token>`; `Token <token>` is read too.",
        }


class SessionScheme(OpenApiAuthenticationExtension):
    target_class = SessionWithTableCards
    name = "session"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "The browser's session: an account signed in, or a scorekeeper's table card. "
            "Writes need the CSRF token in the X-CSRFToken header.",
        }
