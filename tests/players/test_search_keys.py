"""``Player.search``, what "find your table" matches in the database, follows the name and its reading on
every way a player is written."""

import pytest

from players.models import Player
from players.reading import search_needle, search_text

pytestmark = [pytest.mark.django_db, pytest.mark.once]

YAMADA = search_text("山田 太郎", "やまだ たろう")


def test_the_search_text_holds_the_name_and_the_reading_in_kana_and_romaji():
    assert YAMADA == "山田太郎 やまだたろう yamadatarou yamadataro"
    assert all(search_needle(typed) in YAMADA for typed in ("ヤマダ", "Yamada Taro", "山田", "tarou"))
    assert search_needle("yamada hanako") not in YAMADA


def test_saved_and_bulk_created_players_can_be_found():
    saved = Player.objects.create(display_name="山田 太郎", reading="やまだ たろう")
    created = Player.objects.bulk_create([Player(display_name="山田 太郎", reading="やまだ たろう")])[0]
    assert Player.objects.get(pk=saved.pk).search == YAMADA
    assert Player.objects.get(pk=created.pk).search == YAMADA


def test_a_name_changed_by_save_update_or_bulk_update_is_found_by_the_new_name():
    first, second, third = Player.objects.bulk_create(Player(display_name=f"Player {n}") for n in range(3))
    first.display_name, first.reading = "山田 太郎", "やまだ たろう"
    first.save(update_fields=["display_name", "reading"])
    Player.objects.filter(display_name="Player 1").update(display_name="山田 太郎", reading="やまだ たろう")
    third.display_name, third.reading = "山田 太郎", "やまだ たろう"
    Player.objects.bulk_update([third], ["display_name", "reading"])
    assert set(Player.objects.filter(search__contains="yamadataro").values_list("pk", flat=True)) == {
        first.pk,
        second.pk,
        third.pk,
    }


def test_an_update_of_other_fields_leaves_the_search_text():
    player = Player.objects.create(display_name="山田 太郎", reading="やまだ たろう")
    Player.objects.filter(pk=player.pk).update(club="Tokyo")
    assert Player.objects.get(pk=player.pk).search == YAMADA
