"""How yaku (役) and dora are named to a reader, whatever the page's language.

Scenes name yaku differently: Japanese players write 立直, most clubs outside Japan say the romaji
(Riichi), European referees use the EMA's English ("Robbing a Kong" for 槍槓 chankan, "Outside Hand" for
全帯么 chanta), and the World Riichi Championship's rules say "sequence", "triplet" and "quad" where the EMA
says "chow", "pung" and "kong". An event picks the naming its referees use (``Event.yaku_names``); a person
may pick their own (the ``yaku_names`` cookie), which wins over the event's.

``bilingual`` (the default) is the page's own wording: the Japanese name beside the reader's language
(``scoring.calculator.YAKU_LABELS``). The other namings are names, not translations: they read the same on
a Japanese and an English page.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy

from scoring.calculator import YAKU_LABELS
from scoring.engine.yaku import YAKU_TABLE

BILINGUAL, JAPANESE, ROMAJI, EMA, WRC = "bilingual", "japanese", "romaji", "ema", "wrc"
COOKIE = "yaku_names"
STYLE_CHOICES = (
    (BILINGUAL, gettext_lazy("Japanese with the page's language (立直 Riichi)")),
    (JAPANESE, gettext_lazy("Japanese (立直)")),
    (ROMAJI, gettext_lazy("Romaji (Riichi)")),
    (EMA, gettext_lazy("EMA English (Robbing a Kong)")),
    (WRC, gettext_lazy("WRC English (Robbing a Quad)")),
)
STYLES = frozenset(code for code, _label in STYLE_CHOICES)

# The dora kinds a result names beside its yaku (hand-format.md).
DORA_JAPANESE = {"dora": "ドラ", "aka_dora": "赤ドラ", "ura_dora": "裏ドラ"}

ROMAJI_NAMES: Mapping[str, str] = {
    "riichi": "Riichi",
    "menzen_tsumo": "Menzen Tsumo",
    "ippatsu": "Ippatsu",
    "haitei": "Haitei Raoyue",
    "houtei": "Houtei Raoyui",
    "rinshan": "Rinshan Kaihou",
    "chankan": "Chankan",
    "yakuhai_haku": "Yakuhai Haku",
    "yakuhai_hatsu": "Yakuhai Hatsu",
    "yakuhai_chun": "Yakuhai Chun",
    "seat_wind": "Jikaze",
    "round_wind": "Bakaze",
    "tanyao": "Tanyao",
    "pinfu": "Pinfu",
    "iipeikou": "Iipeikou",
    "double_riichi": "Double Riichi",
    "sanshoku": "Sanshoku Doujun",
    "ittsu": "Ittsu",
    "chanta": "Chanta",
    "chiitoitsu": "Chiitoitsu",
    "toitoi": "Toitoi",
    "sanankou": "Sanankou",
    "honroutou": "Honroutou",
    "sankantsu": "Sankantsu",
    "sanshoku_doukou": "Sanshoku Doukou",
    "honitsu": "Honitsu",
    "junchan": "Junchan",
    "ryanpeikou": "Ryanpeikou",
    "shousangen": "Shousangen",
    "chinitsu": "Chinitsu",
    "tenhou": "Tenhou",
    "chiihou": "Chiihou",
    "tsuuiisou": "Tsuuiisou",
    "suuankou": "Suuankou",
    "ryuuiisou": "Ryuuiisou",
    "shousuushii": "Shousuushii",
    "daisuushii": "Daisuushii",
    "daisangen": "Daisangen",
    "chuuren": "Chuuren Poutou",
    "chinroutou": "Chinroutou",
    "kokushi": "Kokushi Musou",
    "suukantsu": "Suukantsu",
    "dora": "Dora",
    "aka_dora": "Aka Dora",
    "ura_dora": "Ura Dora",
}

# The EMA Riichi Competition Rules' English names (Chinese-style words: chow, pung, kong).
EMA_NAMES: Mapping[str, str] = {
    "riichi": "Riichi",
    "menzen_tsumo": "Fully Concealed Hand",
    "ippatsu": "Ippatsu",
    "haitei": "Last Tile Draw",
    "houtei": "Last Tile Claim",
    "rinshan": "After a Kong",
    "chankan": "Robbing a Kong",
    "yakuhai_haku": "Dragon Pung (White)",
    "yakuhai_hatsu": "Dragon Pung (Green)",
    "yakuhai_chun": "Dragon Pung (Red)",
    "seat_wind": "Seat Wind",
    "round_wind": "Prevalent Wind",
    "tanyao": "All Simples",
    "pinfu": "Pinfu",
    "iipeikou": "Pure Double Chow",
    "double_riichi": "Double Riichi",
    "sanshoku": "Mixed Triple Chow",
    "ittsu": "Pure Straight",
    "chanta": "Outside Hand",
    "chiitoitsu": "Seven Pairs",
    "toitoi": "All Pungs",
    "sanankou": "Three Concealed Pungs",
    "honroutou": "All Terminals and Honours",
    "sankantsu": "Three Kongs",
    "sanshoku_doukou": "Triple Pung",
    "honitsu": "Half Flush",
    "junchan": "Terminals in All Sets",
    "ryanpeikou": "Twice Pure Double Chow",
    "shousangen": "Little Three Dragons",
    "chinitsu": "Full Flush",
    "tenhou": "Blessing of Heaven",
    "chiihou": "Blessing of Earth",
    "tsuuiisou": "All Honours",
    "suuankou": "Four Concealed Pungs",
    "ryuuiisou": "All Green",
    "shousuushii": "Little Four Winds",
    "daisuushii": "Big Four Winds",
    "daisangen": "Big Three Dragons",
    "chuuren": "Nine Gates",
    "chinroutou": "All Terminals",
    "kokushi": "Thirteen Orphans",
    "suukantsu": "Four Kongs",
    "dora": "Dora",
    "aka_dora": "Red Five",
    "ura_dora": "Ura Dora",
}

# The WRC's English where it differs from the EMA's (sequence, triplet and quad for chow, pung and kong).
WRC_NAMES: Mapping[str, str] = {
    **EMA_NAMES,
    "rinshan": "After a Quad",
    "chankan": "Robbing a Quad",
    "yakuhai_haku": "White Dragon Triplet",
    "yakuhai_hatsu": "Green Dragon Triplet",
    "yakuhai_chun": "Red Dragon Triplet",
    "seat_wind": "Seat Wind Triplet",
    "round_wind": "Round Wind Triplet",
    "iipeikou": "Pure Double Sequence",
    "sanshoku": "Mixed Triple Sequence",
    "chanta": "Half Outside Hand",
    "toitoi": "All Triplets",
    "sanankou": "Three Concealed Triplets",
    "sankantsu": "Three Quads",
    "sanshoku_doukou": "Triple Triplets",
    "junchan": "Fully Outside Hand",
    "ryanpeikou": "Twice Pure Double Sequence",
    "suuankou": "Four Concealed Triplets",
    "suukantsu": "Four Quads",
    "haitei": "Under the Sea",
    "houtei": "Under the River",
}

JAPANESE_NAMES: Mapping[str, str] = {
    **{definition.key: definition.japanese for definition in YAKU_TABLE},
    **DORA_JAPANESE,
}
NAMES_BY_STYLE: Mapping[str, Mapping[str, str]] = {
    JAPANESE: JAPANESE_NAMES,
    ROMAJI: ROMAJI_NAMES,
    EMA: EMA_NAMES,
    WRC: WRC_NAMES,
}


def style_or_default(style: str | None) -> str:
    """A known naming, or the page's own wording for anything else (an old cookie, a typing error)."""
    return style if style in STYLES else BILINGUAL


def yaku_labels(style: str | None) -> dict[str, str]:
    """Every yaku and dora key's name in ``style``, read now (the bilingual ones in the active language)."""
    style = style_or_default(style)
    if style == BILINGUAL:
        return {key: str(label) for key, label in YAKU_LABELS.items()}
    return dict(NAMES_BY_STYLE[style])


def yaku_name(key: str, style: str | None) -> str:
    """One key's name; an unknown key (a yaku named in an imported game) is shown as it came."""
    return yaku_labels(style).get(key, key)


def chosen_style(request, event=None) -> str:
    """The reader's own naming if they chose one, else the event's, else the page's wording."""
    mine = request.COOKIES.get(COOKIE) if request is not None else None
    if mine in STYLES:
        return mine
    return style_or_default(getattr(event, "yaku_names", None))


def naming_context(request, event=None) -> dict:
    """What a page that names yaku needs: the names in the reader's naming, and the choice of namings."""
    style = chosen_style(request, event)
    return {"yaku_style": style, "yaku_name_choices": STYLE_CHOICES, "yaku_names": yaku_labels(style)}
