"""The two kinds of engine error.

``ScoringError`` is something the user can fix (a bad tile string, a hand that does not win): one of
Taikai's ``TaikaiError`` family, with a stable ``code`` that the command line and the API report.
``InvariantViolation`` means the engine itself is wrong (a settlement that does not sum to zero) and
must never be shown as a 400.
"""

from taikai.errors import TaikaiError


class ScoringError(TaikaiError):
    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}  # hand-format.md's error object


class InvariantViolation(AssertionError):
    """An internal rule of the engine was broken; a bug, not bad input."""
