"""Small steps every service takes alike."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament.models import ApiToken, Round, ScorekeeperKey


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


def require_published(table, *, field: str = "table") -> None:
    """Play happens at the tables of a published round only: a seating draft is the organizers' until then
    (nobody but them reads its tables), so no hand, penalty, absence or clock is recorded at one."""
    if table.round.status == Round.Status.DRAFT:
        raise TaikaiError(
            "round_not_published",
            _("publish the round's seating before recording play at its tables"),
            field=field,
        )
