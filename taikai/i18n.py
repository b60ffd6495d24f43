"""Messages raised below Django, in the reader's language.

The engines and ``taikai.errors`` import no Django, yet people read their messages in Japanese or
English. They mark a message with ``_()`` (which ``makemessages`` collects, as it does Django's own
``gettext``) and fill it with named fields: ``_("seat %(seat)s is not at this table") % {"seat": 3}``.
``_`` asks the translator that Django installs at start-up (``install_translator``, from the
tournament app's ``ready``), in the language active at that moment; without one (the engines' own
tests, tools run without Django) a message stays as written.

A module-level constant cannot be translated when the module is imported (no language is active
then): mark it with ``gettext_lazy``, which keeps the message and translates it each time it is read
(``str()``, a format, ``%``).
"""

from __future__ import annotations

from collections.abc import Callable

_translate: Callable[[str], str] = str


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


_translate_plural: Callable[[str, str, int], str] = _english_plural


def install_translator(
    translate: Callable[[str], str], translate_plural: Callable[[str, str, int], str] | None = None
) -> Callable[[str], str]:
    """Route every ``_()`` message through ``translate`` (Django's ``gettext``) and every ``ngettext()``
    through ``translate_plural`` (Django's ``ngettext``; the one installed stays when not given); returns
    the ``_()`` translator it replaces, so that a test can put it back."""
    global _translate, _translate_plural
    previous, _translate = _translate, translate
    if translate_plural is not None:
        _translate_plural = translate_plural
    return previous


def gettext(message: str) -> str:
    """``message`` in the active language, when a translator is installed."""
    return _translate(message)


def ngettext(singular: str, plural: str, number: int) -> str:
    """The form of a message for ``number`` (one player, 3 players) in the active language."""
    return _translate_plural(singular, plural, number)


_ = gettext


class LazyText:
    """A message translated each time it is read, for constants defined before any language is active."""

    __slots__ = ("message",)

    def __init__(self, message: str):
        self.message = message

    def __str__(self) -> str:
        return _translate(self.message)

    def __repr__(self) -> str:
        return f"gettext_lazy({self.message!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __mod__(self, values) -> str:
        return str(self) % values

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyText):
            return self.message == other.message
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.message)


def gettext_lazy(message: str) -> LazyText:
    """``message``, translated when it is read rather than now (module-level constants)."""
    return LazyText(message)
