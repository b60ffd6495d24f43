"""Finding a player by name, kana reading or romaji."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from players.reading import hiragana, matches, romaji, search_keys, search_needle

pytestmark = pytest.mark.once


@pytest.mark.parametrize(
    ("reading", "spelled"),
    [
        ("やまだ たろう", "yamada tarou"),
        ("ちゅうじょう", "chuujou"),
        ("はっとり", "hattori"),
        ("きっちょう", "kitchou"),
        ("ラーメン", "raamen"),
        ("しんいち", "shinichi"),
        ("ジョン", "jon"),
    ],
)
def test_romaji_of_a_kana_reading(reading, spelled):
    assert romaji(reading) == spelled


@pytest.mark.parametrize("typed", ["山田", "やまだ", "ヤマダ", "yamada", "Yamada Tarou", "YAMADA TARO", "ｙａｍａｄａ"])
def test_a_player_is_found_by_name_kana_or_romaji(typed):
    assert matches(search_needle(typed), search_keys("山田 太郎", "やまだ たろう"))


def test_long_vowels_may_be_left_out_in_romaji():
    keys = search_keys("中条 一郎", "ちゅうじょう いちろう")
    assert matches(search_needle("Chujo"), keys) and matches(search_needle("chuujou"), keys)
    assert not matches(search_needle("tanaka"), keys) and not matches(search_needle(""), keys)


@given(st.text(alphabet=st.characters(min_codepoint=0x30A1, max_codepoint=0x30F6), max_size=20))
def test_katakana_and_hiragana_read_the_same(text):
    assert romaji(text) == romaji(hiragana(text))
