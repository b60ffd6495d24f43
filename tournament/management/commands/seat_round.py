"""Seat the next round from a JSON request on stdin (``shared/seating-protocol.md``); JSON on stdout.

The same engine as the Celery seating task and the admin's "seat next round" action. A bad request
prints ``{"error": {"code", "message"}}`` on stdout and exits with status 2; stdin that is not JSON
gets the code ``invalid_json``.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from taikai.text import lone_surrogate_message, lone_surrogate_path
from tournament.engine.pairing import seat_round

BAD_REQUEST_STATUS = 2


def read_request(stdin) -> tuple[object, dict | None]:
    """The request on ``stdin``, or the protocol's ``invalid_json`` error: not UTF-8, not JSON, nested
    deeper than the parser goes, or holding a lone surrogate."""
    try:
        data = getattr(stdin, "buffer", stdin).read()
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        request = json.loads(text)
    except (
        ValueError,
        RecursionError,
    ) as error:  # JSONDecodeError, UnicodeDecodeError; [[[[…]]]] 100,000 deep
        message = _("nested too deeply") if isinstance(error, RecursionError) else str(error)
        message = _("stdin is not valid JSON: %(error)s") % {"error": message}
        return None, {"error": {"code": "invalid_json", "message": message}}
    where = lone_surrogate_path(request)
    if where is not None:
        message = _("stdin is not valid JSON text: %(problem)s") % {"problem": lone_surrogate_message(where)}
        return None, {"error": {"code": "invalid_json", "message": message}}
    return request, None


class Command(BaseCommand):
    help = "Read one seating request (JSON) on stdin and print the next round's seating (JSON) on stdout."

    def handle(self, *args, **options):
        request, response = read_request(sys.stdin)
        if response is None:
            try:
                response = seat_round(request)
            except RecursionError:  # a request nested too deeply for the engine's checks
                response = {"error": {"code": "invalid_request", "message": _("the request is nested too deeply")}}
        self.stdout.write(json.dumps(response, ensure_ascii=False))
        if "error" in response:
            self.stdout.flush()
            raise CommandError(
                f"{response['error']['code']}: {response['error']['message']}", returncode=BAD_REQUEST_STATUS
            )
