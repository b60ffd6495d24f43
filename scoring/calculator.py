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

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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

# Labels a person reads next to the result's keys (hand-format.md); lazy, read in the page's language.
YAKU_LABELS = {
    "riichi": gettext_lazy("立直 Riichi"),
    "double_riichi": gettext_lazy("ダブル立直 Double riichi"),
    "ippatsu": gettext_lazy("一発 Ippatsu"),
    "menzen_tsumo": gettext_lazy("門前清自摸和 Fully concealed tsumo"),
    "haitei": gettext_lazy("海底摸月 Haitei (last draw)"),
    "houtei": gettext_lazy("河底撈魚 Houtei (last discard)"),
    "rinshan": gettext_lazy("嶺上開花 Rinshan kaihou"),
    "chankan": gettext_lazy("槍槓 Chankan (robbing a kan)"),
    "pinfu": gettext_lazy("平和 Pinfu"),
    "tanyao": gettext_lazy("断么九 Tanyao (all simples)"),
    "iipeikou": gettext_lazy("一盃口 Iipeikou"),
    "ryanpeikou": gettext_lazy("二盃口 Ryanpeikou"),
    "yakuhai_haku": gettext_lazy("役牌 白 White dragon"),
    "yakuhai_hatsu": gettext_lazy("役牌 發 Green dragon"),
    "yakuhai_chun": gettext_lazy("役牌 中 Red dragon"),
    "seat_wind": gettext_lazy("自風 Seat wind"),
    "round_wind": gettext_lazy("場風 Round wind"),
    "sanshoku": gettext_lazy("三色同順 Mixed triple sequence"),
    "ittsu": gettext_lazy("一気通貫 Pure straight"),
    "chanta": gettext_lazy("混全帯么九 Chanta"),
    "junchan": gettext_lazy("純全帯么九 Junchan"),
    "chiitoitsu": gettext_lazy("七対子 Seven pairs"),
    "toitoi": gettext_lazy("対々和 All triplets"),
    "sanankou": gettext_lazy("三暗刻 Three concealed triplets"),
    "honroutou": gettext_lazy("混老頭 All terminals and honors"),
    "sankantsu": gettext_lazy("三槓子 Three kans"),
    "sanshoku_doukou": gettext_lazy("三色同刻 Triple triplets"),
    "shousangen": gettext_lazy("小三元 Little three dragons"),
    "honitsu": gettext_lazy("混一色 Half flush"),
    "chinitsu": gettext_lazy("清一色 Full flush"),
    "dora": gettext_lazy("ドラ Dora"),
    "aka_dora": gettext_lazy("赤ドラ Red fives"),
    "ura_dora": gettext_lazy("裏ドラ Ura dora"),
    "tenhou": gettext_lazy("天和 Tenhou"),
    "chiihou": gettext_lazy("地和 Chiihou"),
    "tsuuiisou": gettext_lazy("字一色 All honors"),
    "suuankou": gettext_lazy("四暗刻 Four concealed triplets"),
    "ryuuiisou": gettext_lazy("緑一色 All green"),
    "shousuushii": gettext_lazy("小四喜 Little four winds"),
    "daisuushii": gettext_lazy("大四喜 Big four winds"),
    "daisangen": gettext_lazy("大三元 Big three dragons"),
    "chuuren": gettext_lazy("九蓮宝燈 Nine gates"),
    "chinroutou": gettext_lazy("清老頭 All terminals"),
    "kokushi": gettext_lazy("国士無双 Thirteen orphans"),
    "suukantsu": gettext_lazy("四槓子 Four kans"),
}
FU_LABELS = {
    "base": gettext_lazy("副底 base"),
    "closed_triplet": gettext_lazy("暗刻 concealed triplet"),
    "open_triplet": gettext_lazy("明刻 open triplet"),
    "closed_kan": gettext_lazy("暗槓 concealed kan"),
    "open_kan": gettext_lazy("明槓 open kan"),
    "value_pair": gettext_lazy("役牌雀頭 value pair"),
    "double_wind_pair": gettext_lazy("連風牌 double-wind pair"),
    "tanki": gettext_lazy("単騎 pair wait"),
    "kanchan": gettext_lazy("嵌張 closed wait"),
    "penchan": gettext_lazy("辺張 edge wait"),
    "tsumo": gettext_lazy("ツモ符 tsumo"),
    "closed_ron": gettext_lazy("門前加符 concealed ron"),
    "open_pinfu": gettext_lazy("喰い平和 open pinfu shape"),
    "chiitoitsu": gettext_lazy("七対子 seven pairs"),
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
    raise ValueError(_("%(name)s is not a JSON value") % {"name": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(_("%(number)s is out of range") % {"number": text})
    return value


def parse_json_object(body: bytes) -> dict:
    """The request body as a JSON object; raises ``ScoringError("invalid_json")`` otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScoringError(
            "invalid_json",
            _("the body is not UTF-8 (%(reason)s at byte %(byte)s)") % {"reason": exc.reason, "byte": exc.start},
        ) from exc
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise ScoringError(
            "invalid_json",
            # Translators: error is the JSON parser's own message (in English).
            _("not valid JSON: %(error)s (column %(column)s)") % {"error": exc.msg, "column": exc.colno},
        ) from exc
    except (ValueError, RecursionError) as exc:  # a 5000-digit integer, NaN, 1e400, [[[[...]]]]
        raise ScoringError("invalid_json", _("not valid JSON: %(error)s") % {"error": exc}) from exc
    if not isinstance(value, dict):
        raise ScoringError("invalid_json", _("the body must be a JSON object"))
    where = lone_surrogate_path(value)
    if where is not None:
        raise ScoringError(
            "invalid_json", _("not valid JSON text: %(problem)s") % {"problem": lone_surrogate_message(where)}
        )
    return value


def players_count(raw: str | None, *, standard: int) -> int:
    """Players at the table ``m``: 2 up to the ruleset's ``s`` (a short table pays by the reference
    scheme, seed 000 §3); the ruleset's own ``s`` when not given."""
    if raw is None or raw == "":
        return standard
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2) or not 2 <= int(raw) <= standard:  # not "²"
        raise ScoringError(
            "invalid_parameter",
            _("players must be one of 2..%(standard)s, got %(raw)s") % {"standard": standard, "raw": ascii(raw[:20])},
            field="players",
        )
    return int(raw)


def rules_for_slug(slug: str, *, players: str | None = None) -> Rules:
    """The engine rules of a stored ruleset for a table of ``players``; ``unknown_ruleset``,
    ``invalid_parameter`` or ``invalid_ruleset`` otherwise."""
    ruleset = ruleset_get(slug=slug)
    if ruleset is None:
        raise ScoringError(
            "unknown_ruleset",
            _("no ruleset with slug %(slug)s") % {"slug": repr(slug[:100])},
            field="ruleset",
        )
    table_size = players_count(players, standard=ruleset.standard_players)
    try:
        return ruleset_engine_rules(ruleset, players=table_size)
    except (ValueError, ZeroDivisionError) as exc:  # ScoringError, or a stored value that is not a number
        raise ScoringError(
            "invalid_ruleset",
            _("ruleset %(slug)s cannot be used: %(error)s") % {"slug": repr(slug), "error": exc},
        ) from exc


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
    indices, _red = parse_tiles(raw, field="tiles")
    if not indices or len(indices) > MAX_CONCEALED_TILES or len(indices) % 3 == 0:
        raise ScoringError(
            "wrong_tile_count",
            _(
                "tiles has %(count)s tiles; a concealed part has 13 or 14 (fewer with melds: 14 − 3 × melds, or "
                "one less while waiting)"
            )
            % {"count": len(indices)},
            field="tiles",
        )
    counts = counts_of(indices)
    if max(counts) > 4:
        index = counts.index(max(counts))
        raise ScoringError(
            "too_many_copies",
            # Translators: tile is a tile in MPSZ notation (5m, 7z).
            _("%(tile)s appears %(count)s times (at most 4)") % {"tile": tile_name(index), "count": counts[index]},
            field="tiles",
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
            raise ScoringError(
                "invalid_request", _("unknown request keys: %(keys)s") % {"keys": ", ".join(sorted(unknown))}
            )
        if "tiles" not in request:
            raise ScoringError("invalid_request", _("tiles is required"), field="tiles")
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
        return json.dumps(outcome.body, ensure_ascii=False, default=_json_default, allow_nan=False), (outcome.is_error)
    except (ValueError, RecursionError) as exc:
        request_id = outcome.body.get("id")
        fallback = error_body(
            None, "invalid_request", _("the result cannot be written as JSON: %(error)s") % {"error": exc}
        )
        try:
            text = json.dumps({**fallback, "id": request_id}, ensure_ascii=False, allow_nan=False)
        except (ValueError, RecursionError):
            text = json.dumps(fallback)
        return text, True
