"""What reading an archive back shares (``archive.load`` and ``archive.later_records``): its times and days
read, the rows it names by its own ids found, a row checked by the model's validation, and its authors kept
as the text the file gives."""

from __future__ import annotations

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from archive.schema import archive_invalid

BATCH = 1000


def moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def ref(rows: dict, key, path: str):
    """The row the archive names by ``key`` at ``path`` (None stays None); a key it does not hold refuses it."""
    if key is None:
        return None
    if key not in rows:
        raise archive_invalid(path, _("%(key)s names no row of the archive") % {"key": key})
    return rows[key]


def full_clean(row, path: str, exclude=()) -> None:
    """The model's own validation of ``row``; its first problem refuses the archive at ``path``."""
    try:
        row.full_clean(exclude=list(exclude), validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise archive_invalid(f"{path}.{field}", "; ".join(messages)) from exc


class Authors:
    """The archive's authors as this database keeps them: text, as the archive wrote them. A name is what
    the file claims, never an account here (an account of that name here may be someone else)."""

    def __call__(self, field: str, text: str | None) -> dict:
        """``{field: None, f"{field}_name": name}`` for the author ``text``."""
        return {field: None, f"{field}_name": text or ""}

    def of_version(self, row: dict) -> dict:
        """A version's author, and how the archive says it was recorded."""
        return {
            **self("recorded_by", row.get("recorded_by")),
            "recorded_via_archived": row.get("recorded_via", ""),
        }
