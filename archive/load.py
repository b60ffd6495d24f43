"""Read an event archive (``export.json``, ``archive_version`` 1) back into this database, as a new event.

The file is checked against the published schema first (``archive.schema``); a file that does not validate,
or whose rows point at rows it does not hold, is refused with the JSON path of the first problem
(``archive_invalid``), and nothing is written: everything is one transaction.

* the ruleset: the stored one of the same slug when every field is equal, otherwise a copy under a new slug
  (``<slug>-2``, …) and, when the name is taken, a new name (``<name> (2)``, …);
An archive is what a file claims, not what Taikai knows; so:

* every version of every hand is recorded again through the console's own rules (``parse_hand_input``,
  then priced by ``scoring.services.hand_settle``): its changes and the deposits it leaves must be those
  the hand's record gives, and each hand's deposits in those the previous hand left; then each table is put
  through the audit's checks of hands and results (``tournament.audit``: zero sums, the table's final points
  against its hands, placements, placement points, oka, game points). The first problem refuses the file
  with its JSON path;
* players: one new player per player of the archive, unless the stored player of the same ``external_id``
  is entered in an event the importer organizes (then it is that player), or the importer chose to link
  that archive player (``link``: after a preview of the look-alikes, ``archive_lookalikes``). A new player
  never takes the external id of a stored one (it is left empty: the id is the stored player's);
* the event under its slug, or ``<slug>-2``, … when it is taken, private (``is_public`` off) and marked
  ``imported`` until its organizer publishes it; entries, rounds, tables, seats, every version of every hand
  and result (version numbers, which is current, when), penalties, rulings, clocks, teams;
* who recorded a row is kept as text, as the archive gave it (``recorded_by_name``, ``logged_by_name``, …),
  never as an account here, even one of that name, and exported again as it came;
* the event's owner (its first organizer) is the ``owner`` given, else nobody;
* then the standings are recomputed by the standings service (the archive's own rows are not read).
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext as _

from archive.export import EVENT_FIELDS, PLAYER_FIELDS, RULESET_FIELDS, ruleset_dict
from archive.later_records import later_records_load
from archive.readers import BATCH, Authors, day, full_clean, moment, ref
from archive.rows import RowMaker, rows_insert, rows_inserting
from archive.schema import archive_check, archive_invalid
from players.models import Player
from scoring.models import Ruleset
from scoring.services import hand_settler
from taikai.errors import TaikaiError
from tournament import access, models
from tournament.audit import hands as hand_checks
from tournament.audit import results as result_checks
from tournament.audit.records import EventRecords
from tournament.services.hand_input import parse_hand_input, recorded_hand
from tournament.services.standings import standings_recompute

_row_maker = functools.cache(RowMaker)  # one per model: its defaults read once


def _free(model, field: str, value: str, pattern: str, max_length: int) -> str:
    """``value``, or the first of ``pattern`` % 2, 3, … that no row of ``model`` has in ``field``."""
    taken = set(model.objects.filter(**{f"{field}__startswith": value[: max_length - 8]}).values_list(field, flat=True))
    number, candidate = 1, value[:max_length]
    while candidate in taken:
        number += 1
        suffix = pattern % number
        candidate = value[: max_length - len(suffix)] + suffix
    return candidate


def _ruleset(data: dict) -> Ruleset:
    """The stored ruleset of that slug when every field is equal, else a copy under a free slug and name."""
    candidate = Ruleset(**{name: data[name] for name in RULESET_FIELDS if name in data})
    full_clean(candidate, "$.ruleset", exclude=("name", "slug"))
    stored = Ruleset.objects.filter(slug=candidate.slug).first()
    if stored is not None and ruleset_dict(stored) == ruleset_dict(candidate):
        return stored
    candidate.slug = _free(Ruleset, "slug", candidate.slug, "-%s", 60)
    candidate.name = _free(Ruleset, "name", candidate.name, " (%s)", 120)
    candidate.save()
    return candidate


@dataclass(frozen=True)
class Lookalike:
    """A player of the archive whose external id is a stored player's."""

    archive_id: int  # the player's id in the archive
    name: str  # as the archive gives it
    external_id: str
    stored: Player
    organized: bool  # the stored player is entered in an event the importer organizes: linked without asking


def archive_lookalikes(archive: dict, owner=None) -> list[Lookalike]:
    """The archive's players that look like stored ones (the same external id), in the archive's order:
    what the importer is asked to link or to create anew. Three queries, whatever the size of the file."""
    claimed = {}
    for entry in archive["entries"]:
        data = entry["player"]
        external_id = (data.get("external_id") or "").strip()
        if external_id and data["id"] not in claimed:
            claimed[data["id"]] = (data, external_id)
    stored = {
        p.external_id: p
        for p in Player.objects.filter(external_id__in={external_id for _data, external_id in claimed.values()})
    }
    organized = set()
    if owner is not None and stored:
        events = access.events_where(access.Actor(owner), manage=True, path="event_id")
        organized = set(
            models.Entry.objects.filter(events, player__in=stored.values()).values_list("player_id", flat=True)
        )
    return [
        Lookalike(
            archive_id, data["display_name"], external_id, stored[external_id], stored[external_id].pk in organized
        )
        for archive_id, (data, external_id) in claimed.items()
        if external_id in stored
    ]


def _players(entries: list[dict], lookalikes: list[Lookalike], link: Collection[int]) -> dict[int, Player]:
    """The archive's player ids → players here: one row per player of the archive, a new one unless it is a
    look-alike the importer organizes or chose to link (``link``: archive player ids)."""
    linked = {
        lookalike.archive_id: lookalike.stored
        for lookalike in lookalikes
        if lookalike.organized or lookalike.archive_id in link
    }
    taken = {lookalike.external_id for lookalike in lookalikes}
    players, new, by_external_id = {}, [], {}
    for i, entry in enumerate(entries):
        data = entry["player"]
        if data["id"] in players:  # one row per player of the archive, entered once
            raise archive_invalid(
                f"$.entries[{i}].player.id",
                _("player %(id)s is the player of another entry too: a player is entered once") % {"id": data["id"]},
            )
        player = linked.get(data["id"])
        if player is None:
            player = Player(**{name: data[name] for name in PLAYER_FIELDS if name in data})
            player.external_id = (player.external_id or "").strip() or None
            if player.external_id in taken:
                player.external_id = None  # a stored player's id, not this new player's
            if player.external_id in by_external_id:
                player = by_external_id[player.external_id]  # two players of the file, one id: one row
            else:
                new.append(player)
                if player.external_id:
                    by_external_id[player.external_id] = player
        players[data["id"]] = player
    rows_insert(Player, new)
    return players


def _event(data: dict, ruleset: Ruleset, owner) -> models.Event:
    fields = {name: data[name] for name in EVENT_FIELDS if name in data and name != "created_at"}
    fields["starts_on"], fields["ends_on"] = day(data.get("starts_on")), day(data.get("ends_on"))
    fields["slug"] = _free(models.Event, "slug", data["slug"], "-%s", 80)
    fields["is_public"] = False  # private until its organizer publishes it
    event = models.Event(**fields, ruleset=ruleset, owner=owner, imported=True)
    full_clean(event, "$.event", exclude=("champion", "owner", "schedule"))
    event.save()
    return event


def _entries(
    event: models.Event, data: list[dict], players: dict[int, Player], authors: Authors
) -> dict[int, models.Entry]:
    entry_row = _row_maker(models.Entry)
    rows = [
        entry_row(
            event=event,
            player=players[e["player"]["id"]],
            status=e["status"],
            status_reason=e.get("status_reason", ""),
            disqualification_confirmed_at=moment(e.get("disqualification_confirmed_at")),
            registered_at=moment(e.get("registered_at")),
            **authors("disqualification_confirmed_by", e.get("disqualification_confirmed_by")),
        )
        for e in data
    ]
    rows_insert(models.Entry, rows)
    return {e["id"]: row for e, row in zip(data, rows, strict=True)}


def _seating(
    event: models.Event, archive: dict, entries: dict[int, models.Entry]
) -> tuple[list, dict[int, models.Table], list[models.Seat]]:
    """The rounds and tables written, and their seats made (not yet written: ``event_import`` writes them); the
    tables (with their archive data), the archive's table ids → tables here, and the seats."""
    round_row, table_row, seat_row = _row_maker(models.Round), _row_maker(models.Table), _row_maker(models.Seat)
    rounds = [
        round_row(
            event=event,
            number=r["number"],
            status=r["status"],
            is_final=r.get("is_final", False),
            seating_report=r.get("seating_report", {}),
            draw_seed=r.get("draw_seed"),
            timer_started_at=moment(r.get("timer_started_at")),
            created_at=moment(r.get("created_at")),
        )
        for r in archive["rounds"]
    ]
    rows_insert(models.Round, rounds)
    tables, placed, by_id = [], [], {}
    for r, (round_data, round_) in enumerate(zip(archive["rounds"], rounds, strict=True)):
        for t, data in enumerate(round_data["tables"]):
            table = table_row(
                round=round_,
                number=data["number"],
                status=data["status"],
                overtime_state=data.get("overtime_state", "none"),
                overtime_year=data.get("overtime_year", 0),
                result_version=data.get("result_version", 0),
                running_points=data.get("running_points", []),
                running_hands=data.get("running_hands", 0),
                running_version=data.get("running_version", 0),
            )
            tables.append(table)
            placed.append((f"$.rounds[{r}].tables[{t}]", data))
            by_id[data["id"]] = table
    seats = []
    with rows_inserting(models.Table, tables):  # the database reads the tables while their seats are made
        for table, (path, data) in zip(tables, placed, strict=True):
            table.archive_seats = {}
            for s, seat_data in enumerate(data["seats"]):
                entry = entries.get(seat_data["entry"]) or ref(entries, seat_data["entry"], f"{path}.seats[{s}].entry")
                seat = seat_row(  # by the keys: no parent object set per row, none read by the checks
                    table_id=table.id,
                    round_id=table.round_id,
                    entry_id=entry.id,
                    position=seat_data["position"],
                    absence=seat_data["absence"],
                    left_after_hand=seat_data.get("left_after_hand"),
                )
                table.archive_seats[seat.position] = seat
                seats.append(seat)
    return list(zip(tables, placed, strict=True)), by_id, seats


def _hand_rechecked(v: dict, where: str, game_seats: list, settle) -> None:
    """One version of a hand recorded again as the console records it: its fields checked against the table
    (``parse_hand_input``), priced by the scoring service; the changes and the deposits left must be those
    the archive gives. A hand voided as entered by mistake moves nothing (``hand_void``)."""
    if v["outcome"] == models.HandVersion.Outcome.VOID:
        if any(v["deltas"]) or v.get("deposits_out", 0) != v.get("deposits_in", 0):
            raise archive_invalid(
                f"{where}.deltas", _("a hand voided as entered by mistake moves no points and no deposits")
            )
        return
    active = [i for i, seat in enumerate(game_seats) if seat.plays_hand(v["number"])]
    try:
        hand = parse_hand_input(v, players=len(game_seats), ruleset=settle.ruleset, active=active)
        settlement = settle(recorded_hand(hand, active=active))
    except TaikaiError as exc:
        raise archive_invalid(f"{where}.{exc.field}" if exc.field else where, exc.message) from exc
    deltas = [0] * len(game_seats)
    for index, position in enumerate(active):
        deltas[position] = settlement.deltas[index]
    if v["deltas"] != deltas:
        raise archive_invalid(
            f"{where}.deltas",
            _("the changes %(given)s are not those of the hand as recorded: %(expected)s")
            % {"given": v["deltas"], "expected": deltas},
        )
    if v.get("deposits_out", 0) != settlement.deposits_out:
        raise archive_invalid(
            f"{where}.deposits_out",
            _("%(given)s points of deposits left, the hand as recorded leaves %(expected)s")
            % {"given": v.get("deposits_out", 0), "expected": settlement.deposits_out},
        )


class _Settle:
    """``scoring.services.hand_settle`` under one ruleset (``hand_settler``), each different hand priced
    once: an archive repeats the same hands (a draw with nobody tenpai, a mangan …) many times."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.settle = hand_settler(ruleset)
        self.known: dict = {}

    def __call__(self, hand):
        if hand not in self.known:
            self.known[hand] = self.settle(hand)
        return self.known[hand]


def _hands_rechecked(table: models.Table, path: str, data: dict, settle: _Settle) -> None:
    """Every version of the table's hands recorded again (``_hand_rechecked``), each hand's deposits in (its
    version in force) those the previous hand left, as the console requires, and the game's running score
    (what pages show of a game in progress) that of its hands."""
    game_seats = [seat for _position, seat in sorted(table.archive_seats.items()) if seat.in_game]
    current = {}
    for i, v in enumerate(data["hands"]):
        _hand_rechecked(v, f"{path}.hands[{i}]", game_seats, settle)
        if v["is_current"]:
            current.setdefault(v["number"], (i, v))
    left, points, played = 0, [], 0
    for number in sorted(current):
        i, v = current[number]
        if v.get("deposits_in", 0) != left:
            raise archive_invalid(
                f"{path}.hands[{i}].deposits_in",
                _("%(points)s points of riichi deposits were left on the table by the previous hand")
                % {"points": left},
            )
        left = v.get("deposits_out", 0)
        if v["outcome"] != models.HandVersion.Outcome.VOID:  # as ``table_running_keep`` keeps them
            start = points or [settle.ruleset.start_points] * len(v["deltas"])
            points, played = [p + d for p, d in zip(start, v["deltas"], strict=False)], played + 1
    if (table.running_points, table.running_hands) != (points, played):
        raise archive_invalid(
            f"{path}.running_points",
            _(
                "the game's running score is %(given)s after %(count)s hands, "
                "its hands give %(expected)s after %(played)s"
            )
            % {
                "given": table.running_points,
                "count": table.running_hands,
                "expected": points,
                "played": played,
            },
        )


def _hands(tables: list, authors: Authors, ruleset: Ruleset) -> tuple[list[models.Hand], list[models.HandVersion]]:
    """Every version of every hand, with its version number, whether it is current, who and when; each
    recorded again first (``_hands_rechecked``). Made, not written (no query): the hands, then their versions."""
    settle = _Settle(ruleset)
    hand_row, version_row = _row_maker(models.Hand), _row_maker(models.HandVersion)
    hands, versions = [], []
    for table, (path, data) in tables:
        _hands_rechecked(table, path, data, settle)
        table.archive_hands = []
        by_number = defaultdict(list)
        for version in data["hands"]:
            by_number[version["number"]].append(version)
        for number, rows in sorted(by_number.items()):
            hand = hand_row(table=table, number=number, current_version=max(v["version"] for v in rows))
            hands.append(hand)
            table.archive_hands.append(hand)
            hand.archive_versions = kept = []
            for v in sorted(rows, key=lambda row: row["version"]):
                kept.append(
                    version_row(
                        hand=hand,
                        version=v["version"],
                        is_current=v["is_current"],
                        label=v["label"],
                        overtime=v.get("overtime", False),
                        dealer_position=v["dealer_position"],
                        honba=v.get("honba", 0),
                        deposits_in=v.get("deposits_in", 0),
                        riichi_positions=v.get("riichi_positions", []),
                        outcome=v["outcome"],
                        wins=v.get("wins", []),
                        tenpai_positions=v.get("tenpai_positions", []),
                        deltas=v["deltas"],
                        deposits_out=v.get("deposits_out", 0),
                        note=v.get("note", ""),
                        recorded_at=moment(v["recorded_at"]),
                        **authors.of_version(v),
                    )
                )
            versions += kept
    return hands, versions


# the audit's checks of one table's hands and results, run on each imported table before it is kept
TABLE_CHECKS = (
    hand_checks.check_hands,
    hand_checks.check_replayed_hands,
    hand_checks.check_absences,
    hand_checks.check_overtime,
    result_checks.check_result_versions,
    result_checks.check_table_points,
    result_checks.check_results,
)
HAND_CODES = frozenset(
    {
        "hand_numbering",
        "hand_zero_sum",
        "hand_seat_count",
        "hand_current_flag",
        "hand_version",
        "deposits_chain",
        "replayed_hand",
        "left_seat_change",
        "left_seat_role",
        "overtime_order",
        "overtime_disabled",
        "overtime_after_end",
    }
)


def _table_records(event: models.Event, tables: list) -> EventRecords:
    """The tables' rows in memory as the audit's checks read them."""
    seats, hands, versions, results = {}, {}, {}, {}
    for table, _placed in tables:
        seats[table.pk] = [seat for _p, seat in sorted(table.archive_seats.items())]
        if table_hands := getattr(table, "archive_hands", []):
            hands[table.pk] = table_hands
            versions.update((hand.pk, hand.archive_versions) for hand in table_hands)
        if table.archive_results:
            results[table.pk] = table.archive_results
    return EventRecords(event, {table.pk: table for table, _placed in tables}, seats, hands, versions, results)


def _tables_audited(event: models.Event, tables: list) -> None:
    """Every table's hands and results through the audit's checks (``TABLE_CHECKS``), from the rows in
    memory (no query), all tables at once; when one fails, the tables are checked again one by one, in
    the archive's order, and the first violation refuses the archive at that table's hands or results."""
    records = _table_records(event, tables)
    if not any(check(records) for check in TABLE_CHECKS):
        return
    for table, placed in tables:
        one = _table_records(event, [(table, placed)])
        for check in TABLE_CHECKS:
            violations = check(one)
            if violations:
                first = violations[0]
                part = "hands" if first.code in HAND_CODES else "results"
                raise archive_invalid(f"{placed[0]}.{part}", f"{first.where}: {first.message} ({first.code})")
    first = next(violation for check in TABLE_CHECKS for violation in check(records))  # only across tables
    raise archive_invalid("$.rounds", f"{first.where}: {first.message} ({first.code})")


class _Fractions(dict):
    """Each fraction's text read once: results repeat the same few oka, uma and scores."""

    def __missing__(self, text: str) -> Fraction:
        value = self[text] = Fraction(text)
        return value


RESULT_FRACTIONS = ("point_score", "placement_points", "oka", "game_points")


def _fraction_refused(where: str, data: dict) -> TaikaiError:
    """A result's fraction the schema lets by but that is no number (``1/0``), named."""
    name = next(name for name in RESULT_FRACTIONS if Fraction(data[name].partition("/")[2] or 1) == 0)
    return archive_invalid(f"{where}.{name}", _("%(value)s divides by zero") % {"value": data[name]})


def _results(tables: list, entries: dict[int, models.Entry], authors: Authors) -> list[models.SeatResult]:
    """Every version of every seat's result, made, not written (no query)."""
    rows, result_row, fraction = [], _row_maker(models.SeatResult), _Fractions()
    for table, (path, data) in tables:
        table.archive_results = []
        seats = table.archive_seats
        for i, r in enumerate(data["results"]):
            seat = seats.get(r["position"]) or ref(seats, r["position"], f"{path}.results[{i}].position")
            entry = entries.get(r["entry"]) or ref(entries, r["entry"], f"{path}.results[{i}].entry")
            if entry.id != seat.entry_id:
                raise archive_invalid(f"{path}.results[{i}].entry", _("the result is not that of the seat's player"))
            try:
                point_score, placement_points = fraction[r["point_score"]], fraction[r["placement_points"]]
                oka, game_points = fraction[r["oka"]], fraction[r["game_points"]]
            except ZeroDivisionError:
                raise _fraction_refused(f"{path}.results[{i}]", r) from None
            rows.append(
                result_row(
                    table_id=table.id,
                    seat_id=seat.id,
                    entry_id=entry.id,
                    version=r["version"],
                    is_current=r["is_current"],
                    final_points=r.get("final_points"),
                    placement=r.get("placement"),
                    point_score=point_score,
                    placement_points=placement_points,
                    oka=oka,
                    game_points=game_points,
                    multiplier=r.get("multiplier", 1),
                    advanced=r.get("advanced", False),
                    forfeit=r.get("forfeit", False),
                    recorded_at=moment(r["recorded_at"]),
                    **authors.of_version(r),
                )
            )
            table.archive_results.append(rows[-1])
        table.archive_results.sort(key=lambda row: row.version)
    return rows


def _clocks(tables: list) -> None:
    kept = [(table, data["clock"]) for table, (_path, data) in tables if data.get("clock")]
    clocks = [
        models.TableClock(
            table=table,
            hand_number=clock["hand_number"],
            state=clock["state"],
            version=clock.get("version", 1),
            updated_at=moment(clock.get("updated_at")),
        )
        for table, clock in kept
    ]
    rows_insert(models.TableClock, clocks)


def _discipline(
    event: models.Event, archive: dict, entries, tables_by_id, authors: Authors
) -> dict[int, models.Penalty]:
    """Penalties and rulings; the archive's penalty ids → penalties here."""
    penalties = [
        models.Penalty(
            event=event,
            table=ref(tables_by_id, p.get("table"), f"$.penalties[{i}].table"),
            entry=ref(entries, p["entry"], f"$.penalties[{i}].entry"),
            round_number=p.get("round_number"),
            hand_number=p.get("hand_number"),
            kind=p["kind"],
            points=p["points"],
            reason=p["reason"],
            **authors("logged_by", p.get("logged_by")),
            cancelled_at=moment(p.get("cancelled_at")),
            **authors("cancelled_by", p.get("cancelled_by")),
            cancel_reason=p.get("cancel_reason", ""),
            logged_at=moment(p.get("logged_at")),
        )
        for i, p in enumerate(archive.get("penalties", []))
    ]
    rows_insert(models.Penalty, penalties)
    rulings = [
        models.Ruling(
            event=event,
            table=ref(tables_by_id, r.get("table"), f"$.rulings[{i}].table"),
            entry=ref(entries, r.get("entry"), f"$.rulings[{i}].entry"),
            decision=r["decision"],
            decided_at=moment(r.get("decided_at")),
            **authors("decided_by", r.get("decided_by")),
        )
        for i, r in enumerate(archive.get("rulings", []))
    ]
    rows_insert(models.Ruling, rulings)
    return {p["id"]: row for p, row in zip(archive.get("penalties", []), penalties, strict=True)}


def _entry_links(archive: dict, entries: dict[int, models.Entry], penalties: dict[int, models.Penalty]) -> None:
    """What entries say of each other and of penalties: substitutes and automatic disqualifications."""
    changed = []
    for i, data in enumerate(archive["entries"]):
        entry = entries[data["id"]]
        entry.substitute_for = ref(entries, data.get("substitute_for"), f"$.entries[{i}].substitute_for")
        entry.disqualified_by_penalty = ref(
            penalties, data.get("disqualified_by_penalty"), f"$.entries[{i}].disqualified_by_penalty"
        )
        if entry.substitute_for or entry.disqualified_by_penalty:
            changed.append(entry)
    models.Entry.objects.bulk_update(changed, ["substitute_for", "disqualified_by_penalty"], batch_size=BATCH)


def _teams(event: models.Event, archive: dict, entries: dict[int, models.Entry]) -> None:
    for i, data in enumerate(archive.get("teams", [])):
        team = models.Team.objects.create(
            event=event,
            name=data["name"],
            captain=ref(entries, data.get("captain"), f"$.teams[{i}].captain"),
        )
        models.TeamMember.objects.bulk_create(
            [
                models.TeamMember(
                    team=team, entry=ref(entries, m["entry"], f"$.teams[{i}].members[{j}].entry"), role=m["role"]
                )
                for j, m in enumerate(data["members"])
            ]
        )


def _event_links(event: models.Event, archive: dict, entries: dict[int, models.Entry]) -> None:
    """The champion, and the fixed schedule's entries (by the archive's ids) as entries here."""
    data = archive["event"]
    event.champion = ref(entries, data.get("champion"), "$.event.champion")
    schedule = dict(data.get("schedule") or {})
    if isinstance(schedule.get("rounds"), list):
        schedule["rounds"] = [
            [[ref(entries, entry, "$.event.schedule.rounds").pk for entry in table] for table in round_]
            for round_ in schedule["rounds"]
        ]
    event.schedule = schedule
    event.save(update_fields=["champion", "schedule"])
    if data.get("created_at"):
        models.Event.objects.filter(pk=event.pk).update(created_at=moment(data["created_at"]))


@contextlib.contextmanager
def _collector_paused():
    """Python's cycle collector held while the rows are built, then let go as it was. An archive of 10,000
    players is millions of objects held to the end; each full collection walked them all again, a fifth of
    the import's time, to free nothing (the rows built form no cycles)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def event_import(*, archive, owner=None, link: Collection[int] = ()) -> models.Event:
    """A new event from ``archive`` (see the module's docstring), owned by ``owner`` (who imports it, its
    first organizer; none from the command line), private and marked imported, its standings recomputed;
    ``link``: the archive's player ids the importer chose to be the stored players of the same external id
    (``archive_lookalikes``). Refused with ``archive_invalid`` and the JSON path of the first problem,
    nothing written."""
    archive_check(archive)
    try:
        with _collector_paused(), transaction.atomic():
            ruleset = _ruleset(archive["ruleset"])
            authors = Authors()
            event = _event(archive["event"], ruleset, owner)
            players = _players(archive["entries"], archive_lookalikes(archive, owner), link)
            entries = _entries(event, archive["entries"], players, authors)
            tables, tables_by_id, seats = _seating(event, archive, entries)
            with rows_inserting(models.Seat, seats):  # the database reads the seats while the hands and results
                hands, versions = _hands(tables, authors, ruleset)  # are made …
                results = _results(tables, entries, authors)
            rows_insert(models.Hand, hands)
            rows_insert(models.HandVersion, versions)
            with rows_inserting(models.SeatResult, results):  # … and the results while the tables are audited
                _tables_audited(event, tables)
            _clocks(tables)
            penalties = _discipline(event, archive, entries, tables_by_id, authors)
            _entry_links(archive, entries, penalties)
            _teams(event, archive, entries)
            _event_links(event, archive, entries)
            later_records_load(event, archive, entries, tables_by_id, authors)
            standings_recompute(event_id=event.pk)
    except IntegrityError as exc:  # two rows the database holds once (a hand's version, a seat, a player)
        raise archive_invalid("$", str(exc)) from exc
    except (DataError, OverflowError) as exc:  # a number larger than the database holds
        raise archive_invalid("$", str(exc)) from exc
    event.refresh_from_db()
    return event
