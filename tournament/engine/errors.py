"""The kinds of tournament-engine error.

``TournamentError`` is something the user can fix (a bad seating request, a clock press out of
turn): one of Taikai's ``TaikaiError`` family, with a stable ``code`` and optionally the ``field`` of
the input at fault. ``TournamentConflict`` is a refusal because someone acted first (a clock pressed
by another seat: HTTP 409). ``InvariantViolation`` means the engine itself is wrong (a seating that
leaves a player out, a settlement that does not sum to zero) and must never be shown as a 400.
"""

from __future__ import annotations

from taikai.errors import Conflict, TaikaiError


class TournamentError(TaikaiError):
    """A user-fixable error with a stable machine-readable ``code``."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(code, message, field=field)

    def as_dict(self) -> dict:
        payload = {"code": self.code, "message": self.message}
        if self.field is not None:
            payload["field"] = self.field
        return payload


class TournamentConflict(TournamentError, Conflict):
    """Refused because the state moved on meanwhile (HTTP 409)."""


class InvariantViolation(AssertionError):
    """An internal rule of the engine was broken; a bug, not bad input."""
