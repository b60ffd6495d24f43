"""The referee console's table sheet, penalties and clocks, through the Django test client."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import Entry, HandVersion, Penalty, Seat, SeatResult
from tournament.services.hands import hand_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table):
    return make_table(clock_bank_seconds=30, clock_increment_seconds=5)


@pytest.fixture
def referee(admin_client):
    return admin_client


def sheet(table):
    return reverse("console:table", args=[table.pk])


def ron(**fields):
    return {
        "action": "hand",
        "outcome": "ron",
        "dealer_position": 0,
        "honba": 0,
        "expected_version": 0,
        "winner_1": 1,
        "discarder": 2,
        "han_1": "3",
        "fu_1": 30,
    } | fields


def current(table, number=1):
    return HandVersion.objects.current().get(hand__table=table, hand__number=number)


def test_a_ron_of_1_to_4_han_without_fu_is_refused(referee, table):
    response = referee.post(sheet(table), ron(han_1="4", fu_1=""))
    assert response.status_code == 400
    assert "a win of 4 han needs its fu" in response.content.decode()
    assert not HandVersion.objects.exists()


def test_from_5_han_and_for_yakuman_no_fu_is_asked(referee, table):
    assert referee.post(sheet(table), ron(han_1="5", fu_1="")).status_code == 302
    assert current(table).deltas == [0, 8000, -8000, 0]
    response = referee.post(sheet(table), ron(han_1="Y1", fu_1="", expected_version=0) | {"hand": 2})
    assert response.status_code == 302
    assert current(table, 2).wins[0]["yakuman"] == 1


def test_the_picker_offers_only_han_fu_pairs_that_exist(referee, table):
    body = referee.get(sheet(table)).content.decode()
    # 1 han ron: 30 fu and up, never 20 or 25; 2 han ron: 25 fu (chiitoitsu) too
    assert '"ron": {"1": [30, 40, 50, 60, 70, 80, 90, 100, 110], "2": [25, 30' in body
    assert '"tsumo": {"1": [30, 40' in body and '"2": [20, 30' in body


def test_correcting_a_hand_starts_from_its_values_and_changing_only_the_fu_works(referee, table):
    referee.post(sheet(table), ron())
    page = referee.get(sheet(table) + "?hand=1").content.decode()
    for name, value in (
        ("winner_1", "1"),
        ("discarder", "2"),
        ("han_1", "3"),
        ("fu_1", "30"),
        ("outcome", "ron"),
    ):
        assert (
            f'name="{name}" value="{value}"' in page
            and "checked" in page.split(f'name="{name}" value="{value}"')[1][:60]
        )
    # the referee changes only the fu, as the form shows it
    response = referee.post(sheet(table), ron(fu_1=40, expected_version=1) | {"hand": 1})
    assert response.status_code == 302
    assert current(table).version == 2 and current(table).wins[0]["fu"] == 40
    assert HandVersion.objects.filter(hand__table=table).count() == 2  # the first version stays


def test_a_hand_entered_by_mistake_is_voided_as_a_new_version_and_its_number_is_reused(referee, table):
    referee.post(sheet(table), ron())
    response = referee.post(sheet(table), {"action": "void", "hand": 1, "expected_version": 1})
    assert response.status_code == 302
    void = current(table)
    assert void.outcome == "void" and void.version == 2 and void.deltas == [0, 0, 0, 0]
    assert HandVersion.objects.get(hand__table=table, version=1).outcome == "ron"
    page = referee.get(sheet(table)).content.decode()
    assert "Save hand 1" in page  # the next hand takes its number
    assert referee.post(sheet(table), ron(expected_version=2) | {"hand": 1}).status_code == 302
    assert current(table).outcome == "ron" and current(table).version == 3


def test_only_the_last_hand_can_be_voided(referee, table):
    referee.post(sheet(table), ron())
    referee.post(
        sheet(table),
        ron(dealer_position=0, honba=0) | {"hand": 2, "outcome": "exhaustive_draw", "winner_1": "", "discarder": ""},
    )
    response = referee.post(sheet(table), {"action": "void", "hand": 1, "expected_version": 1})
    assert response.status_code == 400 and "only the last hand can be voided" in response.content.decode()


def test_a_disqualifying_penalty_warns_before_and_after_and_goes_back_to_the_table(referee, table):
    seat = table.seats.get(position=0)
    url = reverse("console:penalty", args=[table.pk])
    data = {"seat": seat.pk, "kind": "art37_deliberate_foul", "hand_number": 1, "reason": "switched tiles"}
    before = referee.post(url, data)
    assert before.status_code == 400 and "disqualifies the player (art. 43)" in before.content.decode()
    assert not Penalty.objects.exists()
    after = referee.post(url, data | {"confirm_disqualification": "on"}, follow=True)
    assert after.redirect_chain[-1][0] == sheet(table)
    assert "is disqualified (art. 43)" in after.content.decode()
    assert Entry.objects.get(pk=seat.entry_id).status == Entry.Status.DISQUALIFIED


def test_a_penalty_that_does_not_disqualify_needs_no_confirmation(referee, table):
    seat = table.seats.get(position=1)
    response = referee.post(
        reverse("console:penalty", args=[table.pk]),
        {"seat": seat.pk, "kind": "art35_revealed_hand", "hand_number": 1, "reason": "shown"},
    )
    assert response.status_code == 302 and response.headers["Location"] == sheet(table)
    page = referee.get(sheet(table)).content.decode()
    assert "loses ron for the hand" in page  # the seat card shows the right lost


def test_left_during_the_game_asks_first_and_can_be_undone(referee, table):
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0})
    seat = table.seats.get(position=2)
    page = referee.get(sheet(table) + "?confirm=absent_during&seat=2").content.decode()
    assert "left during the game?" in page and Seat.objects.get(pk=seat.pk).absence == "present"
    referee.post(sheet(table), {"action": "absent_during", "seat": seat.pk})
    assert Seat.objects.get(pk=seat.pk).absence == "absent_during"
    assert referee.post(sheet(table), {"action": "present", "seat": seat.pk}).status_code == 302
    seat.refresh_from_db()
    assert seat.absence == "present" and seat.left_after_hand is None


def test_an_absence_cannot_be_undone_once_hands_were_played_without_the_player(referee, table):
    seat = table.seats.get(position=3)
    referee.post(sheet(table), {"action": "absent_during", "seat": seat.pk})
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0})
    response = referee.post(sheet(table), {"action": "present", "seat": seat.pk})
    assert response.status_code == 400 and "void them first" in response.content.decode()


def test_final_scores_below_zero_or_not_in_hundreds_are_confirmed_first(referee, table):
    odd = {"action": "scores", "seat_0": 50050, "seat_1": 30000, "seat_2": 21000, "seat_3": -1050}
    response = referee.post(sheet(table), odd)
    body = response.content.decode()
    assert response.status_code == 400 and "ends below zero" in body and "is not in hundreds" in body
    assert not SeatResult.objects.exists()
    assert referee.post(sheet(table), odd | {"confirm_unusual": "on"}).status_code == 302
    assert SeatResult.objects.filter(table=table).count() == 4


def test_bad_numbers_in_the_address_are_a_400_not_a_500(referee, table):
    assert referee.get(sheet(table) + "?hand=abc").status_code == 400
    assert referee.get(sheet(table) + "?hand=1000000").status_code == 400
    assert referee.post(sheet(table), {"action": "present", "seat": "abc"}).status_code == 400


def test_the_clock_page_and_the_clocks_of_my_tables(referee, table):
    assert referee.get(reverse("console:clock", args=[table.pk])).status_code == 200
    url = reverse("tournament_api:clock", args=[table.pk])
    referee.post(url + "/start", {"hand_number": 1, "dealer_position": 0}, content_type="application/json")
    clocks = referee.get(reverse("console:clocks") + f"?tables={table.pk},999999").json()
    assert list(clocks) == [str(table.pk)] and clocks[str(table.pk)]["seat_on_turn"] == 0
    assert clocks[str(table.pk)]["cap_ms"] == 30000
    assert referee.get(reverse("console:clocks") + "?tables=x").status_code == 400


def test_my_tables_has_a_clock_column_only_when_a_listed_event_runs_a_clock(referee, table, make_event, seated_round):
    listed = referee.get(reverse("console:my_tables")).content.decode()
    assert 'class="clock"' in listed and "not started" in listed  # the clock is not started yet
    table.round.event.clock_bank_seconds = 0
    table.round.event.save(update_fields=["clock_bank_seconds"])
    seated_round(make_event(4, name="Friendly", slug="friendly"))  # an event without a clock
    listed = referee.get(reverse("console:my_tables")).content.decode()
    assert 'class="clock"' not in listed and ">Clock<" not in listed


def test_art39_2_the_sheet_shows_the_engines_overtime_decision_and_a_referee_closes_it(referee, table):
    from tests.tournament.test_seed004_rules import play_overtime, ron

    play_overtime(table, 0)
    hand_record(table=table, number=2, expected_version=0, data=ron(0, 3))  # the overtime goes on
    page = referee.get(sheet(table)).content.decode()
    assert 'id="overtime" data-state="playing"' in page and "1年夏 (Y1 Summer)" in page
    assert 'name="overtime" id="id_overtime" checked' in page  # the next hand is an overtime hand
    assert referee.post(sheet(table), {"action": "close_overtime", "reason": "the hall closes"}).status_code == 302
    assert 'data-state="closed_by_organizer"' in referee.get(sheet(table)).content.decode()
