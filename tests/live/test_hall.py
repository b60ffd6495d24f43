"""Referee calls, extra time (art. 44) and the directors' board's flags: each flag is made, then seen."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from live.models import RefereeCall, TableAllowance
from live.selectors import board, table_calls
from live.services.allowances import table_allowance_give
from live.services.calls import referee_call, referee_call_close, referee_call_take
from taikai.errors import Conflict, TaikaiError
from tournament.models import Round, Ruling
from tournament.services.hands import hand_record
from tournament.services.results import table_finish

pytestmark = pytest.mark.django_db
DRAW = {"outcome": "exhaustive_draw", "dealer_position": 0}


@pytest.fixture
def hall(make_event, seated_round):
    """A round of three tables whose timer started ``minutes`` ago."""

    def make(minutes: int = 30, players: int = 12):
        round_ = seated_round(make_event(players))
        Round.objects.filter(pk=round_.pk).update(timer_started_at=timezone.now() - timedelta(minutes=minutes))
        round_.refresh_from_db()
        return round_, list(round_.tables.order_by("number"))

    return make


def _play(table, hands: int) -> None:
    for number in range(1, hands + 1):
        hand_record(table=table, number=number, expected_version=0, data=DRAW)


def _flags(round_) -> dict[int, list[str]]:
    return {row.table.number: row.flags for row in board(round_.event).tables}


def test_a_call_is_on_the_board_at_once_taken_by_one_referee_and_closed_with_a_note(hall):
    round_, (table, *_rest) = hall()
    first, second = User.objects.create_user("kato"), User.objects.create_user("sato")
    call = referee_call(table=table, reason="dispute", note="chombo?")
    assert _flags(round_)[table.number] == ["call"]
    assert referee_call(table=table, reason="foul") == call  # a second tap calls once
    referee_call_take(call=call, user=first)
    with pytest.raises(Conflict) as taken:
        referee_call_take(call=call, user=second)
    assert taken.value.code == "call_taken" and "kato" in taken.value.message
    with pytest.raises(TaikaiError) as silent:
        referee_call_close(call=call, note="  ", user=first)
    assert silent.value.code == "note_required"
    referee_call_close(call=call, note="no chombo: play on", user=first)
    assert _flags(round_)[table.number] == []
    [kept] = table_calls(table)
    assert (kept.closing_note, kept.closed_by, kept.taken_by) == ("no chombo: play on", first, first)
    # a new call after the first is closed is a new call
    assert referee_call(table=table, reason="clock") != call


def test_a_call_is_refused_at_a_finished_table_and_for_an_unknown_reason(hall):
    _round, (table, *_rest) = hall()
    with pytest.raises(TaikaiError) as unknown:
        referee_call(table=table, reason="bored")
    assert unknown.value.field == "reason"
    _play(table, 1)
    table_finish(table=table, end_reason="time")
    with pytest.raises(TaikaiError) as finished:
        referee_call(table=table, reason="dispute")
    assert finished.value.code == "table_finished" and not RefereeCall.objects.exists()


def test_a_table_behind_the_rounds_pace_is_flagged(hall):
    round_, (fast, steady, slow) = hall(minutes=30)
    _play(fast, 6)
    _play(steady, 5)
    _play(slow, 1)
    flags = _flags(round_)
    assert "behind" in flags[slow.number] and "behind" not in flags[fast.number] + flags[steady.number]


def test_pace_is_not_judged_in_the_rounds_first_minutes(hall):
    round_, (fast, _steady, slow) = hall(minutes=5)
    _play(fast, 3)
    assert "behind" not in _flags(round_)[slow.number]


def test_a_result_whose_points_do_not_add_up_is_flagged(hall):
    round_, (right, wrong, _open) = hall()
    table_finish(table=right, final_points=[40000, 30000, 20000, 10000])
    table_finish(table=wrong, final_points=[40000, 30000, 20000, 9000])
    flags = _flags(round_)
    assert "totals" in flags[wrong.number] and "totals" not in flags[right.number]


def test_a_table_still_playing_after_the_rounds_end_is_flagged_until_given_more_time(hall):
    round_, (late, done, _other) = hall(minutes=95)  # the event's rounds last 90 minutes
    _play(done, 1)
    table_finish(table=done, end_reason="time")
    assert "overdue" in _flags(round_)[late.number] and "overdue" not in _flags(round_)[done.number]
    director = User.objects.create_user("director")
    [given] = table_allowance_give(tables=[late], minutes=10, reason="a long dispute", user=director)
    assert "overdue" not in _flags(round_)[late.number]
    ruling = Ruling.objects.get(pk=given.ruling_id)
    assert ruling.table == late and ruling.decided_by == director and "10 more minutes" in ruling.decision


def test_extra_time_for_every_table_skips_the_finished_ones_and_needs_a_reason(hall):
    _round, (first, second, finished) = hall()
    _play(finished, 1)
    table_finish(table=finished, end_reason="time")
    with pytest.raises(TaikaiError) as unexplained:
        table_allowance_give(tables=[first, second, finished], hands=1)
    assert unexplained.value.field == "reason"
    with pytest.raises(TaikaiError):
        table_allowance_give(tables=[first], minutes=0, hands=0, reason="nothing")
    given = table_allowance_give(tables=[first, second, finished], hands=1, reason="late start")
    assert sorted(a.table.number for a in given) == [first.number, second.number]
    assert TableAllowance.objects.count() == 2 and Ruling.objects.exclude(table=finished).count() == 2


def test_the_board_reads_in_a_constant_number_of_queries(hall, django_assert_max_num_queries, make_event, seated_round):
    round_, tables = hall(players=40)
    for table in tables[:5]:
        _play(table, 2)
    referee_call(table=tables[0], reason="dispute")
    with django_assert_max_num_queries(5):
        assert len(board(round_.event).tables) == 10


def test_the_board_page_shows_each_tables_pace_against_the_rounds(hall, client):
    round_, (fast, _steady, slow) = hall(minutes=30)
    _play(fast, 6)
    _play(slow, 3)
    rows = {row.table.number: row for row in board(round_.event).tables}
    assert abs(rows[fast.number].per_minute - 6 / 30) < 0.01 and abs(rows[slow.number].per_minute - 3 / 30) < 0.01
    owner = User.objects.create_user("owner", is_superuser=True, is_staff=True)
    client.force_login(owner)
    page = client.get(f"/console/board/?event={round_.event.slug}", follow=True).content.decode()
    assert (
        "0.20 hands/min (round: 0.10)" in page
        and 'data-flags="behind"' not in page.split(f'data-table="{fast.number}"')[1][:40]
    )
