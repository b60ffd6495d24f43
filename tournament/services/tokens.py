"""API tokens: a secret per program, for one event and one scope (read, referee of some tables, organizer),
issued by the event's organizers, revocable, optionally expiring. Only the secret's SHA-256 digest is
stored; the secret is returned once, by :func:`api_token_issue`.

A secret reads ``taikai_`` followed by 43 URL-safe characters (256 random bits): the prefix lets secret
scanners and people tell it from other credentials.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import ApiToken, Event
from tournament.options import table_numbers_parse
from tournament.services.common import recorder
from tournament.services.locks import lock_event

SECRET_PREFIX = "taikai_"
LAST_USED_PRECISION = timedelta(minutes=1)  # when a token was last used is written at most once a minute


@dataclass(frozen=True)
class IssuedToken:
    """A new token and its secret: shown once, only the digest is kept."""

    token: ApiToken
    secret: str


def api_token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def api_token_issue(
    *, event: Event, name: str, scope: str, tables: str = "", expires_at: datetime | None = None, by=None
) -> IssuedToken:
    """A new token for ``event``; the secret is in the result and nowhere else."""
    name = (name or "").strip()
    if not name:
        raise TaikaiError("name_required", "say what the token is for", field="name")
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise TaikaiError("name_too_long", "the name is at most 120 characters", field="name")
    if scope not in ApiToken.Scope.values:
        raise TaikaiError("invalid_scope", f"the scope is one of {', '.join(ApiToken.Scope.values)}", field="scope")
    tables = (tables or "").strip()
    try:
        table_numbers_parse(tables)
    except ValueError as exc:
        raise TaikaiError("invalid_tables", str(exc), field="tables") from exc
    if len(tables) > ApiToken._meta.get_field("tables").max_length:
        raise TaikaiError("invalid_tables", "write the tables in at most 200 characters", field="tables")
    if tables and scope != ApiToken.Scope.REFEREE:
        raise TaikaiError("invalid_tables", "only a referee token covers some tables", field="tables")
    if expires_at is not None and expires_at <= timezone.now():
        raise TaikaiError("expiry_in_past", "the token would expire before it is used", field="expires_at")
    event = lock_event(event.pk)
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        event=event,
        name=name,
        scope=scope,
        tables=tables,
        digest=api_token_digest(secret),
        expires_at=expires_at,
        created_by=recorder(by),
    )
    return IssuedToken(token=token, secret=secret)


@transaction.atomic
def api_token_revoke(*, token: ApiToken, by=None) -> ApiToken:
    """End a token now; the row stays, naming who revoked it and when."""
    token = ApiToken.objects.select_for_update(no_key=True, of=("self",)).get(pk=token.pk)
    token.revoke(recorder(by))
    return token


def api_token_authenticate(secret: str) -> ApiToken:
    """The token a request presents, if it is valid now; its last use is noted (at most once a minute).
    Refuses an unknown, revoked or expired secret, saying which."""
    token = selectors.api_token_by_digest(api_token_digest(secret)) if secret else None
    if token is None:
        raise TaikaiError("token_invalid", "this API token is not valid", field="Authorization")
    now = timezone.now()
    if token.revoked_at is not None:
        raise TaikaiError("token_revoked", "this API token was revoked", field="Authorization")
    if token.expires_at is not None and now >= token.expires_at:
        raise TaikaiError("token_expired", "this API token has expired", field="Authorization")
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_PRECISION)
        ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
