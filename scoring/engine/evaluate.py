"""Evaluate a winning hand (seed 002's procedure): readings → yaku and fu → han → payments.

Every reading of the hand (each decomposition, and each group the winning tile may have completed)
is scored; the reading that pays the winner most is the result. Between equal payments a real
yakuman beats a counted one, then more han, then more fu.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from . import hand as hand_module
from . import shapes, tiles
from . import yaku as yaku_module
from .errors import InvariantViolation, ScoringError
from .fu import fu_of
from .hand import FLAGS, Hand, read_hand
from .hand_readings import (
    _HONOR_READINGS,
    _MAN_READINGS,
    _MELDS_PARTS,
    _NO_MELDS,
    _PIN_READINGS,
    _SOU_READINGS,
    _SUIT_READINGS,
    _melds_part,
    _suit_readings,
    _with_groups,
    readings,
)
from .params import LimitOptions, SchemeParams
from .rules import STANDARD_RULES, Rules
from .schemes import WinPayment, table_fu, win_payment
from .tiles import EAST, HONOR, NUMBER_SUITS, SIMPLE, TERMINAL
from .yaku import (
    DORA_OF_INDICATOR,
    TILES_YAKUMAN,
    Reading,
    WinContext,
    count_dora,
    hand_yakuman,
    shape_yaku,
    situational_yaku,
    yakuman_of,
)

RIICHI_STICK = 1000  # 供託: one riichi deposit
LIMIT_HAN = 5  # 満貫: from 5 han on, fu no longer count (seed 002)
REQUEST_KEYS = frozenset(("id", "rules", "hand"))
LINE_RULE_KEYS = frozenset(("aka_dora",))


@dataclass(frozen=True)
class HandResult:
    """The best reading's score. ``payments`` uses hand-format.md's keys."""

    yaku: tuple[tuple[str, int], ...]
    han: int
    fu: int
    limit: str | None
    payments: Mapping[str, int | Fraction]
    total: int | Fraction
    fu_details: tuple[tuple[str, int], ...]
    yakuman: int = 0  # real yakuman units (役満), 0 otherwise
    reading: Reading | None = None

    def as_dict(self) -> dict:
        return {
            "yaku": [list(item) for item in self.yaku],
            "han": self.han,
            "fu": self.fu,
            "limit": self.limit,
            "payments": dict(self.payments),
            "total": self.total,
            "fu_details": [list(item) for item in self.fu_details],
        }


def win_context(hand: Hand) -> WinContext:
    concealed_counts = [0] * 34
    for index in hand.concealed:
        concealed_counts[index] += 1
    counts = list(concealed_counts)
    for meld in hand.melds:
        for index in meld.tiles:
            counts[index] += 1
    return _win_context(hand, concealed_counts, counts)


def _win_context(
    hand: Hand, concealed_counts: list[int], counts: list[int], per_suit: list | None = None
) -> WinContext:
    """``win_context`` from the hand's tile counts (concealed, and with the melds, and each suit's when
    known): each suit's decompositions and tile classes are looked up once, here."""
    concealed = tuple(concealed_counts)
    if per_suit is None:
        per_suit = (concealed[0:9], concealed[9:18], concealed[18:27], concealed[27:34])
    man, pin, sou, honors = per_suit
    try:
        suits = (_MAN_READINGS[man], _PIN_READINGS[pin], _SOU_READINGS[sou], _HONOR_READINGS[honors])
    except KeyError:  # a suit's tiles not met before
        suits = tuple(
            _SUIT_READINGS[suit].get(counts) or _suit_readings(suit, counts) for suit, counts in enumerate(per_suit)
        )
    man, pin, sou, honors = suits
    classes = man[2] | pin[2] | sou[2] | honors[2]
    has_melds = bool(hand.melds)
    if has_melds:
        melds = _melds_part(hand.melds)
        classes |= melds.classes
    else:
        melds = _NO_MELDS
    tenhou = hand.tenhou
    chiihou = hand.chiihou
    if tenhou or chiihou:
        tiles_yakuman = hand_yakuman(classes, tenhou=tenhou, chiihou=chiihou, has_melds=has_melds)
    else:
        tiles_yakuman = TILES_YAKUMAN[has_melds][classes]
    return _win_context_of(
        WinContext,
        (
            concealed if counts is concealed_counts else tuple(counts),  # without melds, one list of counts
            classes,
            concealed,
            not melds.opened,  # 門前: a closed kan keeps the hand closed
            *hand[FLAGS],  # tsumo ... chiihou, in the order of WinContext's fields
            hand.seat_wind,
            hand.round_wind,
            has_melds,
            tiles_yakuman,
            suits,
            melds,
        ),
    )


_win_context_of = tuple.__new__  # ``WinContext(*fields)`` without the named tuple's Python-level ``__new__``


# Per (scheme, limits) pair: the pair, its outcome key -> (limit, payments, what the winner receives), θ as an int.
_PAYMENT_TABLES: dict[tuple[int, int], tuple[SchemeParams, LimitOptions, dict, int]] = {}


def _payment_table(scheme: SchemeParams, limits: LimitOptions) -> tuple[dict, int]:
    """``win_payment`` is pure, and a tournament's hands repeat the same few (han, fu) pairs: the
    table of outcomes already priced, and θ as an int (0 when fractional) for rounding fu.

    Tables are kept per parameter object (by identity: hashing the Fractions of the parameters on
    every call would cost more than it saves). Keys (built in ``_best_reading``) drop what cannot
    change the payment: (han, fu, fu fixed, yakuman units, dealer, honba, tsumo), where fu is 0 for 5 han
    and more or a yakuman (seed 002: fu no longer count), and otherwise ``ceil_θ`` of the raw fu for
    every scheme that rounds with θ (all but simple doubling, which uses the raw fu).
    """
    entry = _PAYMENT_TABLES.get((id(scheme), id(limits)))
    if entry is None or entry[0] is not scheme or entry[1] is not limits:
        if len(_PAYMENT_TABLES) > 64:
            _PAYMENT_TABLES.clear()
        theta = scheme.theta
        entry = (scheme, limits, {}, theta.numerator if theta.denominator == 1 else 0)
        _PAYMENT_TABLES[id(scheme), id(limits)] = entry
    return entry[2], entry[3]


def _priced_outcome(rules: Rules, table: dict, key: tuple, fu: int) -> tuple[str | None, dict, int | Fraction]:
    """Price the win ``key`` describes and remember it in ``table``: (limit, payments, received)."""
    han, _, fixed, yakuman, dealer, honba, tsumo = key
    payment = win_payment(
        rules.scheme,
        rules.limits,
        han=han,
        fu=fu,
        fu_is_fixed=fixed,
        yakuman=yakuman,
        dealer=dealer,
        honba=honba,
    )
    payments, received = payments_of(payment, rules, tsumo=tsumo, dealer=dealer)
    outcome = (payment.limit, payments, received)
    if len(table) > 4096:
        table.clear()
    table[key] = outcome
    return outcome


# Per rules object (by identity, as the payment tables): (the rules, how the hand was won and its tile classes
# -> the situational yaku found and their han, the rules' payment table, θ as an int, the han tables and the
# yaku lines of an open and a closed hand).
_RULES_TABLES: dict[int, tuple] = {}
# what of the tile classes the situational yaku read (断么, 混一色, 清一色, 混老頭)
_SITUATIONAL_CLASSES = SIMPLE | TERMINAL | HONOR | NUMBER_SUITS
_WIN_FLAGS = slice(3, 12)  # WinContext's closed, tsumo, riichi, ..., chankan
_SEAT_ONWARDS = slice(13, None)  # a Hand's seat wind, round wind, dora and ura indicators, honba, sticks, red fives


def _rules_tables(rules: Rules) -> tuple:
    """The tables kept for ``rules``: started empty for a rules object not met before."""
    entry = _RULES_TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_RULES_TABLES) > 64:
            _RULES_TABLES.clear()
        payments, step = _payment_table(rules.scheme, rules.limits)
        han_tables = (rules.han_table(closed=False), rules.han_table(closed=True))
        yaku_lines = (rules.yaku_lines(closed=False), rules.yaku_lines(closed=True))
        entry = _RULES_TABLES[id(rules)] = (rules, {}, payments, step, han_tables, yaku_lines)
    return entry


# (dora, red fives, ura dora) -> their lines: hands repeat a few hundred
_BONUS_LINES: dict[tuple[int, int, int], tuple[tuple[str, int], ...]] = {}


def _bonus_lines(dora: int, aka: int, ura: int) -> tuple[tuple[str, int], ...]:
    """The result's lines of the dora (ドラ), red fives (赤ドラ) and ura dora (裏ドラ) the hand holds, kept."""
    lines = []
    if dora:
        lines.append(("dora", dora))
    if aka:
        lines.append(("aka_dora", aka))
    if ura:
        lines.append(("ura_dora", ura))
    if len(_BONUS_LINES) < 4096:
        _BONUS_LINES[dora, aka, ura] = tuple(lines)
    return tuple(lines)


def _situational_yaku(
    context: WinContext, rules: Rules, han_table: Mapping[str, int], table: dict
) -> tuple[list[tuple[str, int]], int]:
    """``situational_yaku`` and their han, kept in the rules' ``table`` (looked up in ``_best_reading``):
    they depend on a few flags and tile classes only, which a tournament's hands repeat. The list is
    shared: never changed by its callers."""
    yaku = situational_yaku(context, rules, han_table)
    found = (yaku, sum(han for _key, han in yaku))
    if len(table) < 4096:
        table[context[_WIN_FLAGS], context.classes & _SITUATIONAL_CLASSES] = found
    return found


def clear_payment_cache() -> None:
    _PAYMENT_TABLES.clear()


def clear_caches() -> None:
    """Forget every table and cache the engine builds as it goes (per-suit decompositions, runs of
    tiles, melds, payments): the next evaluation pays for building them again."""
    shapes.suit_decompositions.cache_clear()
    shapes._suit_options.cache_clear()
    for table in _SUIT_READINGS:
        table.clear()
    tiles._RUN_CACHE.clear()
    tiles._SUIT_PART_CACHE.clear()
    _RULES_TABLES.clear()
    yaku_module._SEQUENCE_FACTS.clear()
    hand_module._MELD_CACHE.clear()
    _MELDS_PARTS.clear()
    _BONUS_LINES.clear()
    clear_payment_cache()


def payments_of(payment: WinPayment, rules: Rules, *, tsumo: bool, dealer: bool) -> tuple[dict, int | Fraction]:
    """hand-format.md's payment keys and the sum the winner receives from them."""
    params = rules.scheme
    if not tsumo:
        return {"ron": payment.ron}, payment.ron
    if dealer:
        others = params.players - 1
        return {"non_dealer": payment.tsumo_non_dealer}, others * payment.tsumo_non_dealer
    dealers = params.dealers
    non_dealers = params.players - dealers - 1
    if payment.tsumo_dealer is None:
        return {"non_dealer": payment.tsumo_non_dealer}, non_dealers * payment.tsumo_non_dealer
    total = dealers * payment.tsumo_dealer + non_dealers * payment.tsumo_non_dealer
    return {"dealer": payment.tsumo_dealer, "non_dealer": payment.tsumo_non_dealer}, total


def _rounded_fu(scheme: SchemeParams, fu: int, fixed: bool) -> int | Fraction:
    """The fu shown for a hand: ``ceil_θ(p)``, or a fixed fu as it is."""
    if fu <= 0 or fixed:
        return fu
    theta = scheme.theta
    if theta.denominator == 1:
        step = theta.numerator
        return -(-fu // step) * step
    value = table_fu(scheme, fu=fu, fu_is_fixed=fixed)
    return value.numerator if value.denominator == 1 else value


def evaluate_hand(hand: Hand, rules: Rules = STANDARD_RULES) -> HandResult:
    """Score ``hand``; raises ``ScoringError`` ``not_a_winning_hand`` or ``no_yaku``."""
    return HandResult(*best_reading(hand, rules))


def best_reading(hand: Hand, rules: Rules) -> tuple:
    """The fields of ``HandResult`` for the reading that pays most (a plain tuple: the JSON path
    builds its dict straight from it)."""
    context = win_context(hand)
    best = _best_reading(hand, rules, context)
    if best is None:
        raise _no_yaku()
    yaku, han, fu, limit, payments, total, fu_details, units, reading = best
    return (yaku, han, fu, limit, dict(payments), total, fu_details, units, _with_groups(reading, hand, context))


def _no_yaku() -> ScoringError:
    return ScoringError("no_yaku", _("the hand has no yaku (dora alone do not make a winning hand)"))


def _best_reading(hand: Hand, rules: Rules, context: WinContext) -> tuple | None:
    """``best_reading``'s fields, the payments as the rules' payment table keeps them (shared: copied
    by the callers), the reading without its groups (``_with_groups``); None when no reading has a yaku.

    One hand in seven of ``benchmarks.hands``' corpus has none: the callers refuse it without raising and
    catching on the way."""
    hand_readings = readings(hand, context)
    if not hand_readings:
        raise ScoringError("not_a_winning_hand", _("the tiles do not form a winning hand"))
    seat_wind, _round_wind, dora_indicators, ura_indicators, honba, riichi_sticks, red_fives = hand[_SEAT_ONWARDS]
    dealer = seat_wind == EAST  # ``Hand.dealer``
    all_counts = context.counts
    dora = 0
    for indicator in dora_indicators:  # each indicator counts every tile it points to (``count_dora``)
        dora += all_counts[DORA_OF_INDICATOR[indicator]]
    aka = red_fives if rules.aka_dora else 0
    ura = count_dora(all_counts, ura_indicators) if ura_indicators and hand.riichi else 0
    bonus_han = dora + aka + ura
    if bonus_han:
        try:
            bonus = _BONUS_LINES[dora, aka, ura]
        except KeyError:
            bonus = _bonus_lines(dora, aka, ura)
    else:
        bonus = ()
    tables = _RULES_TABLES.get(id(rules))
    if tables is None or tables[0] is not rules:
        tables = _rules_tables(rules)
    _rules, situational_table, table, step, han_tables, yaku_lines = tables
    closed = context.closed
    try:
        situational, situational_han = situational_table[context[_WIN_FLAGS], context.classes & _SITUATIONAL_CLASSES]
    except KeyError:
        situational, situational_han = _situational_yaku(context, rules, han_tables[closed], situational_table)
    yaku_lines = yaku_lines[closed]
    hand_yakuman = context.hand_yakuman

    scheme = rules.scheme
    best: tuple | None = None
    best_key: tuple = ()
    sticks = RIICHI_STICK * riichi_sticks
    tsumo = hand.tsumo
    double_wind_pair_fu = rules.double_wind_pair_fu
    raw_fu = scheme.scheme == "simple_doubling"  # the one scheme that prices the raw fu
    for reading in hand_readings:
        # a standard reading with fewer than three triplets (``reading[5]``) holds no yakuman of its own
        yakuman = hand_yakuman if len(reading[5]) < 3 and reading[0] != "kokushi" else yakuman_of(reading, context)
        pinfu = False
        if yakuman:
            yaku = tuple((key, 13) for key in yakuman)
            units = len(yakuman)
            han = 13 * units
        else:
            shaped = shape_yaku(reading, context, yaku_lines)
            han = bonus_han + situational_han
            if shaped:
                pinfu = shaped[0][0] == "pinfu"  # shape_yaku lists pinfu first
                for _key, value in shaped:
                    han += value
                yaku = (*situational, *shaped, *bonus)
            elif situational:
                yaku = (*situational, *bonus)
            else:
                continue
            units = 0
        fu, fixed, fu_details = fu_of(reading, context, pinfu, double_wind_pair_fu)
        if fixed or fu <= 0:
            rounded_fu = fu
        elif step:
            rounded_fu = -(-fu // step) * step  # ceil_θ(p)
        else:
            rounded_fu = _rounded_fu(scheme, fu, fixed)
        # the payment table's key (see ``_payment_table``)
        if units or han >= LIMIT_HAN:
            key = (han, 0, fixed, units, dealer, honba, tsumo)
        else:
            key = (han, fu if fixed or raw_fu else rounded_fu, fixed, units, dealer, honba, tsumo)
        try:
            limit, payments, received = table[key]
        except KeyError:
            limit, payments, received = _priced_outcome(rules, table, key, fu)
        total = received + sticks
        rank = (total, units > 0, han, rounded_fu)
        if best is None or rank > best_key:
            best_key = rank
            best = (yaku, han, rounded_fu, limit, payments, total, fu_details, units, reading)
    if best is None:
        return None  # no reading has a yaku: the callers refuse the hand (``_no_yaku``)
    if best[5] < 0:
        raise InvariantViolation("a win cannot pay the winner a negative amount")
    return best


def rules_for_line(raw_rules: object, rules: Rules) -> Rules:
    """Apply a request line's own ``rules`` (only ``aka_dora`` may be set per line)."""
    if raw_rules is None:
        return rules
    if type(raw_rules) is dict and len(raw_rules) == 1:  # most lines: only aka_dora, true or false
        aka = raw_rules.get("aka_dora")
        if aka is rules.aka_dora:
            return rules
        if aka is True or aka is False:  # the other value than the rules': their one variant
            entry = _AKA_VARIANTS.get(id(rules))
            return entry[1] if entry is not None and entry[0] is rules else _with_aka(rules, aka)
    if not isinstance(raw_rules, dict):
        raise ScoringError("invalid_parameter", _("rules must be an object"), field="rules")
    unknown = set(raw_rules) - LINE_RULE_KEYS
    if unknown:
        raise ScoringError(
            "invalid_parameter",
            _("unknown per-line rules: %(rules)s") % {"rules": ", ".join(sorted(map(str, unknown)))},
            field="rules",
        )
    if "aka_dora" in raw_rules:
        aka = raw_rules["aka_dora"]
        if not isinstance(aka, bool):
            raise ScoringError("invalid_parameter", _("rules.aka_dora must be true or false"), field="aka_dora")
        if aka != rules.aka_dora:
            return _with_aka(rules, aka)
    return rules


# id of a rules object -> (the rules, the rules with the other ``aka_dora``): a line only ever asks for the other
_AKA_VARIANTS: dict[int, tuple[Rules, Rules]] = {}


def _with_aka(rules: Rules, aka: bool) -> Rules:
    """``rules`` with ``aka_dora`` set to ``aka``, the other value than theirs, kept per rules object (by
    identity: hashing a ruleset's Fractions on every line would cost more than the evaluation)."""
    entry = _AKA_VARIANTS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_AKA_VARIANTS) > 64:
            _AKA_VARIANTS.clear()
        variant = Rules(
            scheme=rules.scheme,
            limits=rules.limits,
            aka_dora=aka,
            open_tanyao=rules.open_tanyao,
            double_wind_pair_fu=rules.double_wind_pair_fu,
            yaku_han=dict(rules.yaku_han),
        )
        entry = (rules, variant)
        _AKA_VARIANTS[id(rules)] = entry
    return entry[1]


def evaluate(request: dict, rules: Rules | None = None) -> dict:
    """hand-format.md: a request object in, ``{"id", "result"}`` or ``{"id", "error"}`` out.

    Bad input never raises: it is reported as an error object with a stable code.
    """
    request_id = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise ScoringError("invalid_request", _("a request is a JSON object"))
        if not REQUEST_KEYS.issuperset(request):
            unknown = set(request) - REQUEST_KEYS
            raise ScoringError(
                "invalid_request",
                _("unknown request keys: %(keys)s") % {"keys": ", ".join(sorted(map(str, unknown)))},
            )
        if "hand" not in request:
            raise ScoringError("invalid_request", _("hand is required"), field="hand")
        line_rules = rules_for_line(request.get("rules"), rules or STANDARD_RULES)
        hand, concealed_counts, counts, per_suit = read_hand(request["hand"])
        best = _best_reading(hand, line_rules, _win_context(hand, concealed_counts, counts, per_suit))
    except ScoringError as error:
        return {"id": request_id, "error": error.as_dict()}
    if best is None:  # ``_no_yaku``'s error object, without building the error (one hand in seven)
        return {
            "id": request_id,
            "error": {"code": "no_yaku", "message": _("the hand has no yaku (dora alone do not make a winning hand)")},
        }
    yaku, han, fu, limit, payments, total, fu_details, _units, _reading = best
    return {
        "id": request_id,
        "result": {
            "yaku": [[key, value] for key, value in yaku],
            "han": han,
            "fu": fu,
            "limit": limit,
            "payments": dict(payments),  # the table's own is shared
            "total": total,
            "fu_details": [[name, value] for name, value in fu_details],
        },
    }
