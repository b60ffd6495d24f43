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

from taikai.i18n import _


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

    def at(self, field: str, *, prefix: str = "", about: str | None = None) -> TaikaiError:
        """The same refusal said of another input (``field``), its message after ``prefix``, or naming
        whom or what it is ``about`` ("Alice: 35 fu cannot happen")."""
        error = type(self).__new__(type(self))
        error.__dict__.update(self.__dict__)
        message = self.message
        if about is not None:
            # Translators: about names whom or what the message is about (a player); message is the refusal.
            message = _("%(about)s: %(message)s") % {"about": about, "message": message}
        error.message, error.field = f"{prefix}{message}", field
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
        if what == "hand":
            message = _(
                "this hand was changed meanwhile: the current version is %(current)s, you edited version "
                "%(expected)s; reload and apply your change again"
            )
        else:
            message = _(
                # Translators: what names the record that was changed (in English).
                "this %(what)s was changed meanwhile: the current version is %(current)s, you edited version "
                "%(expected)s; reload and apply your change again"
            )
        super().__init__(
            "version_conflict",
            message % {"what": what, "current": current_version, "expected": expected_version},
            field="expected_version",
        )
        self.current_version = current_version
