"""The one exception handler of the JSON API: a ``TaikaiError`` from any layer becomes its status (400,
403 when the caller's role does not allow it, 409 for a conflict) with ``{"error": {"code", "message", "field"}}``; anything else is DRF's."""

from __future__ import annotations

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from taikai.errors import TaikaiError


def exception_handler(exc, context):
    if isinstance(exc, TaikaiError):
        return Response({"error": exc.as_dict()}, status=exc.status)
    return drf_exception_handler(exc, context)
