"""Importing online game logs: N copies of the six real Tenhou logs of the tests, each copy a distinct game
(its players renamed) and so a table of its own, through the service the API, the admin, the console and
``import_game_logs`` share. Prints logs per second, hands per second and the time per log (mean, median, p95),
and the same per log. Each log is imported into a free online league of its own rules (the three-player game
and the 2023 tournament lobby's custom rules need theirs). Uses the configured database (DATABASE_URL, else
the embedded SQLite file); everything runs in a transaction rolled back at the end, so the database is left as
it was.

Run: ``python benchmarks/game_logs.py [copies]`` (default 20: 120 logs).

``--via-api``: ``--logs`` logs (default 200, the six real ones renamed in turn) sent at once through the REST API
(``POST /api/v1/events/<slug>/game-logs``, an organizer token per league) by ``--threads`` threads (default 8),
each with its own connection, to gunicorn (``config.wsgi``, ``--workers`` workers, default 2) on a free loopback
port, against PostgreSQL database ``taikai_online_bench`` (made anew and migrated at each run) and Redis db 4.
Prints logs per second, the time per log (sent → answered: median, p95, max), the answers by status and the
tables recorded (read from the database)::

    python benchmarks/game_logs.py --via-api [--logs 200] [--threads 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.offline_sync import database_create
from benchmarks.outage import percentile
from benchmarks.public_pages import free_port, serve

API_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/taikai_online_bench"
API_REDIS = "redis://127.0.0.1:6379/4"
LOGS = Path(__file__).resolve().parent.parent / "tests" / "gamelogs" / "logs" / "tenhou"
NAME = re.compile(r'(<UN[^>]*?\bn(\d)=")([^"]*)(")')


class Rollback(Exception):
    pass


def renamed(text: str, copy: int) -> str:
    """The same game with its players renamed for this copy: another game, other players, another table."""

    def rename(match: re.Match) -> str:
        if not match.group(3):  # the empty fourth seat of a three-player game
            return match.group(0)
        return f"{match.group(1)}{quote(f'bench{copy}-seat{match.group(2)}')}{match.group(4)}"

    return NAME.sub(rename, text, count=4)


def league_for(name: str, text: str):
    """A free online league under a copy of the Tenhou preset with the log's own rules (players, start points,
    red fives, open tanyao)."""
    from gamelogs.engine import read_tenhou_xml
    from gamelogs.services import online_league_create
    from scoring.models import Ruleset

    rules = read_tenhou_xml(text).rules
    preset = Ruleset.objects.get(slug="tenhou")
    fields = {f.name: getattr(preset, f.name) for f in Ruleset._meta.concrete_fields if f.name != "id"}
    slug = f"bench-{name.removesuffix('.xml')}"
    ruleset = Ruleset.objects.create(
        **{
            **fields,
            "name": slug,
            "slug": slug,
            "standard_players": rules.players,
            "start_points": rules.start_points or preset.start_points,
            "aka_dora": rules.aka_dora,
            "open_tanyao": rules.open_tanyao,
        }
    )
    return online_league_create(slug=slug, ruleset_slug=ruleset.slug)


def main(copies: int) -> None:
    """Through the service, in one transaction rolled back at the end."""
    import django

    django.setup()
    from django.db import connection, transaction

    from gamelogs.engine import read_tenhou_xml
    from gamelogs.services import game_log_import

    logs = {path.name: path.read_text() for path in sorted(LOGS.glob("*.xml"))}
    times: dict[str, list[float]] = {name: [] for name in logs}
    hands = 0
    try:
        with transaction.atomic():
            leagues = {name: league_for(name, text) for name, text in logs.items()}
            started = time.perf_counter()
            for copy in range(copies):
                for name, text in logs.items():
                    data = renamed(text, copy).encode()
                    one = time.perf_counter()
                    with transaction.atomic():
                        record = game_log_import(event=leagues[name], data=data)
                    times[name].append(time.perf_counter() - one)
                    hands += record.hands
            total = time.perf_counter() - started
            raise Rollback
    except Rollback:
        pass
    every = sorted(t for per_log in times.values() for t in per_log)
    count = len(every)
    print(f"{count} logs ({copies} copies of {len(logs)}), {hands} hands, database {connection.vendor}")
    print(f"  {count / total:7.1f} logs/s   {hands / total:8.1f} hands/s   {total:6.2f} s in all")
    print(
        f"  per log: mean {1000 * statistics.fmean(every):6.1f} ms   median {1000 * statistics.median(every):6.1f} ms"
        f"   p95 {1000 * every[int(0.95 * (count - 1))]:6.1f} ms"
    )
    for name, per_log in times.items():
        game = read_tenhou_xml(logs[name])
        print(
            f"  {name:16s} {len(game.hands):3d} hands   mean {1000 * statistics.fmean(per_log):6.1f} ms"
            f"   max {1000 * max(per_log):6.1f} ms"
        )


def via_api(count: int, threads: int, workers: int) -> None:
    """``count`` logs sent at once through the REST API to gunicorn on PostgreSQL, ``threads`` at a time."""
    os.environ["DATABASE_URL"] = API_DATABASE_URL
    os.environ["CACHE_URL"] = API_REDIS
    os.environ["CELERY_BROKER_URL"] = os.environ["CELERY_RESULT_BACKEND"] = API_REDIS
    database_create(API_DATABASE_URL)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from gamelogs.models import GameLogImport
    from scoring.models import Ruleset
    from scoring.presets import install_presets
    from tournament.services.tokens import api_token_issue

    call_command("migrate", verbosity=0)
    install_presets(Ruleset)
    logs = {path.name: path.read_text() for path in sorted(LOGS.glob("*.xml"))}
    leagues = {name: league_for(name, text) for name, text in logs.items()}
    secrets = {
        name: api_token_issue(event=league, name="league bot", scope="organizer").secret
        for name, league in leagues.items()
    }
    names = list(logs)
    queue = [(names[n % len(names)], renamed(logs[names[n % len(names)]], n // len(names))) for n in range(count)]
    connection.close()
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="game_logs-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
    server = serve(port, workers, log)
    times: list[float] = []
    statuses: Counter = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(threads)

    def send_some(mine: list[tuple[str, str]]) -> None:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        barrier.wait()
        for name, text in mine:
            headers = {"Content-Type": "application/xml", "Authorization": f"Bearer {secrets[name]}"}
            one = time.perf_counter()
            client.request(
                "POST", f"/api/v1/events/{leagues[name].slug}/game-logs", body=text.encode(), headers=headers
            )
            response = client.getresponse()
            response.read()
            with lock:
                times.append(time.perf_counter() - one)
                statuses[response.status] += 1
        client.close()

    try:
        senders = [threading.Thread(target=send_some, args=(queue[t::threads],)) for t in range(threads)]
        started = time.perf_counter()
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        total = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    recorded = GameLogImport.objects.filter(event__in=leagues.values()).count()
    print(
        f"{count} logs sent at once through the API by {threads} threads; gunicorn {workers} workers, "
        f"PostgreSQL taikai_online_bench"
    )
    print(f"  {count / total:7.1f} logs/s   {total:6.2f} s in all")
    print(
        f"  per log (sent → answered): median {1000 * statistics.median(times):6.1f} ms   "
        f"p95 {1000 * percentile(times, 0.95):6.1f} ms   max {1000 * max(times):6.1f} ms"
    )
    print(f"  answers: {dict(sorted(statuses.items()))}   tables recorded: {recorded} of {count}")
    if statuses.keys() != {201}:
        print(f"  refusals or errors: see the server's log {log.name}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("copies", type=int, nargs="?", default=20, help="copies of the six logs (service only)")
    parser.add_argument("--via-api", action="store_true", help="through the REST API, gunicorn, PostgreSQL")
    parser.add_argument("--logs", type=int, default=200, help="logs sent through the API (default 200)")
    parser.add_argument("--threads", type=int, default=8, help="threads sending at once (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    args = parser.parse_args()
    if args.via_api:
        via_api(args.logs, args.threads, args.workers)
    else:
        main(args.copies)
