"""The yaku of a recorded win, named as the reader chose (``scoring.yaku_names``)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def yaku_text(yaku, names: dict) -> str:
    """``[["riichi", 1], ["pinfu", 1]]`` → "Riichi · Pinfu" under the reader's naming (a key not known is
    shown as it came, an imported game's own name for instance)."""
    return " · ".join(names.get(str(pair[0]), str(pair[0])) for pair in yaku or () if pair)
