"""A player found by every kind of search: one public event, a name in kanji with its reading, a club, a
country and an EMA number."""

import pytest

from players.models import Player
from tournament.models import Entry


@pytest.fixture
def yamada(make_event):
    event = make_event(2)
    player = Player.objects.create(
        display_name="山田 太郎",
        reading="やまだ たろう",
        club="Tokyo Riichi Club",
        country="JP",
        external_id="04130042",
    )
    Entry.objects.create(event=event, player=player)
    return player
