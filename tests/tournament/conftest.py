import pytest

from players.models import Player
from scoring.models import Ruleset
from scoring.presets import install_presets
from tournament.models import Entry, Event
from tournament.services import round_create


@pytest.fixture
def standard_ruleset(db):
    install_presets(Ruleset)  # a transactional test flushes the rows the data migration made
    return Ruleset.objects.get(slug="standard")


@pytest.fixture
def make_event(standard_ruleset):
    def make(players: int = 8, **fields):
        event = Event.objects.create(
            name=fields.pop("name", "Spring Open"), slug=fields.pop("slug", "spring-open"),
            ruleset=fields.pop("ruleset", standard_ruleset), **fields,
        )  # fmt: skip
        people = Player.objects.bulk_create(Player(display_name=f"Player {i:02d}") for i in range(1, players + 1))
        Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
        return event

    return make


@pytest.fixture
def seated_round():
    def seat(event, size: int = 4):
        ids = list(event.entries.order_by("id").values_list("id", flat=True))
        return round_create(event=event, tables=[ids[i : i + size] for i in range(0, len(ids), size)])

    return seat
