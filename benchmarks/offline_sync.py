"""The hall's network comes back: every referee's device sends the hands it queued while it was down, at once.

Builds one event of ``--tables`` tables (4 players each, one published round) through the services and a
referee of the event; each table's device (a thread with its own connection) signs in with the site's
sign-in page, then ``--hands`` legal hands per table are queued (non-dealer ron, non-dealer tsumo and
exhaustive draws with the dealer tenpai in turn, their dealer and honba following the server's rules). On
go, every device sends its queue in order, one write after the other, each waiting for its answer: the
console's outbox protocol (``POST /console/tables/<id>/``, ``action=hand``, an ``Idempotency-Key`` per
write, ``Accept: application/json``). Then every queue is sent a second time with the same keys.

Prints the time until every queue is empty, the time per write (sent → answered: p50, p95, p99, max), the
server's own time per write (gunicorn's access log, so without the wait for a free worker), the
writes, refusals and server errors (target: 0), whether each table has exactly its hands 1..N in force (read
from the database), and the hands and versions counted before and after the second sending (nothing new).

Runs gunicorn (``config.wsgi``) on a free loopback port against PostgreSQL database ``taikai_offline_bench``
(made anew and migrated at each run) and Redis db 10 (cache) and 11 (broker; no worker runs)::

    python benchmarks/offline_sync.py [--tables 40] [--hands 10] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.outage import SLUG, build_event, percentile  # noqa: E402
from benchmarks.public_pages import free_port, serve  # noqa: E402

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/taikai_offline_bench"
REDIS = "redis://127.0.0.1:6379"
REFEREE = "offline-referee"
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"  # method, path, status, microseconds


def database_create(url: str) -> None:
    """The database of ``url`` made anew on its PostgreSQL server: each run starts from an empty one (the
    migrations run in ``build_event``)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(scheme="postgresql", path="/postgres").geturl(), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')


def referee_create(password: str) -> None:
    """A user with the referee role at every table of the bench event, signing in with ``password``."""
    from django.contrib.auth import get_user_model

    from tournament.models import Event, EventRole
    from tournament.services.roles import role_grant

    user, _ = get_user_model().objects.get_or_create(username=REFEREE)
    user.set_password(password)
    user.save()
    role_grant(event=Event.objects.get(slug=SLUG), user=user, kind=EventRole.Kind.REFEREE)


def queued_hands(count: int, start: int) -> list[dict]:
    """``count`` legal hands in order as the sheet's form posts them: a non-dealer ron (2 han 30 fu), a
    non-dealer tsumo (3 han 40 fu), an exhaustive draw with the dealer tenpai, in turn from ``start``; each
    hand's dealer and honba follow from the previous hand by the rule the server checks them with."""
    from tournament.engine.dealer import next_dealer_position

    hands, dealer, honba = [], 0, 0
    for n in range(count):
        kind = (start + n) % 3
        winner, tenpai = (dealer + 1 + kind) % 4, (dealer, (dealer + 3) % 4)
        fields = {"dealer_position": dealer, "honba": honba}
        if kind == 0:
            fields |= {
                "outcome": "ron",
                "winner_1": winner,
                "discarder": (winner + 1) % 4,
                "han_1": 2,
                "fu_1": 30,
            }
        elif kind == 1:
            fields |= {"outcome": "tsumo", "winner_1": winner, "han_1": 3, "fu_1": 40}
        else:
            fields |= {"outcome": "exhaustive_draw", "tenpai_positions": list(tenpai)}
        hands.append(fields)
        deal = next_dealer_position(
            playing=range(4),
            dealer=dealer,
            honba=honba,
            outcome=fields["outcome"],
            winners=(winner,) if kind < 2 else (),
            tenpai=tenpai if kind == 2 else (),
        )
        dealer, honba = deal.position, deal.honba
    return hands


class Device:
    """A referee's device at one table: its connection, its cookies and its queue of (hand, fields, key)."""

    def __init__(self, port: int, table_id: int, hands: list[dict]):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.table_id = table_id
        self.cookies: dict[str, str] = {}
        self.queue = [(number, fields, str(uuid.uuid4())) for number, fields in enumerate(hands, start=1)]

    def request(self, method: str, path: str, fields: dict | None = None, headers: dict | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        body = None
        if fields is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode({**fields, "csrfmiddlewaretoken": self.cookies["csrftoken"]}, doseq=True)
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        content = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel.value:
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        return response, content

    def sign_in(self, password: str) -> None:
        self.request("GET", "/accounts/login/")
        response, _ = self.request("POST", "/accounts/login/", {"username": REFEREE, "password": password})
        if response.status != 302 or "sessionid" not in self.cookies:
            sys.exit(f"the referee could not sign in: {response.status}")

    def send(self, number: int, fields: dict, key: str) -> tuple[str, float, bool]:
        """One queued write: ("recorded" | "refused: …" | "error …", seconds, replayed)."""
        path = f"/console/tables/{self.table_id}/"
        form = {"action": "hand", "hand": number, "expected_version": 0, **fields}
        headers = {
            "X-CSRFToken": self.cookies["csrftoken"],
            "Idempotency-Key": key,
            "Accept": "application/json",
        }
        started = time.perf_counter()
        try:
            response, content = self.request("POST", path, form, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            return f"error {type(exc).__name__}", time.perf_counter() - started, False
        seconds = time.perf_counter() - started
        return (
            answer_kind(response, content, path),
            seconds,
            response.getheader("Idempotent-Replayed") == "true",
        )

    def drain(self, results: list) -> None:
        for number, fields, key in self.queue:
            results.append(self.send(number, fields, key))


def answer_kind(response, content: bytes, path: str) -> str:
    """The outbox's reading of an answer: JSON ``ok`` (or, before the console answers JSON, a redirect back
    to the sheet) is recorded; a 5xx is a server error; anything else is a refusal, with its code."""
    if response.status >= 500:
        return f"error {response.status}"
    if response.status == 302 and urlsplit(response.getheader("Location", "")).path == path:
        return "recorded"
    try:
        answer = json.loads(content)
    except ValueError:
        return f"refused: {response.status}"
    if response.status == 200 and answer.get("ok"):
        return "recorded"
    return f"refused: {response.status} {(answer.get('error') or {}).get('code', '')}"


def send_all(devices: list[Device], access) -> tuple[float, list, list[float]]:
    """Every device drains its queue at once; the wall-clock time until all are empty, each write's
    (kind, seconds, replayed) and the server's own seconds per write, read on from gunicorn's ``access``
    log."""
    results: list = []
    threads = [threading.Thread(target=device.drain, args=(results,)) for device in devices]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, results, server_times(access, len(results))


def server_times(access, writes: int, prefix: str = "/console/tables/") -> list[float]:
    """The seconds of the POSTs to paths under ``prefix`` in the lines of gunicorn's access log
    (``ACCESS_FORMAT``) after ``access``'s position, waiting up to 5 s for ``writes`` of them: a line follows
    its answer."""
    times: list[float] = []
    for _ in range(50):
        for method, path, _, micros in (line.split() for line in access.read().splitlines()):
            if method == "POST" and path.startswith(prefix):
                times.append(int(micros) / 1e6)
        if len(times) >= writes:
            break
        time.sleep(0.1)
    return times


def stored_counts(table_ids: list[int], hands: int) -> tuple[int, int, int]:
    """Hands and hand versions stored at the tables, and how many tables have exactly hands 1..``hands`` in
    force (read from the database)."""
    from tournament.models import Hand, HandVersion

    numbers: dict[int, list[int]] = {table_id: [] for table_id in table_ids}
    in_force = HandVersion.objects.in_force().filter(hand__table_id__in=table_ids)
    for table_id, number in in_force.values_list("hand__table_id", "hand__number"):
        numbers[table_id].append(number)
    complete = sum(sorted(n) == list(range(1, hands + 1)) for n in numbers.values())
    versions = HandVersion.objects.filter(hand__table_id__in=table_ids).count()
    return Hand.objects.filter(table_id__in=table_ids).count(), versions, complete


def spread(times: list[float]) -> str:
    return (
        f"p50 {1000 * statistics.median(times):.0f} ms, p95 {1000 * percentile(times, 0.95):.0f} ms, "
        f"p99 {1000 * percentile(times, 0.99):.0f} ms, max {1000 * max(times):.0f} ms"
    )


def report(title: str, seconds: float, results: list, server: list[float]) -> int:
    """Print one sending's figures (``server``: the server's own seconds per write); its server errors."""
    times = [s for _, s, _ in results]
    kinds = Counter(kind for kind, _, _ in results)
    errors = sum(count for kind, count in kinds.items() if kind.startswith("error"))
    refusals = sum(count for kind, count in kinds.items() if kind.startswith("refused"))
    print(f"{title}: every queue empty after {seconds:.2f} s")
    print(f"  per write (sent → answered): {spread(times)}")
    print(f"  server time per write: {spread(server) if server else 'none logged'} ({len(server)} POSTs)")
    print(
        f"  writes {len(results)}: recorded {kinds['recorded']}, refused {refusals}, server errors {errors}, "
        f"replayed {sum(replayed for _, _, replayed in results)}"
    )
    for kind, count in sorted(kinds.items()):
        if kind != "recorded":
            print(f"    {kind}: {count}")
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=40, help="tables, one device each (default 40)")
    parser.add_argument("--hands", type=int, default=10, help="hands queued per device (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["CACHE_URL"] = f"{REDIS}/10"
    os.environ["CELERY_BROKER_URL"] = os.environ["CELERY_RESULT_BACKEND"] = f"{REDIS}/11"
    database_create(DATABASE_URL)
    import django

    django.setup()
    _, table_ids = build_event(args.tables)
    password = secrets.token_urlsafe(16)
    referee_create(password)
    from django.db import connection

    connection.close()
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="offline_sync-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
    access = tempfile.NamedTemporaryFile("r", prefix="offline_sync-access-", suffix=".log")  # noqa: SIM115
    server = serve(
        port, args.workers, log, extra=["--access-logfile", access.name, "--access-logformat", ACCESS_FORMAT]
    )
    try:
        devices = [Device(port, table_id, queued_hands(args.hands, n)) for n, table_id in enumerate(table_ids)]
        for device in devices:
            device.sign_in(password)
        print(
            f"{args.tables} referees' devices send {args.hands} queued hands each at once (in order, one "
            f"write at a time); gunicorn {args.workers} workers, PostgreSQL taikai_offline_bench"
        )
        errors = report("first sending", *send_all(devices, access))
        hands, versions, complete = stored_counts(table_ids, args.hands)
        print(f"tables with exactly hands 1..{args.hands} in force: {complete} of {args.tables}")
        errors += report("same queues sent again, same keys", *send_all(devices, access))
        after = stored_counts(table_ids, args.hands)
        print(
            f"hands / versions stored before the second sending: {hands} / {versions}, after: "
            f"{after[0]} / {after[1]}: {'nothing new' if (hands, versions) == after[:2] else 'NEW RECORDS'}"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    if errors:
        print(f"server errors: see the server's log {log.name}")


if __name__ == "__main__":
    main()
