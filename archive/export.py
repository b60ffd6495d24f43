"""An event as one archive (``archive_version`` 1): everything needed to rebuild it in another database.

The archive is a JSON object, described by ``schema.json`` next to this module (served at
``/api/v1/archive-schema.json``):

* ``format`` ``"taikai-event"``, ``version`` (the export's first shape, kept), ``archive_version``,
  ``exported_at``;
* ``event``: every field of the event (its ruleset by slug, its champion by entry id, its fixed schedule);
* ``ruleset``: every field of its ruleset;
* ``entries``: each entry (status, reason, substitute for, disqualification) with its ``player`` (names,
  reading, club, country, ``external_id``);
* ``rounds`` (drafts left out): each with its ``tables``, each table with its ``seats`` (position,
  absence, the hand a player left after), ``results`` (every version), ``hands`` (every version), its
  ``clock`` (state) or null;
* ``penalties``, ``rulings`` (the event's staff only), ``teams`` (members and reserves, captain);
* ``standings``: the snapshot as computed (rows in order).

Rows point at each other by their ids in the source database (entries, tables, penalties); who recorded
a row is text (``recorded_by``: the author as people read it, for the event's staff, else null): an account's
name, a table card, an API token, or the name kept from the archive the row was imported from. The event's
registration (sign-ups) is another app's and is not included.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.models import RULESET_RULES_FIELDS, Ruleset
from tournament import models
from tournament.models.tables import wind_label

FORMAT = "taikai-event"
EXPORT_VERSION = 1  # the export's first shape, kept under ``version``
ARCHIVE_VERSION = 1

EVENT_FIELDS = (
    "slug",
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "status",
    "is_public",
    "table_size",
    "planned_rounds",
    "entry_mode",
    "time_zone",
    "round_minutes",
    "advancing_places",
    "standings_precedence",
    "seating_method",
    "seating_remainder",
    "penalty_unit",
    "tournament_play",
    "overtime_enabled",
    "clock_bank_seconds",
    "clock_increment_seconds",
    "standings_hidden_from_round",
    "finals_mode",
    "final_games",
    "schedule",
    "team_rule",
    "team_best",
    "draw_seed",
    "created_at",
)
RULESET_FIELDS = tuple(f.name for f in Ruleset._meta.concrete_fields if not f.primary_key)
PLAYER_FIELDS = ("display_name", "family_name", "given_name", "reading", "club", "country", "external_id")
HAND_FIELDS = (
    "version",
    "is_current",
    "label",
    "overtime",
    "outcome",
    "dealer_position",
    "honba",
    "deposits_in",
    "riichi_positions",
    "wins",
    "tenpai_positions",
    "deltas",
    "deposits_out",
    "note",
)
RESULT_FIELDS = ("version", "is_current", "final_points", "placement", "multiplier", "advanced", "forfeit")
RESULT_FRACTIONS = ("point_score", "placement_points", "oka", "game_points")


def plain(value):
    """A field's value as JSON: dates and times as ISO 8601 (times in UTC), everything else as stored."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    return value


def user_name(user, kept: str = "") -> str | None:
    """An account's name; without one, the name kept from an imported archive (none: nobody)."""
    return user.get_username() if user is not None else (kept or None)


def by_token_or_user(token_id: int | None, user, kept: str = "") -> str | None:
    """Who logged a penalty or decided a ruling, as text: an API token, an account or the name kept from an
    imported archive (none: nobody)."""
    if token_id:
        return _("API token #%(number)s") % {"number": token_id}
    return user_name(user, kept)


def ruleset_dict(ruleset: Ruleset) -> dict:
    return {name: plain(getattr(ruleset, name)) for name in RULESET_FIELDS}


def _author_columns() -> tuple[str, ...]:
    """The columns a version's author and the way it was recorded are read from (``_author``, ``_via``)."""
    username = f"recorded_by__{get_user_model().USERNAME_FIELD}"
    return ("recorded_by_id", "recorded_by_card_id", "recorded_by_token_id", "recorded_by_name", username)


def _author(row: dict, staff: bool) -> str | None:
    """Who recorded a version (``author``, read from its columns): for the event's staff only."""
    if not staff:
        return None
    if row["recorded_by_card_id"]:
        return _("table card #%(number)s") % {"number": row["recorded_by_card_id"]}
    if row["recorded_by_token_id"]:
        return _("API token #%(number)s") % {"number": row["recorded_by_token_id"]}
    username = row[f"recorded_by__{get_user_model().USERNAME_FIELD}"]
    return (username if row["recorded_by_id"] else row["recorded_by_name"]) or ""


def _via(row: dict) -> str:
    """How a version was recorded (``recorded_via``, read from its columns)."""
    if row["recorded_by_card_id"]:
        return "table card"
    if row["recorded_by_token_id"]:
        return "api token"
    return "account" if row["recorded_by_id"] else row["recorded_via_archived"]


TABLE_COLUMNS = (
    "id",
    "number",
    "status",
    "overtime_state",
    "overtime_year",
    "result_version",
    "running_points",
    "running_hands",
    "running_version",
)
ROUND_COLUMNS = ("number", "status", "is_final", "timer_started_at", "seating_report", "draw_seed", "created_at")
CLOCK_COLUMNS = ("id", "hand_number", "state", "version", "updated_at")


def _by_table(rows, key: str) -> dict[int, list]:
    grouped: dict[int, list] = {}
    for row in rows:
        grouped.setdefault(row[key], []).append(row)
    return grouped


def _seats(event: models.Event) -> dict[int, list[dict]]:
    """Each table's seats in position order; ``game_index`` is the seat's number in hands (art. 42: none for a
    player absent before the game). Read as plain rows, one query."""
    rows = (
        models.Seat.objects.filter(table__round__event=event)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "entry_id", "entry__player__display_name", "absence", "left_after_hand")
    )
    language = get_language()
    seats: dict[int, list[dict]] = {}
    index: dict[int, int] = {}
    for table_id, position, entry_id, name, absence, left_after_hand in rows.iterator(chunk_size=5000):
        in_game = absence != models.Seat.Absence.ABSENT_BEFORE
        number = index.get(table_id, 0)
        seats.setdefault(table_id, []).append(
            {
                "position": position,
                "wind": wind_label(position, language),
                "game_index": number if in_game else None,
                "entry": entry_id,
                "player": name,
                "absence": absence,
                "left_after_hand": left_after_hand,
            }
        )
        index[table_id] = number + in_game
    return seats


def _results(event: models.Event, staff: bool) -> dict[int, list[dict]]:
    """Every version of each table's results, by version then seat: one query."""
    rows = (
        models.SeatResult.objects.filter(table__round__event=event)
        .order_by("table_id", "version", "seat__position")
        .values(
            "table_id",
            "seat__position",
            "entry_id",
            "recorded_via_archived",
            "recorded_at",
            *RESULT_FIELDS,
            *RESULT_FRACTIONS,
            *_author_columns(),
        )
    )
    results: dict[int, list[dict]] = {}
    for row in rows.iterator(chunk_size=5000):
        results.setdefault(row["table_id"], []).append(
            {
                **{name: row[name] for name in RESULT_FIELDS},
                "position": row["seat__position"],
                "entry": row["entry_id"],
                **{name: str(row[name]) for name in RESULT_FRACTIONS},
                "recorded_via": _via(row),
                "recorded_by": _author(row, staff),
                "recorded_at": plain(row["recorded_at"]),
            }
        )
    return results


def _hands(event: models.Event, staff: bool) -> dict[int, list[dict]]:
    """Every version of each table's hands, by hand then version: one query."""
    rows = (
        models.HandVersion.objects.filter(hand__table__round__event=event)
        .order_by("hand__table_id", "hand__number", "version")
        .values(
            "hand__table_id", "hand__number", "recorded_via_archived", "recorded_at", *HAND_FIELDS, *_author_columns()
        )
    )
    hands: dict[int, list[dict]] = {}
    for row in rows.iterator(chunk_size=5000):
        hands.setdefault(row["hand__table_id"], []).append(
            {
                "number": row["hand__number"],
                **{name: row[name] for name in HAND_FIELDS},
                "recorded_via": _via(row),
                "recorded_by": _author(row, staff),
                "recorded_at": plain(row["recorded_at"]),
            }
        )
    return hands


def _rounds(event: models.Event, staff: bool) -> list[dict]:
    """The published rounds with their tables, each with its seats, every version of its results and hands,
    and its clock: five queries whatever the size of the event, rows read as values (no model instances)."""
    tables = (
        models.Table.objects.filter(round__event=event)
        .exclude(round__status=models.Round.Status.DRAFT)
        .order_by("round__number", "number")
        .values(
            *TABLE_COLUMNS,
            *(f"round__{name}" for name in ROUND_COLUMNS),
            *(f"clock__{name}" for name in CLOCK_COLUMNS),
        )
    )
    seats, results, hands = _seats(event), _results(event, staff), _hands(event, staff)
    rounds: dict[int, dict] = {}
    for row in tables.iterator(chunk_size=5000):
        number = row["round__number"]
        if number not in rounds:
            rounds[number] = {
                "number": number,
                "status": row["round__status"],
                "is_final": row["round__is_final"],
                "timer_started_at": plain(row["round__timer_started_at"]),
                "seating_report": row["round__seating_report"],
                "draw_seed": row["round__draw_seed"],
                "created_at": plain(row["round__created_at"]),
                "tables": [],
            }
        table_id = row["id"]
        rounds[number]["tables"].append(
            {
                **{name: row[name] for name in TABLE_COLUMNS},
                "seats": seats.get(table_id, []),
                "results": results.get(table_id, []),
                "hands": hands.get(table_id, []),
                "clock": None
                if row["clock__id"] is None
                else {
                    "hand_number": row["clock__hand_number"],
                    "state": row["clock__state"],
                    "version": row["clock__version"],
                    "updated_at": plain(row["clock__updated_at"]),
                },
            }
        )
    return list(rounds.values())


def _entries(event: models.Event, staff: bool) -> list[dict]:
    entries = models.Entry.objects.filter(event=event).select_related("player", "disqualification_confirmed_by")
    return [
        {
            "id": e.pk,
            "status": e.status,
            "status_reason": e.status_reason if staff else "",
            "registered_at": plain(e.registered_at),
            "player": {"id": e.player_id, **{name: getattr(e.player, name) for name in PLAYER_FIELDS}},
            "substitute_for": e.substitute_for_id,
            "disqualified_by_penalty": e.disqualified_by_penalty_id,
            "disqualification_confirmed_at": plain(e.disqualification_confirmed_at),
            "disqualification_confirmed_by": user_name(
                e.disqualification_confirmed_by, e.disqualification_confirmed_by_name
            )
            if staff
            else None,
        }
        for e in entries.order_by("id")
    ]


def _penalties(event: models.Event) -> list[dict]:
    penalties = models.Penalty.objects.filter(event=event).select_related("entry__player", "logged_by", "cancelled_by")
    return [
        {
            "id": p.pk,
            "table": p.table_id,
            "round_number": p.round_number,
            "hand_number": p.hand_number,
            "entry": p.entry_id,
            "player": p.entry.player.display_name,
            "kind": p.kind,
            "points": p.points,
            "reason": p.reason,
            "logged_at": plain(p.logged_at),
            "cancelled_at": plain(p.cancelled_at),
            "cancel_reason": p.cancel_reason,
            "logged_by": by_token_or_user(p.logged_by_token_id, p.logged_by, p.logged_by_name),
            "cancelled_by": user_name(p.cancelled_by, p.cancelled_by_name),
        }
        for p in penalties.order_by("logged_at", "id")
    ]


def _rulings(event: models.Event) -> list[dict]:
    rulings = models.Ruling.objects.filter(event=event).select_related("decided_by")
    return [
        {
            "id": r.pk,
            "table": r.table_id,
            "entry": r.entry_id,
            "decision": r.decision,
            "decided_at": plain(r.decided_at),
            "decided_by": by_token_or_user(r.decided_by_token_id, r.decided_by, r.decided_by_name),
        }
        for r in rulings.order_by("decided_at", "id")
    ]


def _teams(event: models.Event) -> list[dict]:
    members = models.TeamMember.objects.order_by("role", "entry_id")
    teams = models.Team.objects.filter(event=event).prefetch_related(Prefetch("members", queryset=members))
    return [
        {
            "name": team.name,
            "captain": team.captain_id,
            "members": [{"entry": m.entry_id, "role": m.role} for m in team.members.all()],
        }
        for team in teams.order_by("name")
    ]


def _standings(event: models.Event) -> dict:
    snapshot = models.StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is None:
        return {
            "computed_at": None,
            "rounds_included": 0,
            "round_numbers": [],
            "hidden_from_round": None,
            "rows": [],
        }
    rows = models.StandingsRow.objects.filter(event=event).select_related("entry").order_by("position")
    return {
        "computed_at": plain(snapshot.computed_at),
        "rounds_included": snapshot.rounds_included,
        "round_numbers": snapshot.round_numbers,
        "hidden_from_round": snapshot.hidden_from_round,
        "rows": [
            {
                "rank": row.rank,
                "award_rank": row.award_rank,
                "entry": row.entry_id,
                "player": row.entry.player_id,
                "name": row.name,
                "club": row.club,
                "country": row.country,
                "status": row.status,
                "advances": row.advances,
                "total_points": str(row.total_points),
                "games": row.games,
                "penalty_points": row.penalty_points,
                "history": [
                    {"round": number, "game_points": points, "advanced": advanced}
                    for number, points, advanced in row.history
                ],
            }
            for row in rows
        ],
    }


# the tournament rules and the ruleset's fields of ``rules`` (the API's rules endpoint gives the same)
RULES_FIELDS = (
    "table_size",
    "entry_mode",
    "advancing_places",
    "tournament_play",
    "penalty_unit",
    "overtime_enabled",
    "clock_bank_seconds",
    "clock_increment_seconds",
    "finals_mode",
    "final_games",
    "seating_method",
    "seating_remainder",
)


def archive_rules(event: models.Event) -> dict:
    """The event's tournament rules with its whole ruleset, as the API's rules endpoint gives them (uma as
    exact strings)."""
    return {
        **{name: plain(getattr(event, name)) for name in RULES_FIELDS},
        "standings_precedence": list(event.precedence),
        "uma": [str(value) for value in event.ruleset.uma_for(event.table_size)],
        "ruleset": {name: plain(getattr(event.ruleset, name)) for name in RULESET_RULES_FIELDS},
    }


def archive_download(event: models.Event, *, staff: bool) -> dict:
    """The archive a person or a program downloads (the API's ``export.json``, the admin's *Export archive*):
    the archive with the event's ``rules``."""
    return {**archive_build(event, staff=staff), "rules": archive_rules(event)}


def archive_build(event: models.Event, *, staff: bool) -> dict:
    """The event's archive (see the module's docstring). ``staff``: for the event's staff, with the
    penalties, rulings, status reasons and who recorded what; otherwise without them."""
    body = {
        "format": FORMAT,
        "version": EXPORT_VERSION,
        "archive_version": ARCHIVE_VERSION,
        "exported_at": plain(timezone.now()),
        "event": {
            **{name: plain(getattr(event, name)) for name in EVENT_FIELDS},
            "ruleset": event.ruleset.slug,
            "champion": event.champion_id,
        },
        "ruleset": ruleset_dict(event.ruleset),
        "entries": _entries(event, staff),
        "rounds": _rounds(event, staff),
        "teams": _teams(event),
        "standings": _standings(event),
    }
    if staff:
        body["penalties"] = _penalties(event)
        body["rulings"] = _rulings(event)
    return with_later_records(body, event, staff=staff)


# -- The later records, each optional (an archive without them still imports): the event's rule changes
# (``rule_changes``), its tables re-seated (``reseats``), the round guards overridden (``round_guard_overrides``),
# the event's yaku naming and late players' setting, and the late players' clock: a round's announced start
# (``starts_at``), a table held or warned (``late_held_at``, ``late_held_by``, ``late_warned_at``), a seat checked
# in or marked absent as late (``arrived_at``, ``arrived_how``, ``late_marked_at``). Rows point at the archive's
# own ids (tables, rulings, entries; a re-seat's hand versions as ``[hand number, version]`` of its table). The
# rule changes are public (shown on the public standings) but who made them; re-seats and overrides are staff's.

# the event's settings added after the archive's first shape (read and written with the other event fields)
EVENT_LATER_FIELDS = ("yaku_names", "late_absent_minutes")


def _late_clock(body: dict, event: models.Event, staff: bool) -> None:
    """Each round's announced start, each table's and seat's late players' clock, added to the rows of ``body``
    (three queries, of the rows that hold one only); who held a table's clock for the event's staff only."""
    starts = dict(models.Round.objects.filter(event=event, starts_at__isnull=False).values_list("number", "starts_at"))
    held = Q(late_held_at__isnull=False) | Q(late_warned_at__isnull=False) | ~Q(late_held_by_name="")
    tables = {t.pk: t for t in models.Table.objects.filter(held, round__event=event).select_related("late_held_by")}
    arrived = Q(arrived_at__isnull=False) | Q(late_marked_at__isnull=False) | ~Q(arrived_how="")
    seats = {
        (table_id, position): (arrived_at, arrived_how, late_marked_at)
        for table_id, position, arrived_at, arrived_how, late_marked_at in models.Seat.objects.filter(
            arrived, round__event=event
        ).values_list("table_id", "position", "arrived_at", "arrived_how", "late_marked_at")
    }
    for round_ in body["rounds"]:
        round_["starts_at"] = plain(starts.get(round_["number"]))
        for row in round_["tables"]:
            table = tables.get(row["id"])
            row["late_held_at"] = plain(table and table.late_held_at)
            row["late_held_by"] = user_name(table.late_held_by, table.late_held_by_name) if staff and table else None
            row["late_warned_at"] = plain(table and table.late_warned_at)
            for seat in row["seats"]:
                arrived_at, arrived_how, late_marked_at = seats.get((row["id"], seat["position"]), (None, "", None))
                seat["arrived_at"] = plain(arrived_at)
                seat["arrived_how"] = arrived_how
                seat["late_marked_at"] = plain(late_marked_at)


def _rule_changes(event: models.Event, staff: bool) -> list[dict]:
    changes = models.RuleChange.objects.filter(event=event).select_related("by").order_by("at", "id")
    return [
        {
            "setting": c.setting,
            "before": c.before,
            "after": c.after,
            "reason": c.reason,
            "after_round": c.after_round,
            "by": user_name(c.by, c.by_name) if staff else None,
            "at": plain(c.at),
        }
        for c in changes
    ]


def _reseats(event: models.Event) -> list[dict]:
    reseats = models.TableReseat.objects.filter(table__round__event=event).order_by("table_id", "pk")
    return [
        {
            "table": r.table_id,
            "ruling": r.ruling_id,
            "seats_before": r.seats_before,
            "seats_after": r.seats_after,
            "moved": r.moved,
            "hand_versions": r.hand_versions,
        }
        for r in reseats
    ]


def _round_guard_overrides(event: models.Event) -> list[dict]:
    overrides = models.RoundGuardOverride.objects.filter(event=event).select_related("by")
    return [
        {
            "round_number": o.round_number,
            "guard": o.guard,
            "refusal": o.refusal,
            "reason": o.reason,
            "by": by_token_or_user(o.by_token_id, o.by, o.by_name),
            "at": plain(o.at),
        }
        for o in overrides.order_by("round_number", "at", "id")
    ]


def with_later_records(body: dict, event: models.Event, *, staff: bool) -> dict:
    """``body`` with the event's later records (see above): the event's later settings, the late players'
    clock, the rule changes and, for the event's staff, the re-seats and the round guards overridden."""
    body["event"].update({name: plain(getattr(event, name)) for name in EVENT_LATER_FIELDS})
    _late_clock(body, event, staff)
    body["rule_changes"] = _rule_changes(event, staff)
    if staff:
        body["reseats"] = _reseats(event)
        body["round_guard_overrides"] = _round_guard_overrides(event)
    return body
