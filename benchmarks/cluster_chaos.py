"""The cluster under load, failed one piece at a time: nothing written may be lost or written twice, no live
stream may miss a hand, the seating must finish exactly once.

Brings up ``bin/cluster`` (nginx, two web nodes, two stream nodes, two Celery workers, beat) on a database of
its own, then through nginx: ``--tables`` tables record hands (half through the console's JSON path, signed
in as a referee, half through the REST API with a referee token; every write with an ``Idempotency-Key``, sent
again with the same key after a failure, as the console's outbox and a careful program do), ``--streams``
live streams of the event stay open (each reconnects through nginx with ``Last-Event-ID`` when its response
ends or its node dies), ``--readers`` clients read the public pages, and a seating job of ``--players`` players
is queued. Then, one at a time with recovery between, the faults:

* ``web``: ``kill -9`` one web node (its whole process group), restarted after ``--down`` seconds;
* ``stream``: ``kill -9`` one stream node, restarted the same way;
* ``worker``: ``kill -9`` the Celery worker running the seating, in its middle; the job is asked for again
  once it is seen stale (as an organizer's **Ask again** does) and the worker is restarted;
* ``redis``: the cluster's Redis restarted (``--own-services`` only: a Redis of its own);
* ``postgres``: PostgreSQL stopped for 10 s (``--own-services`` only: a PostgreSQL of its own).

For each fault: requests by status, the time from the fault until every client's requests succeed again.
At the end: writes lost (acknowledged, or sent and never answered, yet not in the database), duplicate
writes (a hand with more than one version), streams that reconnected and the hands they missed after
catching up (each stream must have seen every hand; a hand missed is counted by the streams that missed it, and
whether its message is on the bus at all tells a hand never published from one lost on its way to the streams),
the seating rounds written (exactly one), a backup made during the run restored and audited (``manage.py
restore_check``). Prints a table, and one JSON line last.

    python benchmarks/cluster_chaos.py                 # the full run: 40 tables, 2,000 streams, 20 readers
    python benchmarks/cluster_chaos.py --short         # CI's form, under 90 s: web and worker kills
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.chaos_load import (  # noqa: E402
    PASSWORD,
    REFEREE,
    SLUG,
    Reader,
    Stream,
    Tally,
    Writer,
    hands_for,
    streams_run,
)
from ops.cluster import Cluster  # noqa: E402

SEAT_SLUG = "chaos-seating"


# --- the data, written with Django in this process (the cluster's environment) -------------------------------


def django_for(cluster: Cluster) -> None:
    os.environ.update(cluster.env())
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


def prepare(tables: int, players: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from players.models import Player
    from scoring.models import Ruleset
    from scoring.presets import install_presets
    from tournament.models import Entry, Event, EventRole
    from tournament.services.roles import role_grant
    from tournament.services.rounds import round_create
    from tournament.services.tokens import api_token_issue

    install_presets(Ruleset)
    event = Event.objects.create(
        name="Chaos bench",
        slug=SLUG,
        ruleset=Ruleset.objects.get(slug="standard"),
        is_public=True,
        status=Event.Status.RUNNING,
    )
    people = Player.objects.bulk_create(Player(display_name=f"Chaos {i:05d}") for i in range(tables * 4))
    entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
    ids = [e.pk for e in entries]
    round_ = round_create(event=event, tables=[ids[i : i + 4] for i in range(0, len(ids), 4)])
    secret = api_token_issue(event=event, name="chaos", scope="referee").secret
    user, _ = get_user_model().objects.get_or_create(username=REFEREE)
    user.set_password(PASSWORD)
    user.save()
    role_grant(event=event, user=user, kind=EventRole.Kind.REFEREE)
    call_command("build_bench_event", players=players, rounds=2, slug=SEAT_SLUG, replace=True, verbosity=0)
    Event.objects.filter(slug=SEAT_SLUG).update(status=Event.Status.RUNNING)
    return {"secret": secret, "tables": list(round_.tables.order_by("number").values_list("pk", flat=True))}


def seating_ask() -> tuple[int, str]:
    from tournament.models import Event
    from tournament.services.seating import seating_job_request

    job = seating_job_request(event=Event.objects.get(slug=SEAT_SLUG))
    return job.pk, job.state


def seating_state(job_id: int) -> tuple[str, int, bool]:
    from django.db import close_old_connections

    from tournament.models import SeatingJob
    from tournament.services.seating import seating_job_stale

    close_old_connections()
    job = SeatingJob.objects.get(pk=job_id)
    return job.state, job.attempts, seating_job_stale(job)


def live_channels_forget() -> None:
    """The live channels of this run's events and tables, emptied before the streams open: an earlier run's
    events had the same ids (the database is made anew) and its messages stay on the bus for an hour, where
    they would be taken for this run's."""
    from live.bus import the_bus
    from live.publish import event_channel, table_channel
    from tournament.models import Event, Table

    events = list(Event.objects.filter(slug__in=[SLUG, SEAT_SLUG]).values_list("pk", flat=True))
    tables = Table.objects.filter(round__event_id__in=events).values_list("pk", flat=True)
    channels = [event_channel(pk) for pk in events] + [table_channel(pk) for pk in tables]
    the_bus().redis.delete(*(the_bus().key(channel) for channel in channels))


def missed_not_on_bus(missed: set[tuple[int, int]]) -> int | None:
    """How many of the hands the streams missed (table number, hand number) have no message on the event's
    channel: such a hand was never published (its write's process died between its commit and its message);
    one that is there was lost on its way to the streams. ``None`` when the bus cannot be read."""
    from live.bus import BusDown, the_bus
    from live.publish import event_channel
    from tournament.models import Event

    try:
        messages = the_bus().since(event_channel(Event.objects.get(slug=SLUG).pk), "0-0")
    except BusDown:
        return None
    on_bus = {(m.data["table_number"], m.data["number"]) for m in messages or () if m.type == "hand"}
    return len(missed - on_bus)


def missed_traces(streams: list[Stream], expected: set[tuple[int, int]]) -> dict | None:
    """For the hand most missed: its message on the bus with the ones either side, and what two streams that
    missed it did around it (each stream's connections, the Last-Event-ID each sent, the ids it received):
    whether a stream's ids jumped past the hand within one response, or it reconnected past it."""
    from live.bus import BusDown, id_key, the_bus
    from live.publish import event_channel
    from tournament.models import Event

    counted = Counter(pair for s in streams for pair in expected - s.seen)
    if not counted:
        return None
    (table, hand), _ = counted.most_common(1)[0]
    try:
        messages = the_bus().since(event_channel(Event.objects.get(slug=SLUG).pk), "0-0") or []
    except BusDown:
        messages = []
    where = next(
        (
            i
            for i, m in enumerate(messages)
            if m.type == "hand" and (m.data["table_number"], m.data["number"]) == (table, hand)
        ),
        None,
    )
    if where is None:
        return {"hand": f"{table}-{hand}", "on_bus": False}
    missed_id = id_key(messages[where].id)
    around = [
        (m.id, m.type, m.data.get("table_number"), m.data.get("number"))
        for m in messages[max(0, where - 2) : where + 3]
    ]
    traces = []
    for stream in [s for s in streams if (table, hand) in expected - s.seen][:2]:
        entries = list(stream.trace)
        near = [
            i
            for i, entry in enumerate(entries)
            if entry[1] in ("id", "open") and entry[2] and id_key(entry[2]) >= missed_id
        ]
        at = near[0] if near else len(entries)
        traces.append(entries[max(0, at - 6) : at + 4])
    return {"hand": f"{table}-{hand}", "id": messages[where].id, "bus_around": around, "streams": traces}


def missed_by_hand(streams: list[Stream], expected: set[tuple[int, int]]) -> dict[str, int]:
    """How many streams missed each hand (``"<table>-<hand>"``), the most missed first, at most ten."""
    counted = Counter(pair for s in streams for pair in expected - s.seen)
    return {f"{table}-{hand}": count for (table, hand), count in counted.most_common(10)}


def verify(tables: list[int], hands_per_table: int, seat_players: int) -> dict:
    from django.db import close_old_connections
    from django.db.models import Count

    from tournament.models import Event, Hand, HandVersion, Seat

    close_old_connections()
    found = Counter(Hand.objects.filter(table_id__in=tables).values_list("table_id", flat=True))
    versions = HandVersion.objects.filter(hand__table_id__in=tables).values("hand_id").annotate(n=Count("id"))
    duplicates = sum(row["n"] - 1 for row in versions if row["n"] > 1)
    extra = sum(max(0, found[t] - hands_per_table) for t in tables)
    event = Event.objects.get(slug=SEAT_SLUG)
    rounds = event.rounds.filter(number=3).count()
    seats = Seat.objects.filter(table__round__event=event, table__round__number=3)
    seated = seats.values("entry_id").distinct().count()
    return {
        "hands_in_database": sum(found.values()),
        "lost": sum(max(0, hands_per_table - found[t]) for t in tables),
        "duplicates": duplicates + extra,
        "seating_rounds": rounds,
        "seated_once": seated == seats.count() == seat_players,
    }


# --- the hands each table records (legal in order: the server checks dealer and honba) ----------------------


def worker_running(cluster: Cluster, task: str) -> str:
    """The worker whose log shows ``task`` received (the seating job: one task in the run)."""
    for name, node in cluster.nodes().items():
        if node.kind == "worker" and f"{task}[" in Path(node.log).read_text(errors="replace"):
            return name
    return "worker1"


def worker_tasks_counted(cluster: Cluster) -> bool:
    """Whether the workers' own metrics count the tasks they ran (read after the load: a worker's task metrics
    appear once it has run one)."""
    workers = [node for node in cluster.status() if node["kind"] == "worker" and node["alive"]]
    return any(b"taikai_task" in urllib.request.urlopen(node["address"], timeout=10).read() for node in workers)


def cluster_checks(cluster: Cluster) -> dict:
    """What an operator sees of the cluster just up: bin/cluster's status, one process group per node, the
    probes and the request id through nginx, /metrics through nginx from loopback, a worker's own metrics."""

    status = cluster.status()
    printed = subprocess.run(
        [sys.executable, "-m", "ops.cluster", "status"],
        cwd=ROOT,
        env=dict(os.environ, CLUSTER_PORT=str(cluster.port), CLUSTER_DIR=str(cluster.dir)),
        capture_output=True,
        text=True,
        check=True,
    )
    found = {"nodes": {node["name"]: {k: node[k] for k in ("kind", "address", "pid", "alive")} for node in status}}
    found["status_printed_same"] = {n["pid"] for n in json.loads(printed.stdout)} == {n["pid"] for n in status}
    found["process_groups"] = len({os.getpgid(node["pid"]) for node in status if node["alive"]})
    base = f"http://127.0.0.1:{cluster.port}"
    with urllib.request.urlopen(f"{base}/livez", timeout=10) as answer:
        found["livez"] = answer.status
    with urllib.request.urlopen(f"{base}/healthz", timeout=10) as answer:
        health = json.loads(answer.read())
        found["healthz"] = {"status": health["status"], "database": health["database"].get("vendor")}
        found["request_id_length"] = len(answer.headers.get("X-Request-ID") or "")
    with urllib.request.urlopen(f"{base}/metrics", timeout=10) as answer:
        found["metrics_through_nginx"] = b"taikai_http_requests" in answer.read()
    found["worker_metrics"] = all(
        urllib.request.urlopen(node["address"], timeout=10).status == 200 for node in status if node["kind"] == "worker"
    )
    return found


class OwnServices:
    """A Redis and a PostgreSQL of the run's own, on free ports, so that restarting or stopping them touches
    no one else's (the machine's are shared by every test run). PostgreSQL runs as the ``postgres`` user."""

    def __init__(self, directory: Path) -> None:
        import glob
        import socket

        def free() -> int:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                return probe.getsockname()[1]

        self.dir = directory
        self.redis_port, self.pg_port = free(), free()
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1])
        self.pg_data = directory / "pgdata"
        self.redis: subprocess.Popen | None = None

    def as_postgres(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]}: {done.stdout[-500:]} {done.stderr[-500:]}")

    def start(self) -> None:
        self.pg_data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            shutil.chown(self.pg_data, "postgres")
        self.as_postgres(str(self.bin / "initdb"), "-D", str(self.pg_data), "-U", "postgres", "-A", "trust")
        self.postgres_start()
        self.redis_start()

    def postgres_start(self) -> None:
        options = f"-p {self.pg_port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=300"
        self.as_postgres(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.pg_data),
            "-o",
            options,
            "-w",
            "start",
            "-l",
            str(self.dir / "postgres.log"),
        )

    def postgres_stop(self) -> None:
        self.as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.pg_data), "-m", "fast", "-w", "stop")

    def redis_start(self) -> None:
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        for _ in range(100):
            try:
                redis.Redis(port=self.redis_port, socket_connect_timeout=0.2).ping()
                return
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)

    def redis_stop(self) -> None:
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(10)

    def stop(self) -> None:
        self.redis_stop()
        with contextlib.suppress(RuntimeError):
            self.postgres_stop()


def wait_recovered(tally: Tally, fault_at: float, quiet: float = 2.0, timeout: float = 60) -> float:
    """Seconds from the fault until the clients' last failure, once they have gone ``quiet`` s without one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = tally.last_failure
        if time.monotonic() - max(last, fault_at) >= quiet:
            return round(max(0.0, last - fault_at), 2)
        time.sleep(0.1)
    return float("inf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="CI's form: fewer of everything, web and worker kills")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--hands", type=int, help="hands per table")
    parser.add_argument("--streams", type=int)
    parser.add_argument("--readers", type=int)
    parser.add_argument("--players", type=int, help="players of the seating job")
    parser.add_argument("--faults", help="comma-separated: web,stream,worker")
    parser.add_argument("--port", type=int, default=int(os.environ.get("CLUSTER_PORT") or 8480))
    parser.add_argument("--down", type=float, default=3.0, help="seconds a killed node stays down")
    parser.add_argument("--keep", action="store_true", help="leave the cluster up afterwards")
    parser.add_argument(
        "--own-services",
        action="store_true",
        help="a Redis and a PostgreSQL of the run's own (the redis, postgres faults)",
    )
    args = parser.parse_args()
    short = args.short
    tables = args.tables or (8 if short else 40)
    hands = args.hands or (8 if short else 16)
    n_streams = args.streams if args.streams is not None else (100 if short else 2000)
    n_readers = args.readers if args.readers is not None else (4 if short else 20)
    players = args.players or (400 if short else 1000)
    faults = (args.faults or ("web,worker" if short else "web,stream,worker")).split(",")
    every = 0.3 if short else 1.0

    directory = Path(tempfile.mkdtemp(prefix="taikai-chaos-"))
    services = None
    if args.own_services or {"redis", "postgres"} & set(faults):
        directory.chmod(0o755)  # the postgres user goes through it to its data
        services = OwnServices(directory / "services")
        services.dir.mkdir()
        services.start()
        os.environ["CLUSTER_REDIS_URL"] = f"redis://127.0.0.1:{services.redis_port}"
        os.environ["CLUSTER_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{services.pg_port}/taikai_chaos"
    cluster = Cluster(
        port=args.port,
        directory=directory,
        extra_env={
            "LIVE_STREAMS_PER_ADDRESS": "100000",
            "API_ANON_RATE": "100000/min",
            "API_USER_RATE": "100000/min",
            "API_TOKEN_RATE": "100000/min",
            "SEATING_HEARTBEAT_SECONDS": "1",
            "SEATING_STALE_SECONDS": "4",
            "CELERY_BROKER_VISIBILITY_TIMEOUT": "15",
            "LIVE_STREAM_SECONDS": "5" if short else "60",
            "LIVE_HEARTBEAT_SECONDS": "2" if short else "15",
            "BACKUP_WHEN_IDLE": "1",
        },
    )
    import psycopg

    parts = urlsplit(cluster.database_url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')
    began = time.monotonic()
    print(f"cluster in {directory}, nginx on 127.0.0.1:{cluster.port}", file=sys.stderr)
    report: dict = {"faults": {}}
    try:
        cluster.up()
        report["cluster_up_seconds"] = round(time.monotonic() - began, 1)
        report["cluster_checks"] = cluster_checks(cluster)
        django_for(cluster)
        made = prepare(tables, players)
        live_channels_forget()
        table_ids = made["tables"]
        tally = Tally()
        stop = threading.Event()
        streams = [Stream() for _ in range(n_streams)]
        stream_thread = threading.Thread(target=streams_run, args=(cluster.port, streams, stop), daemon=True)
        stream_thread.start()
        deadline = time.monotonic() + 30
        while sum(s.opened for s in streams) < n_streams and time.monotonic() < deadline:
            time.sleep(0.2)
        report["streams_open"] = sum(s.opened for s in streams)
        readers = [Reader(cluster.port, tally, stop) for _ in range(n_readers)]
        writers = [
            Writer(
                cluster.port,
                table,
                hands_for(hands, i),
                console=i % 2 == 0,
                secret=made["secret"],
                tally=tally,
            )
            for i, table in enumerate(table_ids)
        ]
        threads = [threading.Thread(target=r.run, daemon=True) for r in readers]
        threads += [threading.Thread(target=w.run, args=(every,), daemon=True) for w in writers]
        load_began = time.monotonic()
        for thread in threads:
            thread.start()
        time.sleep(2)

        for fault in faults:
            tally.phase = fault
            if fault in ("web", "stream"):
                victim = f"{fault}1"
                fault_at = time.monotonic()
                cluster.kill(victim)
                time.sleep(args.down)
                cluster.spawn(victim)
                cluster.wait_ready([victim])
                back = round(time.monotonic() - fault_at, 2)
            elif fault == "worker":
                job_id, _ = seating_ask()
                while seating_state(job_id)[0] == "queued":
                    time.sleep(0.05)
                victim = worker_running(cluster, "tournament.seat_next_round")
                fault_at = time.monotonic()
                state_at_kill = seating_state(job_id)[0]
                cluster.kill(victim)
                asked_again = 0
                while True:
                    state, attempts, stale = seating_state(job_id)
                    if state == "done":
                        break
                    if state == "failed" or (state == "running" and stale):
                        seating_ask()  # an organizer's "Ask again"
                        asked_again += 1
                    if time.monotonic() - fault_at > 120:
                        raise RuntimeError(f"the seating did not finish: {state}")
                    time.sleep(0.2)
                cluster.spawn(victim)
                cluster.wait_ready([victim])
                back = round(time.monotonic() - fault_at, 2)
                report["seating"] = {
                    "killed": victim,
                    "state_at_kill": state_at_kill,
                    "asked_again": asked_again,
                    "attempts": attempts,
                    "done_after_seconds": back,
                }
            elif fault in ("redis", "postgres") and services is not None:
                victim = fault
                fault_at = time.monotonic()
                if fault == "redis":
                    services.redis_stop()
                    time.sleep(args.down)
                    services.redis_start()
                else:
                    services.postgres_stop()
                    time.sleep(10)
                    services.postgres_start()
                back = round(time.monotonic() - fault_at, 2)
            else:
                raise SystemExit(f"unknown fault {fault!r}")
            recovered = wait_recovered(tally, fault_at)
            report["faults"][fault] = {
                "node": victim,
                "requests": dict(tally.by_phase[fault]),
                "clients_failing_seconds": recovered,
                "node_back_seconds": back,
            }
            tally.phase = f"after {fault}"
            time.sleep(1)

        for thread in threads[n_readers:]:
            thread.join(timeout=180)
        report["load_seconds"] = round(time.monotonic() - load_began, 1)
        # the backup, during the run, with the streams still open
        backup_dir = directory / "backups"
        backup = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "backup", "--dir", str(backup_dir), "--keep", "3"],
            env=cluster.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        # every stream catches up: wait until each has every hand, or none has caught up on anything for 20 s
        expected = {(number, n) for number in range(1, len(table_ids) + 1) for n in range(1, hands + 1)}
        caught_from, progress_at, missing = time.monotonic(), time.monotonic(), None
        while time.monotonic() - progress_at < 20 and time.monotonic() - caught_from < 120:
            now_missing = sum(len(expected - s.seen) for s in streams if s.opened)
            if now_missing == 0:
                break
            if missing is None or now_missing < missing:
                missing, progress_at = now_missing, time.monotonic()
            time.sleep(0.5)
        report["catch_up_seconds"] = round(time.monotonic() - caught_from, 1)
        connected_at_end = sum(1 for s in streams if s.connected and expected - s.seen)
        silent_at_end = sum(1 for s in streams if s.connected and time.monotonic() - s.heard_at > 30)
        stop.set()
        stream_thread.join(timeout=10)
        opened = [s for s in streams if s.opened]
        report["streams_missing_connected"] = connected_at_end
        report["streams_connected_silent_30s"] = silent_at_end
        newest = max((s.last_id for s in opened), key=lambda i: tuple(int(p) for p in i.split("-")), default="")
        behind = [s for s in opened if expected - s.seen]
        report["streams_missing_hands"] = len(behind)
        report["streams_missing_and_behind_newest_id"] = sum(1 for s in behind if s.last_id != newest)
        report["missed_by_hand"] = missed_by_hand(opened, expected)
        report["missed_trace"] = missed_traces(opened, expected)
        report["missed_hands_not_on_bus"] = missed_not_on_bus(set().union(*(expected - s.seen for s in opened)))
        result = verify(table_ids, hands, players)
        check = None
        if backup.returncode == 0:
            check = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "restore_check", backup.stdout.split()[0]],
                env=cluster.env(),
                capture_output=True,
                text=True,
                check=False,
            )
        report.update(
            {
                "tables": tables,
                "hands_per_table": hands,
                "hands_acknowledged": sum(w.recorded for w in writers),
                "refused": [r for w in writers for r in w.refused][:5],
                "lost": result["lost"],
                "duplicates": result["duplicates"],
                "hands_in_database": result["hands_in_database"],
                "streams": len(opened),
                "streams_reconnected": sum(1 for s in opened if s.reconnects),
                "reconnections": sum(s.reconnects for s in opened),
                "stream_resets": sum(s.resets for s in opened),
                "stream_refusals": dict(sum((s.refusals for s in streams), Counter())),
                "hands_missed": sum(len(expected - s.seen) for s in opened),
                "seating_rounds_written": result["seating_rounds"],
                "seating_players_seated_once": result["seated_once"],
                "requests": {phase: dict(counts) for phase, counts in tally.by_phase.items()},
                "backup": (backup.stdout or backup.stderr).strip()[-300:],
                "restore_check": ((check.stdout or check.stderr).strip().splitlines() or [""])[-1] if check else None,
                "restore_check_ok": check is not None and check.returncode == 0,
                "seconds": round(time.monotonic() - began, 1),
                "worker_tasks_counted": worker_tasks_counted(cluster),
            }
        )
    finally:
        if not args.keep:
            started = cluster.nodes()
            cluster.down()
            report["down_clean"] = not any(node.alive() for node in started.values()) and cluster.status() == []
            with psycopg.connect(admin, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')
            if services is not None:
                services.stop()
            shutil.rmtree(directory, ignore_errors=True)
    print_report(report)
    print(json.dumps(report))


def print_report(report: dict) -> None:
    print("| fault | node | requests by status | clients failing (s) | node back (s) |", file=sys.stderr)
    print("|---|---|---|---|---|", file=sys.stderr)
    for fault, figures in report["faults"].items():
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(figures["requests"].items()))
        print(
            f"| {fault} | {figures['node']} | {statuses} | {figures['clients_failing_seconds']} | "
            f"{figures['node_back_seconds']} |",
            file=sys.stderr,
        )
    for key in (
        "hands_acknowledged",
        "lost",
        "duplicates",
        "streams",
        "streams_reconnected",
        "reconnections",
        "stream_resets",
        "stream_refusals",
        "hands_missed",
        "streams_missing_hands",
        "streams_missing_and_behind_newest_id",
        "missed_by_hand",
        "missed_hands_not_on_bus",
        "missed_trace",
        "streams_missing_connected",
        "streams_connected_silent_30s",
        "catch_up_seconds",
        "seating_rounds_written",
        "seating_players_seated_once",
        "restore_check",
        "seconds",
    ):
        print(f"{key}: {report.get(key)}", file=sys.stderr)


if __name__ == "__main__":
    main()
