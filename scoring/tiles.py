"""The 37 riichi tiles drawn as small standalone SVG images, in MPSZ notation.

Every mark is a shape or a stroked path: no text and no fonts, since the Unicode mahjong tiles
(U+1F000…) and even the kanji show as empty boxes on many devices. Characters are drawn as strokes
in a 100 × 100 design box and placed on a 60 × 80 tile face.

Codes: ``1m``–``9m`` characters 萬子, ``1p``–``9p`` circles 筒子, ``1s``–``9s`` bamboo 索子, ``0m``
``0p`` ``0s`` the red fives 赤ドラ, ``1z``–``7z`` East 東, South 南, West 西, North 北, White 白,
Green 發, Red 中. Pure Python: the template tags and the ``draw_tiles`` command are its only users.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

SUITS = "mps"
TILE_CODES = tuple(
    [f"{rank}{suit}" for suit in SUITS for rank in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]
    + [f"{rank}z" for rank in range(1, 8)]
)  # display order: each suit with its red five after the five, then the honors 字牌
STATIC_DIRECTORY = "scoring/tiles"  # the files' place under the static root: scoring/tiles/5p.svg

WIDTH, HEIGHT = 60, 80  # the viewBox, portrait
FACE = "#fbf7ea"  # ivory
BORDER = "#7d7566"
INK = "#1c1c1c"
RED = "#c81f24"
GREEN = "#13804a"
BLUE = "#1f4ea3"

NUMERALS = "一二三四五六七八九"
SUIT_NAMES = {"m": ("man", "萬"), "p": ("pin", "筒"), "s": ("sou", "索")}
HONOR_NAMES = (
    ("East", "東"),
    ("South", "南"),
    ("West", "西"),
    ("North", "北"),
    ("White dragon", "白"),  # 白 haku
    ("Green dragon", "發"),  # 發 hatsu
    ("Red dragon", "中"),  # 中 chun
)


def tile_name(code: str) -> str:
    """English and Japanese name: ``"5p"`` → ``"5 pin 五筒"``, ``"0m"`` → ``"red 5 man 赤五萬"``."""
    rank, suit = _split(code)
    if suit == "z":
        english, kanji = HONOR_NAMES[rank - 1]
        return f"{english} {kanji}"
    english, kanji = SUIT_NAMES[suit]
    if rank == 0:
        return f"red 5 {english} 赤五{kanji}"
    return f"{rank} {english} {NUMERALS[rank - 1]}{kanji}"


def tile_names() -> dict[str, str]:
    """Every code, in display order, with its name."""
    return {code: tile_name(code) for code in TILE_CODES}


def static_path(code: str) -> str:
    """The tile's file under the static root, ``scoring/tiles/5p.svg``."""
    _split(code)
    return f"{STATIC_DIRECTORY}/{code}.svg"


_HAND = re.compile(r"(?:[0-9]+[mps]|[1-7]+z)*")
_RUN = re.compile(r"([0-9]+)([mpsz])")


def tile_files() -> dict[str, str]:
    """Every tile's file name and SVG text, as ``draw_tiles`` writes them under ``STATIC_DIRECTORY``."""
    return {f"{code}.svg": tile_svg(code) for code in TILE_CODES}


def hand_codes(text: str) -> list[str]:
    """An MPSZ string in writing order: ``"345m0p22z"`` → ``["3m", "4m", "5m", "0p", "2z", "2z"]``.

    Spaces are ignored; ``0`` is a red five. ``ValueError`` names what cannot be read.
    """
    compact = re.sub(r"\s+", "", text)
    if not _HAND.fullmatch(compact):
        raise ValueError(f"not a hand in MPSZ notation: {text!r}")
    return [digit + suit for digits, suit in _RUN.findall(compact) for digit in digits]


def tile_svg(code: str, *, title: str | None = None) -> str:
    """The standalone SVG document of one tile, with an accessible ``<title>`` (its name by default)."""
    rank, suit = _split(code)
    label = escape(tile_name(code) if title is None else title)
    if suit == "m":
        marks = _man(rank)
    elif suit == "p":
        marks = _pin(rank)
    elif suit == "s":
        marks = _sou(rank)
    else:
        marks = _honor(rank)
    if rank == 0:
        marks += _RED_FIVE_MARKER
    # xlink:href rather than SVG 2's href: older browsers and image viewers know only the former
    xlink = ' xmlns:xlink="http://www.w3.org/1999/xlink"' if "xlink:href" in marks else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{xlink} viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img"><title>{label}</title>'
        f'<rect x="1" y="1" width="58" height="78" rx="6" fill="{FACE}" stroke="{BORDER}" stroke-width="1.4"/>'
        f"{marks}</svg>\n"
    )


def _split(code: str) -> tuple[int, str]:
    if (
        not isinstance(code, str)
        or len(code) != 2
        or code[1] not in "mpsz"
        or not code[0].isdigit()
        or (code[1] == "z" and code[0] in "089")
    ):
        raise ValueError(f"not a tile in MPSZ notation: {code!r}")
    return int(code[0]), code[1]


# A red five's marker: a red wedge in the face's top right corner, on top of its red marks.
_RED_FIVE_MARKER = f'<path d="M47 3H53A4 4 0 0 1 57 7V13Z" fill="{RED}"/>'


# --- strokes -------------------------------------------------------------------------------------
# Each character is a list of strokes in a 100 × 100 box (x right, y down): absolute M, L, Q and C
# commands only, so that every pair of numbers is a point that can be moved onto the tile.

STROKES = {
    "一": "M10 52Q50 45 90 48",
    "二": "M24 26L76 23M8 76Q50 71 92 73",
    "三": "M20 12L80 10M30 47L70 45M8 86Q50 81 92 83",
    "四": "M12 14L12 88M12 14L88 14L88 88M40 14Q40 52 24 62M60 14L60 50Q60 58 70 58L86 58M12 86L88 86",
    "五": "M14 12L86 12M48 12L38 86M20 46L74 46L70 86M6 88L94 88",
    "六": "M46 2L56 16M8 34L92 34M36 50Q30 72 12 92M62 52Q78 70 86 90",
    "七": "M6 50L94 38M38 4L38 76Q38 90 54 90L86 90L90 74",
    "八": "M40 12Q38 62 6 92M60 14Q66 64 94 90",
    "九": "M42 4Q42 64 6 94M12 34L62 34Q58 78 70 88Q80 94 94 86L94 70",
    "萬": (
        "M6 12L94 12M32 2L32 24M68 2L68 24"  # 艹
        "M24 30L24 56M24 30L76 30L76 56M24 43L76 43M24 56L76 56M50 30L50 76"  # 田 and its stem
        "M12 64L12 100M12 64L88 64L88 95Q88 101 80 99"  # 冂
        "M50 76L30 90L70 88M60 78L72 92"  # 厶
    ),
    "東": (
        "M10 16L90 16M50 2L50 98"
        "M22 28L22 64M22 28L78 28L78 64M22 46L78 46M22 64L78 64"
        "M44 66Q32 84 8 94M56 66Q68 84 92 94"
    ),
    "南": (
        "M8 14L92 14M50 2L50 28"  # 十
        "M14 32L14 98M14 32L86 32L86 92Q86 99 76 97"  # 冂
        "M36 42L42 52M64 42L58 52M30 60L70 60M26 76L74 76M50 60L50 98"  # 丷 and 干
    ),
    "西": (
        "M6 10L94 10M14 32L14 92M14 32L86 32L86 92M14 90L86 90M40 10L40 48Q38 64 16 72M60 10L60 60Q60 68 68 68L86 68"
    ),
    "北": "M38 6L38 94M10 38L38 38M8 80L38 64M62 6L62 80Q62 92 76 92L92 92L92 78M90 28L62 44",
    "發": (
        "M14 8L38 8L20 32M24 20L32 26M40 14Q30 34 6 44"  # 癶, left
        "M58 4L66 14M62 18L84 18M60 8Q74 34 94 42"  # 癶, right
        "M14 50L38 50L38 62L16 62L14 76L40 76Q42 94 30 98"  # 弓
        "M64 48Q62 60 52 64M64 48L80 48L80 58Q80 64 90 64"  # 几
        "M54 74L84 74Q76 90 52 98M62 82Q74 94 94 98"  # 又
    ),
    "中": "M18 28L18 68M18 28L82 28L82 68M18 66L82 66M50 4L50 98",
}

_COMMAND = re.compile(r"[MLQC]|-?\d+(?:\.\d+)?")


def _strokes(character: str, x: float, y: float, width: float, height: float) -> str:
    """The character's path data moved into the box (x, y, width, height) of the tile."""
    out, numbers = [], []
    for token in _COMMAND.findall(STROKES[character]):
        if token.isalpha():
            out.append(token)
            continue
        numbers.append(float(token))
        if len(numbers) == 2:
            out.append(f"{_num(x + numbers[0] * width / 100)} {_num(y + numbers[1] * height / 100)}")
            numbers = []
    return re.sub(r"([MLQC]) ", r"\1", " ".join(out))


def _num(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text or "0"


def _path(d: str, colour: str, width: float) -> str:
    return (
        f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_num(width)}" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
    )


# --- characters 萬子 ------------------------------------------------------------------------------


def _man(rank: int) -> str:
    numeral = NUMERALS[(rank or 5) - 1]
    numeral_colour = RED if rank == 0 else INK
    return _path(_strokes(numeral, 12, 7, 36, 27), numeral_colour, 3.4) + _path(
        _strokes("萬", 12, 38, 36, 36), RED, 2.6
    )


# --- circles 筒子 ---------------------------------------------------------------------------------

# One circle, radius 1, drawn in its colour (``currentColor``): a ring, a disc, an ivory eye.
_CIRCLE = (
    f'<defs><g id="pin"><circle r=".86" fill="{FACE}" stroke="currentColor" stroke-width=".26"/>'
    f'<circle r=".46" fill="currentColor"/><circle r=".16" fill="{FACE}"/></g></defs>'
)

# rank -> circles as (x, y, radius, colour)
_B, _R, _G = BLUE, RED, GREEN
PIN_LAYOUTS = {
    2: ((30, 21, 14, _G), (30, 59, 14, _B)),
    3: ((15, 16, 11, _B), (30, 40, 11, _R), (45, 64, 11, _G)),
    4: ((17, 22, 12.5, _B), (43, 22, 12.5, _G), (17, 58, 12.5, _G), (43, 58, 12.5, _B)),
    5: (
        *((x, y, 10.5, colour) for x, y, colour in ((15.5, 15.5, _B), (44.5, 15.5, _G), (30, 40, _R))),
        *((x, y, 10.5, colour) for x, y, colour in ((15.5, 64.5, _G), (44.5, 64.5, _B))),
    ),
    6: (
        *((x, 15, 9.5, _G) for x in (18.5, 41.5)),
        *((x, y, 9.5, _R) for y in (43, 65.5) for x in (18.5, 41.5)),
    ),
    7: (
        *((x, y, 8, _G) for x, y in ((13, 11), (30, 18.5), (47, 26))),
        *((x, y, 9, _R) for y in (46, 66.5) for x in (18.5, 41.5)),
    ),
    8: tuple((x, y, 8.2, _B) for y in (13, 31, 49, 67) for x in (19, 41)),
    9: tuple((x, y, 8.2, colour) for y, colour in ((15, _B), (40, _R), (65, _G)) for x in (13.5, 30, 46.5)),
}


def _pin(rank: int) -> str:
    if rank == 1:
        return _ONE_PIN
    circles = PIN_LAYOUTS[rank or 5]
    if rank == 0:
        circles = tuple((x, y, r, RED) for x, y, r, _ in circles)
    return _CIRCLE + "".join(
        f'<use xlink:href="#pin" color="{colour}" transform="translate({_num(x)} {_num(y)}) scale({_num(r)})"/>'
        for x, y, r, colour in circles
    )


# 一筒: one large circle, a ring of beads round a red centre.
_ONE_PIN = (
    f'<circle cx="30" cy="40" r="21" fill="{FACE}" stroke="{GREEN}" stroke-width="2.6"/>'
    f'<circle cx="30" cy="40" r="16.5" fill="none" stroke="{BLUE}" stroke-width="4" stroke-dasharray="3.2 2.3"/>'
    f'<circle cx="30" cy="40" r="11" fill="{GREEN}"/><circle cx="30" cy="40" r="8" fill="{RED}"/>'
    f'<circle cx="30" cy="40" r="3.4" fill="{FACE}"/><circle cx="30" cy="40" r="1.6" fill="{RED}"/>'
)


# --- bamboo 索子 ----------------------------------------------------------------------------------

# One stick, 20 long, centred on the origin, in its colour (``currentColor``): a stalk with a light
# core, and darker flared joints at both ends and in the middle.
_STICK = (
    '<defs><g id="stick"><rect x="-3" y="-10" width="6" height="20" rx="2" fill="currentColor"/>'
    f'<path d="M0-7.6V-2.4M0 2.4V7.6" stroke="{FACE}" stroke-width="1.1" stroke-linecap="round"/>'
    '<path d="M-3.7-9.2H3.7M-3.7 0H3.7M-3.7 9.2H3.7" stroke="currentColor" stroke-width="2.2" '
    'stroke-linecap="round"/><path d="M-3-9.2H3M-3 0H3M-3 9.2H3" stroke="#000" stroke-opacity=".35" '
    'stroke-width=".8"/></g></defs>'
)

# rank -> sticks as (x, y, length, turn in degrees, colour)
SOU_LAYOUTS = {
    2: ((30, 21, 30, 0, _G), (30, 59, 30, 0, _G)),
    3: ((30, 22, 28, 0, _G), (18, 58, 28, 0, _G), (42, 58, 28, 0, _G)),
    4: tuple((x, y, 28, 0, _G) for y in (22, 58) for x in (18, 42)),
    5: (*((x, y, 26, 0, _G) for y in (21, 59) for x in (15, 45)), (30, 40, 26, 0, _R)),
    6: tuple((x, y, 28, 0, _G) for y in (22, 58) for x in (14, 30, 46)),
    7: ((30, 14, 20, 0, _R), *((x, y, 22, 0, _G) for y in (41, 65) for x in (14, 30, 46))),
    8: (
        *((x, 22, 28, turn, _G) for x, turn in ((11.5, 14), (23.5, -14), (36.5, 14), (48.5, -14))),
        *((x, 58, 28, turn, _G) for x, turn in ((11.5, -14), (23.5, 14), (36.5, -14), (48.5, 14))),
    ),
    9: tuple((x, y, 22, 0, _R if x == 30 else _G) for y in (15, 40, 65) for x in (14, 30, 46)),
}


def _sou(rank: int) -> str:
    if rank == 1:
        return _ONE_SOU
    sticks = SOU_LAYOUTS[rank or 5]
    if rank == 0:
        sticks = tuple((x, y, length, turn, RED) for x, y, length, turn, _ in sticks)
    uses = []
    for x, y, length, turn, colour in sticks:
        place = f"translate({_num(x)} {_num(y)})"
        if turn:
            place += f" rotate({turn})"
        if length != 20:  # longer sticks grow less in thickness than in length
            place += f" scale({_num(min(length / 20, 1.2))} {_num(length / 20)})"
        uses.append(f'<use xlink:href="#stick" color="{colour}" transform="{place}"/>')
    return _STICK + "".join(uses)


# 一索: a bird 孔雀 with a red crest and breast, a blue wing and a fanned tail of blue and green feathers.
_ONE_SOU = (
    '<g fill="none" stroke-width="3.2" stroke-linecap="round">'
    f'<path d="M29 58Q16 62 9 70M29 58Q27 66 30 73" stroke="{BLUE}"/>'
    f'<path d="M29 58Q20 65 18 73M29 58Q36 65 42 71" stroke="{GREEN}"/></g>'
    f'<g fill="{RED}"><circle cx="9" cy="70" r="2.4"/><circle cx="18" cy="73" r="2.4"/>'
    '<circle cx="30" cy="73" r="2.4"/><circle cx="42" cy="71" r="2.4"/></g>'
    f'<path d="M29 60C17 55 13 42 18 32C22 24 32 22 38 27C46 34 44 52 29 60Z" fill="{GREEN}"/>'
    f'<path d="M22 34C30 36 32 46 27 56C20 50 18 42 22 34Z" fill="{BLUE}"/>'
    f'<path d="M30 57C38 50 41 42 39 33" fill="none" stroke="{RED}" stroke-width="2.6" stroke-linecap="round"/>'
    f'<path d="M33 28L36 18" stroke="{GREEN}" stroke-width="6"/><circle cx="38" cy="15" r="7" fill="{GREEN}"/>'
    f'<path d="M44 12L53 15L44 18Z" fill="{INK}"/><circle cx="39.5" cy="13.5" r="1.7" fill="{FACE}"/>'
    f'<path d="M34 9.5L31.5 4.5M37.5 8.5V3.5M41 9.5L43.5 4.5" '
    f'stroke="{RED}" stroke-width="1.8" stroke-linecap="round"/>'
)


# --- honors 字牌 ----------------------------------------------------------------------------------

_HONOR_INK = {1: INK, 2: INK, 3: INK, 4: INK, 6: GREEN, 7: RED}


def _honor(rank: int) -> str:
    if rank == 5:  # 白: a blank face in a blue frame
        return (
            f'<rect x="11" y="13" width="38" height="54" rx="3" fill="none" stroke="{BLUE}" stroke-width="3"/>'
            f'<rect x="15.5" y="17.5" width="29" height="45" rx="1.5" fill="none" stroke="{BLUE}" '
            'stroke-width="1"/>'
        )
    character = HONOR_NAMES[rank - 1][1]
    return _path(_strokes(character, 9, 11, 42, 58), _HONOR_INK[rank], 4.2)
