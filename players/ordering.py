"""Lists of players in the reader's order: in Japanese by reading (読み), in English by name.

A name in kanji says nothing of where it sorts (山田 comes before 佐藤 by code point, after it in
gojūon order), so in Japanese the list follows the reading, and the name where there is none.
"""

from __future__ import annotations

from django.db.models import F, Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.utils.translation import get_language


def player_name_order(prefix: str = "") -> list:
    """``order_by`` terms for players (``prefix`` reaches them from another model: ``"player__"``)."""
    name = F(f"{prefix}display_name")
    if (get_language() or "").startswith("ja"):
        by_reading = Lower(Coalesce(NullIf(F(f"{prefix}reading"), Value("")), name))
        return [by_reading.asc(), name.asc(), F(f"{prefix}id").asc()]
    return [name.asc(), F(f"{prefix}id").asc()]
