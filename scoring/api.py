"""JSON API of the hand calculator: evaluate a hand-format.md request, or report a hand's shape.

Thin: :mod:`scoring.calculator` reads the body and scores it. Anyone may use the calculator; there is
no session authentication, so the calculator page's ``fetch`` needs no CSRF token.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from django.utils.translation import gettext as _
from rest_framework import permissions
from rest_framework.views import APIView

from scoring.calculator import DEFAULT_RULESET, Outcome, error_body, evaluate_body, outcome_json, shape_body


def json_response(outcome: Outcome) -> HttpResponse:
    """The outcome as written by :func:`outcome_json` (exact amounts, ``"n/d"`` fractions): 400 for
    an error object, 200 otherwise."""
    text, is_error = outcome_json(outcome)
    return HttpResponse(text, status=400 if is_error else 200, content_type="application/json")


def request_body(request) -> bytes | None:
    try:
        return request.body
    except RequestDataTooBig:
        return None


def too_big() -> Outcome:
    """The refusal of a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, in the reader's language."""
    return Outcome(error_body(None, "invalid_json", _("the body is too large")), is_error=True)


class CalculatorView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]


class EvaluateView(CalculatorView):
    """``POST /scoring/api/evaluate[?ruleset=SLUG][&players=M][&shape=1]``: one request object → its
    result (``players``: a table shorter than the ruleset's ``s``, paid by its reference scheme)."""

    def post(self, request):
        body = request_body(request)
        if body is None:
            return json_response(too_big())
        ruleset = request.query_params.get("ruleset") or DEFAULT_RULESET
        with_shape = request.query_params.get("shape") in ("1", "true")
        players = request.query_params.get("players")
        return json_response(evaluate_body(body, ruleset=ruleset, players=players, with_shape=with_shape))


class ShapeView(CalculatorView):
    """``POST /scoring/api/shape`` with ``{"tiles": "..."}``: models, shanten, waits or decompositions."""

    def post(self, request):
        body = request_body(request)
        if body is None:
            return json_response(too_big())
        return json_response(shape_body(body))
