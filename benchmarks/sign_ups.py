"""Sign-ups opening: ``--sign-ups`` people sign up for one event within ``--seconds``, on its public page.

Builds a public event through the services with a registration open now and ``--cap`` places (the rest go
to the waiting list). Each person (a distinct name, e-mail address, EMA number and network address) opens
the sign-up page (``GET /events/<slug>/register/``: the CSRF cookie) then posts the form, honeypot empty;
their starts are paced evenly over ``--seconds`` (an open loop: a slow answer does not delay the next
person's start) and ``--connections`` people at most are in flight at once (threads, one at a time each).

Prints the wall time and the rate achieved, the time per POST (sent → answered: p50, p95, p99, max), the
server's own time per POST (gunicorn's access log, so without the wait for a free worker), the answers
(302 recorded, 400 refused with the first error shown, server errors), then checks in the database: every
recorded sign-up stored (none lost), confirmed = min(cap, sign-ups) and never over the cap, the rest
waiting in sign-up order (every confirmed rank below every waiting rank), one entry per confirmed sign-up
and one message per sign-up.

Runs gunicorn (``config.wsgi``) on a free loopback port against PostgreSQL database ``taikai_signups_bench``
(made anew and migrated at each run) and Redis db 10 (cache) and 11 (broker; no worker runs). On loopback
every person has the address 127.0.0.1, which the per-address sign-up throttle would stop after
``SIGN_UPS_PER_ADDRESS``: gunicorn runs with ``TRUSTED_PROXIES=1`` and each person sends their own
``X-Forwarded-For`` (10.x.y.z), as behind the production proxy::

    python benchmarks/sign_ups.py [--sign-ups 2000] [--seconds 60] [--cap 1500] [--workers 2]
"""

from __future__ import annotations

import argparse
import html
import http.client
import os
import re
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.offline_sync import ACCESS_FORMAT, REDIS, Device, database_create, server_times, spread  # noqa: E402
from benchmarks.outage import SLUG, build_event  # noqa: E402
from benchmarks.public_pages import free_port, serve  # noqa: E402

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/taikai_signups_bench"
PAGE = f"/events/{SLUG}/register/"
ERROR = re.compile(r'class="errorlist[^"]*"[^>]*>\s*<li>(.*?)</li>', re.S)


class Person(Device):
    """One person signing up from their own phone: a connection, its cookies, and their own address."""

    def __init__(self, port: int, number: int):
        super().__init__(port, table_id=0, hands=[])
        self.number = number
        self.forwarded = {"X-Forwarded-For": f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"}

    def sign_up(self) -> tuple[str, float]:
        """Open the page, post the form: ("recorded" | "refused …" | "error …", the POST's seconds)."""
        try:
            self.request("GET", PAGE, headers=self.forwarded)
            started = time.perf_counter()
            response, content = self.request("POST", PAGE, values_of(self.number), self.forwarded)
        except (OSError, http.client.HTTPException, KeyError) as exc:  # KeyError: the page set no CSRF cookie
            return f"error {type(exc).__name__}", 0.0
        finally:
            self.connection.close()
        return answer_kind(response, content), time.perf_counter() - started


def values_of(n: int) -> dict:
    """Person ``n``'s form: their own name, e-mail address and EMA number; the honeypot left empty."""
    return {
        "name": f"Signup {n:05d}",
        "email": f"signup{n:05d}@example.org",
        "reading": f"サインアップ {n}",
        "club": f"Club {n % 50}",
        "country": "JP",
        "external_id": f"SU{n:06d}",
        "website": "",
    }


def answer_kind(response, content: bytes) -> str:
    """A 302 to the private page is recorded; a 5xx a server error; else refused, with the first error."""
    if response.status == 302 and urlsplit(response.getheader("Location", "")).path.startswith("/r/"):
        return "recorded"
    if response.status >= 500:
        return f"error {response.status}"
    first = ERROR.search(content.decode("utf-8", "replace"))
    return f"refused {response.status}: {html.unescape(first.group(1)) if first else '(no error shown)'}"


def registration_open(cap: int) -> None:
    """The bench event takes sign-ups from now on, ``cap`` places, every field asked."""
    from django.utils import timezone

    from registration.models import Registration
    from tournament.models import Event

    now = timezone.now()  # no service opens a registration: the organizer does it in the admin
    Registration.objects.create(
        event=Event.objects.get(slug=SLUG),
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
        cap=cap,
    )


def paced_sign_up(person: Person, at: float) -> tuple[str, float, float]:
    """``person`` signs up at ``at`` (perf_counter), or at once if late: (answer, seconds, late by)."""
    time.sleep(max(0.0, at - time.perf_counter()))
    late = max(0.0, time.perf_counter() - at)
    return *person.sign_up(), late


def load(port: int, count: int, seconds: float, connections: int) -> tuple[float, list]:
    """``count`` people, their starts evenly over ``seconds``, ``connections`` in flight at most: the wall
    time from the first start to the last answer and each one's (answer, seconds, late by)."""
    people = [Person(port, n) for n in range(1, count + 1)]
    started = time.perf_counter() + 0.5
    with ThreadPoolExecutor(max_workers=connections) as pool:
        futures = [pool.submit(paced_sign_up, p, started + i * seconds / count) for i, p in enumerate(people)]
        results = [future.result() for future in futures]
    return time.perf_counter() - started, results


def print_answers(wall: float, results: list, server: list[float]) -> Counter:
    kinds = Counter(kind.split(":")[0] if kind.startswith("refused") else kind for kind, _, _ in results)
    posts = [s for kind, s, _ in results if not kind.startswith("error")]
    print(
        f"wall time {wall:.1f} s, {len(results) / wall:.1f} sign-ups/s achieved; started late by at most "
        f"{max(late for _, _, late in results):.2f} s (every connection busy)"
    )
    print(f"  per POST (sent → answered): {spread(posts) if posts else 'none answered'}")
    print(f"  server time per POST: {spread(server) if server else 'none logged'} ({len(server)} POSTs)")
    print("  answers: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))
    refused = next((kind for kind, _, _ in results if kind.startswith("refused")), None)
    if refused:
        print(f"  first refusal: {refused}")
    return kinds


def stored_figures(entries_before: int) -> dict:
    """What the database holds for the bench event's sign-ups."""
    from registration.models import SignUp, SignUpMessage
    from tournament.models import Entry

    sign_ups = SignUp.objects.filter(event__slug=SLUG)
    ranks = {state: list(sign_ups.filter(state=state).values_list("rank", flat=True)) for state in SignUp.State}
    in_rank_order = list(sign_ups.order_by("rank").values_list("created_at", flat=True))
    return {
        "stored": sign_ups.count(),
        "emails": set(sign_ups.values_list("email", flat=True)),
        "confirmed": len(ranks["confirmed"]),
        "waiting": len(ranks["waiting"]),
        "other": sum(len(r) for s, r in ranks.items() if s not in ("confirmed", "waiting")),
        "in_order": max(ranks["confirmed"], default=0) < min(ranks["waiting"], default=sys.maxsize),
        "created_in_rank_order": in_rank_order == sorted(in_rank_order),
        "entries": Entry.objects.filter(event__slug=SLUG).count() - entries_before,
        "entries_of_confirmed": sign_ups.filter(state="confirmed", entry__isnull=False).count(),
        "messages": SignUpMessage.objects.filter(sign_up__event__slug=SLUG).count(),
    }


def check(recorded: set[str], cap: int, entries_before: int) -> bool:
    """Print each database check and whether it holds; True if all do."""
    f, n = stored_figures(entries_before), len(recorded)
    checks = [
        (
            f"sign-ups stored {f['stored']} = answered 302 {n}, the same addresses (none lost)",
            f["stored"] == n and f["emails"] == recorded,
        ),
        (f"confirmed {f['confirmed']} = min(cap {cap}, {n}), not over the cap", f["confirmed"] == min(cap, n)),
        (
            f"waiting {f['waiting']} = {n} − {cap}, none in another state ({f['other']})",
            f["waiting"] == max(0, n - cap) and not f["other"],
        ),
        (
            "every confirmed rank below every waiting rank; ranks in the order of signing up",
            f["in_order"] and f["created_in_rank_order"],
        ),
        (
            f"entries made {f['entries']} = confirmed (each confirmed has its entry: {f['entries_of_confirmed']})",
            f["entries"] == f["entries_of_confirmed"] == f["confirmed"],
        ),
        (f"messages written {f['messages']} = sign-ups {f['stored']}", f["messages"] == f["stored"]),
    ]
    for words, holds in checks:
        print(f"  {'ok  ' if holds else 'FAIL'} {words}")
    return all(holds for _, holds in checks)


def prepare(cap: int) -> int:
    """Environment, a new database, the event and its open registration; gunicorn trusts one proxy. The
    event's entries before any sign-up."""
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["CACHE_URL"] = f"{REDIS}/10"
    os.environ["CELERY_BROKER_URL"] = os.environ["CELERY_RESULT_BACKEND"] = f"{REDIS}/11"
    os.environ["TRUSTED_PROXIES"] = "1"
    database_create(DATABASE_URL)
    import django

    django.setup()
    build_event(1)
    registration_open(cap)
    from django.core.cache import cache
    from django.db import connection

    from tournament.models import Entry

    cache.clear()  # no throttle count left from an earlier run
    entries = Entry.objects.filter(event__slug=SLUG).count()
    connection.close()
    return entries


OPTIONS = (  # flag, type, default, meaning
    ("--sign-ups", int, 2000, "people signing up"),
    ("--seconds", float, 60, "over how many seconds they start"),
    ("--cap", int, 1500, "places; the rest wait"),
    ("--connections", int, 32, "people in flight at most"),
    ("--workers", int, 2, "gunicorn workers"),
)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, kind, default, meaning in OPTIONS:
        parser.add_argument(flag, type=kind, default=default, help=f"{meaning} (default {default:g})")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    entries_before = prepare(args.cap)
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="sign_ups-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
    access = tempfile.NamedTemporaryFile("r", prefix="sign_ups-access-", suffix=".log")  # noqa: SIM115
    server = serve(
        port, args.workers, log, extra=["--access-logfile", access.name, "--access-logformat", ACCESS_FORMAT]
    )
    print(
        f"{args.sign_ups} sign-ups over {args.seconds:g} s, {args.connections} connections at most, cap "
        f"{args.cap}; gunicorn {args.workers} workers, PostgreSQL taikai_signups_bench"
    )
    try:
        wall, results = load(port, args.sign_ups, args.seconds, args.connections)
        kinds = print_answers(wall, results, server_times(access, len(results), prefix=PAGE))
    finally:
        server.terminate()
        server.wait(timeout=30)
    recorded = {values_of(n)["email"] for n, (kind, _, _) in enumerate(results, start=1) if kind == "recorded"}
    print("in the database:")
    if not check(recorded, args.cap, entries_before) or any(kind.startswith("error") for kind in kinds):
        sys.exit(f"failed: see the server's log {log.name}")


if __name__ == "__main__":
    main()
