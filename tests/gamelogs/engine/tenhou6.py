"""Writes a Tenhou XML log in the tenhou.net/6 JSON form, so that both forms are read on the same real games.

Written from the XML's play (draws, discards, calls, riichi) the way Tenhou's own viewer writes it, without
the reader under test: a call's called tile comes from its bits here, not from ``gamelogs``.
"""

from __future__ import annotations

from urllib.parse import unquote
from xml.etree import ElementTree

from gamelogs.engine.tenhou_names import TENHOU_YAKU_NAMES
from gamelogs.engine.tenhou_tiles import RED_FIVES, decode_call

DRAW_TAGS, DISCARD_TAGS = "TUVW", "DEFG"
LIMIT_WORDS = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
DRAW_WORDS = {
    "": "流局",
    "yao9": "九種九牌",
    "reach4": "四家立直",
    "ron3": "三家和了",
    "kan4": "四槓散了",
    "kaze4": "四風連打",
    "nm": "流し満貫",
}


def code(tile_id: int, aka: bool) -> int:
    kind = tile_id // 4
    if aka and tile_id in RED_FIVES:
        return 51 + kind // 9
    if kind >= 27:
        return 41 + kind - 27
    return 10 * (kind // 9 + 1) + kind % 9 + 1


def ints(text: str | None) -> list[int]:
    return [int(part) for part in (text or "").split(",") if part]


def called_tile(m: int, tiles: tuple[int, ...]) -> int:
    """The tile taken from the discard, by the call's own bits."""
    if m & 0x4:
        return tiles[((m & 0xFC00) >> 10) % 3]
    if m & 0x8:
        return sorted(tiles)[((m & 0xFE00) >> 9) % 3]
    return (m & 0xFF00) >> 8


def call_text(kind: str, tiles, taken, offset: int, aka: bool) -> str:
    """``c`` + called + the rest; ``p``/``m`` placed by who it came from (上家 first, 対面 second, 下家 last)."""
    rest = [code(tile, aka) for tile in tiles if tile != taken]
    called = code(taken, aka)
    if kind == "chi":
        return "c" + "".join(f"{c:02d}" for c in [called, *rest])
    letter = "p" if kind == "pon" else "m"
    position = {3: 0, 2: 1, 1: len(rest)}[offset]
    parts = [f"{c:02d}" for c in rest]
    parts.insert(position, f"{letter}{called:02d}")
    return "".join(parts)


def tenhou6_from_xml(text: str) -> dict:
    root = ElementTree.fromstring(text)
    go = int(root.find("GO").get("type"))
    aka = not go & 0x02
    names = [unquote(root.find("UN").get(f"n{seat}", "")) for seat in range(4)]
    disp = "般" + ("南" if go & 0x08 else "東") + ("喰" if not go & 0x04 else "") + ("赤" if aka else "")
    document = {
        "title": ["", ""],
        "name": names,
        "rule": {"disp": disp, "aka": int(aka)},
        "log": [],
        "sc": [],
    }
    hand = None
    for element in root:
        tag = element.tag
        if tag == "INIT":
            seed = ints(element.get("seed"))
            hand = {
                "start": [
                    [seed[0], seed[1], seed[2]],
                    [100 * v for v in ints(element.get("ten"))],
                    [code(seed[5], aka)],
                    [],
                ],
                "first": [[code(t, aka) for t in ints(element.get(f"hai{s}"))] for s in range(4)],
                "draws": [[] for _ in range(4)],
                "discards": [[] for _ in range(4)],
                "last_draw": [None] * 4,
                "riichi": set(),
                "pons": {},
                "outcome": None,
            }
        elif tag[0] in DRAW_TAGS and tag[1:].isdigit():
            seat, tile = DRAW_TAGS.index(tag[0]), int(tag[1:])
            hand["draws"][seat].append(code(tile, aka))
            hand["last_draw"][seat] = tile
        elif tag[0] in DISCARD_TAGS and tag[1:].isdigit():
            seat, tile = DISCARD_TAGS.index(tag[0]), int(tag[1:])
            entry = 60 if tile == hand["last_draw"][seat] else code(tile, aka)
            if seat in hand["riichi"]:
                hand["riichi"].discard(seat)
                entry = f"r{entry}"
            hand["discards"][seat].append(entry)
            hand["last_draw"][seat] = None
        elif tag == "REACH" and element.get("step") == "1":
            hand["riichi"].add(int(element.get("who")))
        elif tag == "DORA":
            hand["start"][2].append(code(int(element.get("hai")), aka))
        elif tag == "N":
            seat, m = int(element.get("who")), int(element.get("m"))
            meld = decode_call(m, seat)
            if meld.kind in ("chi", "pon", "kan_open"):
                taken = called_tile(m, meld.tiles)
                text_ = call_text(meld.kind, meld.tiles, taken, m & 3, aka)
                hand["draws"][seat].append(text_)
                if meld.kind == "pon":
                    hand["pons"][(seat, meld.tiles[0] // 4)] = meld.tiles
                if meld.kind == "kan_open":
                    hand["discards"][seat].append(0)
            elif meld.kind == "kan_closed":
                codes = [f"{code(t, aka):02d}" for t in meld.tiles]
                hand["discards"][seat].append("".join(codes[:3]) + "a" + codes[3])
            elif meld.kind == "kan_added":
                pon = hand["pons"][(seat, meld.tiles[0] // 4)]
                added = next(t for t in meld.tiles if t not in pon)
                rest = "".join(f"{code(t, aka):02d}" for t in pon)
                hand["discards"][seat].append(f"k{code(added, aka):02d}{rest}")
        elif tag in ("AGARI", "RYUUKYOKU"):
            finish(document, hand, element, aka)
    return document


def finish(document: dict, hand: dict, element, aka: bool) -> None:
    sc = ints(element.get("sc"))
    deltas = [100 * sc[2 * seat + 1] for seat in range(4)]
    if element.tag == "RYUUKYOKU":
        hand["outcome"] = [DRAW_WORDS[element.get("type", "")], deltas]
    else:
        if hand["outcome"] is None:
            hand["outcome"] = ["和了"]
        if element.get("doraHaiUra"):
            hand["start"][3] = [code(t, aka) for t in ints(element.get("doraHaiUra"))]
        hand["outcome"] += [deltas, win_details(element, deltas, hand)]
    if not hand.get("written"):  # a second win of a multiple ron goes into the same outcome
        document_hand = [*hand["start"]]
        for seat in range(4):
            document_hand += [hand["first"][seat], hand["draws"][seat], hand["discards"][seat]]
        document["log"].append([*document_hand, hand["outcome"]])
        hand["written"] = True
    if element.get("owari"):
        owari = element.get("owari").split(",")
        document["sc"] = [int(owari[i]) if i % 2 == 0 else float(owari[i]) for i in range(8)]


def win_details(element, deltas, hand) -> list:
    who, from_who = int(element.get("who")), int(element.get("fromWho"))
    pao = int(element.get("paoWho")) if element.get("paoWho") else who
    fu, points, limit = ints(element.get("ten"))
    honba = hand["start"][0][1]
    pairs = ints(element.get("yaku"))
    yaku = [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    yakuman = ints(element.get("yakuman"))
    han = sum(h for _, h in yaku)
    prefix = LIMIT_WORDS[limit] if limit else f"{fu}符{han}飜"
    if who != from_who:
        price = f"{prefix}{points}点"
    elif limit or pao != who:
        price = f"{prefix}{points // 3}点∀" if dealer_of(hand) == who else f"{prefix}{points // 4}-{points // 2}点"
    else:
        payers = [seat for seat in range(4) if seat != who]
        paid = {seat: -deltas[seat] - 100 * honba for seat in payers}
        if dealer_of(hand) == who:
            price = f"{prefix}{paid[payers[0]]}点∀"
        else:
            non_dealer = next(paid[s] for s in payers if s != dealer_of(hand))
            price = f"{prefix}{non_dealer}-{paid[dealer_of(hand)]}点"
    texts = [f"{TENHOU_YAKU_NAMES[key]}({h}飜)" for key, h in yaku if h]
    texts += [f"{TENHOU_YAKU_NAMES[key]}(役満)" for key in yakuman]
    return [who, from_who, pao, price, *texts]


def dealer_of(hand) -> int:
    return hand["start"][0][0] % 4
