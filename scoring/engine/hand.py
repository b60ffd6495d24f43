"""A winning hand (a named tuple) and its melds, read and validated from hand-format.md's ``hand`` object."""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from taikai.i18n import _, ngettext

from .errors import ScoringError
from .tiles import EAST, SINGLE_TILES, WIND_LETTERS, parse_tile, parse_tiles, suit_counts, tile_name

MELD_TYPES = ("chi", "pon", "kan_open", "kan_closed", "kan_added")
FLAG_KEYS = (
    "tsumo",
    "riichi",
    "double_riichi",  # ダブル立直
    "ippatsu",  # 一発
    "haitei",  # 海底摸月
    "houtei",  # 河底撈魚
    "rinshan",  # 嶺上開花
    "chankan",  # 槍槓
    "tenhou",  # 天和
    "chiihou",  # 地和
)
HAND_KEYS = frozenset(
    (
        "tiles",
        "melds",
        "win_tile",
        *FLAG_KEYS,
        "seat_wind",
        "round_wind",
        "dealer",
        "dora_indicators",
        "ura_dora_indicators",
        "honba",
        "riichi_sticks",
    )
)


class Meld(NamedTuple):
    """A called or declared meld (副露 / 暗槓). ``first`` is the lowest tile's 34-index.

    A named tuple, as ``Hand``: a hand's melds are a key of the engine's tables (``evaluate``), and a
    tuple hashes without a call to Python."""

    kind: str  # chi, pon, kan_open, kan_closed, kan_added
    first: int
    red: int = 0

    @property
    def is_kan(self) -> bool:
        return self.kind.startswith("kan")

    @property
    def is_open(self) -> bool:
        """Every meld but a closed kan (暗槓) opens the hand."""
        return self.kind != "kan_closed"

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chi":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.is_kan else 3)


class Hand(NamedTuple):
    """A winning hand: ``concealed`` holds the 34-indices of the concealed tiles including the win tile.

    A named tuple rather than a frozen dataclass: one is read for every hand scored, and a tuple is
    built in one step where a dataclass fills a dict of twenty entries. The flags (``tsumo`` to
    ``chiihou``) sit together in ``FLAG_KEYS``' order: ``hand[FLAGS]`` reads them at once."""

    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    seat_wind: int = EAST  # 自風
    round_wind: int = EAST  # 場風
    dora_indicators: tuple[int, ...] = ()
    ura_dora_indicators: tuple[int, ...] = ()
    honba: int = 0  # 本場
    riichi_sticks: int = 0  # 供託 riichi deposits on the table
    red_fives: int = 0  # 赤ドラ among concealed tiles and melds

    @property
    def dealer(self) -> bool:
        """The dealer (親) is the player whose seat wind is East."""
        return self.seat_wind == EAST

    @property
    def is_closed(self) -> bool:
        """門前: no called meld (a closed kan keeps the hand closed)."""
        return not self.melds or all(meld.kind == "kan_closed" for meld in self.melds)

    @property
    def all_tiles(self) -> tuple[int, ...]:
        tiles = list(self.concealed)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tuple(tiles)


def _meld_from_dict(position: int, raw: object) -> tuple[Meld, list[int]]:
    field = f"melds[{position}]"
    if not isinstance(raw, dict) or set(raw) - {"type", "tiles"} or "type" not in raw or "tiles" not in raw:
        raise ScoringError(
            "invalid_meld",
            # Translators: field names the meld in the request (melds[0]); type and tiles are keys.
            _("%(field)s must be an object with 'type' and 'tiles'") % {"field": field},
            field=field,
        )
    kind = raw["type"]
    if kind not in MELD_TYPES:
        raise ScoringError(
            "invalid_meld",
            _("%(field)s: unknown meld type %(kind)s (one of %(types)s)")
            % {"field": field, "kind": repr(kind), "types": ", ".join(MELD_TYPES)},
            field=field,
        )
    indices, red = parse_tiles(raw["tiles"], field=f"{field}.tiles")
    indices.sort()
    expected = 3 if kind in ("chi", "pon") else 4
    if len(indices) != expected:
        raise ScoringError(
            "invalid_meld",
            # Translators: kind is a meld type as written in the request (chi, pon, kan_open, ...).
            _("%(field)s: a %(kind)s has %(count)s tiles") % {"field": field, "kind": kind, "count": expected},
            field=field,
        )
    first = indices[0]
    if kind == "chi":
        if first >= 27 or first % 9 > 6 or indices != [first, first + 1, first + 2]:
            raise ScoringError(
                "invalid_meld",
                _("%(field)s: a chi is three consecutive tiles of one suit") % {"field": field},
                field=field,
            )
    elif any(index != first for index in indices):
        raise ScoringError(
            "invalid_meld",
            # Translators: kind is a meld type as written in the request (pon, kan_open, kan_closed, ...).
            _("%(field)s: a %(kind)s is %(count)s identical tiles") % {"field": field, "kind": kind, "count": expected},
            field=field,
        )
    return Meld(kind, first, red), indices


def _flag(raw: dict, key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        # Translators: key is a flag of the hand as written in the request (riichi, tsumo, ...).
        raise ScoringError("invalid_request", _("%(key)s must be true or false") % {"key": key}, field=key)
    return value


def _count(raw: dict, key: str) -> int:
    value = raw.get(key, 0)
    if type(value) is int and value >= 0:
        return value
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScoringError("invalid_request", _("%(key)s must be a non-negative integer") % {"key": key}, field=key)
    return value


def _wind(raw: dict, key: str) -> int:
    value = raw.get(key, "E")
    wind = WIND_LETTERS.get(value) if type(value) is str else None
    if wind is None:
        raise ScoringError("invalid_request", _("%(key)s must be one of E, S, W, N") % {"key": key}, field=key)
    return wind


_TILE_INDEX = {text: index for text, (index, _) in SINGLE_TILES.items()}


def _indicators(raw: dict, key: str) -> tuple[int, ...]:
    value = raw.get(key)
    if not value:
        if value is None or value == []:
            return ()
        raise ScoringError("invalid_tiles", _("%(key)s must be a list of tiles") % {"key": key}, field=key)
    if not isinstance(value, list):
        raise ScoringError("invalid_tiles", _("%(key)s must be a list of tiles") % {"key": key}, field=key)
    try:
        return tuple(map(_TILE_INDEX.__getitem__, value))
    except (KeyError, TypeError):
        return tuple(parse_tile(item, field=f"{key}[{n}]")[0] for n, item in enumerate(value))


def check_flags(hand: Hand) -> None:
    """Flags that cannot be true together raise ``inconsistent_flags``."""
    problems = []
    tsumo = hand.tsumo
    riichi = hand.riichi
    if hand.double_riichi and not riichi:
        problems.append(_("double_riichi comes with riichi"))
    if riichi and not hand.is_closed:
        problems.append(_("riichi needs a closed hand"))
    if hand.ippatsu and not riichi:
        problems.append(_("ippatsu needs riichi"))
    if tsumo:
        if hand.houtei:
            problems.append(_("houtei is a win on a discard (ron)"))
        if hand.chankan:
            problems.append(_("chankan is a win on another player's kan (ron)"))
    else:
        if hand.haitei:
            problems.append(_("haitei is a win by tsumo"))
        if hand.rinshan:
            problems.append(_("rinshan is a win by tsumo"))
    if hand.haitei and hand.rinshan:
        problems.append(_("haitei and rinshan exclude each other"))
    if hand.houtei and hand.chankan:
        problems.append(_("houtei and chankan exclude each other"))
    if hand.rinshan and not any(meld.is_kan for meld in hand.melds):
        problems.append(_("rinshan needs a kan"))
    if hand.tenhou or hand.chiihou:
        if hand.tenhou and (not hand.dealer or not tsumo or hand.melds):
            problems.append(_("tenhou is the dealer's tsumo on the first draw, with no meld"))
        if hand.chiihou and (hand.dealer or not tsumo or hand.melds):
            problems.append(_("chiihou is a non-dealer's tsumo on the first draw, with no meld"))
        if riichi or hand.rinshan or hand.haitei:
            problems.append(_("tenhou/chiihou is the first draw: no riichi, rinshan or haitei"))
    if problems:
        # Translators: separates the problems listed in one message.
        raise ScoringError("inconsistent_flags", _("; ").join(problems))


def hand_from_dict(raw: object) -> Hand:
    """Read and validate a ``hand`` object; user errors raise ``ScoringError`` with a stable code."""
    return read_hand(raw)[0]


_MELD_CACHE: dict[tuple[str, str], tuple[Meld, tuple[int, ...]]] = {}


def _read_meld(position: int, raw: object) -> tuple[Meld, tuple[int, ...]]:
    """``_meld_from_dict`` for a meld object, kept per (type, tiles) text: a meld is one of a few
    hundred, and a valid one reads the same wherever it stands."""
    if type(raw) is dict and len(raw) == 2:
        try:
            return _MELD_CACHE[_TYPE_AND_TILES_OF(raw)]
        except (KeyError, TypeError):  # a meld not met before, or not a meld's two keys or values
            pass
        kind = raw.get("type")
        text = raw.get("tiles")
        if type(kind) is str and type(text) is str:
            meld, indices = _meld_from_dict(position, raw)
            read = (meld, tuple(indices))
            if len(_MELD_CACHE) < 4096:
                _MELD_CACHE[kind, text] = read
            return read
    meld, indices = _meld_from_dict(position, raw)
    return meld, tuple(indices)


_TYPE_AND_TILES_OF = itemgetter("type", "tiles")


def read_hand(raw: object) -> tuple[Hand, list[int] | tuple[int, ...], list[int] | tuple[int, ...], list | None]:
    """``hand_from_dict``, with the tile counts found on the way: (hand, concealed counts, counts of
    every tile, concealed and melded, per 34-index, and each suit's concealed counts when the text
    gave them at once, else None)."""
    if not isinstance(raw, dict):
        raise ScoringError("invalid_request", _("hand must be an object"))
    if not HAND_KEYS.issuperset(raw):
        unknown = sorted(map(str, set(raw) - HAND_KEYS))
        raise ScoringError("invalid_request", _("unknown hand keys: %(keys)s") % {"keys": ", ".join(unknown)})
    if "tiles" not in raw or "win_tile" not in raw:
        missing = "tiles" if "tiles" not in raw else "win_tile"
        raise ScoringError("invalid_request", _("hand.%(key)s is required") % {"key": missing}, field=missing)
    read = suit_counts(raw["tiles"])
    if read is not None:
        per_suit, concealed_counts, concealed, red = read
    else:
        per_suit = None
        concealed, red = parse_tiles(raw["tiles"], field="tiles")
        concealed_counts = [0] * 34
        for index in concealed:
            concealed_counts[index] += 1
        concealed = tuple(sorted(concealed))
    counts = concealed_counts
    # a tile more than four times: ``suit_counts`` reads none, so only a meld's tiles can make one
    crowded = per_suit is None
    melds = []
    raw_melds = raw.get("melds")
    if raw_melds:
        if not isinstance(raw_melds, list) or len(raw_melds) > 4:
            raise ScoringError("invalid_meld", _("melds must be a list of at most 4 melds"), field="melds")
        counts = list(concealed_counts)
        for position, raw_meld in enumerate(raw_melds):
            meld, indices = _read_meld(position, raw_meld)
            melds.append(meld)
            red += meld.red
            first = indices[0]
            if indices[-1] == first:  # a pon or a kan: one tile, three or four times
                counts[first] += len(indices)
                if counts[first] > 4:
                    crowded = True
            else:
                for index in indices:
                    counts[index] += 1
                    if counts[index] > 4:
                        crowded = True
    elif raw_melds is not None and raw_melds != []:
        raise ScoringError("invalid_meld", _("melds must be a list of at most 4 melds"), field="melds")
    expected = 14 - 3 * len(melds)
    if len(concealed) != expected:
        raise ScoringError(
            "wrong_tile_count",
            ngettext(
                "tiles has %(count)s tiles; with %(melds)s meld it must have %(expected)s",
                "tiles has %(count)s tiles; with %(melds)s melds it must have %(expected)s",
                len(melds),
            )
            % {"count": len(concealed), "melds": len(melds), "expected": expected},
            field="tiles",
        )
    if crowded and max(counts) > 4:
        index = next(index for index, count in enumerate(counts) if count > 4)
        raise ScoringError(
            "too_many_copies",
            # Translators: tile is a tile in MPSZ notation (5m, 7z).
            _("%(tile)s appears %(count)s times (at most 4)") % {"tile": tile_name(index), "count": counts[index]},
            field="tiles",
        )
    win_text = raw["win_tile"]
    try:
        win_tile = _TILE_INDEX[win_text]
    except (KeyError, TypeError):  # not one tile's text: ``parse_tile`` names what is wrong
        win_tile = parse_tile(win_text, field="win_tile")[0]
    if not concealed_counts[win_tile]:
        raise ScoringError(
            "win_tile_missing",
            _("win_tile %(tile)s is not among the tiles") % {"tile": tile_name(win_tile)},
            field="win_tile",
        )
    try:
        flags = FLAGS_OF(raw)
    except KeyError:  # a flag left out is false
        flags = tuple(raw.get(key, False) for key in FLAG_KEYS)
    if not _BOOL_TYPE.issuperset(map(type, flags)):
        for key, value in zip(FLAG_KEYS, flags, strict=True):
            if value is not True and value is not False:
                raise ScoringError("invalid_request", _("%(key)s must be true or false") % {"key": key}, field=key)
    try:
        seat_text, round_text, honba, sticks = _WINDS_AND_COUNTS_OF(raw)
        seat_wind, round_wind = _WIND_PAIRS[seat_text, round_text]
    except (KeyError, TypeError):  # left out, or not a wind: read one by one below, each with its error
        seat_wind = None
    if (
        seat_wind is None
        or type(seat_text) is not str  # a subclass of str that equals a wind letter is not one
        or type(round_text) is not str
        or type(honba) is not int
        or type(sticks) is not int
    ):
        seat_wind = _wind(raw, "seat_wind")
        round_wind = honba = sticks = None  # read after the dealer flag, in the usual order
    # a dealer flag that is not the seat's: ``_flag`` names a flag that is not a boolean, else they disagree
    if "dealer" in raw and raw["dealer"] is not (seat_wind == EAST):
        _flag(raw, "dealer")
        raise ScoringError("inconsistent_flags", _("dealer is true exactly when seat_wind is E"), field="dealer")
    if round_wind is None:
        round_wind = _wind(raw, "round_wind")
    dora = raw.get("dora_indicators")
    try:
        if type(dora) is not list:
            dora = _indicators(raw, "dora_indicators")
        elif len(dora) == 1:  # most hands: one indicator, read without a map
            dora = (_TILE_INDEX[dora[0]],)
        else:
            dora = tuple(map(_TILE_INDEX.__getitem__, dora))
    except (KeyError, TypeError):
        dora = _indicators(raw, "dora_indicators")
    ura = raw.get("ura_dora_indicators")
    if ura == []:  # most hands: none shown
        ura = ()
    else:
        try:
            if type(ura) is not list:
                ura = _indicators(raw, "ura_dora_indicators")
            elif len(ura) == 1:
                ura = (_TILE_INDEX[ura[0]],)
            else:
                ura = tuple(map(_TILE_INDEX.__getitem__, ura))
        except (KeyError, TypeError):
            ura = _indicators(raw, "ura_dora_indicators")
    if honba is None or honba < 0 or sticks < 0:
        honba = _count(raw, "honba")
        sticks = _count(raw, "riichi_sticks")
    # ``Hand(...)`` for values read and checked, in one step
    hand = _hand_of(
        Hand, (concealed, win_tile, tuple(melds), *flags, seat_wind, round_wind, dora, ura, honba, sticks, red)
    )
    # tsumo alone never conflicts, nor riichi without a call: only then can check_flags find nothing
    if True in flags[2:] or (flags[1] and melds):
        check_flags(hand)
    return hand, concealed_counts, counts, per_suit


_BOOL_TYPE = frozenset((bool,))
_hand_of = tuple.__new__  # ``Hand(*fields)`` without the named tuple's Python-level ``__new__``
FLAGS = slice(3, 13)  # a ``Hand``'s flags, tsumo ... chiihou
FLAGS_OF = itemgetter(*FLAG_KEYS)  # a hand object's flags, in FLAG_KEYS' order
_WINDS_AND_COUNTS_OF = itemgetter("seat_wind", "round_wind", "honba", "riichi_sticks")
# (seat wind, round wind) as written -> their 34-indices
_WIND_PAIRS = {
    (seat, round_wind): (WIND_LETTERS[seat], WIND_LETTERS[round_wind])
    for seat in WIND_LETTERS
    for round_wind in WIND_LETTERS
}
