"""``score_hands``: JSON Lines in (``../shared/hand-format.md`` requests), one result per line out."""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.calculator import Outcome, outcome_json, parse_json_object
from scoring.engine import evaluate
from scoring.engine.errors import ScoringError
from scoring.selectors import ruleset_get_engine_rules


def result_line_for(line: str, rules) -> dict:
    """One request line → its result object (an error object for bad input; never raises)."""
    try:
        request = parse_json_object(line.encode("utf-8"))
    except ScoringError as error:
        return {"id": None, "error": error.as_dict()}
    return evaluate(request, rules)


def result_text(result: dict) -> str:
    return outcome_json(Outcome(result, is_error="error" in result))[0]


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
            message = _("no ruleset with slug %(slug)s") % {"slug": repr(ruleset)}
            raise CommandError(f"unknown_ruleset: {message}")
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
            message = _("the input is not UTF-8 (%(reason)s)") % {"reason": exc.reason}
            raise CommandError(f"invalid_encoding: {message}") from exc
        finally:
            if stream is not sys.stdin:
                stream.close()
