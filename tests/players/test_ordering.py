"""In Japanese, players sort by reading (読み); in English, by name."""

import pytest
from django.utils import translation

from players.models import Player
from players.ordering import player_name_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    Player.objects.bulk_create(
        [
            Player(display_name="山田 太郎", reading="やまだ たろう"),
            Player(display_name="佐藤 花子", reading="さとう はなこ"),
            Player(display_name="Anna Kowalska"),
            Player(display_name="鈴木 一郎", reading="すずき いちろう"),
        ]
    )


def names() -> list[str]:
    return list(Player.objects.order_by(*player_name_order()).values_list("display_name", flat=True))


def test_in_japanese_players_sort_by_reading_in_gojuon_order(players):
    with translation.override("ja"):
        assert names() == ["Anna Kowalska", "佐藤 花子", "鈴木 一郎", "山田 太郎"]


def test_in_english_players_sort_by_name(players):
    with translation.override("en"):
        # kanji by the characters themselves: 山田 before 鈴木, though やまだ comes after すずき
        assert names()[0] == "Anna Kowalska"
        assert names().index("山田 太郎") < names().index("鈴木 一郎")
