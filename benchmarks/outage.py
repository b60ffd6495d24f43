"""Redis killed mid-run: what the site answers, how long writes take, and whether anything is lost.

Starts a Redis of its own on a free port (never the machine's) and gunicorn with the cache and the broker on
it (the README's production settings: one Redis for both), on the environment's ``DATABASE_URL``. Builds an
event of ``--clients`` × ``--tables`` tables; each client (a thread, its own keep-alive connection, one API
token) records three hands at a table then confirms its result (which queues the standings recompute), and
reads the event page and the standings between writes. Redis is killed after ``--before`` seconds and
started again ``--down`` seconds later; the run goes on ``--after`` seconds more.

Prints, per phase (before, down, after): requests by status, write times (p50, p95, max), then the records
lost (writes answered 201/200 whose rows are not in the database) and the queued tasks left once flushed.
Targets (issue 24): 0 server errors, 0 lost, writes ≤ 1.5 s.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/taikai_bench python benchmarks/outage.py
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.public_pages import free_port, serve  # noqa: E402

SLUG = "outage-bench"
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": []}


def start_redis(port: int, directory: str) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            directory,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.3)
    return server


def build_event(tables: int) -> tuple[str, list[int]]:
    """A public event of ``tables`` × 4 players, its round seated; a referee token and the table ids."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from players.models import Player
    from scoring.models import Ruleset
    from scoring.presets import install_presets
    from tournament.models import Entry, Event
    from tournament.services.rounds import round_create
    from tournament.services.tokens import api_token_issue

    install_presets(Ruleset)
    Event.objects.filter(slug=SLUG).delete()
    event = Event.objects.create(
        name="Outage bench", slug=SLUG, ruleset=Ruleset.objects.get(slug="standard"), is_public=True
    )
    players = Player.objects.bulk_create(Player(display_name=f"Bench {i:05d}") for i in range(tables * 4))
    entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    ids = [e.pk for e in entries]
    round_ = round_create(event=event, tables=[ids[i : i + 4] for i in range(0, len(ids), 4)])
    secret = api_token_issue(event=event, name="bench", scope="referee").secret
    return secret, list(round_.tables.order_by("number").values_list("pk", flat=True))


class Run:
    def __init__(self, port: int, secret: str):
        self.port, self.secret = port, secret
        self.phase = "before"
        self.stop = threading.Event()
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.write_seconds: dict[str, list[float]] = defaultdict(list)
        self.hands_ok = 0
        self.results_ok: set[int] = set()
        self.lock = threading.Lock()

    def request(self, connection, method: str, path: str, body=None) -> tuple[int, float]:
        headers = {"Host": "127.0.0.1", "Authorization": f"Bearer {self.secret}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        started = time.monotonic()
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except OSError:
            status = 0  # the connection failed
            connection.close()
        seconds = time.monotonic() - started
        with self.lock:
            self.statuses[self.phase][status] += 1
            if method == "POST":
                self.write_seconds[self.phase].append(seconds)
        return status, seconds

    def client(self, tables: list[int]) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        for table in tables:
            for number in (1, 2, 3):
                if self.stop.is_set():
                    return
                status, _ = self.request(
                    connection, "POST", f"/api/v1/tables/{table}/hands", {"number": number, **DRAW}
                )
                if status == 201:
                    with self.lock:
                        self.hands_ok += 1
                self.request(connection, "GET", f"/events/{SLUG}/")
                self.request(connection, "GET", f"/api/v1/events/{SLUG}/standings")
            status, _ = self.request(connection, "POST", f"/api/v1/tables/{table}/result", {})
            if status in (200, 201):
                with self.lock:
                    self.results_ok.add(table)


def percentile(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(share * len(values)))] if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--tables", type=int, default=40, help="tables per client")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--before", type=float, default=5)
    parser.add_argument("--down", type=float, default=10)
    parser.add_argument("--after", type=float, default=10)
    args = parser.parse_args()

    redis_port, web_port = free_port(), free_port()
    directory = tempfile.mkdtemp(prefix="taikai-outage-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{directory}/outage.sqlite3")  # never the demo's database
    os.environ["CACHE_URL"] = f"redis://127.0.0.1:{redis_port}/1"
    os.environ["CELERY_BROKER_URL"] = os.environ["CELERY_RESULT_BACKEND"] = f"redis://127.0.0.1:{redis_port}/0"
    import django

    redis = start_redis(redis_port, directory)
    django.setup()
    secret, tables = build_event(args.clients * args.tables)
    log = open(Path(directory) / "gunicorn.log", "w")  # noqa: SIM115 -- for the whole run
    server = serve(web_port, args.workers, log)
    run = Run(web_port, secret)
    threads = [threading.Thread(target=run.client, args=(tables[i :: args.clients],)) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(args.before)
        redis.kill()
        redis.wait()
        run.phase = "down"
        time.sleep(args.down)
        redis = start_redis(redis_port, directory)
        run.phase = "after"
        time.sleep(args.after)
    finally:
        run.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        server.terminate()
        server.wait(timeout=30)

    from core.models import QueuedTask
    from core.queue import queued_tasks_flush
    from tournament.models import HandVersion, SeatResult

    print(
        f"Redis killed after {args.before:g} s, down {args.down:g} s, then {args.after:g} s more; "
        f"{args.clients} clients, gunicorn {args.workers} workers, {os.environ['DATABASE_URL']}"
    )
    print(f"{'phase':8} {'requests by status':42} {'writes':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for phase in ("before", "down", "after"):
        seconds = run.write_seconds[phase]
        by_status = ", ".join(f"{status or 'failed'}: {count}" for status, count in sorted(run.statuses[phase].items()))
        print(
            f"{phase:8} {by_status:42} {len(seconds):7} {1000 * statistics.median(seconds) if seconds else 0:7.0f} "
            f"{1000 * percentile(seconds, 0.95):7.0f} {1000 * max(seconds, default=0):7.0f}"
        )
    server_errors = sum(count for c in run.statuses.values() for status, count in c.items() if status >= 500)
    stored_hands = HandVersion.objects.filter(hand__table__round__event__slug=SLUG).count()
    stored_results = SeatResult.objects.filter(table_id__in=run.results_ok, is_current=True).values("table").distinct()
    waiting_before_flush = QueuedTask.objects.count()
    report = queued_tasks_flush(grace_seconds=0)
    print(f"server errors: {server_errors}")
    print(f"hands answered 201: {run.hands_ok}, stored: {stored_hands}, lost: {max(0, run.hands_ok - stored_hands)}")
    print(
        f"results answered 200: {len(run.results_ok)}, stored: {stored_results.count()}, "
        f"lost: {len(run.results_ok) - stored_results.count()}"
    )
    # no worker runs here: the flush (core.queue.QUEUE_FLUSH) asked for when the broker came back waits on its queue
    print(f"queued tasks: {waiting_before_flush} rows waiting after the run (no worker); flushed here: {report}")
    redis.kill()


if __name__ == "__main__":
    main()
