"""The hand calculator: hand-format.md requests from an HTTP body, scored under a stored ruleset.

Every user-fixable problem comes back as ``{"id": ..., "error": {"code", "message"}}`` with the codes
of ``score_hands`` (``invalid_json``, ``invalid_tiles``, ``no_yaku``, ...) plus ``unknown_ruleset`` and
``invalid_ruleset``; nothing here raises for bad input. The views only turn these into responses.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction

from scoring.engine import evaluate
from scoring.engine.errors import ScoringError
from scoring.engine.rules import Rules
from scoring.engine.shapes import shape_report
from scoring.engine.tiles import counts_of, parse_tiles, tile_name
from scoring.options import ruleset_engine_rules
from scoring.selectors import ruleset_get
from taikai.text import lone_surrogate_message, lone_surrogate_path

DEFAULT_RULESET = "standard"
SHAPE_KEYS = frozenset(("id", "tiles"))
MAX_CONCEALED_TILES = 14

# Labels a person reads next to the result's keys (hand-format.md).
YAKU_LABELS = {
    "riichi": "立直 Riichi",
    "double_riichi": "ダブル立直 Double riichi",
    "ippatsu": "一発 Ippatsu",
    "menzen_tsumo": "門前清自摸和 Fully concealed tsumo",
    "haitei": "海底摸月 Haitei (last draw)",
    "houtei": "河底撈魚 Houtei (last discard)",
    "rinshan": "嶺上開花 Rinshan kaihou",
    "chankan": "槍槓 Chankan (robbing a kan)",
    "pinfu": "平和 Pinfu",
    "tanyao": "断么九 Tanyao (all simples)",
    "iipeikou": "一盃口 Iipeikou",
    "ryanpeikou": "二盃口 Ryanpeikou",
    "yakuhai_haku": "役牌 白 White dragon",
    "yakuhai_hatsu": "役牌 發 Green dragon",
    "yakuhai_chun": "役牌 中 Red dragon",
    "seat_wind": "自風 Seat wind",
    "round_wind": "場風 Round wind",
    "sanshoku": "三色同順 Mixed triple sequence",
    "ittsu": "一気通貫 Pure straight",
    "chanta": "混全帯么九 Chanta",
    "junchan": "純全帯么九 Junchan",
    "chiitoitsu": "七対子 Seven pairs",
    "toitoi": "対々和 All triplets",
    "sanankou": "三暗刻 Three concealed triplets",
    "honroutou": "混老頭 All terminals and honors",
    "sankantsu": "三槓子 Three kans",
    "sanshoku_doukou": "三色同刻 Triple triplets",
    "shousangen": "小三元 Little three dragons",
    "honitsu": "混一色 Half flush",
    "chinitsu": "清一色 Full flush",
    "dora": "ドラ Dora",
    "aka_dora": "赤ドラ Red fives",
    "ura_dora": "裏ドラ Ura dora",
    "tenhou": "天和 Tenhou",
    "chiihou": "地和 Chiihou",
    "tsuuiisou": "字一色 All honors",
    "suuankou": "四暗刻 Four concealed triplets",
    "ryuuiisou": "緑一色 All green",
    "shousuushii": "小四喜 Little four winds",
    "daisuushii": "大四喜 Big four winds",
    "daisangen": "大三元 Big three dragons",
    "chuuren": "九蓮宝燈 Nine gates",
    "chinroutou": "清老頭 All terminals",
    "kokushi": "国士無双 Thirteen orphans",
    "suukantsu": "四槓子 Four kans",
}
FU_LABELS = {
    "base": "副底 base",
    "closed_triplet": "暗刻 concealed triplet",
    "open_triplet": "明刻 open triplet",
    "closed_kan": "暗槓 concealed kan",
    "open_kan": "明槓 open kan",
    "value_pair": "役牌雀頭 value pair",
    "double_wind_pair": "連風牌 double-wind pair",
    "tanki": "単騎 pair wait",
    "kanchan": "嵌張 closed wait",
    "penchan": "辺張 edge wait",
    "tsumo": "ツモ符 tsumo",
    "closed_ron": "門前加符 concealed ron",
    "open_pinfu": "喰い平和 open pinfu shape",
    "chiitoitsu": "七対子 seven pairs",
}


@dataclass(frozen=True)
class Outcome:
    """A response body and whether it reports an error (HTTP 400)."""

    body: dict
    is_error: bool


def error_body(request_id: object, code: str, message: str) -> dict:
    return {"id": request_id, "error": {"code": code, "message": message}}


def _reject_constant(name: str):
    """NaN and Infinity are not JSON (RFC 8259), although Python's parser accepts them."""
    raise ValueError(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(f"{text} is out of range")
    return value


def parse_json_object(body: bytes) -> dict:
    """The request body as a JSON object; raises ``ScoringError("invalid_json")`` otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScoringError("invalid_json", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise ScoringError("invalid_json", f"not valid JSON: {exc.msg} (column {exc.colno})") from exc
    except (ValueError, RecursionError) as exc:  # a 5000-digit integer, NaN, 1e400, [[[[...]]]]
        raise ScoringError("invalid_json", f"not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ScoringError("invalid_json", "the body must be a JSON object")
    where = lone_surrogate_path(value)
    if where is not None:
        raise ScoringError("invalid_json", f"not valid JSON text: {lone_surrogate_message(where)}")
    return value


def players_count(raw: str | None, *, standard: int) -> int:
    """Players at the table ``m``: 2 up to the ruleset's ``s`` (a short table pays by the reference
    scheme, seed 000 §3); the ruleset's own ``s`` when not given."""
    if raw is None or raw == "":
        return standard
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2) or not 2 <= int(raw) <= standard:  # not "²"
        raise ScoringError(
            "invalid_parameter", f"players must be one of 2..{standard}, got {raw[:20]!a}", field="players"
        )
    return int(raw)


def rules_for_slug(slug: str, *, players: str | None = None) -> Rules:
    """The engine rules of a stored ruleset for a table of ``players``; ``unknown_ruleset``,
    ``invalid_parameter`` or ``invalid_ruleset`` otherwise."""
    ruleset = ruleset_get(slug=slug)
    if ruleset is None:
        raise ScoringError("unknown_ruleset", f"no ruleset with slug {slug[:100]!r}", field="ruleset")
    table_size = players_count(players, standard=ruleset.standard_players)
    try:
        return ruleset_engine_rules(ruleset, players=table_size)
    except (ValueError, ZeroDivisionError) as exc:  # ScoringError, or a stored value that is not a number
        raise ScoringError("invalid_ruleset", f"ruleset {slug!r} cannot be used: {exc}") from exc


def evaluate_body(
    body: bytes, *, ruleset: str = DEFAULT_RULESET, players: str | None = None, with_shape: bool = False
) -> Outcome:
    """hand-format.md: one request object in the body → its result, or an error with a stable code."""
    try:
        request = parse_json_object(body)
    except ScoringError as error:
        return Outcome({"id": None, "error": error.as_dict()}, is_error=True)
    request_id = request.get("id")
    try:
        rules = rules_for_slug(ruleset, players=players)
    except ScoringError as error:
        return Outcome({"id": request_id, "error": error.as_dict()}, is_error=True)
    result = evaluate(request, rules)
    if "error" in result:
        return Outcome(result, is_error=True)
    if with_shape:
        result["shape"] = shape_report(request["hand"]["tiles"])  # already read by evaluate
    return Outcome(result, is_error=False)


def concealed_tiles(raw: object) -> list[int]:
    """A concealed part the shape report can read: 1-14 tiles, not a multiple of three, ≤ 4 copies."""
    indices, _ = parse_tiles(raw, field="tiles")
    if not indices or len(indices) > MAX_CONCEALED_TILES or len(indices) % 3 == 0:
        raise ScoringError(
            "wrong_tile_count",
            f"tiles has {len(indices)} tiles; a concealed part has 13 or 14 (fewer with melds: "
            f"14 − 3 × melds, or one less while waiting)",
            field="tiles",
        )
    counts = counts_of(indices)
    if max(counts) > 4:
        index = counts.index(max(counts))
        raise ScoringError(
            "too_many_copies", f"{tile_name(index)} appears {counts[index]} times (at most 4)", field="tiles"
        )
    return indices


def shape_body(body: bytes) -> Outcome:
    """``{"tiles": "..."}`` → seed 003's shape report (models, shanten, waits or decompositions)."""
    request_id = None
    try:
        request = parse_json_object(body)
        request_id = request.get("id")
        unknown = set(request) - SHAPE_KEYS
        if unknown:
            raise ScoringError("invalid_request", f"unknown request keys: {', '.join(sorted(unknown))}")
        if "tiles" not in request:
            raise ScoringError("invalid_request", "tiles is required", field="tiles")
        report = shape_report(concealed_tiles(request["tiles"]))
    except ScoringError as error:
        return Outcome({"id": request_id, "error": error.as_dict()}, is_error=True)
    return Outcome(report, is_error=False)


def _json_default(value):
    """Exact amounts that are not integers (fractional φ, κ or ε) are written as ``"n/d"``."""
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def outcome_json(outcome: Outcome) -> tuple[str, bool]:
    """The body as JSON text. An amount too long to write out (a honba count of thousands of digits)
    is the request's fault, so it is reported as an ``invalid_request`` error rather than a crash."""
    try:
        return json.dumps(outcome.body, ensure_ascii=False, default=_json_default, allow_nan=False), (
            outcome.is_error
        )
    except (ValueError, RecursionError) as exc:
        request_id = outcome.body.get("id")
        fallback = error_body(None, "invalid_request", f"the result cannot be written as JSON: {exc}")
        try:
            text = json.dumps({**fallback, "id": request_id}, ensure_ascii=False, allow_nan=False)
        except (ValueError, RecursionError):
            text = json.dumps(fallback)
        return text, True
