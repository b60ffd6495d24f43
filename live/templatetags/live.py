"""``{% table_hall %}``: a table's calls to referees and its extra time, on the table's own sheet."""

from __future__ import annotations

from django import template

from live import selectors
from live.models import RefereeCall

register = template.Library()


@register.inclusion_tag("live/_table_hall.html", takes_context=True)
def table_hall(context, table, can_referee: bool = False) -> dict:
    calls = selectors.table_calls(table)
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "table": table,
        "can_referee": can_referee,
        "calls": calls,
        "open_call": next((c for c in calls if c.closed_at is None), None),
        "allowances": selectors.table_allowances(table),
        "reasons": RefereeCall.Reason.choices,
    }
