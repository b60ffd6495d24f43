"""Text that came from outside (request bodies, files, stdin), checked for what Unicode text cannot hold.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``): it parses, but the string is not text. It cannot be
written out as UTF-8, stored in a database or shown, so every reader of outside JSON refuses it up front,
naming where it is, instead of failing later when the value is written back.
"""

from __future__ import annotations

import json

from taikai.errors import TaikaiError
from taikai.i18n import _


def holds_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate_path(value: object) -> str | None:
    """Where in a parsed JSON ``value`` a string or a key holds a lone surrogate (``hand.tiles``,
    ``players[3]``, ``$`` for the value itself), or None when it holds none."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if holds_lone_surrogate(item):
                return path or "$"
        elif isinstance(item, dict):
            for key, child in item.items():
                name = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and holds_lone_surrogate(key):
                    return f"{path}.{key!a}" if path else ascii(key)
                stack.append((child, name))
        elif isinstance(item, list):
            stack.extend((child, f"{path or '$'}[{index}]") for index, child in enumerate(item))
    return None


def lone_surrogate_message(path: str) -> str:
    return f"{path} holds a lone UTF-16 surrogate (a \\uD800–\\uDFFF escape without its pair), which is not text"


MAX_LIST_ITEMS = 20_000  # a seating of 10,000 players holds 2,500 tables; nothing the API takes holds more


def longest_list_path(value: object, limit: int = MAX_LIST_ITEMS) -> str | None:
    """Where in a parsed JSON ``value`` a list holds more than ``limit`` items (``$.wins``), or None."""
    stack: list[tuple[object, str]] = [(value, "$")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, list):
            if len(item) > limit:
                return path
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(item))
        elif isinstance(item, dict):
            stack.extend((child, f"{path}.{key}") for key, child in item.items())
    return None


MAX_JSON_DEPTH = 100  # nothing Taikai reads nests deeper than a handful of levels


def deepest_path(value: object, limit: int = MAX_JSON_DEPTH) -> str | None:
    """Where in a parsed JSON ``value`` arrays and objects nest more than ``limit`` deep, or None."""
    stack: list[tuple[object, str, int]] = [(value, "$", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, list | dict):
            if depth >= limit:
                return path
            children = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in children:
                if isinstance(child, list | dict):
                    name = f"{path}.{key}" if isinstance(item, dict) else f"{path}[{key}]"
                    stack.append((child, name, depth + 1))
    return None


def json_read(text: str | bytes, *, field: str, code: str = "invalid_json", max_depth: int = MAX_JSON_DEPTH):
    """Outside JSON (a request body, an uploaded file) as Python values, or a ``TaikaiError`` (400) naming
    ``field``: not JSON, nested deeper than ``max_depth`` (10,000 ``[`` would stop Python's parser with a
    ``RecursionError``, and what reads the value later as well), or holding a lone surrogate."""
    try:
        value = json.loads(text)
    except RecursionError:
        value, where = None, "$"
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, a number too long
        raise TaikaiError(
            code, _("%(field)s is not JSON: %(error)s") % {"field": field, "error": exc}, field=field
        ) from None
    else:
        where = deepest_path(value, max_depth)
    if where is not None:
        message = _("%(field)s nests arrays and objects more than %(depth)s deep (at %(path)s)")
        raise TaikaiError(code, message % {"field": field, "depth": max_depth, "path": where[:80]}, field=field)
    where = lone_surrogate_path(value)
    if where is not None:
        raise TaikaiError(code, f"{field}: {lone_surrogate_message(where)}", field=field)
    return value
