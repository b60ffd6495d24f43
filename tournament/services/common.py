"""Small steps every service takes alike."""

from __future__ import annotations

from collections.abc import Iterable

from taikai.errors import TaikaiError
from tournament.models import ApiToken, ScorekeeperKey


def recorder(user):
    """The user a record names as its author: nobody for an anonymous caller (a simulation, a task), a
    table card or an API token (:func:`token_of` names the token)."""
    return user if getattr(user, "is_authenticated", False) else None


def token_of(user) -> ApiToken | None:
    """The API token a program wrote through, when ``user`` is one."""
    return user if isinstance(user, ApiToken) else None


def authorship(user) -> dict:
    """The author fields of a versioned record: ``user`` is an account, or the table card (``ScorekeeperKey``)
    a scorekeeper without an account opened, or the API token (``ApiToken``) a program used, or nobody."""
    if isinstance(user, ScorekeeperKey):
        return {"recorded_by": None, "recorded_by_card": user}
    if isinstance(user, ApiToken):
        return {"recorded_by": None, "recorded_by_token": user}
    return {"recorded_by": recorder(user)}


def status_set(row, status: str) -> None:
    """Move a locked row (event, round, table) to ``status``, writing that column only."""
    row.status = status
    row.save(update_fields=["status"])


def refuse_while_open(numbers: Iterable[int], *, code: str, message: str, field: str) -> None:
    """Refuse to close a round or an event while some of its tables or rounds are still open;
    ``message`` (translated) names them through ``%(numbers)s``."""
    numbers = sorted(numbers)
    if numbers:
        raise TaikaiError(code, message % {"numbers": ", ".join(map(str, numbers))}, field=field)
