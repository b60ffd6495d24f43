"""``score_hands``: JSON Lines in (``../shared/hand-format.md`` requests), one result per line out."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import evaluate
from scoring.selectors import ruleset_get_engine_rules


def result_line_for(line: str, rules) -> dict:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": {"code": "invalid_json", "message": f"not valid JSON: {exc.msg} (column {exc.colno})"}}
    if not isinstance(request, dict):
        return {"id": None, "error": {"code": "invalid_json", "message": "each line must be a JSON object"}}
    return evaluate(request, rules)


class Command(BaseCommand):
    help = "Score hands written as JSON Lines (one request per line) from FILE or stdin."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="JSON Lines file; stdin when omitted or '-'")
        parser.add_argument("--ruleset", default="standard", help="ruleset slug (default: standard)")

    def handle(self, *args, file=None, ruleset="standard", **options):
        rules = ruleset_get_engine_rules(slug=ruleset)
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
                out.write(json.dumps(result_line_for(line, rules), ensure_ascii=False) + "\n")
        except UnicodeDecodeError as exc:
            raise CommandError(f"invalid_encoding: the input is not UTF-8 ({exc.reason})") from exc
        finally:
            if stream is not sys.stdin:
                stream.close()
