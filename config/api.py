"""The one exception handler of the JSON API, and the OpenAPI schema's scope.

Every refusal answers ``{"error": {"code", "message", "field"}}`` with its status: a ``TaikaiError`` from
any layer its own (400 bad input, 403 when the caller's role does not allow it, 409 for a conflict), and
DRF's and Django's refusals alike: 400 ``invalid_input`` (the first field at fault) or ``invalid_json``,
401 ``not_authenticated`` or the token's refusal (``token_invalid``, ``token_revoked``,
``token_expired``), 403 ``forbidden``, 404 ``not_found``, 405 ``method_not_allowed``, 406, 415 and 429
``throttled``."""

from __future__ import annotations

from rest_framework import exceptions, parsers
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from taikai.errors import TaikaiError
from taikai.text import MAX_LIST_ITEMS, lone_surrogate_message, lone_surrogate_path, longest_list_path


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
        where = longest_list_path(data, MAX_LIST_ITEMS)
        if where is not None:
            raise TaikaiError("invalid_json", f"JSON parse error - {where} holds more than {MAX_LIST_ITEMS} items")
        return data


STATUS_CODES = {
    400: "invalid_input",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    415: "unsupported_media_type",
    429: "throttled",
}


def exception_handler(exc, context):
    if isinstance(exc, TaikaiError):  # every error object names its field here (a scoring error's too)
        return Response({"error": {"code": exc.code, "message": exc.message, "field": exc.field}}, status=exc.status)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code, message, field = _described(exc, response.status_code)
    response.data = {"error": {"code": code, "message": message, "field": field}}
    return response


def _described(exc, status: int) -> tuple[str, str, str | None]:
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_problem(exc.detail)
        return "invalid_input", f"{field}: {message}" if field else message, field
    if isinstance(exc, exceptions.ParseError):
        return "invalid_json", str(exc.detail), None
    code = STATUS_CODES.get(status, "error")
    if isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else code
        code = code if code not in ("authentication_failed", "not_authenticated") else STATUS_CODES[401]
    if isinstance(exc, exceptions.APIException):
        return code, str(exc.detail), None
    return code, str(exc) or code.replace("_", " "), None


def _first_problem(detail, path: str = "") -> tuple[str | None, str]:
    """The first field at fault in a DRF error detail, as ``wins[0].winner``, and its message."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == "non_field_errors":
                return _first_problem(value, path)
            if isinstance(key, int) or str(key).isdigit():  # an item of a list
                return _first_problem(value, f"{path}[{key}]")
            return _first_problem(value, f"{path}.{key}" if path else str(key))
    if isinstance(detail, list):
        for i, value in enumerate(detail):
            if isinstance(value, dict | list) and value:
                return _first_problem(value, f"{path}[{i}]")
            if value:
                return path or None, str(value)
    return path or None, str(detail)


def only_api_v1(endpoints, **kwargs):
    """The schema describes /api/v1/ (the older clock and calculator endpoints have their own pages)."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/api/v1/")]
