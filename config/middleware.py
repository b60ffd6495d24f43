"""A refusal that reaches a page unhandled (a ``TaikaiError`` from any layer) is answered with its own
status (400, 403, 409) and message, never a 500: JSON for the API, a short page otherwise."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone

from taikai.errors import TaikaiError


class TaikaiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exc):
        if not isinstance(exc, TaikaiError):
            return None
        if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
            return JsonResponse({"error": exc.as_dict()}, status=exc.status)
        return render(request, "refused.html", {"error": exc}, status=exc.status)


class ResetTimeZoneMiddleware:
    """Every request starts in the site's time zone; an event's pages switch to the event's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        return self.get_response(request)
