"""The one family of errors a person can fix: bad input, or a state that does not allow the operation.

Every refusal in Taikai, from the engines up to the services, is a ``TaikaiError`` with a stable
``code``, a message for people and, when one input is at fault, its ``field``. The engines raise their
own subclasses (``ScoringError``, ``TournamentError``) only so that a traceback tells where a refusal
came from; callers catch ``TaikaiError`` and nothing is translated on the way up. ``status`` is the
HTTP status an entry point answers with: 400, 403 for ``Forbidden`` (no role in the event for this), or
409 for a ``Conflict`` (someone else got there first).

A broken internal rule is not in this family: the engines raise ``InvariantViolation`` (a bug, a 500).
"""

from __future__ import annotations


class TaikaiError(ValueError):
    """A refusal with a stable ``code`` (HTTP 400 / a form error)."""

    status = 400

    def __init__(self, code: str, message: str, *, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}

    def at(self, field: str, *, prefix: str = "") -> TaikaiError:
        """The same refusal said of another input (``field``), its message after ``prefix``."""
        error = type(self).__new__(type(self))
        error.__dict__.update(self.__dict__)
        error.message, error.field = f"{prefix}{self.message}", field
        error.args = (error.message,)
        return error


class Forbidden(TaikaiError):
    """The caller holds no role in the event that allows this write (HTTP 403)."""

    status = 403


class Conflict(TaikaiError):
    """Someone else changed the record first (HTTP 409): reload and try again."""

    status = 409


class VersionConflict(Conflict):
    """The caller's expected version is no longer the current one."""

    def __init__(self, *, current_version: int, expected_version: int, what: str = "hand"):
        super().__init__(
            "version_conflict",
            f"this {what} was changed meanwhile: the current version is {current_version}, "
            f"you edited version {expected_version}; reload and apply your change again",
            field="expected_version",
        )
        self.current_version = current_version
