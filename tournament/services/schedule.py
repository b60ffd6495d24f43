"""A fixed schedule (Pantheon's prescripted seating): the whole event's seatings given in advance, from a
file, checked on import (``tournament.engine.pairing.schedule``), and seated from round by round.

A file is CSV (``round,table,east,south,west,north``: players by their external id, such as an EMA number,
or their name in the event; a three-player table leaves ``north`` empty) or JSON (``{"rounds": [[[player,
…], …], …]}``). Winds are kept as given, or balanced (each player once in each seat every four rounds).
The schedule is refused, with every problem listed, if a player is seated twice in a round, is not a
player of the event, is left out of a round while active, or a table has the wrong size.
"""

from __future__ import annotations

import csv
import io

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from taikai.text import json_read
from tournament import selectors
from tournament.engine.pairing.schedule import schedule_checked, winds_balanced
from tournament.models import Entry, Event
from tournament.services.locks import lock_event
from tournament.services.teams import seating_groups

SEATS = ("east", "south", "west", "north")
PROBLEMS_SHOWN = 20


def _rounds_from_csv(text: str) -> list[list[list[str]]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or not {"round", "table", "east", "south", "west"} <= {
        f.strip() for f in reader.fieldnames
    }:
        raise TaikaiError(
            "invalid_schedule",
            _("the first line names the columns round, table, east, south, west, north"),
            field="file",
        )
    rounds: dict[int, dict[int, list[str]]] = {}
    for line, row in enumerate(reader, start=2):
        try:
            number, table = int(row["round"]), int(row["table"])
        except (TypeError, ValueError):
            raise TaikaiError(
                "invalid_schedule", _("line %(line)s: round and table are numbers") % {"line": line}, field="file"
            ) from None
        players = [(row.get(seat) or "").strip() for seat in SEATS]
        rounds.setdefault(number, {})[table] = [p for p in players if p]
    if sorted(rounds) != list(range(1, len(rounds) + 1)):
        raise TaikaiError("invalid_schedule", _("the rounds are numbered 1, 2, 3… with none missing"), field="file")
    return [[tables[t] for t in sorted(tables)] for _n, tables in sorted(rounds.items())]


def _rounds_from_json(text: str) -> list[list[list[str]]]:
    value = json_read(text, field="file", code="invalid_schedule")  # 10,000 deep: 400, not a RecursionError
    try:
        rounds = value["rounds"]
        return [[[str(player) for player in table] for table in tables] for tables in rounds]
    except (ValueError, KeyError, TypeError):
        raise TaikaiError(
            "invalid_schedule", _('the JSON is {"rounds": [[[player, …], …], …]}'), field="file"
        ) from None


@transaction.atomic
def schedule_import(*, event: Event, data: bytes, file_name: str = "", winds: str = "keep", user=None) -> dict:
    """Read, check and keep the event's fixed schedule; its report (repeats, groups against their bound)."""
    if winds not in ("keep", "balance"):
        raise TaikaiError("invalid_winds", _("winds are kept or balanced"), field="winds")
    event = lock_event(event.pk)
    if selectors.event_next_round_number(event) != 1:
        raise TaikaiError("event_started", _("a schedule is imported before the first round is seated"), field="file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TaikaiError("invalid_schedule", _("the file is not UTF-8 text"), field="file") from None
    named = (
        _rounds_from_json(text)
        if file_name.lower().endswith(".json") or text.lstrip().startswith("{")
        else _rounds_from_csv(text)
    )
    entries = selectors.event_entries_by_name_or_id(event)
    labels = _labels(entries)  # the check speaks of players by name
    named = [
        [[labels.get(entries[p].pk) if p in entries else p for p in table] for table in tables] for tables in named
    ]
    statuses = selectors.event_entry_statuses(event)
    sizes = schedule_sizes(event)
    groups = [{**g, "members": [labels[m] for m in g["members"] if m in labels]} for g in seating_groups(event)]
    report = schedule_checked(
        named,
        list(labels.values()),
        [labels[pk] for pk, status in statuses if status == Entry.Status.ACTIVE and pk in labels],
        sizes,
        groups,
    )
    if report.problems:
        raise TaikaiError("schedule_invalid", "; ".join(report.problems[:PROBLEMS_SHOWN]), field="file")
    by_label = {label: pk for pk, label in labels.items()}
    rounds = [[[by_label[p] for p in table] for table in tables] for tables in named]
    if winds == "balance":
        rounds = winds_balanced(rounds, event.table_size)
    return schedule_keep(event, rounds, report, winds=winds, user=user)


def schedule_sizes(event: Event) -> list[int]:
    """The table sizes a fixed schedule of ``event`` may use."""
    if event.table_size == 3 or event.seating_remainder == Event.Remainder.BYE:
        return [event.table_size]
    return [3, 4]


def schedule_keep(event: Event, rounds: list, report, *, winds: str, user=None, source: str = "file") -> dict:
    """Keep ``rounds`` (entry ids) as ``event``'s fixed schedule, with its checked ``report``; the caller
    holds the event's lock. ``source``: ``file`` (imported) or ``planned`` (made by Taikai)."""
    summary = {
        "rounds": report.rounds,
        "repeat_pairs": report.repeat_pairs,
        "max_meetings": report.max_meetings,
        "groups": report.groups,
    }
    event.schedule = {
        "rounds": rounds,
        "winds": winds,
        "report": summary,
        "at": timezone.now().isoformat(),
        "source": source,
        "by": str(user) if user is not None and getattr(user, "is_authenticated", False) else "",
    }
    event.save(update_fields=["schedule"])
    return summary


def _labels(entries: dict) -> dict[int, str]:
    """Each entry's name as a schedule's check reports it (its id after it when two share a name)."""
    by_pk = {entry.pk: entry for entry in entries.values()}
    counts: dict[str, int] = {}
    for entry in by_pk.values():
        counts[entry.player.display_name] = counts.get(entry.player.display_name, 0) + 1
    return {
        pk: e.player.display_name if counts[e.player.display_name] == 1 else f"{e.player.display_name} #{pk}"
        for pk, e in by_pk.items()
    }


def scheduled_tables(event: Event, round_number: int) -> list[list[int]] | None:
    """The tables of ``round_number`` from the event's fixed schedule, or None when it has none for it. A
    player of the schedule who is away or withdrawn is refused: seat the round automatically instead."""
    rounds = (selectors.event_schedule(event.pk) or {}).get("rounds") or []  # as stored: the caller's copy may be older
    if not 1 <= round_number <= len(rounds):
        return None
    tables = rounds[round_number - 1]
    active = {pk for pk, status in selectors.event_entry_statuses(event) if status == Entry.Status.ACTIVE}
    missing = [pk for table in tables for pk in table if pk not in active]
    if missing:
        raise TaikaiError(
            "schedule_player_inactive",
            _(
                "the fixed schedule seats %(count)s players who are not active in round %(round)s; seat the round "
                "automatically or import the schedule again"
            )
            % {"count": len(missing), "round": round_number},
            field="round",
        )
    return tables
