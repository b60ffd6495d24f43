"""The archive's published JSON Schema (``schema.json``, draft 2020-12), and a file checked against it
(``archive_check``) before anything is read: refused with the JSON path of its first problem, said in words
by ``problems`` (``archive_invalid``, the one refusal of a file that does not hold together, the loader's
too)."""

from __future__ import annotations

import functools
import json
from datetime import date, datetime
from pathlib import Path

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match

from archive.problems import schema_problem
from archive.schema_code import schema_test
from taikai.errors import TaikaiError

SCHEMA_PATH = Path(__file__).with_name("schema.json")


@functools.cache
def archive_schema() -> dict:
    """The published JSON Schema of the archive (draft 2020-12)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


_FORMATS = FormatChecker(formats=())  # the formats the loader reads: a moment or a day that exists


@_FORMATS.checks("date-time", raises=ValueError)
def _is_moment(value) -> bool:
    return not isinstance(value, str) or bool(datetime.fromisoformat(value))


@_FORMATS.checks("date", raises=ValueError)
def _is_day(value) -> bool:
    return not isinstance(value, str) or bool(date.fromisoformat(value))


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(archive_schema(), format_checker=_FORMATS)


def _format_test(check):
    """A format checker above as the compiled schema asks for it: a test that answers False, never raises."""

    def test(value) -> bool:
        try:
            return check(value)
        except ValueError:
            return False

    return test


@functools.cache
def _compiled_test():
    """The schema compiled to Python (``archive.schema_code``): whether a file follows it, yes or no, in about
    a second for a 10,000-player archive (66 MB), where jsonschema takes minutes."""
    return schema_test(archive_schema(), {"date-time": _format_test(_is_moment), "date": _format_test(_is_day)})


def archive_invalid(path: str, problem: str) -> TaikaiError:
    return TaikaiError("archive_invalid", _("%(path)s: %(problem)s") % {"path": path, "problem": problem}, field=path)


def archive_check(archive) -> None:
    """Refuse an archive that does not validate against the schema, naming the path of its first problem.

    The compiled schema says whether it does; only a file it refuses is read again by jsonschema, whose
    ``best_match`` names the most telling problem and its path."""
    if _compiled_test()(archive):
        return
    error = best_match(_validator().iter_errors(archive))
    if error is not None:
        raise archive_invalid(error.json_path, schema_problem(error))
    raise archive_invalid("$", _("the file does not follow the archive's schema"))  # the two disagree
