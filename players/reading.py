"""Finding a player by what people type: the name, its kana reading 読み, or the reading in romaji.

Pure Python. ``search_keys`` gives the strings a player is found by; ``search_needle`` turns what was
typed into the form they are compared in (case folded, katakana as hiragana, no spaces), so that
「やまだ」, 「ヤマダ」, "yamada" and "Yamada Tarou" all find 山田 太郎 read やまだ たろう.
"""

from __future__ import annotations

import unicodedata

_DIGRAPHS = {
    "きゃ": "kya",
    "きゅ": "kyu",
    "きょ": "kyo",
    "しゃ": "sha",
    "しゅ": "shu",
    "しょ": "sho",
    "ちゃ": "cha",
    "ちゅ": "chu",
    "ちょ": "cho",
    "にゃ": "nya",
    "にゅ": "nyu",
    "にょ": "nyo",
    "ひゃ": "hya",
    "ひゅ": "hyu",
    "ひょ": "hyo",
    "みゃ": "mya",
    "みゅ": "myu",
    "みょ": "myo",
    "りゃ": "rya",
    "りゅ": "ryu",
    "りょ": "ryo",
    "ぎゃ": "gya",
    "ぎゅ": "gyu",
    "ぎょ": "gyo",
    "じゃ": "ja",
    "じゅ": "ju",
    "じょ": "jo",
    "びゃ": "bya",
    "びゅ": "byu",
    "びょ": "byo",
    "ぴゃ": "pya",
    "ぴゅ": "pyu",
    "ぴょ": "pyo",
    "ぢゃ": "ja",
    "ぢゅ": "ju",
    "ぢょ": "jo",
}
_MONOGRAPHS = dict(
    zip(
        "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわゐゑをん"
        "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉゔ",
        [
            "a",
            "i",
            "u",
            "e",
            "o",
            "ka",
            "ki",
            "ku",
            "ke",
            "ko",
            "sa",
            "shi",
            "su",
            "se",
            "so",
            "ta",
            "chi",
            "tsu",
            "te",
            "to",
            "na",
            "ni",
            "nu",
            "ne",
            "no",
            "ha",
            "hi",
            "fu",
            "he",
            "ho",
            "ma",
            "mi",
            "mu",
            "me",
            "mo",
            "ya",
            "yu",
            "yo",
            "ra",
            "ri",
            "ru",
            "re",
            "ro",
            "wa",
            "i",
            "e",
            "o",
            "n",
            "ga",
            "gi",
            "gu",
            "ge",
            "go",
            "za",
            "ji",
            "zu",
            "ze",
            "zo",
            "da",
            "ji",
            "zu",
            "de",
            "do",
            "ba",
            "bi",
            "bu",
            "be",
            "bo",
            "pa",
            "pi",
            "pu",
            "pe",
            "po",
            "a",
            "i",
            "u",
            "e",
            "o",
            "vu",
        ],
        strict=True,
    )
)
_KATAKANA_START, _KATAKANA_END, _KANA_SHIFT = 0x30A1, 0x30F6, 0x60


def hiragana(text: str) -> str:
    """Katakana as hiragana (ヤマダ → やまだ); everything else as it is."""
    return "".join(chr(ord(c) - _KANA_SHIFT) if _KATAKANA_START <= ord(c) <= _KATAKANA_END else c for c in text)


def romaji(reading: str) -> str:
    """A kana reading in Hepburn romaji, long vowels written out (たろう → tarou, ちゅう → chuu); other
    characters kept. Small っ doubles the next consonant; ー repeats the vowel before it."""
    text, out, i = hiragana(reading), [], 0
    while i < len(text):
        pair, char = text[i : i + 2], text[i]
        if pair in _DIGRAPHS:
            out.append(_DIGRAPHS[pair])
            i += 2
            continue
        if char == "っ" and i + 1 < len(text):
            following = _DIGRAPHS.get(text[i + 1 : i + 3]) or _MONOGRAPHS.get(text[i + 1], "")
            out.append("t" if following.startswith("ch") else following[:1])
        elif char == "ー" and out:
            out.append(out[-1][-1])
        else:
            out.append(_MONOGRAPHS.get(char, char))
        i += 1
    return "".join(out)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in hiragana(text) if not c.isspace() and c not in "・,.-'’")


def _short_vowels(spelled: str) -> str:
    """Romaji as often written without long vowels: chuujou → chujo, satou → sato, oono → ono."""
    return spelled.replace("ou", "o").replace("uu", "u").replace("oo", "o")


def search_needle(typed: str) -> str:
    return _fold(typed)


def search_keys(name: str, reading: str = "") -> tuple[str, ...]:
    """The forms a player is found by: name, reading in hiragana, reading in romaji (each folded)."""
    keys = [_fold(name)]
    if reading:
        spelled = _fold(romaji(reading))
        keys += [_fold(reading), spelled, _short_vowels(spelled)]
    return tuple(dict.fromkeys(k for k in keys if k))


def search_text(name: str, reading: str = "", *more: str) -> str:
    """The keys of ``search_keys`` (and of any ``more`` text, folded) in one string, space-separated: a needle
    has no space, so it is in this text exactly when it is in one of the keys (a database ``LIKE`` finds it)."""
    return " ".join((*search_keys(name, reading), *(k for k in map(_fold, more) if k)))


def matches(needle: str, keys: tuple[str, ...]) -> bool:
    return bool(needle) and any(needle in key for key in keys)


# The scripts a name can be told apart by: kana and kanji (Japanese: the product's languages are Japanese and
# English, so a name in kanji is read as Japanese), hangul (Korean).
_SCRIPT_LANGUAGES = (
    (
        "ja",
        (
            (0x3040, 0x30FF),
            (0x31F0, 0x31FF),
            (0xFF66, 0xFF9F),
            (0x3400, 0x4DBF),
            (0x4E00, 0x9FFF),
            (0xF900, 0xFAFF),
            (0x3005, 0x3007),
        ),
    ),
    ("ko", ((0xAC00, 0xD7AF), (0x1100, 0x11FF), (0x3130, 0x318F))),
)


def name_language(name: str) -> str | None:
    """The language a name is written in, told by its script: ``"ja"`` for kana or kanji (山田 太郎, やまだ),
    ``"ko"`` for hangul, else None (a name in Latin letters says nothing of how it is read)."""
    for character in name:
        point = ord(character)
        for language, ranges in _SCRIPT_LANGUAGES:
            if any(low <= point <= high for low, high in ranges):
                return language
    return None
