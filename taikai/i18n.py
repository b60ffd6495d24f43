"""Messages raised below Django, in the reader's language.

The engines and ``taikai.errors`` import no Django, yet people read their messages in Japanese or
English. They mark a message with ``_()`` (which ``makemessages`` collects, as it does Django's own
``gettext``) and fill it with named fields: ``_("seat %(seat)s is not at this table") % {"seat": 3}``.
``_`` asks the translator that Django installs at start-up (``install_translator``, from the
tournament app's ``ready``), in the language active at that moment; without one (the engines' own
tests, tools run without Django) a message stays as written.
"""

from __future__ import annotations

from collections.abc import Callable

_translate: Callable[[str], str] = str


def install_translator(translate: Callable[[str], str]) -> None:
    """Route every ``_()`` message through ``translate`` (Django's ``gettext``)."""
    global _translate
    _translate = translate


def gettext(message: str) -> str:
    """``message`` in the active language, when a translator is installed."""
    return _translate(message)


_ = gettext
