"""The two kinds of tournament-engine error.

``TournamentError`` is something the user can fix (a bad seating request, a clock press out of
turn): it carries a stable ``code`` that the command line and the API report, and optionally the
``field`` of the input at fault. ``InvariantViolation`` means the engine itself is wrong (a seating
that leaves a player out, a settlement that does not sum to zero) and must never be shown as a 400.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """A user-fixable error with a stable machine-readable ``code``."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        payload = {"code": self.code, "message": self.message}
        if self.field is not None:
            payload["field"] = self.field
        return payload


class InvariantViolation(AssertionError):
    """An internal rule of the engine was broken; a bug, not bad input."""
