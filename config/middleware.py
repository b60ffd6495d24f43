"""A refusal that reaches a page unhandled (a ``TaikaiError`` from any layer) is answered with its own
status (400, 403, 409) and message, never a 500: JSON for the API, a short page otherwise."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError


def refusal(request, exc: TaikaiError):
    """A refusal as the caller reads it: the API's JSON error, or a short page."""
    if request.path.startswith(("/api/", "/scoring/api/")) or "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"error": exc.as_dict()}, status=exc.status)
    return render(request, "refused.html", {"error": exc}, status=exc.status)


class TaikaiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exc):
        if not isinstance(exc, TaikaiError):
            return None
        return refusal(request, exc)


NUL = "\x00"


def nul_refusal(request) -> TaikaiError | None:
    """A NUL character in the path or a query parameter: no text Taikai keeps may hold one (PostgreSQL
    refuses it), so it is refused before any view reads it, naming where it was."""
    if NUL in request.path:
        return TaikaiError("invalid_parameter", _("the address may not contain a NUL character"), field="path")
    for name, values in request.GET.lists():
        if NUL in name or any(NUL in value for value in values):
            return TaikaiError(
                "invalid_parameter",
                _("a parameter may not contain a NUL character"),
                field=name.replace(NUL, ""),
            )
    return None  # bodies are the forms' and serializers' to check: they name the field at fault


class NulCharacterMiddleware:
    """Refuses a request carrying a NUL character with a coded 400 (never a 500 from the database)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refused = nul_refusal(request)
        return refusal(request, refused) if refused else self.get_response(request)


API_PATHS = ("/api/", "/scoring/api/")


def body_too_large() -> TaikaiError:
    """A request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: bad input (400), as the API has always said."""
    return TaikaiError(
        "body_too_large",
        _("the request body is over %(limit)s bytes") % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
        field="body",
    )


# The REST API's paths; the calculator (``/scoring/api/``) answers an oversized body in its own shape
# (``{"id", "error"}``), when its reader meets the limit.
SIZE_CHECKED_PATHS = ("/api/",)


class ApiBodySizeMiddleware:
    """An API body longer than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (by its ``Content-Length``) is refused with
    the API's JSON error, 400 ``body_too_large``, before anything reads it (the idempotency key's
    fingerprint, a parser), in debug mode too. A body whose length is not announced is refused the same way
    by ``bad_request`` when Django stops reading it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and request.path.startswith(SIZE_CHECKED_PATHS):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return refusal(request, body_too_large())
        return self.get_response(request)


class ResetTimeZoneMiddleware:
    """Every request starts in the site's time zone; an event's pages switch to the event's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        return self.get_response(request)


def api_error_page(status: int, code: str, message: str):
    """``handler400`` / ``handler404`` of the site: the API's JSON error shape on API paths, Django's page
    elsewhere (an oversized body, an unknown API address)."""
    from django.views import defaults

    default = {400: defaults.bad_request, 404: defaults.page_not_found}[status]

    def handler(request, exception=None, **kwargs):
        if request.path.startswith(API_PATHS) and isinstance(exception, RequestDataTooBig):
            return refusal(request, body_too_large())
        if request.path.startswith(API_PATHS):
            return JsonResponse({"error": {"code": code, "message": message, "field": None}}, status=status)
        return default(request, exception, **kwargs)

    return handler


bad_request = api_error_page(400, "bad_request", "the request could not be read (a body over the size limit?)")
page_not_found = api_error_page(404, "not_found", "no such API address")
