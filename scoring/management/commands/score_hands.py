"""``score_hands``: JSON Lines in (``../shared/hand-format.md`` requests), one result per line out."""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.calculator import Outcome, outcome_json, parse_json_object
from scoring.engine import evaluate
from scoring.engine.errors import ScoringError
from scoring.selectors import ruleset_get_engine_rules


def result_line_for(line: bytes, rules, *, number: int | None = None) -> dict:
    """One request line (its bytes) → its result object (an error object for bad input; never raises).
    A line that is not UTF-8, not JSON, or holds a lone surrogate is ``invalid_json``, naming the line."""
    try:
        request = parse_json_object(line)
    except ScoringError as error:
        body = error.as_dict()
        if number is not None:
            body["message"] = f"line {number}: {body['message']}"
        return {"id": None, "error": body}
    return evaluate(request, rules)


def result_text(result: dict) -> str:
    return outcome_json(Outcome(result, is_error="error" in result))[0]


def input_lines(stream):
    """The stream's lines as bytes, each decoded on its own: a bad byte spoils its line only."""
    for raw in getattr(stream, "buffer", stream):
        yield raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")


class Command(BaseCommand):
    help = (
        "Score hands written as JSON Lines (one request per line) from FILE or stdin. A bad line (not UTF-8, "
        "not JSON, not a valid hand) gives its error object and the command goes on with the next."
    )

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
                stream = open(file, "rb")  # noqa: SIM115 -- closed below
            except OSError as exc:
                raise CommandError(f"file_not_found: {file}: {exc.strerror}") from exc
        out = self.stdout._out
        try:
            for number, raw in enumerate(input_lines(stream), start=1):
                line = raw.strip()
                if not line:
                    continue
                out.write(result_text(result_line_for(line, rules, number=number)) + "\n")
        finally:
            if stream is not sys.stdin:
                stream.close()
