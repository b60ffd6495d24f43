"""An organizer runs a whole two-round event from the admin in a real browser, as the README says."""

import pytest
from playwright.sync_api import expect

from tests.e2e.waiting import until
from tournament.models import Event, Round, StandingsRow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIELD = "display_name,country\n" + "".join(f"Player {i:02d},JP\n" for i in range(1, 9))
# Final scores per table, East to North: they add up to 4 × 25000 (no deposits left).
SCORES = ["41000", "30000", "19000", "10000"]


def wait_for_round(admin_page, event, number):
    """The round seated (by a worker, or in-process after the commit), then the event's page read again."""
    until(lambda: Round.objects.filter(event=event, number=number).exists(), f"round {number} seated", timeout_s=30)
    admin_page.reload()


def play_round_with_final_scores(admin_page, event, number):
    round_ = Round.objects.get(event=event, number=number)
    for table in round_.tables.order_by("number"):
        admin_page.goto(f"/console/tables/{table.pk}/")
        admin_page.click("text=…or enter final scores only")
        for position, score in enumerate(SCORES):
            admin_page.fill(f"#id_seat_{position}", score)
        admin_page.click("text=Confirm these final scores")
        admin_page.wait_for_selector("text=The table's result is confirmed.")
    admin_page.goto(f"/admin/tournament/round/?event__id__exact={event.pk}")
    admin_page.check(f"input[name=_selected_action][value='{round_.pk}']")
    admin_page.select_option("select[name=action]", "complete_rounds")
    admin_page.click("button[name=index]")
    admin_page.wait_for_selector("text=completed; standings are being updated")


def test_two_round_event_from_the_admin(admin_page, tmp_path, standard_ruleset):
    # create the event from a ruleset preset
    admin_page.goto("/admin/tournament/event/add/")
    admin_page.fill("#id_name", "Winter Open")
    admin_page.select_option("#id_ruleset", label=standard_ruleset.name)
    admin_page.fill("#id_planned_rounds", "2")
    admin_page.select_option("#id_entry_mode", "final_scores")
    admin_page.click("input[name=_continue]")
    admin_page.wait_for_selector("text=was added successfully")
    event = Event.objects.get(slug="winter-open")
    # register the field from CSV
    csv_file = tmp_path / "field.csv"
    csv_file.write_text(FIELD, encoding="utf-8")
    admin_page.click("text=Register players from CSV")
    admin_page.set_input_files("#id_csv_file", str(csv_file))
    admin_page.click("input[type=submit][value=Import]")
    admin_page.wait_for_selector("text=8 players registered")
    for number in (1, 2):
        # seat the round automatically, look at the report, publish
        admin_page.goto(f"/admin/tournament/event/{event.pk}/change/")
        admin_page.click("text=Seat the next round automatically")
        wait_for_round(admin_page, event, number)
        admin_page.wait_for_selector("#draft-tables")
        assert "met more than" in admin_page.inner_text("#seating-report")
        admin_page.click("text=Publish this seating")
        admin_page.wait_for_selector(f"text=Round {number} is published.")
        play_round_with_final_scores(admin_page, event, number)
    # players see both rounds in the standings (computed by a worker, or in-process after the commit)
    until(
        lambda: any(game[0] == 2 for row in StandingsRow.objects.filter(event=event) for game in row.history),
        "the standings computed after round 2",
        timeout_s=15,
    )
    admin_page.goto(f"/events/{event.slug}/standings/")
    expect(admin_page.locator("#standings th:has-text('R2')")).to_have_count(1)
    rows = admin_page.locator("#standings tbody tr")
    assert rows.count() == 8
    # every table's East won (41000): four advances over two rounds of two tables, leaders first
    advances = [int(rows.nth(i).locator("td").nth(4).inner_text()) for i in range(8)]
    assert sum(advances) == 4 and advances == sorted(advances, reverse=True)
