"""What one hand save walks through: the project's modules ("rooms") it enters, and how often it goes in and
out of the hand service and the selectors.

    python benchmarks/hand_save_trace.py

On a scratch SQLite database: a four-player table of a new event, its first hand recorded untraced, then
a referee's save of hand 2 (a ron, riichi on the table) traced under ``sys.setprofile`` from the call to
``tournament.services.hands.hand_record`` (what the console's POST and the API's hand write both call) to
its return, the commit's after-commit work included (work a Celery task does is left out: the broker calls
it, not the save). Only project code counts: the apps' modules (not Django, not the virtualenv, not
migrations, not this script).

How it counts:

* **rooms**: the distinct project modules a function of which runs, in the order first entered; and their
  number with ``tournament.selectors`` and ``tournament.models`` counted as one room each (single modules
  before they were split by subject);
* **calls into X** (X a module or a package, ``tournament.selectors`` for every module under it): calls of a
  function of X by a function outside X, the nearest project caller on the stack; **returns into X**: the
  returns from a function outside X to such a caller in X (the save coming back into X);
* **returns**: every function return in project code during the save, and of them those from a function of
  one module back to a caller in another.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WATCHED = ("tournament.services.hands", "tournament.selectors")
# once single modules, now packages: counted as one room each too, to compare with the flat layout
SPLIT = ("tournament.selectors", "tournament.models")
sys.path.insert(0, str(ROOT))

from benchmarks.layering import project_module  # noqa: E402  (the project's packages, read the same way)


def inside(module: str, room: str) -> bool:
    return module == room or module.startswith(room + ".")


def setup():
    database = Path(tempfile.mkdtemp()) / "hand_save.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "TAIKAI_PRODUCTION"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from players.models import Player
    from scoring.models import Ruleset
    from tournament.models import Entry, Event
    from tournament.services.rounds import round_create

    ruleset = Ruleset.objects.get(slug="standard")
    event = Event.objects.create(name="Hand save", slug="hand-save", ruleset=ruleset)
    players = Player.objects.bulk_create(Player(display_name=f"Player {i}") for i in range(4))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    return round_create(event=event, tables=[ids]).tables.get()


def trace(save) -> dict:
    rooms: list[str] = []
    calls: Counter[str] = Counter()
    called: dict[str, Counter[str]] = {room: Counter() for room in WATCHED}
    crossing = [0]
    returns_into: Counter[str] = Counter()
    returns = [0]

    def nearest_caller(frame):
        """The project module of the nearest project frame below ``frame``; None for a frame Celery called."""
        caller = frame.f_back
        while caller is not None:
            if f"{os.sep}celery{os.sep}" in caller.f_code.co_filename:
                return None
            if caller.f_code.co_filename == __file__:
                return "(the save)"
            module = project_module(caller.f_code.co_filename)
            if module is not None:
                return module
            caller = caller.f_back
        return None

    def profile(frame, event, arg):
        if event not in ("call", "return"):
            return
        module = project_module(frame.f_code.co_filename)
        if module is None or module == "benchmarks.hand_save_trace":
            return
        caller = nearest_caller(frame)
        if caller is None:
            return
        if event == "call":
            if module not in rooms:
                rooms.append(module)
            for room in WATCHED:
                if inside(module, room) and not inside(caller, room):
                    calls[room] += 1
                    called[room][frame.f_code.co_name] += 1
        else:
            returns[0] += 1
            crossing[0] += caller != module
            for room in WATCHED:
                if inside(caller, room) and not inside(module, room):
                    returns_into[room] += 1

    sys.setprofile(profile)
    try:
        save()
    finally:
        sys.setprofile(None)
    return {
        "rooms": rooms,
        "calls": calls,
        "called": called,
        "returns_into": returns_into,
        "returns": returns[0],
        "crossing": crossing[0],
    }


def main() -> None:
    table = setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.services.hands import hand_record

    first = {"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [1], "riichi_positions": [1]}
    hand_record(table=table, number=1, expected_version=0, data=first)
    second = {
        "outcome": "ron",
        "dealer_position": 0,
        "honba": 1,
        "wins": [{"winner": 2, "discarder": 3, "han": 3, "fu": 30}],
    }
    with CaptureQueriesContext(connection) as queries:
        found = trace(lambda: hand_record(table=table, number=2, expected_version=0, data=second))
    print(
        f"one hand save (hand 2 of a table, a ron): {len(found['rooms'])} rooms, {found['returns']} returns "
        f"({found['crossing']} from one room back into another)"
    )
    print("    rooms in order:", ", ".join(found["rooms"]))
    flat = {next((p for p in SPLIT if inside(room, p)), room) for room in found["rooms"]}
    print(f"    rooms, {' and '.join(SPLIT)} counted as one each: {len(flat)}")
    for room in WATCHED:
        print(f"    {room}: {found['calls'][room]} calls into it, {found['returns_into'][room]} returns into it")
        print("        called:", ", ".join(f"{name} ×{count}" for name, count in found["called"][room].items()))
    print(f"    queries: {len(queries)}")


if __name__ == "__main__":
    main()
