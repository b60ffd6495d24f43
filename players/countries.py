"""A country as people write it in a players file: ISO 3166 alpha-2 (``JP``), alpha-3 (``JPN``, as the EMA
and most federations write it), the numeric code, or a name in English or Japanese (``Japan``, ``日本``).
Stored as alpha-2. The names come from pycountry (ISO 3166-1 and its translations)."""

from __future__ import annotations

import functools
import gettext

import pycountry

# Names in common use that ISO 3166 does not list as a name of the country.
COMMON_NAMES = {
    "uk": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "usa": "US",
    "america": "US",
    "korea": "KR",
    "south korea": "KR",
    "russia": "RU",
    "holland": "NL",
    "taiwan": "TW",
    "czech republic": "CZ",
    "vietnam": "VN",
    "iran": "IR",
    "turkey": "TR",
}


@functools.cache
def _names() -> dict[str, str]:
    """Every name and code of every country, case-folded, → its alpha-2 code."""
    japanese = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["ja"], fallback=True)
    names: dict[str, str] = {}
    for country in pycountry.countries:
        for text in (
            country.alpha_2,
            country.alpha_3,
            country.numeric,
            country.name,
            getattr(country, "common_name", None),
            getattr(country, "official_name", None),
        ):
            if text:
                names[text.casefold()] = country.alpha_2
                names[japanese.gettext(text).casefold()] = country.alpha_2
    return names | COMMON_NAMES


def country_code(text: str) -> str | None:
    """The alpha-2 code of the country ``text`` names, or None if it names none ("" is no country: "")."""
    text = " ".join(text.split())
    if not text:
        return ""
    return _names().get(text.casefold())
