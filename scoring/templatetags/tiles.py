"""Tile images in templates: ``{% load tiles %}``.

* ``{% tile "5p" %}`` → ``<img src="/static/scoring/tiles/5p.svg" alt="5 pin 五筒" class="tile" width="30"
  height="40">``; ``height``, ``css_class`` and ``alt`` may be given (``alt=""`` where a label is
  already beside the image). The alt text is in the active language: the kanji alone (五筒) in Japanese.
* ``{% tiles "345m888p11567s222z" %}`` → one image per tile in writing order, in a ``<span class="tiles">``;
  ``0`` is a red five.

Text that is not a tile or a hand in MPSZ notation is shown as it is.
"""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from scoring.tiles import HEIGHT, WIDTH, hand_codes, static_path, tile_name

register = template.Library()

DEFAULT_HEIGHT = 40  # pixels; the width follows the tiles' 3 : 4


def tile_alt(code: str) -> str:
    """A tile's name for people: ``"5 pin 五筒"`` in English, ``"五筒"`` in Japanese."""
    english, kanji = tile_name(code).rsplit(" ", 1)
    # Translators: a tile's name, its English name then its kanji ("5 pin 五筒", "East 東"); in Japanese
    # the kanji alone, "%(kanji)s" (this is why the check of python-format is off).
    # xgettext:no-python-format
    return _("%(english)s %(kanji)s") % {"english": english, "kanji": kanji}


def _image(code: str, *, height: int, css_class: str, alt: str | None) -> tuple:
    width = round(height * WIDTH / HEIGHT)
    return (static(static_path(code)), tile_alt(code) if alt is None else alt, css_class, width, height)


_IMAGE = '<img src="{}" alt="{}" class="{}" width="{}" height="{}">'


@register.simple_tag
def tile(code, *, height=DEFAULT_HEIGHT, css_class="tile", alt=None):
    try:
        return format_html(_IMAGE, *_image(str(code), height=height, css_class=css_class, alt=alt))
    except ValueError:
        return str(code)


@register.simple_tag
def tiles(hand, *, height=DEFAULT_HEIGHT, css_class="tile"):
    try:
        codes = hand_codes(str(hand))
    except ValueError:
        return str(hand)
    images = format_html_join(
        "", _IMAGE, (_image(code, height=height, css_class=css_class, alt=None) for code in codes)
    )
    return format_html('<span class="tiles">{}</span>', images)
