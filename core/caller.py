"""Who is calling: the caller's address, for the throttles, the sign-in locks and what the sign-up keeps."""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str:
    """The caller's address: the connection's, or the one the nearest trusted proxy saw (``TRUSTED_PROXIES``
    proxies of one's own; ``X-Forwarded-For`` read from the right, so a header a caller writes is never
    believed)."""
    meta = getattr(request, "META", {})
    remote = meta.get("REMOTE_ADDR") or "unknown"
    proxies = settings.TRUSTED_PROXIES
    forwarded = [part.strip() for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies <= 0 or not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
