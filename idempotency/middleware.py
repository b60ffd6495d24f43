"""Every write can be sent twice: a write to the console or the API that carries a key made by its client
(the ``Idempotency-Key`` header, or an ``idempotency_key`` field of a form) is done once. The same key
again, from the same sender, gets the first answer back and writes nothing; the same key with another
body is refused (409 ``idempotency_key_reused``). Keys are kept ``IDEMPOTENCY_KEEP_DAYS`` (7 days;
``manage.py forget_idempotency_keys`` forgets older ones).

The sender is the account signed in, else a valid API token (its secret's digest), else the session of a
scorekeeper's card: one sender's key is never another's answer, and a replay is only ever given to the
one who made the write. A stranger (no account, a token that is unknown, revoked or expired, a session
without a card) is nobody to remember a key for: nothing is kept, the view refuses the write. The write
and its answer are kept in one transaction: a sending that fails (a server error) or is refused before it
is done (401, 403, 404, 405, 429) keeps nothing, and may be sent again. An answer longer than
``IDEMPOTENCY_MAX_ANSWER_BYTES`` is kept without its body: sent again, it answers the same status and
``Location`` with an empty body.

A write without a key is done as before (the version checks still refuse a hand saved twice).

A write a device kept in its queue names who made it (``tournament.outbox``): sent under another person's
session, or after its maker's ended, it is refused (409 ``author_not_signed_in``, nothing kept) and never
recorded under the one signed in now; but a write its maker's key already recorded gets that first answer
back, whoever is signed in, so that the device knows it is done.
"""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from idempotency.services import request_answer_find, request_answer_keep, request_claim
from taikai.errors import TaikaiError
from tournament.access import SESSION_SCOREKEEPER_KEYS
from tournament.outbox import maker_refusal, write_maker
from tournament.selectors import api_token_by_digest
from tournament.services.tokens import api_token_digest

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PATHS = ("/api/", "/console/")
KEY_FIELD = "idempotency_key"
KEY_FORM = re.compile(r"[\x21-\x7e]{1,100}")  # printable ASCII, no spaces: a UUID, a ULID, a counter


def key_is_well_formed(key: str) -> bool:
    """The whole key has the form (``fullmatch``: a key ending in a line break is refused, as the device does)."""
    return KEY_FORM.fullmatch(key) is not None


LEFT_OUT = {"csrfmiddlewaretoken", KEY_FIELD}  # a form sent again has a new CSRF mask: same write


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in WRITES or not request.path.startswith(PATHS):
            return self.get_response(request)
        key = request.headers.get("Idempotency-Key") or _form_key(request)
        if key and not key_is_well_formed(key):
            return _refusal(
                400,
                "invalid_idempotency_key",
                _("the idempotency key is 1 to 100 printable characters, no spaces"),
            )
        maker = None
        try:
            maker = write_maker(request)
            refusal = maker_refusal(maker, request) if maker is not None else None
        except TaikaiError as exc:
            refusal = exc
        if refusal is not None:
            return self._made_before(maker, key, request) or _maker_refusal(refusal)
        if not key:
            return self.get_response(request)
        scope = _sender(request)
        if scope is None:
            return self.get_response(request)  # nobody to remember it for: the role check refuses the write
        fingerprint = _fingerprint(request)
        with transaction.atomic():
            row, first = request_claim(scope=scope, key=key, fingerprint=fingerprint)
            if not first:
                return self._replay(request, row, fingerprint)
            response = self.get_response(request)
            if response.status_code >= 500 or response.status_code in NOT_DONE or response.streaming:
                transaction.set_rollback(True)  # not done: nothing kept, the key may be sent again
                return response
            body = response.content
            request_answer_keep(
                row,
                status=response.status_code,
                content_type=response.get("Content-Type", ""),
                location=response.get("Location", ""),
                body=body if len(body) <= settings.IDEMPOTENCY_MAX_ANSWER_BYTES else b"",
            )
        return response

    def _made_before(self, maker, key: str, request):
        """The first answer to a write its maker's key recorded already (None: it was not)."""
        if maker is None or maker.scope is None or not key:
            return None
        row = request_answer_find(scope=maker.scope, key=key)
        if row is None or row.status == 0 or row.fingerprint != _fingerprint(request):
            return None
        return _answer(row)

    def _replay(self, request, row, fingerprint: str):
        """The first answer again, once the sender is checked as for a new write: the request goes through
        the site's checks (CSRF, sign-in, role) in a transaction rolled back, and a sender who may no longer
        write there gets that refusal instead of the answer."""
        if row.fingerprint != fingerprint:
            return _refusal(409, "idempotency_key_reused", _("this idempotency key was sent before with another write"))
        with transaction.atomic():
            fresh = self.get_response(request)
            transaction.set_rollback(True)
        if fresh.status_code in REFUSED_ACCESS:
            return fresh
        return _answer(row)


def _answer(row) -> HttpResponse:
    response = HttpResponse(bytes(row.body), status=row.status, content_type=row.content_type or None)
    if row.location:
        response["Location"] = row.location
    response["Idempotent-Replayed"] = "true"
    return response


def _maker_refusal(exc: TaikaiError) -> JsonResponse:
    """A queued write refused for who made it, in the outbox's and the API's shape."""
    return JsonResponse({"ok": False, "error": exc.as_dict()}, status=exc.status)


REFUSED_ACCESS = frozenset({401, 403, 404})
NOT_DONE = REFUSED_ACCESS | {405, 429}  # refused before the write was tried: no answer to keep


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _is_form(request) -> bool:
    """A console form (the API reads its own bodies: a form is left to it, to refuse)."""
    return request.path.startswith("/console/") and request.content_type in FORMS


def _form_key(request) -> str:
    return request.POST.get(KEY_FIELD, "") if _is_form(request) else ""


TOKEN_SCHEMES = ("bearer", "token")


def _sender(request) -> str | None:
    """Whom the key is kept for, once Taikai knows them; None for a stranger (nothing is kept)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    authorization = request.headers.get("Authorization", "")
    if authorization:
        return (
            "token:" + hashlib.sha256(authorization.encode()).hexdigest()[:32] if _valid_token(authorization) else None
        )
    session = getattr(request, "session", None)
    if session is not None and session.session_key and session.get(SESSION_SCOREKEEPER_KEYS):
        return "session:" + hashlib.sha256(session.session_key.encode()).hexdigest()[:32]
    return None


def _valid_token(authorization: str) -> bool:
    """The header presents an API token Taikai issued, not revoked nor expired (read only: the API's own
    authentication notes its use)."""
    parts = authorization.split()
    if len(parts) != 2 or parts[0].lower() not in TOKEN_SCHEMES:
        return False
    token = api_token_by_digest(api_token_digest(parts[1]))
    return (
        token is not None
        and token.revoked_at is None
        and (token.expires_at is None or timezone.now() < token.expires_at)
    )


def _fingerprint(request) -> str:
    digest = hashlib.sha256(f"{request.method} {request.get_full_path()}\n".encode())
    if _is_form(request):
        for name, values in sorted(request.POST.lists()):
            if name not in LEFT_OUT:
                digest.update(f"{name}={values}\n".encode())
        for name, upload in sorted(request.FILES.items()):
            digest.update(f"{name}:{upload.name}:{upload.size}\n".encode())
    else:
        digest.update(request.body)
    return digest.hexdigest()


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "field": "Idempotency-Key"}}, status=status)
