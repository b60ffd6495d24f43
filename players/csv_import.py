"""Validate and import players from CSV: every row is checked first, nothing is written if any fails.

The file is UTF-8 (a byte-order mark is allowed). The header row names the columns; ``display_name``
is required, the others are optional: family_name, given_name, reading, club, country, external_id.

Rows are checked in bulk (one query for the external ids already taken, whatever the number of rows) and
written with ``bulk_create``: 20,000 rows take seconds, not minutes. A value the CSV reader cannot read
(longer than its field limit), a control character (NUL…) or a value too long for its column is a
problem of that line and column like any other; every problem is listed. A file of more than
``settings.PLAYER_IMPORT_INLINE_ROWS`` rows uploaded in the admin is imported by a Celery worker
(``players_import_request``), its progress shown like a seating's. A job is given
``settings.PLAYER_IMPORT_SECONDS`` (within the task's time limit): checked between every 2,000 rows read
and every batch written, a file that takes longer is stopped, nothing imported, and its page says so and
what to do (split the file), as it does if the worker's time limit stops it first.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.queue import enqueue_on_commit
from taikai.errors import TaikaiError

from .countries import country_code
from .models import Player, PlayerImport

PLAYERS_IMPORT = "players.import_csv"  # the task's pinned name (tournament.tasks: it registers in an event)
REQUIRED_COLUMNS = ("display_name",)
OPTIONAL_COLUMNS = ("family_name", "given_name", "reading", "club", "country", "external_id")
KNOWN_COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
MAX_LENGTHS = {f.name: f.max_length for f in Player._meta.fields if getattr(f, "max_length", None)}
CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # NUL, line breaks and tabs inside a value, C1
QUERY_CHUNK = 500  # ids per query (SQLite allows at most 999 parameters in some builds)
WRITE_BATCH = 1000
MAX_PROBLEMS_KEPT = 1000  # an import job keeps this many problems to show

Progress = Callable[[int, str], None]


@dataclass(frozen=True)
class CsvProblem:
    row: int | None  # 1-based line number in the file (the header is line 1); None for the whole file
    column: str | None
    message: str

    def __str__(self) -> str:
        where = _("file") if self.row is None else _("line %(line)s") % {"line": self.row}
        if self.column:
            where += f", column {self.column}"
        return f"{where}: {self.message}"


class CsvImportError(Exception):
    def __init__(self, problems: list[CsvProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CsvImportError(
            [
                CsvProblem(
                    None,
                    None,
                    _("the file is not UTF-8 text (byte %(byte)s); save it as UTF-8 CSV") % {"byte": exc.start},
                )
            ]
        ) from exc


class _Lines:
    """The file's physical lines, counted as the CSV reader takes them: the line a record (or a reading
    error) ends on, and its text."""

    def __init__(self, text: str):
        self._lines = io.StringIO(text, newline="")
        self.number = 0
        self.last = ""

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self.number += 1
            self.last = line
            yield line


def _field_lengths(line: str) -> list[int]:
    """The length of each value of one CSV line (quotes and doubled quotes read as the reader does)."""
    lengths, quoted, i = [0], False, 0
    while i < len(line):
        char = line[i]
        if quoted:
            if char == '"' and line[i + 1 : i + 2] == '"':
                lengths[-1] += 1
                i += 1
            elif char == '"':
                quoted = False
            else:
                lengths[-1] += 1
        elif char == '"':
            quoted = True
        elif char == ",":
            lengths.append(0)
        elif char not in "\r\n":
            lengths[-1] += 1
        i += 1
    return lengths


def _unreadable(lines: _Lines, header: list[str], error: csv.Error) -> CsvProblem:
    """The problem of a line the CSV reader gave up on: a value longer than it reads, named by column."""
    lengths = _field_lengths(lines.last)
    longest = max(range(len(lengths)), key=lengths.__getitem__)
    if "field larger than field limit" in str(error):
        column = header[longest] if longest < len(header) else None
        limit = MAX_LENGTHS.get(column or "")
        if limit:
            return CsvProblem(
                lines.number,
                column,
                _("longer than %(limit)s characters (%(length)s)")
                % {"limit": limit, "length": f"{lengths[longest]:,}"},
            )
        return CsvProblem(
            lines.number,
            column,
            _("a value of %(length)s characters is too long to read") % {"length": f"{lengths[longest]:,}"},
        )
    return CsvProblem(lines.number, None, _("cannot be read as CSV (%(error)s)") % {"error": error})


def _rows(lines: _Lines, header: list[str], problems: list[CsvProblem]) -> Iterator[tuple[int, list[str]]]:
    """(line number, values) of every record after the header; a record the reader cannot read is a
    problem of its line, and the next records are read on."""
    reader = csv.reader(lines)
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            problems.append(_unreadable(lines, header, error))
            continue
        yield lines.number, values


def _header(lines: _Lines) -> list[str]:
    try:
        first = next(csv.reader(lines), [])
    except csv.Error as error:
        raise CsvImportError(
            [CsvProblem(1, None, _("the header cannot be read as CSV (%(error)s)") % {"error": error})]
        ) from error
    header = [h.strip() for h in first]
    problems = [CsvProblem(1, c, _("required column is missing")) for c in REQUIRED_COLUMNS if c not in header]
    problems += [
        CsvProblem(
            1,
            CONTROL_CHARACTER.sub("?", c[:40]) or "(blank)",
            _("unknown column; expected some of %(columns)s") % {"columns": ", ".join(KNOWN_COLUMNS)},
        )
        for c in header
        if c not in KNOWN_COLUMNS
    ]
    if problems:
        raise CsvImportError(problems)
    return header


def row_problems(row: dict[str, str]) -> list[tuple[str, str]]:
    """(column, message) of each problem of one player's values (stripped text), as a CSV row or a single
    registration gives them."""
    problems = []
    for column, value in row.items():
        control = CONTROL_CHARACTER.search(value)
        if control:
            code = f"U+{ord(control.group()):04X}"
            problems.append((column, _("holds a control character (%(code)s); remove it") % {"code": code}))
        limit = MAX_LENGTHS.get(column)
        if limit and len(value) > limit and column != "country":
            problems.append((column, _("longer than %(limit)s characters") % {"limit": limit}))
    if not row.get("display_name"):
        problems.append(("display_name", _("must not be empty")))
    country = row.get("country", "")
    if country and country_code(country) is None:
        problems.append(
            (
                "country",
                _("%(country)s is not a country: write its ISO code (JP or JPN) or its name")
                % {"country": repr(country[:40])},
            )
        )
    return problems


def _check_row(line: int, row: dict[str, str], problems: list[CsvProblem]) -> None:
    problems.extend(CsvProblem(line, column, message) for column, message in row_problems(row))
    row["country"] = country_code(row.get("country", "")) or ""


def _chunks(items: list, size: int = QUERY_CHUNK) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _taken_ids(external_ids: dict[str, int]) -> list[CsvProblem]:
    """The file's external ids that already belong to stored players: one query per 500 ids."""
    problems = []
    for chunk in _chunks(list(external_ids)):
        for external_id, name in Player.objects.filter(external_id__in=chunk).values_list(
            "external_id", "display_name"
        ):
            problems.append(
                CsvProblem(
                    external_ids[external_id],
                    "external_id",
                    _("%(id)s already belongs to %(name)s") % {"id": repr(external_id), "name": name},
                )
            )
    return problems


def parse_players_csv(
    data: bytes, *, known_ids_allowed: bool = False, progress: Progress | None = None
) -> list[dict[str, str]]:
    """Return cleaned rows, or raise CsvImportError listing every problem found.

    ``known_ids_allowed``: a row whose external id belongs to a player already stored names that
    player (registering a field for an event) instead of being refused as a duplicate.
    """
    report = progress or (lambda percent, message: None)
    text = _decode(data)
    if not text.strip():
        raise CsvImportError([CsvProblem(None, None, _("the file is empty; expected a header row and players"))])
    lines = _Lines(text)
    header = _header(lines)
    total = max(1, text.count("\n"))
    problems: list[CsvProblem] = []
    rows: list[dict[str, str]] = []
    seen_ids: dict[str, int] = {}
    for count, (line, values) in enumerate(_rows(lines, header, problems), start=1):
        if count % 2000 == 0:
            report(
                5 + 80 * line // total,
                _("checking line %(line)s of %(total)s") % {"line": f"{line:,}", "total": f"{total:,}"},
            )
        if len(values) > len(header):
            problems.append(CsvProblem(line, None, _("more values than columns")))
            continue
        row = {column: (values[i] if i < len(values) else "").strip() for i, column in enumerate(header)}
        if not any(row.values()):
            continue  # a blank line
        _check_row(line, row, problems)
        external_id = row.get("external_id", "")
        if external_id:
            if external_id in seen_ids:
                problems.append(
                    CsvProblem(line, "external_id", f"{external_id!r} also appears on line {seen_ids[external_id]}")
                )
            else:
                seen_ids[external_id] = line
        rows.append(row | {"_line": str(line)})

    if not rows and not problems:
        problems.append(CsvProblem(None, None, _("the file has a header but no players")))
    if seen_ids and not known_ids_allowed:
        problems += _taken_ids(seen_ids)
    if problems:
        raise CsvImportError(sorted(problems, key=lambda p: (p.row or 0, p.column or "")))
    return rows


def _new_player(row: dict[str, str]) -> Player:
    player = Player(**{k: v for k, v in row.items() if k in KNOWN_COLUMNS})
    # the external ids were checked in bulk, for the whole file: no query per row
    player.full_clean(validate_unique=False, validate_constraints=False)
    return player


def _players_create(rows: list[dict[str, str]], on_batch: Callable[[], None] | None = None) -> list[Player]:
    """Write the rows' players in batches (``on_batch`` called before each: the job's clock); an external id
    stored meanwhile by someone else is refused."""
    try:
        with transaction.atomic():
            created: list[Player] = []
            for batch in _chunks(rows, WRITE_BATCH):
                if on_batch is not None:
                    on_batch()
                created += Player.objects.bulk_create([_new_player(row) for row in batch])
            return created
    except IntegrityError as exc:
        ids = {row["external_id"]: int(row["_line"]) for row in rows if row.get("external_id")}
        raise CsvImportError(
            _taken_ids(ids) or [CsvProblem(None, None, _("not imported: %(error)s") % {"error": exc})]
        ) from exc


@transaction.atomic
def players_import_csv(*, data: bytes) -> list[Player]:
    """Create every player of the file, or none (raises CsvImportError with every problem)."""
    return _players_create(parse_players_csv(data))


@transaction.atomic
def players_find_or_create_csv(*, data: bytes) -> list[Player]:
    """Every player of the file in file order: a known external id names the stored player, any other
    row creates one. Nothing is written if any row has a problem."""
    return _players_found_or_created(parse_players_csv(data, known_ids_allowed=True))


def _players_found_or_created(rows: list[dict[str, str]], on_batch: Callable[[], None] | None = None) -> list[Player]:
    ids = [r["external_id"] for r in rows if r.get("external_id")]
    known = {
        player.external_id: player for chunk in _chunks(ids) for player in Player.objects.filter(external_id__in=chunk)
    }
    created = _players_create([r for r in rows if not known.get(r.get("external_id") or "")], on_batch)
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
        raise TaikaiError(
            "invalid_player",
            _("%(column)s: %(message)s") % {"column": column, "message": message},
            field=column,
        )
    row["country"] = country_code(row["country"]) or ""
    if row["external_id"]:
        known = Player.objects.filter(external_id=row["external_id"]).first()
        if known is not None:
            return known
    try:
        player = _new_player(row)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise TaikaiError(
            "invalid_player",
            _("%(column)s: %(message)s") % {"column": field, "message": " ".join(messages)},
            field=field,
        ) from exc
    player.save()
    return player


# --- Large files: imported by a worker, with progress ----------------------------------------------


class ImportOutOfTime(Exception):
    """The job used its ``PLAYER_IMPORT_SECONDS``."""


def csv_line_count(data: bytes) -> int:
    """Lines in the file (its rows, and the header): what decides whether the admin imports it at once."""
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def players_import_request(*, data: bytes, file_name: str = "", user=None, event_id: int | None = None) -> PlayerImport:
    """Ask a worker to import the file (and, with ``event_id``, register its players in that event); its
    progress and outcome are written on the returned job."""
    with transaction.atomic():
        job = PlayerImport.objects.create(
            data=data,
            file_name=file_name[:200],
            lines=csv_line_count(data),
            event_id=event_id,
            requested_by=user if getattr(user, "is_authenticated", False) else None,
        )
        enqueue_on_commit(PLAYERS_IMPORT, job.pk)
    return job


def players_import_run(*, job_id: int, register: Callable[[list[Player]], str] | None = None) -> dict:
    """Run an import job (the Celery task's body). Rows are checked with progress, then written with the
    job marked done in one transaction: safe to run twice (a second run finds the job done or failed).

    ``register``: the job registers its players in an event (``event_id``): known external ids name stored
    players, and ``register(players)`` writes the entries in the same transaction and says what it did."""
    job = PlayerImport.objects.filter(pk=job_id).only("pk", "state").first()
    if job is None:
        return {"job": job_id, "state": "missing"}
    if job.state in (PlayerImport.State.DONE, PlayerImport.State.FAILED):  # delivered again: it is over
        return {"job": job_id, "state": job.state}
    this_job = PlayerImport.objects.filter(pk=job_id).exclude(state=PlayerImport.State.DONE)
    deadline = time.monotonic() + settings.PLAYER_IMPORT_SECONDS

    def on_time() -> None:
        if time.monotonic() >= deadline:
            raise ImportOutOfTime

    def progress(percent: int, message: str) -> None:
        on_time()
        this_job.update(state=PlayerImport.State.RUNNING, percent=percent, message=message, updated_at=timezone.now())

    try:
        progress(1, _("reading the file"))
        data = bytes(PlayerImport.objects.values_list("data", flat=True).get(pk=job_id))
        rows = parse_players_csv(data, progress=progress, known_ids_allowed=register is not None)
        progress(90, _("writing %(count)s players") % {"count": f"{len(rows):,}"})
        with transaction.atomic():
            locked = PlayerImport.objects.select_for_update(no_key=True).get(pk=job_id)
            if locked.state == PlayerImport.State.DONE:
                return {"job": job_id, "state": "done"}
            if register is None:
                created = _players_create(rows, on_time)
                message = ngettext("imported %(count)s player", "imported %(count)s players", len(created)) % {
                    "count": f"{len(created):,}"
                }
            else:
                created = _players_found_or_created(rows, on_time)
                message = register(created)
            PlayerImport.objects.filter(pk=job_id).update(
                state=PlayerImport.State.DONE,
                percent=100,
                imported=len(created),
                data=b"",
                problems=[],
                message=message,
                updated_at=timezone.now(),
            )
    except CsvImportError as exc:
        this_job.update(
            state=PlayerImport.State.FAILED,
            percent=100,
            data=b"",
            problems=[str(p) for p in exc.problems[:MAX_PROBLEMS_KEPT]],
            message=ngettext(
                "%(count)s problem; no player was imported",
                "%(count)s problems; no player was imported",
                len(exc.problems),
            )
            % {"count": f"{len(exc.problems):,}"},
            updated_at=timezone.now(),
        )
        return {"job": job_id, "state": "failed", "problems": len(exc.problems)}
    except (ImportOutOfTime, SoftTimeLimitExceeded):
        reason = _(
            "the import took longer than %(seconds)s seconds and was stopped; nothing was imported. Split the "
            "file into smaller files and upload each."
        ) % {"seconds": settings.PLAYER_IMPORT_SECONDS}
        this_job.update(
            state=PlayerImport.State.FAILED,
            percent=100,
            data=b"",
            problems=[reason],
            message=reason,
            updated_at=timezone.now(),
        )
        return {"job": job_id, "state": "failed", "problems": 1}
    except Exception as exc:  # a bug or the database: the job says so, the worker's log has the rest
        this_job.update(
            state=PlayerImport.State.FAILED, message=f"{exc.__class__.__name__}: {exc}"[:500], updated_at=timezone.now()
        )
        raise
    return {"job": job_id, "state": "done", "imported": len(created)}
