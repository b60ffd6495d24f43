"""The matrices' check that a refused request wrote nothing (``tests/fixtures/writes.py``) sees writes."""

import pytest
from django.db import transaction

from players.models import Player
from tests.fixtures.writes import writes_recorded

pytestmark = [pytest.mark.django_db, pytest.mark.once]


def test_a_write_is_seen_even_when_it_is_rolled_back():
    with writes_recorded() as written:
        try:
            with transaction.atomic():
                Player.objects.create(display_name="Ghost")
                raise RuntimeError("refused after writing")
        except RuntimeError:
            pass
    assert not Player.objects.filter(display_name="Ghost").exists()
    assert len(written) == 1 and written[0].startswith('INSERT INTO "players_player"')


def test_updates_and_deletes_are_seen_and_reads_are_not():
    player = Player.objects.create(display_name="Someone")
    with writes_recorded() as written:
        list(Player.objects.all())
        Player.objects.filter(pk=player.pk).update(display_name="Another")
        Player.objects.filter(pk=player.pk).delete()
    assert {sql.split()[0] for sql in written} == {"UPDATE", "DELETE"}  # a delete may update related rows


def test_bookkeeping_can_be_left_out():
    with writes_recorded(lambda sql: sql.startswith('INSERT INTO "players_player"')) as written:
        Player.objects.create(display_name="Bookkeeping")
    assert written == []
