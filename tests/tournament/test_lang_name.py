"""Names carry their language: a Japanese name on a page in English is marked ``lang="ja"`` (a screen reader
reads it in Japanese); on a page in Japanese, and for a name in Latin letters, nothing is added."""

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from players.models import Player

pytestmark = pytest.mark.once

NAME = Template("{% load taikai %}{{ name|lang_name }}")


def shown(name: str, language: str) -> str:
    with translation.override(language):
        return NAME.render(Context({"name": name}))


def test_a_japanese_name_on_an_english_page_is_marked_japanese():
    assert shown("山田 太郎", "en") == '<span lang="ja">山田 太郎</span>'


def test_a_japanese_name_on_a_japanese_page_and_a_latin_name_anywhere_are_shown_as_they_are():
    assert shown("山田 太郎", "ja") == "山田 太郎"
    assert shown("Suzuki Ichiro", "en") == "Suzuki Ichiro"
    assert shown("Suzuki Ichiro", "ja") == "Suzuki Ichiro"


def test_a_name_is_escaped_either_way():
    assert shown("<b>山田</b>", "en") == '<span lang="ja">&lt;b&gt;山田&lt;/b&gt;</span>'
    assert shown("<b>Bob</b>", "en") == "&lt;b&gt;Bob&lt;/b&gt;"


@pytest.mark.django_db
def test_the_seating_and_the_players_page_mark_a_japanese_name_in_english(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    entry = event.entries.order_by("id").first()
    Player.objects.filter(pk=entry.player_id).update(display_name="山田 太郎", reading="やまだ たろう")
    client = Client()
    english = client.get(reverse("tournament:player", args=[event.slug, entry.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert '<span lang="ja">山田 太郎</span>' in english.text
    assert '<span lang="ja">やまだ たろう</span>' in english.text
    seating = client.get(reverse("tournament:round", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE="en")
    assert '<span lang="ja">山田 太郎</span>' in seating.text
    japanese = Client().get(reverse("tournament:round", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE="ja")
    assert "山田 太郎" in japanese.text and 'lang="ja">山田' not in japanese.text
