"""``{% load tiles %}``: one tile's image, and a whole hand in MPSZ notation as images."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

pytestmark = pytest.mark.once


def render(source: str, **context) -> str:
    return Template("{% load tiles %}" + source).render(Context(context))


def images(html: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'(\w+)="([^"]*)"', tag)) for tag in re.findall(r"<img [^>]*>", html)]


def test_one_tile_is_an_image_of_its_static_file_named_in_its_alt():
    html = render('{% tile "5p" %}')
    assert html == ('<img src="/static/scoring/tiles/5p.svg" alt="5 pin 五筒" class="tile" width="30" height="40">')


def test_a_tile_from_a_variable_with_its_size_class_and_alt():
    [image] = images(render('{% tile code height=48 css_class="glyph" alt="" %}', code="0m"))
    assert image == {
        "src": "/static/scoring/tiles/0m.svg",
        "alt": "",
        "class": "glyph",
        "width": "36",
        "height": "48",
    }


def test_a_hand_is_one_image_per_tile_in_writing_order():
    # given the example hand of the hand format
    html = render('{% tiles "345m888p11567s222z" %}')
    # then 14 images in a span, each named
    assert html.startswith('<span class="tiles"><img ') and html.endswith("></span>")
    found = images(html)
    assert len(found) == 14
    assert [image["src"].rsplit("/", 1)[1] for image in found] == [
        f"{code}.svg" for code in ("3m", "4m", "5m", "8p", "8p", "8p", "1s", "1s", "5s", "6s", "7s")
    ] + ["2z.svg"] * 3
    assert found[0]["alt"] == "3 man 三萬"
    assert found[-1]["alt"] == "South 南"
    assert {image["class"] for image in found} == {"tile"}


def test_zero_in_a_hand_is_a_red_five():
    found = images(render("{% tiles hand height=32 %}", hand="406m0p"))
    assert [image["alt"] for image in found] == [
        "4 man 四萬",
        "red 5 man 赤五萬",
        "6 man 六萬",
        "red 5 pin 赤五筒",
    ]
    assert {(image["width"], image["height"]) for image in found} == {("24", "32")}


def test_text_that_is_no_tile_or_hand_is_shown_as_it_is_escaped():
    assert render("{% tile code %}", code="8z") == "8z"
    assert render("{% tiles hand %}", hand="12x<b>") == "12x&lt;b&gt;"
    assert render('{% tiles "" %}') == '<span class="tiles"></span>'
