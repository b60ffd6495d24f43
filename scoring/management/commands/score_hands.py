"""``score_hands``: JSON Lines in (``../shared/hand-format.md`` requests), one result per line out."""

import json
import math
import sys
from fractions import Fraction

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import evaluate
from scoring.selectors import ruleset_get_engine_rules


def _reject_constant(name: str):
    """NaN and Infinity are not JSON (RFC 8259), although Python's parser accepts them."""
    raise ValueError(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(f"{text} is out of range")
    return value


def _invalid_json(message: str) -> dict:
    return {"id": None, "error": {"code": "invalid_json", "message": message}}


def result_line_for(line: str, rules) -> dict:
    try:
        request = json.loads(line, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        return _invalid_json(f"not valid JSON: {exc.msg} (column {exc.colno})")
    except (ValueError, RecursionError) as exc:
        return _invalid_json(f"not valid JSON: {exc}")
    if not isinstance(request, dict):
        return _invalid_json("each line must be a JSON object")
    return evaluate(request, rules)


def _json_default(value):
    """Exact amounts that are not integers (fractional φ, κ or ε) are written as ``"n/d"``."""
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def result_text(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, default=_json_default, allow_nan=False)


class Command(BaseCommand):
    help = "Score hands written as JSON Lines (one request per line) from FILE or stdin."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="JSON Lines file; stdin when omitted or '-'")
        parser.add_argument("--ruleset", default="standard", help="ruleset slug (default: standard)")

    def handle(self, *args, file=None, ruleset="standard", **options):
        try:
            rules = ruleset_get_engine_rules(slug=ruleset)
        except (ValueError, ZeroDivisionError) as exc:  # ScoringError, or a stored value that is not a number
            raise CommandError(f"invalid_ruleset: {ruleset}: {exc}") from exc
        if rules is None:
            raise CommandError(f"unknown_ruleset: no ruleset with slug {ruleset!r}")
        if file in (None, "-"):
            stream = sys.stdin
        else:
            try:
                stream = open(file, encoding="utf-8")  # noqa: SIM115 -- closed below
            except OSError as exc:
                raise CommandError(f"file_not_found: {file}: {exc.strerror}") from exc
        out = self.stdout._out
        try:
            for raw in stream:
                line = raw.strip()
                if not line:
                    continue
                out.write(result_text(result_line_for(line, rules)) + "\n")
        except UnicodeDecodeError as exc:
            raise CommandError(f"invalid_encoding: the input is not UTF-8 ({exc.reason})") from exc
        finally:
            if stream is not sys.stdin:
                stream.close()
