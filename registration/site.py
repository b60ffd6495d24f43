"""The site's address as the person who caused a message reached it, for the links in players' e-mails.

A message is written inside a service (a sign-up, a withdrawal, an organizer's action) and sent later by a
worker, which has no request. ``SiteAddressMiddleware`` keeps the address of the request being answered
(its scheme and host, the host checked against ``ALLOWED_HOSTS`` by Django) for the services it calls;
``site_url()`` gives it, or the ``SITE_URL`` setting when no request is being answered (a worker, a command).
The message's task is queued with the address, so its link opens the site where the player's organizer (or
the player) is: the demo started on another port or a hall's local address included.
"""

from __future__ import annotations

from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import DisallowedHost

_request_site: ContextVar[str] = ContextVar("request_site", default="")


def site_url() -> str:
    """The request's ``scheme://host`` while one is answered, else ``SITE_URL``; no trailing slash."""
    return (_request_site.get() or settings.SITE_URL).rstrip("/")


class SiteAddressMiddleware:
    """Keeps the answered request's address for ``site_url`` (a host Django refuses is not kept)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            address = f"{request.scheme}://{request.get_host()}"
        except DisallowedHost:
            address = ""
        token = _request_site.set(address)
        try:
            return self.get_response(request)
        finally:
            _request_site.reset(token)
