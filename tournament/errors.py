"""Errors the tournament services raise: each names the field and has a stable code."""

from __future__ import annotations


class ServiceError(Exception):
    """Bad input or a state that does not allow the operation (HTTP 400 / a form error)."""

    def __init__(self, code: str, message: str, *, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


class VersionConflict(ServiceError):
    """Someone saved first: the caller's expected version is no longer the current one (HTTP 409)."""

    def __init__(self, *, current_version: int, expected_version: int, what: str = "hand"):
        super().__init__(
            "version_conflict",
            f"this {what} was changed meanwhile: the current version is {current_version}, "
            f"you edited version {expected_version}; reload and apply your change again",
            field="expected_version",
        )
        self.current_version = current_version
