"""Seat the next round from a JSON request on stdin (``shared/seating-protocol.md``); JSON on stdout.

The same engine as the Celery seating task and the admin's "seat next round" action. A bad request
prints ``{"error": {"code", "message"}}`` on stdout and exits with status 2; stdin that is not JSON
gets the code ``invalid_json``.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.engine.pairing import seat_round

BAD_REQUEST_STATUS = 2


class Command(BaseCommand):
    help = "Read one seating request (JSON) on stdin and print the next round's seating (JSON) on stdout."

    def handle(self, *args, **options):
        text = sys.stdin.read()
        try:
            request = json.loads(text)
        except ValueError as error:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
            message = _("stdin is not valid JSON: %(error)s") % {"error": error}
            response = {"error": {"code": "invalid_json", "message": message}}
        else:
            response = seat_round(request)
        self.stdout.write(json.dumps(response, ensure_ascii=False))
        if "error" in response:
            self.stdout.flush()
            raise CommandError(
                f"{response['error']['code']}: {response['error']['message']}", returncode=BAD_REQUEST_STATUS
            )
