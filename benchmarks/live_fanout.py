"""How fast a recorded hand reaches every open live stream, and what an open stream costs the server.

Starts uvicorn (the production ASGI server) on a free loopback port with the environment's ``DATABASE_URL``
and the live bus on Redis (``LIVE_BUS_URL``, else ``CACHE_URL``: the hand is recorded in this process and
reaches the server's processes through Redis), builds a small public event with one table, opens
``--listeners`` streams of that event (``GET /events/<slug>/live``), then records ``--hands`` hands through
the services, one every ``--every`` seconds. For each hand it prints the time from the call to the moment
50 %, 99 % and 100 % of the streams had it, the CPU time the stream workers used meanwhile divided by the
open streams (from /proc: the work a message costs per stream, uvicorn's writing and the system's included,
whatever else loads the machine), and the server's memory per open stream (the growth of the resident memory
of its processes while the streams opened, divided by their number).

Bounded in count and time: at most 20,000 listeners, a connection that does not open in ``--open-timeout``
seconds counts as failed, a hand not seen after ``--wait`` seconds counts as missed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/taikai_bench LIVE_BUS_URL=redis://127.0.0.1:6379/9 \\
        python benchmarks/live_fanout.py --listeners 5000 [--workers 1] [--hold 120]

``--hold S`` keeps the streams open S seconds after the hands, to run ``benchmarks/public_pages.py``
meanwhile (the pages must still meet their targets with the streams open).

``--via-api`` runs the README's set-up instead ("Running at scale"): gunicorn with ``--workers`` uvicorn
workers for the streams (``config.asgi``) and gunicorn's ordinary workers for the site (``config.wsgi``), and
each hand is recorded by a referee's ``POST /api/v1/tables/<id>/hands`` (a plain HTTP client, timed from the
moment the request is sent). While the streams are open it prints Redis's client count (``INFO clients``)
and the connections by name (``CLIENT LIST``: the cache's, the bus's, its reader's), per web process.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/taikai_bench CACHE_URL=redis://127.0.0.1:6379/8 \\
        CELERY_BROKER_URL=redis://127.0.0.1:6379/9 python benchmarks/live_fanout.py --via-api \\
        --listeners 10000 --workers 2 --hands 6
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.public_pages import free_port  # noqa: E402

MAX_LISTENERS = 20_000
TARGET_P99_S = 1.0


def serve(port: int, workers: int, log) -> subprocess.Popen:
    # Every listener here comes from one address: the per-address limit of streams is lifted above them.
    env = dict(os.environ, DEBUG="0", PYTHONPATH=str(ROOT), LIVE_STREAMS_PER_ADDRESS=str(MAX_LISTENERS + 100))
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--no-access-log",
        "--backlog",
        "8192",
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)


def gunicorn(application: str, port: int, workers: int, log, *, streams: bool) -> subprocess.Popen:
    """A node as the README runs it: gunicorn with uvicorn workers for the streams, its own for the site."""
    env = dict(os.environ, DEBUG="0", PYTHONPATH=str(ROOT), LIVE_STREAMS_PER_ADDRESS=str(MAX_LISTENERS + 100))
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    command = [sys.executable, "-m", "gunicorn", application, "-c", "deploy/gunicorn.conf.py"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--backlog", "8192"]
    if streams:
        command += ["-k", "uvicorn_worker.UvicornWorker"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)


def wait_until_up(port: int, log) -> None:
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"uvicorn did not answer /healthz (its log: {log.name})")


def resident_kib(root_pid: int) -> int:
    """The resident memory of a process and its children, in KiB (Linux /proc)."""
    total, pids = 0, [root_pid]
    while pids:
        pid = pids.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except (OSError, StopIteration):
            continue
        pids.extend(int(child) for child in children)
    return total


def cpu_seconds(root_pid: int) -> float:
    """The CPU time (user and system) a server's processes (its master and workers) have used, in seconds
    (Linux /proc): what a hand costs the stream workers, whatever else runs on the machine."""
    total, pids = 0, [root_pid]
    while pids:
        pid = pids.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except (OSError, IndexError):
            continue
        pids.extend(int(child) for child in children)
    return total / os.sysconf("SC_CLK_TCK")


def referee_secret(table) -> str:
    """A new referee token of the table's event: what a tablet at the table sends."""
    from tournament.services.tokens import api_token_issue

    return api_token_issue(event=table.round.event, name="live bench referee", scope="referee").secret


def post_hand(port: int, secret: str, table_id: int, number: int) -> int:
    """``POST /api/v1/tables/<id>/hands``: an exhaustive draw; the answer's status."""
    body = json.dumps({"number": number, "outcome": "exhaustive_draw", "dealer_position": 0})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(
            "POST",
            f"/api/v1/tables/{table_id}/hands",
            body=body,
            headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json", "Host": "127.0.0.1"},
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def redis_clients(url: str) -> tuple[int, dict[str, int]]:
    """Redis's ``connected_clients`` (the one asking left out) and its connections counted by name."""
    import redis

    asking = redis.Redis.from_url(url)
    try:
        me = asking.client_id()
        connected = int(asking.info("clients")["connected_clients"]) - 1
        named: dict[str, int] = {}
        for client in asking.client_list():
            if int(client["id"]) != me:
                named[client["name"] or "(no name)"] = named.get(client["name"] or "(no name)", 0) + 1
        return connected, dict(sorted(named.items()))
    finally:
        asking.close()


def let_go_of_redis() -> None:
    """Close this process's own Redis connections (its cache's and its bus's), so that Redis counts the
    servers' only."""
    from django.core.cache import cache

    from live.bus import the_bus

    client = getattr(cache, "_cache", None)
    if client is not None and hasattr(client, "get_client"):
        client.get_client().connection_pool.disconnect()
    bus = the_bus()
    if hasattr(bus, "redis"):
        bus.redis.connection_pool.disconnect()


def processes_of(root_pid: int) -> int:
    """The processes of a server: its master and its workers."""
    found, pids = 0, [root_pid]
    while pids:
        pid = pids.pop()
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        found += 1
        pids.extend(int(child) for child in children)
    return found


def bench_table(slug: str):
    """A public event with one table of a published round, on the standard rules."""
    import django

    django.setup()
    from players.models import Player
    from scoring.models import Ruleset
    from scoring.presets import install_presets
    from tournament.models import Entry, Event
    from tournament.services.rounds import round_create

    install_presets(Ruleset)
    event = Event.objects.create(
        name="Live bench", slug=slug, ruleset=Ruleset.objects.get(slug="standard"), is_public=True
    )
    people = Player.objects.bulk_create(Player(display_name=f"Bench {slug} {i}") for i in range(4))
    entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
    round_ = round_create(event=event, tables=[[e.pk for e in entries]])
    return round_.tables.get()


class Listener:
    def __init__(self) -> None:
        self.seen: list[float] = []  # when each hand arrived (monotonic)
        self.opened = False


async def listen(
    port: int, path: str, listener: Listener, opened: asyncio.Semaphore, stop: asyncio.Event, open_timeout: float
) -> None:
    try:
        async with opened:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), open_timeout)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            buffer = b""
            while b"stream open" not in buffer:
                chunk = await asyncio.wait_for(reader.read(4096), open_timeout)
                if not chunk:
                    return
                buffer += chunk
        listener.opened = True
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer = buffer[-32:] + chunk
            for _ in range(chunk.count(b"event: hand\n")):
                listener.seen.append(time.monotonic())
    except (TimeoutError, OSError):
        return


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Recorder:
    """How a hand is recorded: through the services in this process, or by a POST to the REST API."""

    def __init__(self, table, web_port: int | None, secret: str = "") -> None:
        self.table, self.web_port, self.secret = table, web_port, secret

    async def record(self, number: int) -> str:
        """Record hand ``number``; what the write answered."""
        if self.web_port is None:
            from asgiref.sync import sync_to_async

            from tournament.services.hands import hand_record

            draw = {"outcome": "exhaustive_draw", "dealer_position": 0}
            await sync_to_async(hand_record, thread_sensitive=True)(
                table=self.table, number=number, expected_version=0, data=draw
            )
            return "recorded"
        status = await asyncio.to_thread(post_hand, self.web_port, self.secret, self.table.pk, number)
        if status != 201:
            sys.exit(f"POST of hand {number} answered {status}")
        return "201"


async def run(args, port: int, servers: list[subprocess.Popen], recorder: Recorder) -> None:
    path = f"/events/{recorder.table.round.event.slug}/live"
    before = sum(resident_kib(server.pid) for server in servers[:1])
    listeners = [Listener() for _ in range(args.listeners)]
    stop, opened = asyncio.Event(), asyncio.Semaphore(200)
    began = time.monotonic()
    tasks = [asyncio.create_task(listen(port, path, one, opened, stop, args.open_timeout)) for one in listeners]
    deadline = time.monotonic() + args.open_timeout + args.listeners / 100
    while time.monotonic() < deadline and sum(one.opened for one in listeners) < args.listeners:
        await asyncio.sleep(0.2)
    open_count = sum(one.opened for one in listeners)
    await asyncio.sleep(1)
    after = sum(resident_kib(server.pid) for server in servers[:1])
    print(
        f"{open_count} of {args.listeners} streams open in {time.monotonic() - began:.1f} s; server memory "
        f"{before / 1024:.0f} → {after / 1024:.0f} MiB: {(after - before) / max(open_count, 1):.1f} KiB a stream"
    )
    redis_report(servers)

    # The listeners' own pauses must not count as the server's: no garbage collection in this process
    # while the hands go out (the server keeps its own).
    gc.collect()
    gc.disable()
    timed_from = "the POST" if recorder.web_port else "the service call"
    print(
        f"| hand | write ({timed_from}) | 50 % | 99 % | 100 % | missed | stream workers' CPU a stream "
        "| target p99 ≤ 1 s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    worst_p99, missed_total = 0.0, 0
    for number in range(1, args.hands + 1):
        cpu = cpu_seconds(servers[0].pid)
        sent = time.monotonic()
        await recorder.record(number)
        write_ms = (time.monotonic() - sent) * 1000
        wait_until = time.monotonic() + args.wait
        while (
            time.monotonic() < wait_until
            and sum(len(one.seen) >= number for one in listeners if one.opened) < open_count
        ):
            await asyncio.sleep(0.01)
        delays = [one.seen[number - 1] - sent for one in listeners if one.opened and len(one.seen) >= number]
        cpu_us = (cpu_seconds(servers[0].pid) - cpu) / max(open_count, 1) * 1e6
        missed = open_count - len(delays)
        missed_total += missed
        if delays:
            p50, p99, worst = percentile(delays, 0.5), percentile(delays, 0.99), max(delays)
            worst_p99 = max(worst_p99, p99)
            print(
                f"| {number} | {write_ms:.0f} ms | {p50 * 1000:.0f} ms | "
                f"{p99 * 1000:.0f} ms | {worst * 1000:.0f} ms | {missed} | {cpu_us:.0f} µs | "
                f"{'met' if p99 <= TARGET_P99_S and not missed else 'NOT met'} |"
            )
        else:
            worst_p99 = float("inf")
            print(f"| {number} | {write_ms:.0f} ms | – | – | – | {missed} | {cpu_us:.0f} µs | NOT met |")
        await asyncio.sleep(args.every)
    print(
        f"{args.hands} hands, {open_count} streams: worst p99 {worst_p99 * 1000:.0f} ms, "
        f"(stream, hand) pairs missed {missed_total} of {open_count * args.hands}"
    )
    redis_report(servers)
    if args.hold:
        print(f"holding the {open_count} streams open for {args.hold} s")
        await asyncio.sleep(args.hold)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def redis_report(servers: list[subprocess.Popen]) -> None:
    """Redis's clients while the streams are open, by name, and per process of the servers."""
    url = os.environ.get("LIVE_BUS_URL") or os.environ["CACHE_URL"]
    connected, named = redis_clients(url)
    workers = sum(processes_of(server.pid) for server in servers) - len(servers)  # the masters hold none
    print(
        f"Redis connected_clients {connected} (this benchmark's own left out; {workers} worker processes: "
        f"{connected / max(workers, 1):.1f} a process): "
        + ", ".join(f"{name} {count}" for name, count in named.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listeners", type=int, default=1000, help="streams to open (default 1000)")
    parser.add_argument("--workers", type=int, default=1, help="stream worker processes (default 1)")
    parser.add_argument("--hands", type=int, default=3, help="hands to record (default 3)")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between hands (default 2)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for a hand (default 10)")
    parser.add_argument("--open-timeout", type=float, default=30.0, help="seconds for a stream to open")
    parser.add_argument("--hold", type=float, default=0.0, help="seconds to keep the streams open at the end")
    parser.add_argument(
        "--via-api", action="store_true", help="the README's gunicorn set-up; each hand POSTed to the REST API"
    )
    parser.add_argument("--web-workers", type=int, default=2, help="--via-api: the site's gunicorn workers")
    args = parser.parse_args()
    if not 1 <= args.listeners <= MAX_LISTENERS:
        sys.exit(f"--listeners must be between 1 and {MAX_LISTENERS}")
    if not (os.environ.get("LIVE_BUS_URL") or os.environ.get("CACHE_URL")):
        sys.exit("set LIVE_BUS_URL (or CACHE_URL) to a Redis: the hands are recorded in this process")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.listeners * 2 + 1024)), hard))
    table = bench_table(f"live-bench-{int(time.time())}")
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="live_fanout-server-", suffix=".log", delete=False)  # noqa: SIM115
    servers: list[subprocess.Popen] = []
    try:
        if args.via_api:
            servers.append(gunicorn("config.asgi:application", port, args.workers, log, streams=True))
            web_port = free_port()
            servers.append(gunicorn("config.wsgi", web_port, args.web_workers, log, streams=False))
            wait_until_up(web_port, log)
            recorder = Recorder(table, web_port, referee_secret(table))
            kind = f"gunicorn: {args.workers} uvicorn stream worker(s), {args.web_workers} web worker(s), API POST"
        else:
            servers.append(serve(port, args.workers, log))
            recorder = Recorder(table, None)
            kind = f"uvicorn {args.workers} worker(s)"
        wait_until_up(port, log)
        from django.db import connection

        if args.via_api:
            let_go_of_redis()  # the set-up's connections are not the servers'
        print(f"{kind}, {connection.vendor}, bus {os.environ.get('LIVE_BUS_URL') or os.environ['CACHE_URL']}")
        import uvloop  # the listeners' own loop, as light as the servers': their lag is not the servers'

        uvloop.run(run(args, port, servers, recorder))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
