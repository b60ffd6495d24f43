"""The console's banner (``templates/tournament/console/_outbox.html``): who a write made on this page is by."""

from __future__ import annotations

from django import template

from tournament.outbox import author_token

register = template.Library()


@register.simple_tag(takes_context=True)
def outbox_author(context) -> str:
    """The signed name of the person this page is drawn for, kept by the device with each write it queues."""
    request = context.get("request")
    return author_token(request) if request is not None else ""
