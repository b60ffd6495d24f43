"""Many clients on one table's chess clock at once, through the JSON API, in real PostgreSQL transactions.

The services lock the table, then the clock, each row alone (``FOR NO KEY UPDATE OF`` itself); a reader takes no
lock, so viewers polling a clock neither wait for a referee nor make one wait."""

import random
import threading
import time
from collections import Counter

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from players.models import Player
from scoring.models import Ruleset
from tournament.models import Entry, Table
from tournament.services import clock as clock_services
from tournament.services.locks import lock_clock, lock_event, lock_table

CALLERS = 50
CALLS_EACH = 3
STATE_REFUSALS = {"clock_not_started", "clock_paused", "clock_not_paused", "clock_finished"}


def _classify(response) -> str:
    if response.status_code == 200:
        return "ok"
    if response.status_code == 409:
        return "conflict"
    if response.status_code == 400 and response.json()["error"]["code"] in STATE_REFUSALS:
        return "refused"
    exc = getattr(response, "exc_info", None)
    name = exc[1].__class__.__name__ if exc else ""
    return f"error {response.status_code} {name}".strip()


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_many_clients_on_one_clock_never_deadlock_or_fail(make_event, seated_round, admin_user):
    # given a public event's table with a one-second bank (seats run out of time; presses and pauses flag them);
    # referees and anonymous viewers on it
    event = make_event(4, clock_bank_seconds=1, clock_increment_seconds=0)
    table = seated_round(event).tables.get()
    url = reverse("tournament_api:clock", args=[table.pk])
    clients = []
    for index in range(CALLERS):
        client = Client(raise_request_exception=False)
        if index % 5:  # four in five run the clock, the others only watch it (see ``watcher``)
            client.force_login(admin_user)
        clients.append(client)
    assert clients[0].get(url).status_code == 200  # the URLs and views are loaded before the crowd comes
    barrier = threading.Barrier(CALLERS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def caller(client: Client, seed: int) -> None:
        watcher = seed % 5 == 0
        chance = random.Random(seed)
        try:
            barrier.wait(timeout=30)
            for _ in range(CALLS_EACH):
                verb = "get" if watcher else chance.choice(["start", "press", "press", "pause", "resume", "get"])
                if verb == "get":
                    response = client.get(url)
                elif verb == "start":
                    response = client.post(
                        f"{url}/start", {"hand_number": 1, "dealer_position": 0}, content_type="application/json"
                    )
                elif verb == "press":
                    seen = client.get(url).json()
                    response = client.post(
                        f"{url}/press",
                        {"seat": seen["seat_on_turn"] or 0, "turn_number": max(1, seen["turn_number"])},
                        content_type="application/json",
                    )
                else:
                    response = client.post(f"{url}/{verb}")
                with lock:
                    outcomes.append(_classify(response))
        finally:
            connection.close()

    # when they all call at once
    threads = [threading.Thread(target=caller, args=(c, i)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    # then every call has an answer, and none is an error (a deadlock, a 500)
    counts = Counter(outcomes)
    errors = {k: v for k, v in counts.items() if k.startswith("error")}
    assert len(outcomes) == CALLERS * CALLS_EACH, counts
    assert not errors, counts
    assert counts["ok"] > 0
    assert Table.objects.get(pk=table.pk).clock.version >= 1


def _hold_locks(rows, *, seconds: float, held: threading.Event) -> None:
    """In a transaction of its own, lock ``rows()`` (a writer in the middle of its work), then wait."""
    try:
        with transaction.atomic():
            rows()
            held.set()
            time.sleep(seconds)
    finally:
        connection.close()


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_reading_a_clock_does_not_wait_for_a_writer(make_event, seated_round):
    # given a running clock, and a writer holding the table's and the clock's locks for three seconds
    event = make_event(4, clock_bank_seconds=600, clock_increment_seconds=5)
    table = seated_round(event).tables.get()
    clock_services.clock_start(table=table, hand_number=1, dealer_position=0)
    url = reverse("tournament_api:clock", args=[table.pk])
    held = threading.Event()
    writer = threading.Thread(
        target=_hold_locks,
        args=(lambda: lock_clock(lock_table(table.pk)),),
        kwargs={"seconds": 3, "held": held},
    )
    writer.start()
    assert held.wait(timeout=10)
    # when an anonymous viewer reads the clock meanwhile
    started = time.monotonic()
    response = Client().get(url)
    waited = time.monotonic() - started
    writer.join()
    # then it is answered at once, from the clock as last committed
    assert response.status_code == 200 and response.json()["seat_on_turn"] == 0
    assert waited < 1.5, f"the read waited {waited:.1f} s for the writer"


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_a_table_lock_leaves_the_shared_ruleset_free(make_event, seated_round, standard_ruleset):
    # given two events sharing a ruleset, and a writer holding a table of the first
    first = make_event(4, clock_bank_seconds=600)
    table = seated_round(first).tables.get()
    held = threading.Event()
    writer = threading.Thread(
        target=_hold_locks, args=(lambda: lock_table(table.pk),), kwargs={"seconds": 2, "held": held}
    )
    writer.start()
    assert held.wait(timeout=10)
    # when the ruleset row is locked meanwhile (the other event's writer, an organizer editing it)
    with transaction.atomic():
        locked = Ruleset.objects.select_for_update(nowait=True).filter(pk=standard_ruleset.pk).exists()
    writer.join()
    # then it is free: the table's lock took the table's row only
    assert locked


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_a_locked_event_still_takes_new_rows_that_point_at_it(make_event):
    """The locks are ``FOR NO KEY UPDATE``: a writer holding the event (a standings recompute) does not
    hold up a new entry of that event, whose foreign key PostgreSQL checks at commit (``FOR KEY SHARE``).
    With ``FOR UPDATE`` the two waited in a circle when the other side held an entry the recompute read."""
    event = make_event(4)
    player = Player.objects.create(display_name="Late")
    held = threading.Event()
    writer = threading.Thread(
        target=_hold_locks, args=(lambda: lock_event(event.pk),), kwargs={"seconds": 3, "held": held}
    )
    writer.start()
    assert held.wait(timeout=10)
    started = time.monotonic()
    with transaction.atomic():
        Entry.objects.create(event=event, player=player)
    waited = time.monotonic() - started
    writer.join()
    assert waited < 1.5, f"the new entry waited {waited:.1f} s for the event's lock"
