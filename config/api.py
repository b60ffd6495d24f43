"""The one exception handler of the JSON API: a ``TaikaiError`` from any layer becomes its status (400,
403 when the caller's role does not allow it, 409 for a conflict) with ``{"error": {"code", "message", "field"}}``; anything else is DRF's."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from taikai.errors import TaikaiError
from taikai.text import lone_surrogate_message, lone_surrogate_path


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, every refusal a ``TaikaiError`` ``invalid_json`` (400 with its code): JSON that is
    not JSON, nested deeper than the parser goes, or holding a lone surrogate."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except ParseError as exc:
            raise TaikaiError("invalid_json", str(exc.detail)) from exc
        except RecursionError as exc:  # [[[[…]]]] 100,000 deep
            raise TaikaiError("invalid_json", "JSON parse error - nested too deeply") from exc
        where = lone_surrogate_path(data)
        if where is not None:
            raise TaikaiError("invalid_json", f"JSON parse error - {lone_surrogate_message(where)}")
        return data


def exception_handler(exc, context):
    if isinstance(exc, TaikaiError):
        return Response({"error": exc.as_dict()}, status=exc.status)
    return drf_exception_handler(exc, context)
