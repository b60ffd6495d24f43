"""The tile drawings of ``scoring.tiles``: names, hand strings, and SVG documents with no text or fonts.

The committed files under ``scoring/static/scoring/tiles/`` must equal what the drawings produce now;
``manage.py draw_tiles`` writes them again after a change.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.tiles import TILE_CODES, hand_codes, static_path, tile_files, tile_name, tile_names, tile_svg

pytestmark = pytest.mark.once

STATIC_TILES = Path(__file__).resolve().parents[2] / "scoring" / "static" / "scoring" / "tiles"
SVG = "{http://www.w3.org/2000/svg}"
SHAPES = {"svg", "title", "defs", "g", "use", "rect", "circle", "path"}  # every element a tile may use
MAX_BYTES = 4096


def test_the_37_codes_in_display_order():
    assert len(TILE_CODES) == len(set(TILE_CODES)) == 37
    assert TILE_CODES[:10] == ("1m", "2m", "3m", "4m", "5m", "0m", "6m", "7m", "8m", "9m")
    assert TILE_CODES[10:20] == tuple(code.replace("m", "p") for code in TILE_CODES[:10])
    assert TILE_CODES[20:30] == tuple(code.replace("m", "s") for code in TILE_CODES[:10])
    assert TILE_CODES[30:] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("1m", "1 man 一萬"),
        ("9m", "9 man 九萬"),
        ("5p", "5 pin 五筒"),
        ("7s", "7 sou 七索"),
        ("0m", "red 5 man 赤五萬"),
        ("0p", "red 5 pin 赤五筒"),
        ("0s", "red 5 sou 赤五索"),
        ("1z", "East 東"),
        ("4z", "North 北"),
        ("5z", "White dragon 白"),
        ("6z", "Green dragon 發"),
        ("7z", "Red dragon 中"),
    ],
)
def test_names_in_english_and_japanese(code, name):
    assert tile_name(code) == name
    assert tile_names()[code] == name


def test_tile_names_lists_every_code_in_display_order():
    assert tuple(tile_names()) == TILE_CODES


@pytest.mark.parametrize("code", ["", "5", "m5", "10m", "8z", "0z", "9z", "5x", "55m", 5, None])
def test_what_is_not_a_tile_is_refused(code):
    with pytest.raises(ValueError, match="not a tile"):
        tile_svg(code)
    with pytest.raises(ValueError, match="not a tile"):
        tile_name(code)


def test_a_hand_in_writing_order_with_red_fives():
    assert hand_codes("345m888p11567s222z") == [
        *("3m", "4m", "5m", "8p", "8p", "8p", "1s", "1s", "5s", "6s", "7s", "2z", "2z", "2z")
    ]
    assert hand_codes("406m 0p0s") == ["4m", "0m", "6m", "0p", "0s"]
    assert hand_codes("") == []


@pytest.mark.parametrize("text", ["345", "m", "12x", "08z", "1m2"])
def test_an_unreadable_hand_is_refused(text):
    with pytest.raises(ValueError, match="not a hand"):
        hand_codes(text)


@pytest.mark.parametrize("code", TILE_CODES)
def test_each_tile_is_shapes_only_with_its_title(code):
    # given the tile's SVG document
    text = tile_svg(code)
    # then it is small, parses, and draws with shapes: no text, no font, no character outside its title
    assert len(text.encode()) < MAX_BYTES
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert {element.tag.removeprefix(SVG) for element in root.iter()} <= SHAPES
    assert "<text" not in text and "font" not in text
    title = root.find(SVG + "title")
    assert title is not None and title.text == tile_name(code)
    assert text.replace(f"<title>{title.text}</title>", "").isascii()


def test_a_title_can_be_given_and_is_escaped():
    root = ET.fromstring(tile_svg("1z", title="dealer's <East>"))
    assert root.find(SVG + "title").text == "dealer's <East>"


def test_every_tile_is_drawn_differently_and_red_fives_differ_from_fives():
    drawings = {tile_svg(code, title="") for code in TILE_CODES}
    assert len(drawings) == 37
    for suit in "mps":
        assert tile_svg(f"0{suit}", title="").count("#c81f24") > tile_svg(f"5{suit}", title="").count("#c81f24")


def test_static_path():
    assert static_path("0s") == "scoring/tiles/0s.svg"
    with pytest.raises(ValueError):
        static_path("../x")


def test_the_committed_files_are_the_drawings_of_now():
    # the committed images are what the generator draws today (else: manage.py draw_tiles)
    committed = {path.name: path.read_text(encoding="utf-8") for path in STATIC_TILES.glob("*.svg")}
    assert committed == tile_files()
    assert sorted(committed) == sorted(f"{code}.svg" for code in TILE_CODES)
    for name, text in committed.items():
        assert len(text.encode()) < MAX_BYTES, name


def test_the_files_are_found_by_the_static_finders():
    assert Path(finders.find(static_path("5p"))) == STATIC_TILES / "5p.svg"


def test_draw_tiles_writes_every_file_and_check_then_passes(tmp_path):
    # given a folder with a stale tile and a file that draws no tile
    (tmp_path / "1m.svg").write_text("old")
    (tmp_path / "8z.svg").write_text("old")
    with pytest.raises(CommandError, match="stale_tiles"):
        call_command("draw_tiles", "--check", "--output", str(tmp_path), stdout=io.StringIO())
    # when the tiles are drawn
    call_command("draw_tiles", "--output", str(tmp_path), stdout=io.StringIO())
    # then the folder holds the 37 drawings and nothing else
    assert {path.name: path.read_text(encoding="utf-8") for path in tmp_path.iterdir()} == tile_files()
    out = io.StringIO()
    call_command("draw_tiles", "--check", "--output", str(tmp_path), stdout=out)
    assert "37 tiles up to date" in out.getvalue()
