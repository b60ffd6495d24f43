"""Send the Celery work the broker did not take when it was asked for (the outbox), once or every N s."""

import time

from django.core.management.base import BaseCommand, CommandError

from tournament.services.queue import outbox_flush


class Command(BaseCommand):
    help = (
        "Send the queued work (standings, seatings, imports) the broker did not take, e.g. while it was "
        "down. Exit 1 when the broker is still unreachable. With --every, repeat until stopped."
    )

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=0, metavar="SECONDS", help="repeat every SECONDS")
        parser.add_argument(
            "--grace",
            type=float,
            default=None,
            metavar="SECONDS",
            help="leave rows younger than this to the request that wrote them (default 30)",
        )

    def handle(self, *args, every: float, grace: float | None, **options):
        kwargs = {} if grace is None else {"grace_seconds": grace}
        while True:
            report = outbox_flush(**kwargs)
            (self.stderr if report.error else self.stdout).write(str(report))
            if not every:
                if report.error:
                    raise CommandError(f"broker_unreachable: {report.waiting} request(s) still waiting")
                return
            time.sleep(every)
