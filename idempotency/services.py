"""Keep and give back the answers of writes sent with a key."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from idempotency.models import IdempotentRequest


def request_claim(*, scope: str, key: str, fingerprint: str) -> tuple[IdempotentRequest, bool]:
    """The row of (``scope``, ``key``), and whether this request made it (it is the first). Inside the
    caller's transaction: a second sending at the same moment waits for the first to commit, then finds
    its answer (PostgreSQL's unique index; SQLite's one writer)."""
    try:
        with transaction.atomic():
            return IdempotentRequest.objects.create(scope=scope, key=key, fingerprint=fingerprint), True
    except IntegrityError:
        return IdempotentRequest.objects.get(scope=scope, key=key), False


def request_answer_find(*, scope: str, key: str) -> IdempotentRequest | None:
    """The answer kept for (``scope``, ``key``), if any."""
    return IdempotentRequest.objects.filter(scope=scope, key=key).first()


def request_answer_keep(row: IdempotentRequest, *, status: int, content_type: str, location: str, body: bytes) -> None:
    row.status, row.content_type, row.location, row.body = status, content_type, location[:2000], body
    row.save(update_fields=["status", "content_type", "location", "body"])


def requests_forget_old() -> int:
    """Forget the keys older than ``IDEMPOTENCY_KEEP_DAYS``; the number forgotten."""
    horizon = timezone.now() - timedelta(days=settings.IDEMPOTENCY_KEEP_DAYS)
    return IdempotentRequest.objects.filter(created_at__lt=horizon).delete()[0]
