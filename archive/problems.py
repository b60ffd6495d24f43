"""A schema error of an archive, said in the reader's language.

jsonschema words its errors in English ("9 is greater than the maximum of 3"); the organizer reading the
refusal may read Japanese. Each keyword the archive's schema uses gets a sentence of its own here; a keyword
the schema does not use yet falls back to jsonschema's English.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from jsonschema.exceptions import ValidationError

SHOWN_CHARACTERS = 60  # of a value quoted in a refusal

TYPE_NAMES = {
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "string": gettext_lazy("text"),
    "boolean": gettext_lazy("true or false"),
    "object": gettext_lazy("an object ({…})"),
    "array": gettext_lazy("a list ([…])"),
    "null": gettext_lazy("null"),
}


def shown(value) -> str:
    """A value as it is written in the file, cut to ``SHOWN_CHARACTERS``."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"


def _types(expected) -> str:
    names = expected if isinstance(expected, list) else [expected]
    return _(" or ").join(str(TYPE_NAMES.get(name, name)) for name in names)


def schema_problem(error: ValidationError) -> str:
    """What is wrong at ``error.json_path``, in the active language."""
    value, limit, keyword = error.instance, error.validator_value, error.validator
    if keyword == "type":
        return _("%(value)s is not %(type)s") % {"value": shown(value), "type": _types(limit)}
    if keyword == "maximum":
        return _("%(value)s is more than %(limit)s") % {"value": shown(value), "limit": limit}
    if keyword == "minimum":
        return _("%(value)s is less than %(limit)s") % {"value": shown(value), "limit": limit}
    if keyword == "maxLength":
        return _("%(value)s is longer than %(limit)s characters") % {"value": shown(value), "limit": limit}
    if keyword == "minLength":
        return _("%(value)s is shorter than %(limit)s characters") % {"value": shown(value), "limit": limit}
    if keyword == "maxItems":
        return _("the list holds more than %(limit)s items") % {"limit": limit}
    if keyword == "minItems":
        return _("the list holds fewer than %(limit)s items") % {"limit": limit}
    if keyword == "required" and isinstance(value, dict):
        missing = [name for name in limit if name not in value]
        return _("%(names)s is missing") % {"names": ", ".join(shown(name) for name in missing)}
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = set(error.schema.get("properties", {}))
        extra = sorted(name for name in value if name not in known)
        return _("%(names)s is not expected here") % {"names": ", ".join(shown(name) for name in extra)}
    if keyword == "enum":
        return _("%(value)s is not one of %(choices)s") % {
            "value": shown(value),
            "choices": ", ".join(shown(choice) for choice in limit),
        }
    if keyword == "const":
        return _("%(value)s should be %(expected)s") % {"value": shown(value), "expected": shown(limit)}
    if keyword in ("pattern", "format"):
        return _("%(value)s is not written as expected here") % {"value": shown(value)}
    if keyword in ("oneOf", "anyOf"):
        return _("%(value)s has none of the forms allowed here") % {"value": shown(value)}
    return error.message
