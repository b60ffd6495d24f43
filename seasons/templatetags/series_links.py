"""Links to the public series from pages of the tournament app, which never imports this app: its templates
load these tags (``{% load series_links %}``)."""

from __future__ import annotations

from django import template
from django.core.cache import cache

from seasons import selectors

register = template.Library()


@register.inclusion_tag("seasons/_links.html")
def series_links_all():
    """Every public series (the home page)."""
    return {"series_list": selectors.series_public_list(), "all": True}


LINKS_SECONDS = 60  # a series added to an event shows on its page within a minute


@register.inclusion_tag("seasons/_links.html")
def series_links_of(event):
    """The public series ``event`` counts in (its page): one query, kept a minute, so that the event's page
    (read by every player between rounds) does not ask for them each time."""
    key = f"series-links:{event.pk}"
    found = cache.get(key)
    if found is None:
        found = [(series.slug, series.name) for series in selectors.series_public_of_event(event.pk)]
        cache.set(key, found, LINKS_SECONDS)
    return {"series_list": [{"slug": slug, "name": name} for slug, name in found], "all": False}
