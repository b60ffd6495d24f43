"""``score_table``: print the quick-reference score table 点数早見表 (seed 002) as JSON, CSV or HTML.

The parameters come from a ruleset (``--ruleset SLUG``, default ``standard``) or from a scheme of
seed 000 (``--scheme NAME``); every symbol of seed 000 can be set on top of either. Numbers are
read exactly: ``12.5`` and ``4/3`` are fractions, never floats.

Errors are one line with a stable code prefix (``invalid_parameter: ...``, ``unknown_ruleset: ...``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, replace
from fractions import Fraction

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.engine.errors import ScoringError
from scoring.engine.params import SCHEME_PRESETS, SCHEMES, LimitOptions, SchemeParams
from scoring.engine.score_table import render_csv, render_html, score_table
from scoring.models import Ruleset
from scoring.options import ruleset_engine_rules
from scoring.selectors import ruleset_get

FORMATS = ("json", "csv", "html")

# Seed 000's symbols: option name -> (SchemeParams field, kind). "fraction" accepts 2, 12.5 or 4/3.
SCHEME_OPTIONS = {
    "players": ("players", "integer"),  # m  当事人数
    "dealers": ("dealers", "integer"),  # ω  荘家人数
    "kappa": ("kappa", "fraction"),  # κ  散家係数
    "epsilon": ("epsilon", "fraction"),  # ε  荘家係数
    "theta": ("theta", "fraction"),  # θ  内基準値
    "phi": ("phi", "fraction"),  # φ  外基準値
    "honba_unit": ("honba_unit", "integer"),  # a  加算係数
    "standard": ("standard", "integer"),  # s  標準人数
    "min_han": ("min_han", "integer"),  # v0 最小合翻数
    "bazoro": ("bazoro", "integer"),  # 場揃
}
LIMIT_OPTIONS = ("kiriage_mangan", "kazoe_yakuman", "yakuman_stack")

# A scheme named on the command line starts from its seed-000 example where it has one
# (simple doubling: v0 = 3); every other scheme starts from the standard four-player values.
SCHEME_STARTING_POINTS = {"simple_doubling": SCHEME_PRESETS["simple_doubling"]}


def parse_option(option: str, text: str, kind: str) -> int | Fraction:
    """An option's value, exactly; ``CommandError`` ``invalid_parameter`` naming the option otherwise."""
    flag = "--" + option.replace("_", "-")
    try:
        if kind == "integer":
            return int(text.strip())
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        if kind == "integer":
            message = _("%(option)s must be an integer, not %(value)s")
        else:
            message = _("%(option)s must be a number such as 2, 12.5 or 4/3, not %(value)s")
        message %= {"option": flag, "value": repr(text)}
        raise CommandError(f"invalid_parameter: {message}") from None


def _engine_error(error: ScoringError) -> CommandError:
    field = f" ({error.field})" if error.field else ""
    return CommandError(f"{error.code}: {error.message}{field}")


def table_parameters(
    *, ruleset_slug: str | None, scheme: str | None, overrides: dict, limit_overrides: dict
) -> tuple[SchemeParams, LimitOptions, Ruleset | None]:
    """The engine parameters a table is printed for, and the ruleset they came from (if any).

    With a ruleset, ``m`` defaults to its standard players ``s`` and a table of fewer players uses
    the ruleset's reference scheme (seed 000 §3), as at a real table.
    """
    if ruleset_slug is not None and scheme is not None:
        message = _("give %(ruleset)s or %(scheme)s, not both") % {
            "ruleset": "--ruleset",
            "scheme": "--scheme",
        }
        raise CommandError(f"invalid_parameter: {message}")
    try:
        if scheme is not None:
            if scheme not in SCHEMES:
                message = _("unknown scheme %(scheme)s (one of %(schemes)s)") % {
                    "scheme": repr(scheme),
                    "schemes": ", ".join(SCHEMES),
                }
                raise CommandError(f"invalid_parameter: {message}")
            params = replace(SCHEME_STARTING_POINTS.get(scheme, SchemeParams()), scheme=scheme, **overrides)
            limits, ruleset = LimitOptions(), None
        else:
            slug = ruleset_slug or "standard"
            ruleset = ruleset_get(slug=slug)
            if ruleset is None:
                message = _("no ruleset with slug %(slug)s") % {"slug": repr(slug)}
                raise CommandError(f"unknown_ruleset: {message}")
            params, limits = _ruleset_parameters(ruleset, overrides)
        return params, replace(limits, **limit_overrides), ruleset
    except ScoringError as error:
        raise _engine_error(error) from error


def _ruleset_parameters(ruleset: Ruleset, overrides: dict) -> tuple[SchemeParams, LimitOptions]:
    if "standard" in overrides:  # s also decides whether the reference scheme applies
        ruleset.standard_players = overrides["standard"]
    players = overrides.get("players", ruleset.standard_players)
    try:
        rules = ruleset_engine_rules(ruleset, players=players)
    except ScoringError:
        raise
    except (ValueError, ZeroDivisionError) as error:  # a stored value that is not a number
        raise CommandError(f"invalid_ruleset: {ruleset.slug}: {error}") from error
    return replace(rules.scheme, **overrides), rules.limits


def table_document(params: SchemeParams, limits: LimitOptions, *, ruleset: Ruleset | None, honba: int) -> dict:
    """The JSON output: the parameters used, then one row per table entry."""
    rows = [row.as_json() for row in score_table(params, limits, honba=honba)]
    return {
        "ruleset": ruleset.slug if ruleset else None,
        "parameters": {key: _json_value(value) for key, value in asdict(params).items()},
        "limits": asdict(limits),
        "honba": honba,
        "rows": rows,
    }


def render_json(document: dict) -> str:
    """The document as JSON with one table row per line, so it reads (and diffs) like a table."""
    head = {key: value for key, value in document.items() if key != "rows"}
    rows = ",\n ".join(json.dumps(row, ensure_ascii=False) for row in document["rows"])
    return json.dumps(head, ensure_ascii=False)[:-1] + ', "rows": [\n ' + rows + "\n]}\n"


def _json_value(value):
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def table_title(params: SchemeParams, *, ruleset: Ruleset | None, honba: int) -> str:
    source = ruleset.translated_name if ruleset else _("scheme %(scheme)s") % {"scheme": params.scheme}
    if honba:
        return _("点数早見表 score table — %(source)s, %(players)s players, %(honba)s 本場 honba") % {
            "source": source,
            "players": params.players,
            "honba": honba,
        }
    return _("点数早見表 score table — %(source)s, %(players)s players") % {
        "source": source,
        "players": params.players,
    }


class Command(BaseCommand):
    help = (
        "Print the quick-reference score table 早見表 (han 1-4 by fu, and the limits; dealer and "
        "non-dealer; ron and tsumo) of a ruleset or of a payment scheme of seed 000."
    )

    def add_arguments(self, parser):
        parser.add_argument("--ruleset", help="ruleset slug (default: standard)")
        parser.add_argument("--scheme", help=f"a scheme of seed 000 instead of a ruleset: {', '.join(SCHEMES)}")
        parser.add_argument("--players", help="m, players party to a win (default: the ruleset's s, or 4)")
        parser.add_argument("--dealers", help="ω, dealers among them (1)")
        parser.add_argument("--kappa", help="κ, non-dealer coefficient (1)")
        parser.add_argument("--epsilon", help="ε, dealer coefficient (2)")
        parser.add_argument("--theta", help="θ, fu rounding base (10)")
        parser.add_argument("--phi", help="φ, smallest unit exchanged (100)")
        parser.add_argument("--honba-unit", dest="honba_unit", help="a, honba add-on per payer (100)")
        parser.add_argument("--honba", default="0", help="t, honba count the table is priced at (0)")
        parser.add_argument("--standard", help="s, reference party count (4)")
        parser.add_argument("--min-han", dest="min_han", help="v0, minimum total han (simple doubling: 3)")
        parser.add_argument("--bazoro", help="bazoro han 場ゾロ added to every hand (2)")
        parser.add_argument("--kiriage-mangan", action=argparse.BooleanOptionalAction, default=None)
        parser.add_argument("--kazoe-yakuman", action=argparse.BooleanOptionalAction, default=None)
        parser.add_argument("--yakuman-stack", action=argparse.BooleanOptionalAction, default=None)
        parser.add_argument("--format", default="json", help="json (default), csv or html")

    def handle(self, *args, **options):
        output_format = options["format"]
        if output_format not in FORMATS:
            message = _("%(option)s must be one of %(formats)s") % {
                "option": "--format",
                "formats": ", ".join(FORMATS),
            }
            raise CommandError(f"invalid_parameter: {message}")
        overrides = {
            field: parse_option(name, options[name], kind)
            for name, (field, kind) in SCHEME_OPTIONS.items()
            if options.get(name) is not None
        }
        honba = parse_option("honba", options["honba"], "integer")
        if honba < 0:
            message = _("%(option)s must not be negative") % {"option": "--honba"}
            raise CommandError(f"invalid_parameter: {message}")
        limit_overrides = {name: options[name] for name in LIMIT_OPTIONS if options.get(name) is not None}
        params, limits, ruleset = table_parameters(
            ruleset_slug=options.get("ruleset"),
            scheme=options.get("scheme"),
            overrides=overrides,
            limit_overrides=limit_overrides,
        )
        try:
            if output_format == "json":
                text = render_json(table_document(params, limits, ruleset=ruleset, honba=honba))
            elif output_format == "csv":
                text = render_csv(score_table(params, limits, honba=honba))
            else:
                title = table_title(params, ruleset=ruleset, honba=honba)
                text = render_html(score_table(params, limits, honba=honba), title=title)
        except ScoringError as error:
            raise _engine_error(error) from error
        self.stdout.write(text, ending="")
