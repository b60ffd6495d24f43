"""What the pages of every app share: the page number asked for."""

from __future__ import annotations


def page_number(request, pages: int | None = None) -> int:
    """The page asked for, as ``Paginator.get_page`` reads it (a wrong one is the first or the last)."""
    raw = request.GET.get("page") or "1"
    number = int(raw) if raw.isdigit() and int(raw) > 0 else 1
    return min(number, pages) if pages else number
