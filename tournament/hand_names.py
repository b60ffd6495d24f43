"""Hands' names in the reader's language: a regular hand (``East 1, 2 honba`` reads ``東1局 2本場``,
``东1局 2本场``) and an overtime hand (art. 39, ``1年春``), as the catalog of each language writes them.

Kept beside the selectors so that services and selectors name hands for people the same way as the pages."""

from __future__ import annotations

import re

from django.utils.translation import get_language, pgettext, pgettext_lazy

_STORED_REGULAR_LABEL = re.compile(r"^(East|South|West|North) ([1-4])(?:, (\d+) honba)?$")
_STORED_OVERTIME_LABEL = re.compile(r"^(\S+) \((.+)\)$")
_WINDS = ("East", "South", "West", "North")
_WIND_NAMES = (  # 場風: the prevailing wind in a hand's name
    pgettext_lazy("prevailing wind", "East"),
    pgettext_lazy("prevailing wind", "South"),
    pgettext_lazy("prevailing wind", "West"),
    pgettext_lazy("prevailing wind", "North"),
)
_SEASON_NAMES = {  # 春夏秋冬: the seasons of overtime's years (art. 39)
    "Spring": pgettext_lazy("overtime season", "Spring"),
    "Summer": pgettext_lazy("overtime season", "Summer"),
    "Autumn": pgettext_lazy("overtime season", "Autumn"),
    "Winter": pgettext_lazy("overtime season", "Winter"),
}


def hand_label_read(stored: str) -> str:
    """A hand's recorded name in the reader's language: ``East 1, 2 honba`` reads ``東1局 2本場`` in
    Japanese, ``东1局 2本场`` in Chinese; an overtime hand, kept as ``1年春 (Y1 Spring)``, reads ``1年春`` in
    Japanese and Chinese and ``1年春 (`` its season in the reader's words ``)`` in the other languages."""
    language = get_language() or "en"
    if language == "en" or language.startswith("en-"):
        return stored
    regular = _STORED_REGULAR_LABEL.match(stored or "")
    if regular:
        wind, number, honba = regular.groups()
        return regular_hand_label_read(_WINDS.index(wind), int(number), int(honba or 0))
    overtime = _STORED_OVERTIME_LABEL.match(stored or "")
    return overtime_hand_label_read(overtime.group(1), overtime.group(2)) if overtime else stored


def regular_hand_label_read(round_wind: int, number: int, honba: int = 0) -> str:
    """A regular hand's name as the catalog of the reader's language writes it (東1局 2本場, East 1, 2 honba)."""
    # Translators: a regular hand's name (東1局): wind is the prevailing wind (場風), number the hand within it.
    base = pgettext("hand name", "%(wind)s %(number)s") % {"wind": _WIND_NAMES[round_wind], "number": number}
    if not honba:
        return base
    # Translators: a hand's name with its repeat counter (本場): "East 1, 2 honba" (東1局 2本場).
    return pgettext("hand name", "%(hand)s, %(honba)s honba") % {"hand": base, "honba": honba}


_STORED_OVERTIME_EN = re.compile(r"^Y(\d+) (Spring|Summer|Autumn|Winter)$")


def overtime_hand_label_read(label_ja: str, label_en: str) -> str:
    """An overtime hand (art. 39), named by its Japanese name (1年春) with the year and season in the reader's
    words after it where the reader does not read kanji."""
    language = get_language() or ""
    if language.startswith(("ja", "zh")):
        return label_ja
    season = _STORED_OVERTIME_EN.match(label_en)
    if not season:
        return f"{label_ja} ({label_en})"
    year, name = season.groups()
    # Translators: an overtime hand's year and season (1年春): "Y1 Spring".
    words = pgettext("overtime hand", "Y%(year)s %(season)s") % {"year": year, "season": _SEASON_NAMES[name]}
    return f"{label_ja} ({words})"
