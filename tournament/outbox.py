"""The console's answers to a device's queue (the outbox of ``tournament/static/tournament/js/outbox.js``).

A referee's device keeps the writes it could not send (the hall's network dropped) and sends them, in
order, when the network is back: each one as the form it was, with ``Accept: application/json`` and its
key (``idempotency/``). The console answers such a sending with JSON instead of a page: ``{"ok": true,
"message"}`` when it is recorded; ``{"ok": false, "error": {"code", "message", "field"}}`` with 400 (or 409
when the record moved on meanwhile, with ``theirs``: the server's version, for the device to show beside
its own) when it is refused. Nothing else changes: the same views, role checks and services decide.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError


def wants_json(request) -> bool:
    """A device's queue sending a write (it asks for JSON); a person's form asks for a page."""
    return "application/json" in request.headers.get("Accept", "")


def outbox_refusal(exc: TaikaiError, *, theirs: dict | None = None) -> JsonResponse:
    body = {"ok": False, "error": {"code": exc.code, "message": exc.message, "field": exc.field}}
    if theirs is not None:
        body["theirs"] = theirs
    return JsonResponse(body, status=exc.status)


def outbox_form_refusal(form) -> JsonResponse:
    """A form the server refused: its first problem, with the field it is about (None: the whole form)."""
    for field, problems in form.errors.items():
        name = None if field == "__all__" else field
        code = (
            "repeats_previous"
            if getattr(form, "repeats_previous", False) and name is None
            else "invalid_input"
        )
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
