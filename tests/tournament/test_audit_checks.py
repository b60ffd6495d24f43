"""The audit of checked rounds: nothing of a round (a hand version, a result version, a penalty logged or cancelled,
a ruling, an absence marked by the late players' clock) is dated after the round's current check."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournament.audit_codes import codes
from tournament.models import HandVersion, Penalty, Ruling, Seat, SeatResult
from tournament.services.checks import round_check, round_unlock
from tournament.services.hands import hand_record
from tournament.services.results import table_finish

pytestmark = pytest.mark.django_db

DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


@pytest.fixture
def checked(make_event, seated_round):
    """A round of one table, its result confirmed, checked."""
    round_ = seated_round(make_event(4))
    table = round_.tables.get()
    hand_record(table=table, number=1, expected_version=0, data=DRAW)
    table_finish(table=table, end_reason="time")
    return round_check(round_=round_)


def _after(round_):
    return round_.checked_at + timedelta(seconds=5)


def test_a_checked_round_as_the_services_leave_it_has_no_violation(checked):
    assert "changed_after_check" not in codes(checked.event)


def test_a_hand_version_dated_after_the_check_is_a_violation(checked):
    HandVersion.objects.filter(hand__table__round=checked).update(recorded_at=_after(checked))
    assert "changed_after_check" in codes(checked.event)


def test_a_result_version_dated_after_the_check_is_a_violation(checked):
    SeatResult.objects.filter(table__round=checked).update(recorded_at=_after(checked))
    assert "changed_after_check" in codes(checked.event)


def test_a_penalty_or_a_ruling_after_the_check_is_a_violation(checked):
    table = checked.tables.get()
    entry = table.seats.first().entry
    penalty = Penalty.objects.create(
        event=checked.event, entry=entry, table=table, hand_number=1, kind="art35_revealed_hand", reason="x"
    )
    Penalty.objects.filter(pk=penalty.pk).update(logged_at=_after(checked))
    assert "changed_after_check" in codes(checked.event)
    Penalty.objects.filter(pk=penalty.pk).update(logged_at=checked.checked_at - timedelta(seconds=5))
    assert "changed_after_check" not in codes(checked.event)
    ruling = Ruling.objects.create(event=checked.event, table=table, decision="play on")
    Ruling.objects.filter(pk=ruling.pk).update(decided_at=_after(checked))
    assert "changed_after_check" in codes(checked.event)


def test_an_absence_marked_by_the_clock_after_the_check_is_a_violation(checked):
    Seat.objects.filter(round=checked, position=3).update(late_marked_at=_after(checked))
    assert "changed_after_check" in codes(checked.event)


def test_changes_before_a_new_check_are_fine(checked):
    round_unlock(round_=checked, reason="a typo")
    table = checked.tables.get()
    HandVersion.objects.filter(hand__table=table).update(recorded_at=_after(checked))
    SeatResult.objects.filter(table=table).update(recorded_at=_after(checked))
    again = round_check(round_=checked)
    assert again.checked_at is not None
    # the new check is later than the moment the rows were moved to only if it came after them
    HandVersion.objects.filter(hand__table=table).update(recorded_at=again.checked_at - timedelta(seconds=1))
    SeatResult.objects.filter(table=table).update(recorded_at=again.checked_at - timedelta(seconds=1))
    assert "changed_after_check" not in codes(checked.event)
