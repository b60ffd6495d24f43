"""Who is counted, and how, by the API's throttles (``REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]``).

Three callers, each counted on its own, so that one never uses up another's allowance:

* an address without an account or a token (``API_ANON_RATE``): visitors, phones polling standings;
* a signed-in account (``API_USER_RATE``), wherever it calls from;
* an API token (``API_TOKEN_RATE``): a busy program slows itself down, not the venue.

The address is the connection's, or, behind ``TRUSTED_PROXIES`` proxies of one's own, the one the
nearest of them saw (``X-Forwarded-For`` read from the right, as many entries as there are proxies): a
header a caller writes themselves is never believed. Counts are one atomic counter per caller and minute
(``cache.add`` then ``cache.incr``: Redis's ``INCR``), so parallel requests cannot slip past the limit
between a read and a write.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from core.caller import client_address

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def is_token(auth) -> bool:
    """The request presents an API token (``tournament.api_v1.auth``; not imported here: DRF imports this
    module while the API's views are being defined)."""
    return auth is not None and hasattr(auth, "digest")


def parse_rate(rate: str) -> tuple[int, int]:
    """``"6000/min"`` → (6000, 60)."""
    count, period = rate.split("/")
    return int(count), PERIODS[period[0]]


class CountingThrottle(BaseThrottle):
    """At most ``rate`` requests per caller in each window of the rate's period (one atomic counter)."""

    scope = ""

    def caller(self, request) -> str | None:
        """Who is counted; None when this throttle does not count the request."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        ident = self.caller(request)
        if ident is None:
            return True
        self.limit, self.period = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[self.scope])
        window = int(time.time() // self.period)
        key = f"throttle:{self.scope}:{ident}:{window}"
        cache.add(key, 0, timeout=self.period + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between the two calls: this request opens the count
            cache.set(key, 1, timeout=self.period + 1)
            count = 1
        self.window_ends = (window + 1) * self.period
        return count <= self.limit

    def wait(self) -> float:
        return max(0.0, self.window_ends - time.time())


class AddressRateThrottle(CountingThrottle):
    """Callers with neither an account nor a token, per address (``API_ANON_RATE``)."""

    scope = "anon"

    def caller(self, request):
        if is_token(getattr(request, "auth", None)) or request.user.is_authenticated:
            return None
        return f"address:{client_address(request)}"


class AccountRateThrottle(CountingThrottle):
    """Signed-in accounts, per account (``API_USER_RATE``)."""

    scope = "user"

    def caller(self, request):
        if is_token(getattr(request, "auth", None)) or not request.user.is_authenticated:
            return None
        return f"account:{request.user.pk}"


class TokenRateThrottle(CountingThrottle):
    """API tokens, per token (``API_TOKEN_RATE``)."""

    scope = "token"

    def caller(self, request):
        token = getattr(request, "auth", None)
        return f"token:{token.pk}" if is_token(token) else None
