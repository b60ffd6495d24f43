"""Send the Celery work the broker did not take when it was asked for (the queued tasks), once or every N s.

The command keeps the name it was first given (``flush_outbox``): timers and scripts call it so."""

import time

from django.core.management.base import BaseCommand, CommandError

from core.queue import queued_tasks_flush


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
            report = queued_tasks_flush(**kwargs)
            (self.stderr if report.error else self.stdout).write(str(report))
            if not every:
                if report.error:
                    raise CommandError(f"broker_unreachable: {report.waiting} request(s) still waiting")
                return
            time.sleep(every)
