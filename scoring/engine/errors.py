"""The two kinds of engine error.

``ScoringError`` is something the user can fix (a bad tile string, a hand that does not win): it
carries a stable ``code`` that the command line and the API report. ``InvariantViolation`` means the
engine itself is wrong (a settlement that does not sum to zero) and must never be shown as a 400.
"""


class ScoringError(ValueError):
    def __init__(self, code: str, message: str, *, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class InvariantViolation(AssertionError):
    """An internal rule of the engine was broken; a bug, not bad input."""
