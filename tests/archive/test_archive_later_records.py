"""The archive's later records: rule changes, re-seats, round guards overridden, the late players' clock and the
event's yaku naming and late players' minutes go through export → import → export unchanged (but for ids), the
imported copy audits clean (its re-seats with their rulings), and an archive without them still imports."""

import json

import jsonschema
import pytest
from django.contrib.auth.models import User

from archive.export import archive_build
from archive.load import event_import
from archive.schema import archive_schema
from taikai.errors import TaikaiError
from tests.archive.test_archive import simulated_event
from tests.fixtures.tournament import built_once
from tournament.audit import event_audit
from tournament.models import Event, RoundGuardOverride, RuleChange, Seat, Table, TableReseat
from tournament.services.late import seat_arrive, table_late_hold
from tournament.services.reseat import table_reseat

LATER = ("rule_changes", "reseats", "round_guard_overrides")


def recorded_later(event: Event) -> Event:
    """``event`` with a rule change, a re-seat, a guard override, late players' marks and its later settings."""
    director = User.objects.create_user("director")
    Event.objects.filter(pk=event.pk).update(yaku_names="romaji", late_absent_minutes=10)
    RuleChange.objects.create(
        event=event,
        setting="seating_method",
        before="swiss",
        after="random",
        reason="too few players for Swiss",
        after_round=2,
        by=director,
        by_name="Director Name",
    )
    RoundGuardOverride.objects.create(
        event=event,
        round_number=4,
        guard="previous_round_unfinished",
        refusal="table 3",
        reason="overtime",
        by=director,
    )
    playing = Table.objects.filter(round__event=event, status=Table.Status.PLAYING).order_by("number")
    table = next(t for t in playing if all(s.absence == Seat.Absence.PRESENT for s in t.seats.all()))
    players = [seat.entry.player_id for seat in table.seats.select_related("entry").order_by("position")]
    table_reseat(table=table, players=players[1:] + players[:1], reason="seen at hand 3", user=director)
    round_ = table.round
    type(round_).objects.filter(pk=round_.pk).update(starts_at=round_.created_at)
    seat_arrive(seat=table.seats.order_by("position").first(), how="referee", user=director)
    table_late_hold(table=table, user=director)
    Table.objects.filter(pk=table.pk).update(late_warned_at=round_.created_at)
    absent = Seat.objects.filter(round__event=event).exclude(absence=Seat.Absence.PRESENT).first()
    Seat.objects.filter(pk=absent.pk).update(late_marked_at=absent.table.round.created_at)
    return Event.objects.select_related("ruleset").get(pk=event.pk)


@pytest.fixture(scope="module")
def original_id(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, lambda: recorded_later(simulated_event()).pk)


@pytest.fixture
def original(original_id, db):
    return Event.objects.select_related("ruleset").get(pk=original_id)


def exported(event: Event, staff: bool = True) -> dict:
    return json.loads(json.dumps(archive_build(event, staff=staff)))  # as read from a file


def without_ids(archive: dict) -> dict:
    """The later records and the rows that carry the late players' clock, the archive's ids replaced by what
    they name (a table by its round and number, a ruling by its decision, an entry by its player)."""
    tables = {t["id"]: (r["number"], t["number"]) for r in archive["rounds"] for t in r["tables"]}
    players = {e["id"]: e["player"]["display_name"] for e in archive["entries"]}
    rulings = {r["id"]: r["decision"] for r in archive["rulings"]}
    reseats = [
        {
            **r,
            "table": tables[r["table"]],
            "ruling": rulings[r["ruling"]],
            "seats_before": [players[e] for e in r["seats_before"]],
            "seats_after": [players[e] for e in r["seats_after"]],
        }
        for r in archive["reseats"]
    ]
    late = [
        (
            r["number"],
            r["starts_at"],
            t["number"],
            t["late_held_at"],
            t["late_held_by"],
            t["late_warned_at"],
            [(s["position"], s["arrived_at"], s["arrived_how"], s["late_marked_at"]) for s in t["seats"]],
        )
        for r in archive["rounds"]
        for t in r["tables"]
    ]
    event = {name: archive["event"][name] for name in ("yaku_names", "late_absent_minutes")}
    return {
        "event": event,
        "late": late,
        "rule_changes": archive["rule_changes"],
        "reseats": reseats,
        "round_guard_overrides": archive["round_guard_overrides"],
    }


def test_the_later_records_are_exported_and_validate(original):
    archive = exported(original)
    assert all(archive[name] for name in LATER)
    assert archive["event"]["yaku_names"] == "romaji" and archive["event"]["late_absent_minutes"] == 10
    assert archive["rule_changes"][0]["by"] == "director"
    tables = [t for r in archive["rounds"] for t in r["tables"]]
    assert any(t["late_held_by"] == "director" and t["late_warned_at"] for t in tables)
    seats = [s for t in tables for s in t["seats"]]
    assert any(s["arrived_how"] == "referee" for s in seats) and any(s["late_marked_at"] for s in seats)
    schema_ok = jsonschema.Draft202012Validator(archive_schema())
    schema_ok.validate(archive)
    # for everyone else: the rule changes without who made them, no re-seats, no overrides, nobody holding
    public = exported(original, staff=False)
    schema_ok.validate(public)
    assert public["rule_changes"][0]["by"] is None and "reseats" not in public
    assert not any(t["late_held_by"] for r in public["rounds"] for t in r["tables"])


def test_export_import_export_keeps_the_later_records_and_the_copy_audits_clean(original):
    archive = exported(original)
    imported = event_import(archive=archive)
    assert event_audit(original) == []
    assert event_audit(imported) == []
    assert TableReseat.objects.filter(table__round__event=imported).count() == 1
    again = exported(imported)
    assert without_ids(again) == without_ids(archive)
    # the authors are text here, no account (an account of that name here may be someone else)
    change = RuleChange.objects.get(event=imported)
    override = RoundGuardOverride.objects.get(event=imported)
    held = Table.objects.get(round__event=imported, late_held_at__isnull=False)
    assert (change.by, change.by_name) == (None, "director")
    assert (override.by, override.by_name) == (None, "director")
    assert (held.late_held_by, held.late_held_by_name) == (None, "director")


def test_an_archive_without_the_later_records_still_imports(original):
    archive = exported(original)
    for name in LATER:
        archive.pop(name, None)
    for name in ("yaku_names", "late_absent_minutes"):
        del archive["event"][name]
    for round_ in archive["rounds"]:
        del round_["starts_at"]
        for table in round_["tables"]:
            for name in ("late_held_at", "late_held_by", "late_warned_at"):
                del table[name]
            for seat in table["seats"]:
                for name in ("arrived_at", "arrived_how", "late_marked_at"):
                    del seat[name]
    imported = event_import(archive=archive)
    assert imported.yaku_names == Event._meta.get_field("yaku_names").default
    assert imported.late_absent_minutes is None
    assert not RuleChange.objects.filter(event=imported).exists()
    assert not Seat.objects.filter(round__event=imported, arrived_at__isnull=False).exists()
    again = exported(imported)
    assert again["rule_changes"] == again["reseats"] == again["round_guard_overrides"] == []


def test_a_reseat_naming_a_ruling_the_archive_does_not_hold_writes_nothing(original):
    archive = exported(original)
    archive["reseats"][0]["ruling"] = 10**9
    before = (Event.objects.count(), TableReseat.objects.count(), RuleChange.objects.count())
    with pytest.raises(TaikaiError) as refused:
        event_import(archive=archive)
    assert refused.value.code == "archive_invalid" and refused.value.field == "$.reseats[0].ruling"
    assert (Event.objects.count(), TableReseat.objects.count(), RuleChange.objects.count()) == before
