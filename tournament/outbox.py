"""The console's answers to a device's queue (the outbox of ``tournament/static/tournament/js/outbox.js``).

A referee's device keeps the writes it could not send (the hall's network dropped) and sends them, in
order, when the network is back: each one as the form it was, with ``Accept: application/json`` and its
key (``idempotency/``). The console answers such a sending with JSON instead of a page: ``{"ok": true,
"message"}`` when it is recorded; ``{"ok": false, "error": {"code", "message", "field"}}`` with 400 (or 409
when the record moved on meanwhile, with ``theirs``: the server's version, for the device to show beside
its own) when it is refused. Nothing else changes: the same views, role checks and services decide.

A queued write carries who made it: every console page is drawn with the signed name of the person it is
drawn for (``author_token``: the account and its password's session hash, or the table cards a
scorekeeper's session opened), the device keeps it with each write (the form's ``outbox_author``, or the
``X-Taikai-Author`` header of a JSON write) and the server checks it on arrival (``write_maker``,
``maker_signed_in``): a write is recorded only under the one who made it. When another person is signed in
on the device, or nobody, it is refused with 409 ``author_not_signed_in`` (and the device keeps it for its
maker), unless its maker's key was recorded already: then the first answer is given back
(``idempotency.middleware``). A name the server did not sign is refused (400 ``author_invalid``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.http import JsonResponse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from taikai.errors import Conflict, TaikaiError
from tournament import access

AUTHOR_FIELD = "outbox_author"
AUTHOR_HEADER = "X-Taikai-Author"
AUTHOR_SALT = "taikai.outbox.author"
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def wants_json(request) -> bool:
    """A device's queue sending a write (it asks for JSON); a person's form asks for a page."""
    return "application/json" in request.headers.get("Accept", "")


def outbox_refusal(exc: TaikaiError, *, theirs: dict | None = None, mine: dict | None = None) -> JsonResponse:
    """A refused write; a hand another device recorded first comes with ``theirs`` (as recorded) and ``mine``
    (as the device sent it), each in full, for the device to show side by side."""
    body = {"ok": False, "error": {"code": exc.code, "message": exc.message, "field": exc.field}}
    if theirs is not None:
        body["theirs"] = theirs
    if mine is not None:
        body["mine"] = mine
    return JsonResponse(body, status=exc.status)


def outbox_form_refusal(form) -> JsonResponse:
    """A form the server refused: its first problem, with the field it is about (None: the whole form)."""
    for field, problems in form.errors.items():
        name = None if field == "__all__" else field
        code = "repeats_previous" if getattr(form, "repeats_previous", False) and name is None else "invalid_input"
        return JsonResponse(
            {"ok": False, "error": {"code": code, "message": str(problems[0]), "field": name}}, status=400
        )
    return JsonResponse(
        {
            "ok": False,
            "error": {"code": "invalid_input", "message": _("the form was refused"), "field": None},
        },
        status=400,
    )


@dataclass(frozen=True)
class Maker:
    """Who made a queued write, as the server signed it when it drew the page: an account (its id, name
    and the digest of its session hash then), or the table cards a scorekeeper's session had opened."""

    user_id: int | None = None
    name: str = ""
    auth: str = ""
    cards: frozenset[int] = frozenset()

    @property
    def scope(self) -> str | None:
        """The sender ``idempotency.middleware`` keeps this maker's keys under (accounts only)."""
        return f"user:{self.user_id}" if self.user_id is not None else None


def _auth_digest(user) -> str:
    return salted_hmac(AUTHOR_SALT, user.get_session_auth_hash()).hexdigest()[:20]


def author_token(request) -> str:
    """The signed name of whoever this page is drawn for ("": nobody a write could be recorded for)."""
    actor = access.actor_for(request)
    if actor.token is not None:
        return ""
    if actor.signed_in:
        user = actor.user
        payload = {"u": user.pk, "n": user.get_username(), "h": _auth_digest(user)}
    elif actor.cards:
        payload = {"k": sorted(actor.cards.values())}
    else:
        return ""
    return signing.dumps(payload, salt=AUTHOR_SALT)


def _claimed(request) -> str:
    """The author a write names. A form is read on the console's paths only: the API parses its own bodies
    (and refuses a form with 415), which a form read here first would change."""
    header = request.headers.get(AUTHOR_HEADER, "")
    if header or request.content_type not in FORMS or not request.path.startswith("/console/"):
        return header
    return request.POST.get(AUTHOR_FIELD, "")


def write_maker(request) -> Maker | None:
    """The maker a write says it has, checked against the server's signature; None when it says nothing
    (a person's form: the write is the signed-in person's, as always)."""
    claimed = _claimed(request)
    if not claimed:
        return None
    invalid = TaikaiError(
        "author_invalid", _("this write names an author this server did not sign"), field=AUTHOR_FIELD
    )
    try:
        payload = signing.loads(claimed, salt=AUTHOR_SALT)
    except signing.BadSignature:
        raise invalid from None
    if not isinstance(payload, dict):
        raise invalid
    user_id, name, auth, cards = (
        payload.get("u"),
        payload.get("n", ""),
        payload.get("h", ""),
        payload.get("k"),
    )
    if isinstance(user_id, int) and isinstance(name, str) and isinstance(auth, str):
        return Maker(user_id=user_id, name=name, auth=auth)
    if isinstance(cards, list) and cards and all(isinstance(k, int) for k in cards):
        return Maker(cards=frozenset(cards))
    raise invalid


def maker_signed_in(maker: Maker, request) -> bool:
    """Whether the request is sent under its maker's session: the same account (with the same password:
    a write made before it changed is refused, see ``maker_refusal``), or a session holding its table card."""
    actor = access.actor_for(request)
    if actor.token is not None:
        return False
    if maker.user_id is not None:
        return actor.signed_in and actor.user.pk == maker.user_id
    return not actor.signed_in and bool(maker.cards & set(actor.cards.values()))


def maker_refusal(maker: Maker, request) -> TaikaiError | None:
    """Why a write may not be recorded under this request's session (None: it may)."""
    if maker_signed_in(maker, request):
        if maker.user_id is None or constant_time_compare(maker.auth, _auth_digest(access.actor_for(request).user)):
            return None
        return TaikaiError(
            "author_stale",
            _("this write was made before the password of %(author)s changed: check it and record it again")
            % {"author": maker.name},
            field=AUTHOR_FIELD,
        )
    who = maker.name or _("the scorekeeper of this table")
    return Conflict(
        "author_not_signed_in",
        _("it waits for %(author)s, who made it, to sign in again on this device") % {"author": who},
        field=AUTHOR_FIELD,
    )
