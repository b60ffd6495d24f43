"""Texts a service stores on a record and people read later: an entry's status reason ("not checked in
(art. 42)"), a seating job's message ("round 1: 3 tables").

They were stored in the language of whoever caused them (an English command, an API call, a Japanese
organizer), so a reader could meet another language's text. What is stored is never changed; a stored text
that is one of these messages, in any language of the site, is shown in the reader's language
(``stored_text_display``), and any other text (a reason typed by a person) as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as noop

from tournament.models import Entry

# status reasons (written by ``registration.services``, ``services.substitutes``, ``services.discipline`` and the
# entries' admin actions): the close of check-in, a substitute seated, a status set, a disqualification (art. 43)
NOT_CHECKED_IN = noop("not checked in (art. 42)")
STATUS_SET_BY = noop("%(status)s: set by %(user)s")
DISQUALIFIED_BY_DECISION = noop("art. 43: decision by %(user)s")
REPLACED_BY_SUBSTITUTE = noop("replaced by a substitute")
DISQUALIFIED_BY = noop("art. %(number)s%(paragraph)s: %(reason)s")
DISQUALIFICATION_LIFTED = noop("disqualification lifted: penalty %(penalty)s cancelled (%(reason)s)")
# a sign-up change's reasons (``registration.services``)
CHANGE_NOT_CHECKED_IN = noop("not checked in")
CHANGE_CAME = noop("came to the venue")
CHANGE_MERGED = noop("the same as player #%(id)s")
# a seating job's messages: its progress, its outcome, asked again
JOB_READING = noop("reading standings and history")
JOB_SEATING = noop("seating %(count)s players")
JOB_WRITING = noop("writing the round")
JOB_DONE = noop("done")
JOB_ASKED_AGAIN = noop("asked again")
JOB_ASKED_AGAIN_AFTER = noop("asked again after: %(message)s")
JOB_SEATED = (
    noop("round %(round)s: %(tables)s tables"),
    noop("round %(round)s: %(tables)s tables"),
    "tables",
)

# the first message that reads a text is the one: the specific before the general
MESSAGES: tuple[str | tuple[str, str, str], ...] = (
    NOT_CHECKED_IN,
    REPLACED_BY_SUBSTITUTE,
    STATUS_SET_BY,
    DISQUALIFIED_BY_DECISION,
    DISQUALIFIED_BY,
    DISQUALIFICATION_LIFTED,
    JOB_READING,
    JOB_SEATING,
    JOB_WRITING,
    JOB_DONE,
    JOB_ASKED_AGAIN,
    JOB_ASKED_AGAIN_AFTER,
    JOB_SEATED,
    CHANGE_NOT_CHECKED_IN,
    CHANGE_CAME,
    CHANGE_MERGED,
)
PARAMETER = re.compile(r"%\((\w+)\)s")
# what a parameter's value looks like (any other: any text)
VALUES = {
    "number": r"\d+",
    "paragraph": r"[^\s:]*",
    "count": r"\d+",
    "round": r"\d+",
    "tables": r"\d+",
    "penalty": r"\d+",
    "id": r"\d+",
}


def stored_text_display(text: str) -> str:
    """``text`` in the reader's language when it is one of ``MESSAGES`` in a language of the site; otherwise
    as stored."""
    for pattern, message in _patterns():
        found = pattern.fullmatch(text or "")
        if found is not None:
            return _say(message, found.groupdict())
    return text


def _say(message, params: dict[str, str]) -> str:
    nested = {"message": stored_text_display, "status": _status_label}  # values that are themselves words
    params = {name: nested[name](value) if name in nested else value for name, value in params.items()}
    if isinstance(message, tuple):
        singular, plural, count = message
        number = int(params[count]) if params[count].isdigit() else 2
        return ngettext(singular, plural, number) % params
    return gettext(message) % params if params else gettext(message)


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern, object], ...]:
    """Every message as written in each language (each plural form), as a pattern that finds its values."""
    found = []
    for message in MESSAGES:
        forms = set()
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                if isinstance(message, tuple):
                    forms.update(ngettext(message[0], message[1], n) for n in (1, 2))
                else:
                    forms.add(gettext(message))
        found.extend((_pattern(form), message) for form in sorted(forms))
    return tuple(found)


def _pattern(form: str) -> re.Pattern:
    parts = PARAMETER.split(form)  # text, name, text, name, …
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>{VALUES.get(part, '.+?')})" for i, part in enumerate(parts)
    )
    return re.compile(regex, re.DOTALL)


def _status_label(stored: str) -> str:
    """An entry's status as a language of the site named it, in the reader's language."""
    for status in Entry.Status:
        if stored in _labels(status):
            return str(status.label)
    return stored


def _labels(status) -> set[str]:
    said = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            said.add(str(status.label))
    return said
