"""The calculator page (server-rendered; the scoring itself is the API's) and the links that lead to it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.once]

CALCULATOR = "/scoring/calculator/"


def page_html(client, url: str = CALCULATOR, **params) -> str:
    response = client.get(url, params)
    assert response.status_code == 200
    return response.content.decode()


def test_palette_has_the_34_tiles_and_the_three_red_fives(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        html = page_html(client)
    codes = re.findall(r'<button type="button" class="tile[^"]*" data-tile="(\w\w)"', html)
    expected = [f"{rank}{suit}" for suit in "mps" for rank in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]
    expected += [f"{rank}z" for rank in range(1, 8)]
    assert codes == expected
    assert len(set(codes)) == 34 + 3
    for label in ("Haku", "Hatsu", "Chun", ">E<", ">N<", ">1m<", ">9s<"):
        assert label in html


def test_palette_buttons_show_the_tile_images_not_unicode_glyphs(client):
    html = page_html(client)
    buttons = re.findall(r'<button type="button" class="tile[^"]*" data-tile="(\w\w)".*?</button>', html, re.S)
    faces = re.findall(
        r'data-tile="(\w\w)"[^>]*><img src="/static/scoring/tiles/(\w\w)\.svg" alt="" class="glyph"', html
    )
    assert len(buttons) == len(faces) == 37
    assert all(code == image for code, image in faces)
    assert not re.search("[\U0001f000-\U0001f02f]", html)  # no mahjong tile characters left


def test_the_form_has_every_input_of_the_hand_format(client):
    html = page_html(client)
    ids = set(re.findall(r' id="([\w-]+)"', html))
    flags = {
        "riichi",
        "double_riichi",
        "ippatsu",
        "haitei",
        "houtei",
        "rinshan",
        "chankan",
        "tenhou",
        "chiihou",
    }
    winds_and_counts = {"seat-wind", "round-wind", "honba", "riichi-sticks", "dora", "ura", "aka-dora"}
    melds = {f"meld-{n}-{part}" for n in range(1, 5) for part in ("type", "tiles")}
    assert {"tiles", "win-tile", "ron", "tsumo", "ruleset", "players"} <= ids
    assert flags | winds_and_counts | melds <= ids
    for meld_type in ("chi", "pon", "kan_open", "kan_closed", "kan_added"):
        assert f'<option value="{meld_type}">' in html


def test_standard_ruleset_is_chosen_unless_the_link_names_another(client):
    assert re.search(r'<option value="standard" data-aka="0" selected>', page_html(client))
    html = page_html(client, ruleset="simple-doubling")
    assert re.search(r'<option value="simple-doubling" data-aka="0" selected>', html)
    assert not re.search(r'<option value="standard"[^>]* selected>', html)


def test_the_page_posts_to_the_api(client):
    html = page_html(client)
    assert f'"{reverse("scoring:api_evaluate")}"' in html
    assert f'"{reverse("scoring:api_shape")}"' in html


def test_site_header_links_to_the_calculator(client):
    html = page_html(client, reverse("scoring:ruleset_list"))
    header = re.search(r'<header class="site">(.*?)</header>', html, re.S).group(1)
    assert f'href="{CALCULATOR}"' in header


def test_ruleset_list_links_each_ruleset_to_the_calculator(client):
    html = page_html(client, reverse("scoring:ruleset_list"))
    for slug in ("standard", "simple-doubling", "three-player-equal-split"):
        assert f'href="{CALCULATOR}?ruleset={slug}"' in html
