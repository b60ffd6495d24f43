"""Seat the next round from a JSON request on stdin (``shared/seating-protocol.md``); JSON on stdout.

The same engine as the Celery seating task and the admin's "seat next round" action. A bad request
prints ``{"error": {"code", "message"}}`` on stdout and exits with status 2; stdin that is not JSON
gets the code ``invalid_json``.

``--replay ROUND --event SLUG`` draws a seated round again from its seed instead, writing nothing: it prints
the tables drawn and whether they equal the stored ones (exit status 1 when they differ).
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from taikai.text import lone_surrogate_message, lone_surrogate_path
from tournament import selectors
from tournament.engine.pairing import seat_round
from tournament.services.seating import round_seating_replay

BAD_REQUEST_STATUS = 2
REPLAY_DIFFERS_STATUS = 1


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

    def add_arguments(self, parser):
        parser.add_argument(
            "--replay", type=int, metavar="ROUND", help="draw this seated round again from its seed (writes nothing)"
        )
        parser.add_argument("--event", metavar="SLUG", help="the event of the round to replay")

    def handle(self, *args, replay=None, event=None, **options):
        if replay is not None:
            return self.replay(replay, event)
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

    def replay(self, number: int, slug: str | None) -> None:
        """Print the round drawn again from its seed, table by table, and whether it equals the stored one."""
        if not slug:
            raise CommandError(_("--replay needs --event SLUG"))
        event = selectors.event_get(slug)
        round_ = selectors.event_round(event, number) if event is not None else None
        if round_ is None:
            raise CommandError(_("no round %(round)s in the event %(event)s") % {"round": number, "event": slug})
        try:
            replay = round_seating_replay(round_=round_)
        except TaikaiError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        names = {row[0]: row[2] for row in selectors.event_entry_rows(event)}
        self.stdout.write(
            _("%(event)s, round %(round)s, drawn again with the seed %(seed)s:")
            % {"event": event, "round": number, "seed": replay["seed"]}
        )
        if replay["rebuilt"]:
            self.stdout.write(_("(its request was rebuilt from the records as they are now)"))
        for table_number, table in enumerate(replay["tables"], start=1):
            players = ", ".join(f"{names.get(entry_id, entry_id)} [{entry_id}]" for entry_id in table)
            self.stdout.write(_("table %(table)s: %(players)s") % {"table": table_number, "players": players})
        if replay["equal"]:
            self.stdout.write(_("The replay equals the stored seating."))
            return
        differing = [
            str(n)
            for n, (drawn, stored) in enumerate(zip(replay["tables"], replay["stored"], strict=False), start=1)
            if drawn != stored
        ]
        if len(replay["tables"]) != len(replay["stored"]):
            differing.append(_("the number of tables"))
        self.stdout.write(
            _("The replay differs from the stored seating (tables %(tables)s).") % {"tables": ", ".join(differing)}
        )
        raise CommandError(_("the replay differs from the stored seating"), returncode=REPLAY_DIFFERS_STATUS)
