"""Throughput and latency of the public pages and the referee console's table list under load, each as a
share of ``/healthz``'s throughput measured in the same run (the server's own speed on this machine).

Starts gunicorn on a free loopback port with the environment's ``DATABASE_URL`` (and ``CACHE_URL`` when
set), then for each page runs a closed loop: ``--clients`` clients (processes, keep-alive connections)
each send ``--requests`` requests one after the other. Prints req/s, p50, p95, the ratio to /healthz
and whether the page meets the targets (at least 30 % of /healthz's req/s, p95 at most 500 ms).

Run on an event built by ``manage.py build_bench_event`` (``--next-round`` gives the console tables to
list and the seating page the moment between rounds)::

    python manage.py build_bench_event --players 10000 --rounds 10 --slug bench --next-round
    python benchmarks/public_pages.py --slug bench [--workers 3] [--clients 20] [--requests 20]

``--during-recompute`` measures the pages again while another process recomputes the event's standings
over and over (each one replaces every row and makes every cached standings part stale): pages must not
stall while it runs. The recomputes' times are printed too.

The console is read as an organizer of the event: a user ``bench-organizer`` (no password) is given the
role and a session, whose cookie the clients send.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

TARGET_SHARE = 0.30
TARGET_P95_MS = 500
BENCH_ORGANIZER = "bench-organizer"


@dataclass
class Page:
    name: str
    paths: list[str]  # the clients go round these (players' pages, searches)
    cookie: str = ""


@dataclass
class Figures:
    page: Page
    rate: float
    p50_ms: float
    p95_ms: float
    alone_ms: float
    kib: float
    errors: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pages_of(slug: str, *, players: int) -> list[Page]:
    """The pages to measure on event ``slug``, with the organizer's session for the console."""
    import django

    django.setup()
    from django.core.paginator import Paginator

    from tournament import selectors, views
    from tournament.models import Entry
    from tournament.simulation.bulk import bench_player_name

    event = selectors.event_get_public(slug)
    if event is None:
        sys.exit(f"no public event {slug!r}: build one with manage.py build_bench_event")
    round_ = selectors.event_latest_published_round(event)
    entries = list(Entry.objects.filter(event=event).order_by("?").values_list("pk", flat=True)[:players])
    count = Entry.objects.filter(event=event).count()
    deep = Paginator(range(count), views.STANDINGS_PER_PAGE).num_pages
    names = [bench_player_name(n)[0] for n in (1, 17, 333, 4242, 9000)]
    queries = [quote(name.rsplit(" ", 1)[0]) for name in names]  # family and given name: a few dozen players
    base = f"/events/{slug}"
    pages = [
        Page("event home", [f"{base}/"]),
        Page("standings, first page", [f"{base}/standings/"]),
        Page("standings, deep page", [f"{base}/standings/?page={deep}"]),
        Page("standings, search", [f"{base}/standings/?q={q}" for q in queries]),
        Page(f"round {round_.number} seating", [f"{base}/rounds/{round_.number}/"]),
        Page(f"round {round_.number} find my table", [f"{base}/rounds/{round_.number}/?q={q}" for q in queries]),
        Page("player's page", [f"{base}/players/{entry_id}/" for entry_id in entries]),
        Page("console: my tables", ["/console/"], cookie=organizer_session(event)),
    ]
    return pages


def organizer_session(event) -> str:
    """A session cookie of ``bench-organizer``, an organizer of ``event`` (the role given if missing)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from tournament.models import EventRole
    from tournament.services.roles import role_grant

    user, _ = get_user_model().objects.get_or_create(username=BENCH_ORGANIZER)
    if not EventRole.objects.filter(
        event=event, user=user, kind=EventRole.Kind.ORGANIZER, revoked_at__isnull=True
    ).exists():
        role_grant(event=event, user=user, kind=EventRole.Kind.ORGANIZER)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def _client(port: int, paths: list[str], cookie: str, requests: int, offset: int, start_at: float, out) -> None:
    """One client: ``requests`` requests in a closed loop on one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Host": "127.0.0.1", "Accept-Encoding": "identity"} | ({"Cookie": cookie} if cookie else {})
    times, size, errors = [], 0, 0
    while time.time() < start_at:
        time.sleep(0.001)
    for i in range(requests):
        path = paths[(offset + i * 7) % len(paths)]
        started = time.perf_counter()
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                errors += 1
            size += len(body)
        except (OSError, http.client.HTTPException):
            errors += 1
            connection.close()
        times.append(time.perf_counter() - started)
    connection.close()
    out.put((times, size, errors, time.time()))


def measure(page: Page, port: int, *, clients: int, requests: int) -> Figures:
    alone = []
    for path in page.paths[:3] * 2:  # one client alone, after a first request that warms the caches
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Host": "127.0.0.1"} | ({"Cookie": page.cookie} if page.cookie else {})
        started = time.perf_counter()
        connection.request("GET", path, headers=headers)
        connection.getresponse().read()
        alone.append(time.perf_counter() - started)
        connection.close()
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    start_at = time.time() + 0.5
    processes = [
        context.Process(target=_client, args=(port, page.paths, page.cookie, requests, n * 13, start_at, out))
        for n in range(clients)
    ]
    for process in processes:
        process.start()
    results = [out.get() for _ in processes]
    for process in processes:
        process.join()
    times = sorted(t for result in results for t in result[0])
    elapsed = max(result[3] for result in results) - start_at
    size = sum(result[1] for result in results)
    return Figures(
        page=page,
        rate=len(times) / elapsed,
        p50_ms=statistics.median(times) * 1000,
        p95_ms=times[min(len(times) - 1, int(len(times) * 0.95))] * 1000,
        alone_ms=statistics.median(alone[len(alone) // 2 :]) * 1000,
        kib=size / len(times) / 1024,
        errors=sum(result[2] for result in results),
    )


def _recompute_loop(event_id: int, stop, out) -> None:
    """Recompute the event's standings again and again until ``stop`` is set; report each one's time."""
    import django
    from django.db import connection

    django.setup()
    connection.close()
    from tournament.services.standings import standings_recompute

    times = []
    while not stop.is_set():
        started = time.perf_counter()
        standings_recompute(event_id=event_id)
        times.append(time.perf_counter() - started)
    out.put(times)


def serve(port: int, workers: int, log, *, asgi: bool = False, extra: Sequence[str] = ()) -> subprocess.Popen:
    """gunicorn on ``port``: WSGI, or (``asgi``) uvicorn workers as the README's production runs it; ``extra``:
    more of its arguments."""
    env = dict(os.environ, DEBUG="0", PYTHONPATH=str(ROOT))
    application = ["config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"] if asgi else ["config.wsgi"]
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        *application,
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--timeout",
        "120",
        *extra,
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    sys.exit(f"gunicorn did not answer /healthz (its log: {log.name})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slug", default="bench")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (default 3)")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (default 20)")
    parser.add_argument("--requests", type=int, default=20, help="requests per client per page (default 20)")
    parser.add_argument("--players", type=int, default=500, help="players' pages to go round (default 500)")
    parser.add_argument("--only", help="measure only the pages whose name contains this")
    parser.add_argument("--asgi", action="store_true", help="serve with uvicorn workers (ASGI), as in production")
    parser.add_argument(
        "--during-recompute", action="store_true", help="measure while the standings are recomputed again and again"
    )
    args = parser.parse_args()
    pages = pages_of(args.slug, players=args.players)
    from tournament import selectors

    event_id = selectors.event_get_public(args.slug).pk
    if args.only:
        pages = [page for page in pages if args.only in page.name]
    from django.db import connection

    vendor, cache = connection.vendor, "redis" if os.environ.get("CACHE_URL") else "local memory"
    connection.close()
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="public_pages-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
    server = serve(port, args.workers, log, asgi=args.asgi)
    health = Page("/healthz", ["/healthz"])
    figures, health_rates = [], []
    try:
        for page in pages:  # each worker lays out what it caches, as after a deploy
            for path in page.paths[:2]:
                for _ in range(args.workers):
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                    c.request("GET", path, headers={"Host": "127.0.0.1", "Cookie": page.cookie})
                    c.getresponse().read()
        # /healthz before and after each page: the machine's speed drifts (other work on it)
        health_rates.append(measure(health, port, clients=args.clients, requests=args.requests * 2).rate)
        context = multiprocessing.get_context("fork")
        stop, recomputes = context.Event(), context.Queue()
        if args.during_recompute:
            recomputer = context.Process(target=_recompute_loop, args=(event_id, stop, recomputes))
            recomputer.start()
        for page in pages:
            figures.append(measure(page, port, clients=args.clients, requests=args.requests))
            health_rates.append(measure(health, port, clients=args.clients, requests=args.requests * 2).rate)
        if args.during_recompute:
            stop.set()
            recompute_times = recomputes.get()
            recomputer.join()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    during = ", while the standings are recomputed" if args.during_recompute else ""
    print(
        f"{args.slug} on {vendor}, cache {cache}{during}: gunicorn {args.workers} "
        f"{'uvicorn ' if args.asgi else ''}workers, {args.clients} clients × "
        f"{args.requests} requests per page; /healthz {min(health_rates):.0f}–{max(health_rates):.0f} req/s"
    )
    print(
        f"| {'page':28} | {'req/s':>6} | {'/healthz':>8} | {'ratio':>5} | {'p50 ms':>6} | {'p95 ms':>6} "
        f"| {'alone ms':>8} | {'KiB':>6} | target |"
    )
    print(f"|{'-' * 30}|{'-' * 8}|{'-' * 10}|{'-' * 7}|{'-' * 8}|{'-' * 8}|{'-' * 10}|{'-' * 8}|--------|")
    failed = 0
    for n, f in enumerate(figures):
        reference = (health_rates[n] + health_rates[n + 1]) / 2
        share = f.rate / reference
        ok = share >= TARGET_SHARE and f.p95_ms <= TARGET_P95_MS and not f.errors
        failed += not ok
        errors = f" ({f.errors} errors)" if f.errors else ""
        print(
            f"| {f.page.name:28} | {f.rate:6.0f} | {reference:8.0f} | {share:5.0%} | {f.p50_ms:6.0f} | "
            f"{f.p95_ms:6.0f} | {f.alone_ms:8.0f} | {f.kib:6.1f} | {'met' if ok else 'MISSED'}{errors} |"
        )
    print(
        f"targets: ≥ {TARGET_SHARE:.0%} of /healthz's req/s and p95 ≤ {TARGET_P95_MS} ms; "
        f"{len(figures) - failed} of {len(figures)} pages meet them"
    )
    if args.during_recompute and recompute_times:
        print(
            f"during {len(recompute_times)} standings recomputes: median {statistics.median(recompute_times):.2f} s, "
            f"longest {max(recompute_times):.2f} s"
        )
    if any(f.errors for f in figures):
        print(f"errors: see the server's log {log.name}")


if __name__ == "__main__":
    main()
