"""The path "record a hand → public standings", set up and played through the services (used by
``benchmarks/layering.py`` to see which modules one write crosses)."""

from __future__ import annotations

from django.test import Client

from players.models import Player
from scoring.models import Ruleset
from tournament.models import Entry, Event
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create
from tournament.services.standings import standings_recompute


def setup_table():
    ruleset = Ruleset.objects.get(slug="standard")
    event = Event.objects.create(name="Layering", slug="layering", ruleset=ruleset)
    players = Player.objects.bulk_create(Player(display_name=f"Player {i}") for i in range(4))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    round_ = round_create(event=event, tables=[ids])
    standings_recompute(event_id=event.id)  # a first snapshot, so the page renders the same way each run
    client = Client()
    client.get(f"/events/{event.slug}/standings/")  # warm the imports
    return round_.tables.get(), client, f"/events/{event.slug}/standings/"


def record_hand_to_standings(table, client, url) -> None:
    data = {
        "outcome": "ron",
        "dealer_position": 0,
        "wins": [{"winner": 1, "discarder": 0, "han": 3, "fu": 30}],
    }
    hand_record(table=table, number=1, expected_version=0, data=data)
    table_finish(table=table, end_reason="time")
    round_complete(round_=table.round)
    response = client.get(url)
    assert response.status_code == 200, response.status_code
