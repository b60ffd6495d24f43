"""What the public pages and the console share: parts of a page kept in the cache for the version of what
they show, and ETags (the page number asked for is ``core.pages``').

A part is rendered once per version and kept in the cache (local memory, or Redis with ``CACHE_URL``: then
shared by every process); the version is read first by one small query (the standings' time, a sum over
the tables listed), so a request that finds its part in the cache makes a few queries and renders only
the page around it.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import Http404
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournament import selectors
from tournament.localtime import event_time_zone_activate

FRAGMENT_SECONDS = 300  # a cached part is dropped after this even if unchanged (a player renamed)


def fragment(version: tuple, template: str, context) -> str:
    """The part of a page rendered from ``template`` with ``context()`` (called only when the cache does
    not hold it), for the version of what it shows named by ``version``. Parts hold nothing of the person
    asking."""
    key = f"fragment:{template}:{digest(get_language(), *version)}"
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, context())
        cache.set(key, html, FRAGMENT_SECONDS)
    return mark_safe(html)  # the template escaped what it shows


def cached_value(version: tuple, name: str, compute):
    """What ``compute()`` returns (a small list or value), kept for the version of what it reads; in the
    language of the request, as parts are."""
    key = f"value:{name}:{digest(get_language(), *version)}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, FRAGMENT_SECONDS)
    return value


def digest(*parts) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:32]


def etag_of(*parts) -> str:
    """An ETag for what ``parts`` name, in the language of the page (a switch of language is a change)."""
    return f'"{digest(get_language(), *parts)}"'


def public_event_or_404(slug: str):
    """The public event, its time zone active for the rest of the request (times on its pages)."""
    event = selectors.event_get_public(slug)
    if event is None:
        raise Http404("no such public event")
    event_time_zone_activate(event)
    return event
