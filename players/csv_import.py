"""Validate and import players from CSV: every row is checked first, nothing is written if any fails.

The file is UTF-8 (a byte-order mark is allowed). The header row names the columns; ``display_name``
is required, the others are optional: family_name, given_name, reading, club, country, external_id.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError

from .models import Player

REQUIRED_COLUMNS = ("display_name",)
OPTIONAL_COLUMNS = ("family_name", "given_name", "reading", "club", "country", "external_id")
KNOWN_COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
MAX_LENGTHS = {f.name: f.max_length for f in Player._meta.fields if getattr(f, "max_length", None)}


@dataclass(frozen=True)
class CsvProblem:
    row: int | None  # 1-based line number in the file (the header is line 1); None for the whole file
    column: str | None
    message: str

    def __str__(self) -> str:
        if self.row is None:
            # Translators: a problem of the CSV file as a whole.
            where = _("file, column %(column)s: %(message)s") if self.column else _("file: %(message)s")
        elif self.column:
            where = _("line %(line)s, column %(column)s: %(message)s")
        else:
            where = _("line %(line)s: %(message)s")
        return where % {"line": self.row, "column": self.column, "message": self.message}


class CsvImportError(Exception):
    def __init__(self, problems: list[CsvProblem]):
        self.problems = problems
        # Translators: separates the problems listed in one message.
        super().__init__(_("; ").join(str(p) for p in problems))


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CsvImportError(
            [
                CsvProblem(
                    None,
                    None,
                    _("the file is not UTF-8 text (byte %(byte)s); save it as UTF-8 CSV")
                    % {"byte": exc.start},
                )
            ]
        ) from exc


def row_problems(row: dict[str, str]) -> list[tuple[str, str]]:
    """(column, message) of each problem of one player's values (stripped text), as a CSV row or a single
    registration gives them."""
    problems = []
    if not row.get("display_name"):
        problems.append(("display_name", "must not be empty"))
    for column, value in row.items():
        limit = MAX_LENGTHS.get(column)
        if limit and len(value) > limit and column != "country":
            problems.append((column, f"longer than {limit} characters"))
    country = row.get("country", "").upper()
    if country and (len(country) != 2 or not country.isascii() or not country.isalpha()):
        problems.append(("country", f"{country!r} is not a two-letter country code"))
    return problems


def parse_players_csv(data: bytes, *, known_ids_allowed: bool = False) -> list[dict[str, str]]:
    """Return cleaned rows, or raise CsvImportError listing every problem found.

    ``known_ids_allowed``: a row whose external id belongs to a player already stored names that
    player (registering a field for an event) instead of being refused as a duplicate.
    """
    text = _decode(data)
    if not text.strip():
        raise CsvImportError(
            [CsvProblem(None, None, _("the file is empty; expected a header row and players"))]
        )
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip() for h in (reader.fieldnames or [])]
    problems: list[CsvProblem] = []
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    unknown = [c for c in header if c not in KNOWN_COLUMNS]
    for column in missing:
        problems.append(CsvProblem(1, column, _("required column is missing")))
    for column in unknown:
        problems.append(
            CsvProblem(
                1,
                # Translators: stands for a column whose header is empty.
                column or _("(blank)"),
                _("unknown column; expected some of %(columns)s") % {"columns": ", ".join(KNOWN_COLUMNS)},
            )
        )
    if problems:
        raise CsvImportError(problems)
    reader.fieldnames = header

    rows: list[dict[str, str]] = []
    seen_ids: dict[str, int] = {}
    for raw in reader:
        line = reader.line_num
        if None in raw:
            problems.append(CsvProblem(line, None, _("more values than columns")))
            continue
        row = {key: (value or "").strip() for key, value in raw.items()}
        if not any(row.values()):
            continue  # a blank line
        problems.extend(CsvProblem(line, column, message) for column, message in row_problems(row))
        row["country"] = row.get("country", "").upper()
        external_id = row.get("external_id", "")
        if external_id:
            if external_id in seen_ids:
                problems.append(
                    CsvProblem(
                        line,
                        "external_id",
                        _("%(id)s also appears on line %(line)s")
                        % {"id": repr(external_id), "line": seen_ids[external_id]},
                    )
                )
            else:
                seen_ids[external_id] = line
        rows.append(row | {"_line": str(line)})

    if not rows and not problems:
        problems.append(CsvProblem(None, None, _("the file has a header but no players")))
    if seen_ids and not known_ids_allowed:
        taken = Player.objects.filter(external_id__in=list(seen_ids)).values_list(
            "external_id", "display_name"
        )
        for external_id, name in taken:
            problems.append(
                CsvProblem(
                    seen_ids[external_id],
                    "external_id",
                    _("%(id)s already belongs to %(name)s") % {"id": repr(external_id), "name": name},
                )
            )
    if problems:
        raise CsvImportError(sorted(problems, key=lambda p: (p.row or 0, p.column or "")))
    return rows


def _new_player(row: dict[str, str]) -> Player:
    player = Player(**{k: v for k, v in row.items() if k in KNOWN_COLUMNS})
    player.full_clean()
    return player


@transaction.atomic
def players_import_csv(*, data: bytes) -> list[Player]:
    """Create every player of the file, or none (raises CsvImportError with every problem)."""
    return Player.objects.bulk_create(_new_player(row) for row in parse_players_csv(data))


@transaction.atomic
def players_find_or_create_csv(*, data: bytes) -> list[Player]:
    """Every player of the file in file order: a known external id names the stored player, any other
    row creates one. Nothing is written if any row has a problem."""
    rows = parse_players_csv(data, known_ids_allowed=True)
    ids = [r["external_id"] for r in rows if r.get("external_id")]
    known = {player.external_id: player for player in Player.objects.filter(external_id__in=ids)}
    created = Player.objects.bulk_create(
        _new_player(r) for r in rows if not known.get(r.get("external_id") or "")
    )
    fresh = iter(created)
    return [known.get(r.get("external_id") or "") or next(fresh) for r in rows]


@transaction.atomic
def player_find_or_create(*, values: dict[str, str]) -> Player:
    """One player given by their values (the CSV columns): a known ``external_id`` names the stored player,
    otherwise a new one is created. Raises ``TaikaiError`` naming the first value at fault."""
    row = {k: (values.get(k) or "").strip() for k in KNOWN_COLUMNS}
    problems = row_problems(row)
    if problems:
        column, message = problems[0]
        raise TaikaiError("invalid_player", f"{column}: {message}", field=column)
    row["country"] = row["country"].upper()
    if row["external_id"]:
        known = Player.objects.filter(external_id=row["external_id"]).first()
        if known is not None:
            return known
    try:
        player = _new_player(row)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise TaikaiError("invalid_player", f"{field}: {' '.join(messages)}", field=field) from exc
    player.save()
    return player
