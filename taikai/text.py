"""Text that came from outside (request bodies, files, stdin), checked for what Unicode text cannot hold.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``): it parses, but the string is not text. It cannot be
written out as UTF-8, stored in a database or shown, so every reader of outside JSON refuses it up front,
naming where it is, instead of failing later when the value is written back.
"""

from __future__ import annotations


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
    return (
        f"{path} holds a lone UTF-16 surrogate (a \\uD800–\\uDFFF escape without its pair), which is not text"
    )


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
