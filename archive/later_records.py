"""The later records of an event archive (``archive.export.with_later_records``) read back, each optional: an
archive without them imports as before. Rows named by the archive's ids (tables, rulings, entries) become the
rows here; who did it is text (``archive.readers.Authors``)."""

from __future__ import annotations

from archive.export import EVENT_LATER_FIELDS
from archive.readers import BATCH, Authors, full_clean, moment, ref
from archive.rows import rows_insert
from tournament import models


def _event_later(event: models.Event, data: dict) -> None:
    """The event's settings added after the archive's first shape (its yaku naming, its late players' minutes)."""
    given = [name for name in EVENT_LATER_FIELDS if name in data]
    if not given:
        return
    for name in given:
        setattr(event, name, data[name])
    full_clean(event, "$.event", exclude=("champion", "owner", "schedule"))
    event.save(update_fields=given)


def _late_clock_load(event: models.Event, archive: dict, tables_by_id: dict, authors: Authors) -> None:
    """Each round's announced start, each table's late players' clock (held, by whom, warned) and each seat's
    arrival or mark as late."""
    rounds = {round_.number: round_ for round_ in models.Round.objects.filter(event=event)}
    started, held, seats = [], [], []
    for data in archive["rounds"]:
        if data.get("starts_at"):
            rounds[data["number"]].starts_at = moment(data["starts_at"])
            started.append(rounds[data["number"]])
        for table_data in data["tables"]:
            table = tables_by_id[table_data["id"]]
            table.late_held_at = moment(table_data.get("late_held_at"))
            table.late_warned_at = moment(table_data.get("late_warned_at"))
            table.late_held_by_name = authors("late_held_by", table_data.get("late_held_by"))["late_held_by_name"]
            if table.late_held_at or table.late_warned_at or table.late_held_by_name:
                held.append(table)
            for seat_data in table_data["seats"]:
                seat = table.archive_seats[seat_data["position"]]
                seat.arrived_at = moment(seat_data.get("arrived_at"))
                seat.arrived_how = seat_data.get("arrived_how", "")
                seat.late_marked_at = moment(seat_data.get("late_marked_at"))
                if seat.arrived_at or seat.arrived_how or seat.late_marked_at:
                    seats.append(seat)
    models.Round.objects.bulk_update(started, ["starts_at"], batch_size=BATCH)
    fields = ["late_held_at", "late_warned_at", "late_held_by_name"]
    models.Table.objects.bulk_update(held, fields, batch_size=BATCH)
    fields = ["arrived_at", "arrived_how", "late_marked_at"]
    models.Seat.objects.bulk_update(seats, fields, batch_size=BATCH)


def _rule_changes_load(event: models.Event, archive: dict, authors: Authors) -> None:
    data = archive.get("rule_changes", [])
    changes = [
        models.RuleChange(
            event=event,
            setting=c["setting"],
            before=c.get("before"),
            after=c.get("after"),
            reason=c["reason"],
            after_round=c["after_round"],
            **authors("by", c.get("by")),
            at=moment(c.get("at")),
        )
        for c in data
    ]
    rows_insert(models.RuleChange, changes)


def _reseats_load(event: models.Event, archive: dict, entries: dict, tables_by_id: dict) -> None:
    """The re-seats, at their tables, with their rulings and the seats before and after as entries here."""
    data = archive.get("reseats", [])
    if not data:
        return
    rulings = dict(
        zip(
            [r["id"] for r in archive.get("rulings", [])],
            models.Ruling.objects.filter(event=event).order_by("pk"),  # made in the archive's order
            strict=True,
        )
    )

    def seats(ids: list, path: str) -> list[int]:
        return [ref(entries, entry, f"{path}[{i}]").pk for i, entry in enumerate(ids)]

    models.TableReseat.objects.bulk_create(
        [
            models.TableReseat(
                table=ref(tables_by_id, r["table"], f"$.reseats[{i}].table"),
                ruling=ref(rulings, r.get("ruling"), f"$.reseats[{i}].ruling"),
                seats_before=seats(r["seats_before"], f"$.reseats[{i}].seats_before"),
                seats_after=seats(r["seats_after"], f"$.reseats[{i}].seats_after"),
                moved=r["moved"],
                hand_versions=r.get("hand_versions", []),
            )
            for i, r in enumerate(data)
        ],
        batch_size=BATCH,
    )


def _round_guard_overrides_load(event: models.Event, archive: dict, authors: Authors) -> None:
    data = archive.get("round_guard_overrides", [])
    overrides = [
        models.RoundGuardOverride(
            event=event,
            round_number=o["round_number"],
            guard=o["guard"],
            refusal=o.get("refusal", ""),
            reason=o["reason"],
            by_token=None,
            **authors("by", o.get("by")),
            at=moment(o.get("at")),
        )
        for o in data
    ]
    rows_insert(models.RoundGuardOverride, overrides)


def later_records_load(event: models.Event, archive: dict, entries: dict, tables_by_id: dict, authors: Authors) -> None:
    """The archive's later records, as far as it holds them: the event's later settings, the late players'
    clock, the rule changes, the re-seats and the round guards overridden."""
    _event_later(event, archive["event"])
    _late_clock_load(event, archive, tables_by_id, authors)
    _rule_changes_load(event, archive, authors)
    _reseats_load(event, archive, entries, tables_by_id)
    _round_guard_overrides_load(event, archive, authors)
