"""An organizer runs a round from the admin in a real browser; a player reads the standings."""

import pytest
from playwright.sync_api import expect

from players.models import Player
from tests.e2e.conftest import tap
from tests.e2e.waiting import until
from tournament.models import StandingsRow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_players_csv_with_problems_imports_nothing_and_a_good_one_imports_every_row(admin_page, tmp_path):
    # a file with two problems: every problem shown, nothing imported
    bad_file = tmp_path / "bad-players.csv"
    bad_file.write_text("display_name,external_id\nA,X\nB,X\n", encoding="utf-8")
    admin_page.goto("/admin/players/player/import-csv/")
    admin_page.set_input_files("#id_csv_file", str(bad_file))
    admin_page.click("input[type=submit][value=Import]")
    assert "line 3, column external_id" in admin_page.inner_text("#csv-problems")
    assert Player.objects.count() == 0
    # a good file, from the players' list: every row imported
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("display_name,country,external_id\n山田 太郎,JP,E1\nAnna Kowalska,PL,E2\n", encoding="utf-8")
    admin_page.goto("/admin/players/player/")
    admin_page.click("text=Import CSV")
    admin_page.set_input_files("#id_csv_file", str(csv_file))
    admin_page.click("input[type=submit][value=Import]")
    admin_page.wait_for_selector("text=Imported 2 players.")
    assert sorted(Player.objects.values_list("display_name", flat=True)) == ["Anna Kowalska", "山田 太郎"]


@pytest.mark.embedded  # the smoke set of bin/serve: the standings computed in-process
def test_organizer_seats_a_round_records_a_hand_and_players_see_standings(admin_page, make_event):
    # given an event with four registered players
    event = make_event(4)
    # when the organizer seats round 1 by hand
    admin_page.goto(f"/admin/tournament/event/{event.pk}/change/")
    admin_page.click("text=Seat the next round")
    admin_page.fill("#id_tables", "Player 01, Player 02, Player 03, Player 04")
    admin_page.click("text=Create the round")
    admin_page.wait_for_selector("text=Round 1 is seated")
    # and the referee records a ron: South wins 2 han 40 fu off West
    admin_page.click("text=table sheet")
    tap(admin_page, "winner_1", 1)
    tap(admin_page, "discarder", 2)
    tap(admin_page, "han_1", 2)
    tap(admin_page, "fu_1", 40)
    admin_page.click("text=Save hand 1")
    admin_page.wait_for_selector("text=Hand 1 saved.")
    assert "2600" in admin_page.inner_text("#hand-sheet")
    # a win of 1–4 han without its fu is refused with a message naming the problem
    tap(admin_page, "winner_1", 1)
    tap(admin_page, "discarder", 2)
    tap(admin_page, "han_1", 1)
    admin_page.click("text=Save hand 2")
    admin_page.wait_for_selector("text=a win of 1 han needs its fu")
    # and confirms the result, the game stopped after one hand: the round's time ran out
    admin_page.click("label[for='end-reason-time']")
    admin_page.click("text=Confirm the result: the game ends here")
    admin_page.wait_for_selector("text=The table's result is confirmed.")
    # then the public standings (recomputed by a Celery task) show the winner first
    until(lambda: StandingsRow.objects.filter(event=event).exists(), "the standings computed", timeout_s=15)
    admin_page.goto(f"/events/{event.slug}/standings/")
    expect(admin_page.locator("#standings tbody tr:first-child")).to_contain_text("Player 02")


def test_referee_form_shows_only_the_fields_of_the_outcome(admin_page, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    admin_page.goto(f"/console/tables/{table.pk}/")
    tap(admin_page, "outcome", "exhaustive_draw")
    assert admin_page.is_visible("fieldset.tenpai") and not admin_page.is_visible("fieldset.winner")
    tap(admin_page, "outcome", "tsumo")
    assert admin_page.is_visible("fieldset.winner") and not admin_page.is_visible("fieldset.discarder")
    assert not admin_page.is_visible("#id_winner_2")
