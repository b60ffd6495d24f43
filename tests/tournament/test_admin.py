"""The organizer's and referee's admin screens, through the Django test client."""

import pytest
from django.urls import reverse

from tournament.models import Entry, Event, HandVersion, Penalty, Round, Seat, StandingsRow, Table

pytestmark = pytest.mark.django_db


def hands_url(table):
    return reverse("console:table", args=[table.pk])


def hand_post(**fields):
    base = {"action": "hand", "outcome": "ron", "dealer_position": 0, "honba": 0, "expected_version": 0}
    return base | fields


def test_organizer_runs_a_round_from_the_admin(admin_client, make_event, django_capture_on_commit_callbacks):
    event = make_event(8)
    # seat round 1 by names, one table per line
    response = admin_client.post(
        reverse("admin:tournament_event_seat_round", args=[event.pk]),
        {"tables": "Player 01, Player 02, Player 03, Player 04\nPlayer 05, Player 06, Player 07, Player 08"},
    )
    assert response.status_code == 302
    round_ = Round.objects.get(event=event)
    assert admin_client.get(reverse("admin:tournament_round_change", args=[round_.pk])).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            response = admin_client.post(hands_url(table), hand_post(discarder=2, winner_1=1, han_1=3, fu_1=30))
            assert response.status_code == 302, response.content.decode()[:2000]
            assert admin_client.post(hands_url(table), {"action": "finish", "end_reason": "time"}).status_code == 302
        response = admin_client.post(
            reverse("admin:tournament_round_changelist"),
            {"action": "complete_rounds", "_selected_action": [round_.pk]},
        )
    # the next step is offered at once: seat round 2
    assert response.status_code == 200 and 'id="seat-next"' in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETED
    rows = StandingsRow.objects.filter(event=event).order_by("position")
    assert {rows[0].name, rows[1].name} == {"Player 02", "Player 06"}
    page = admin_client.get(hands_url(round_.tables.first())).content.decode()
    assert "3900" in page and "Reopen for corrections" in page


def test_seating_form_names_unknown_players(admin_client, make_event):
    event = make_event(4)
    response = admin_client.post(
        reverse("admin:tournament_event_seat_round", args=[event.pk]),
        {"tables": "Player 01, Nobody, Player 03"},
    )
    assert response.status_code == 200
    assert "line 1: &#x27;Nobody&#x27; is not registered" in response.content.decode()
    assert not Round.objects.exists()


def test_referee_form_refuses_an_impossible_hand_with_its_reason(admin_client, make_event, seated_round):
    event = make_event(4)
    table = seated_round(event).tables.get()
    response = admin_client.post(hands_url(table), hand_post(discarder=2, winner_1=1, han_1=1, fu_1=20), follow=True)
    assert "20 fu is only pinfu tsumo" in response.content.decode()
    assert not HandVersion.objects.exists()


def test_stale_form_gets_a_conflict_naming_the_current_version(admin_client, make_event, seated_round):
    event = make_event(4)
    table = seated_round(event).tables.get()
    assert admin_client.post(hands_url(table), hand_post(discarder=2, winner_1=1, han_1=2, fu_1=40)).status_code == 302
    stale = hand_post(discarder=3, winner_1=1, han_1=2, fu_1=40, hand=1)
    response = admin_client.post(hands_url(table), stale, follow=True)
    assert "the current version is 1" in response.content.decode()
    assert HandVersion.objects.count() == 1


def test_absence_buttons_and_penalty_log_through_the_admin(admin_client, make_event, seated_round):
    event = make_event(4)
    table = seated_round(event).tables.get()
    north = table.seats.get(position=3)
    assert admin_client.post(hands_url(table), {"action": "absent_before", "seat": north.pk}).status_code == 302
    assert Seat.objects.get(pk=north.pk).absence == "absent_before"
    east = table.seats.get(position=0).entry
    response = admin_client.post(
        reverse("admin:tournament_penalty_add"),
        {
            "event": event.pk,
            "table": table.pk,
            "hand_number": "",
            "entry": east.pk,
            "kind": "art37_deliberate_foul",
            "reason": "swapped tiles with the wall",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    penalty = Penalty.objects.get()
    assert penalty.points == 300  # three players at the table now
    assert Entry.objects.get(pk=east.pk).status == Entry.Status.DISQUALIFIED
    assert admin_client.get(reverse("admin:tournament_penalty_change", args=[penalty.pk])).status_code == 200


def test_penalty_needing_a_hand_is_refused_without_one(admin_client, make_event, seated_round):
    event = make_event(4)
    table = seated_round(event).tables.get()
    response = admin_client.post(
        reverse("admin:tournament_penalty_add"),
        {
            "event": event.pk,
            "table": table.pk,
            "entry": table.seats.first().entry_id,
            "kind": "art35_revealed_hand",
            "reason": "showed the hand",
        },
    )
    assert response.status_code == 200 and "applies to a hand" in response.content.decode()
    assert not Penalty.objects.exists()


def test_admin_lists_render(admin_client, make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    for name in ("event", "entry", "round", "table", "handversion", "penalty", "ruling"):
        assert admin_client.get(reverse(f"admin:tournament_{name}_changelist")).status_code == 200, name
    assert admin_client.get(reverse("admin:tournament_event_change", args=[event.pk])).status_code == 200
    assert admin_client.get(reverse("admin:tournament_table_change", args=[Table.objects.get().pk])).status_code == 200


def test_hand_form_suggests_the_next_dealer_and_honba(admin_client, make_event, seated_round):
    event = make_event(4)
    table = seated_round(event).tables.get()
    # the dealer (East) wins: East deals again with one honba
    admin_client.post(hands_url(table), hand_post(discarder=2, winner_1=0, han_1=2, fu_1=40))
    form = admin_client.get(hands_url(table)).context["hand_form"]
    assert (form.initial["dealer_position"], form.initial["honba"]) == (0, 1)
    # a non-dealer wins: the deal passes to South, honba back to 0
    admin_client.post(hands_url(table), hand_post(discarder=2, winner_1=1, han_1=2, fu_1=40, honba=1))
    form = admin_client.get(hands_url(table)).context["hand_form"]
    assert (form.initial["dealer_position"], form.initial["honba"]) == (1, 0)


def test_register_players_in_an_event_from_csv(admin_client, make_event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from players.models import Player

    event = make_event(0)
    known = Player.objects.create(display_name="山田 太郎", external_id="EMA-1")
    upload = SimpleUploadedFile(
        "field.csv", "display_name,external_id\n山田 太郎,EMA-1\nAnna Kowalska,EMA-2\n".encode()
    )
    response = admin_client.post(reverse("admin:tournament_event_register_csv", args=[event.pk]), {"csv_file": upload})
    assert response.status_code == 302
    assert set(event.entries.values_list("player__display_name", flat=True)) == {"山田 太郎", "Anna Kowalska"}
    assert Player.objects.filter(external_id="EMA-1").get() == known  # the stored player, not a copy
    bad = SimpleUploadedFile("bad.csv", b"display_name,country\nA,Japon\n")
    response = admin_client.post(reverse("admin:tournament_event_register_csv", args=[event.pk]), {"csv_file": bad})
    assert response.status_code == 400 and event.entries.count() == 2


def test_register_selected_players_in_an_event(admin_client, make_event):
    from players.models import Player

    event = make_event(0)
    people = [Player.objects.create(display_name=name) for name in ("A", "B", "C")]
    url = reverse("admin:players_player_changelist")
    selected = [p.pk for p in people[:2]]
    page = admin_client.post(url, {"action": "register_in_event", "_selected_action": selected})
    assert page.status_code == 200 and "Register these 2 players" in page.content.decode()
    admin_client.post(url, {"action": "register_in_event", "_selected_action": selected, "event": event.pk})
    assert sorted(event.entries.values_list("player__display_name", flat=True)) == ["A", "B"]


def test_art43_organizer_confirms_a_disqualification_from_the_entry_list(
    admin_client, admin_user, make_event, seated_round
):
    from tournament.services.discipline import penalty_cancel, penalty_log

    event = make_event(4)
    table = seated_round(event).tables.get()
    east = table.seats.get(position=0).entry
    penalty = penalty_log(event=event, entry=east, kind="art37_deliberate_foul", reason="swap", table=table)
    url = reverse("admin:tournament_entry_changelist")
    response = admin_client.post(url, {"action": "confirm_disqualification", "_selected_action": [east.pk]})
    assert response.status_code == 302
    east.refresh_from_db()
    assert east.disqualification_confirmed_by == admin_user and east.disqualification_confirmed_at
    penalty_cancel(penalty=penalty, reason="points waived")
    assert Entry.objects.get(pk=east.pk).status == Entry.Status.DISQUALIFIED  # confirmed: it stays


# --- Statuses move through the services, not the change forms ------------------------------------------

EVENT_FORM = {
    "name": "Renamed",
    "slug": "spring-open",
    "table_size": 4,
    "planned_rounds": 4,
    "entry_mode": "hands",
    "advancing_places": 1,
    "penalty_unit": 100,
    "final_games": 1,
    "standings_precedence": "advances,total_points",
    "clock_increment_seconds": 0,
    "seating_method": "swiss",
    "seating_remainder": "three",
    "is_public": "on",
    "time_zone": "UTC",
    "round_minutes": 90,
    "yaku_names": "bilingual",
    "team_best": 2,
    "roles-TOTAL_FORMS": 0,
    "roles-INITIAL_FORMS": 0,
    "entries-TOTAL_FORMS": 0,
    "entries-INITIAL_FORMS": 0,
}


def test_a_round_cannot_be_completed_from_its_change_form(admin_client, make_event, seated_round):
    # given a round whose tables are still playing
    round_ = seated_round(make_event(4))
    # when its change form is posted with the status completed
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    response = admin_client.post(
        url, {"status": "completed", "is_final": "on", "tables-TOTAL_FORMS": 0, "tables-INITIAL_FORMS": 0}
    )
    # then nothing changed: completing a round is the action, which checks its tables
    round_.refresh_from_db()
    assert response.status_code == 302 and (round_.status, round_.is_final) == (Round.Status.PUBLISHED, False)
    assert 'name="status"' not in admin_client.get(url).content.decode()


def test_a_tables_overtime_year_cannot_be_edited(admin_client, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    url = reverse("admin:tournament_table_change", args=[table.pk])
    admin_client.post(url, {"overtime_year": 2, "status": "finished", "seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0})
    table.refresh_from_db()
    assert (table.overtime_year, table.status) == (0, Table.Status.PLAYING)


def test_an_events_status_moves_with_the_event_not_from_its_form(admin_client, make_event, seated_round):
    # given an event running (its first round was seated after the form was loaded)
    event = make_event(4)
    seated_round(event)
    # when its change form is saved with another status and a new name
    url = reverse("admin:tournament_event_change", args=[event.pk])
    response = admin_client.post(url, EVENT_FORM | {"status": "finished", "ruleset": event.ruleset_id})
    # then the name changed, the status did not
    event.refresh_from_db()
    assert response.status_code == 302 and (event.name, event.status) == ("Renamed", "running")
    # and a new event starts as a draft or open for registration, nothing else
    add_page = admin_client.get(reverse("admin:tournament_event_add")).content.decode()
    assert 'value="registration"' in add_page and 'value="finished"' not in add_page


def test_showing_the_hidden_last_rounds_from_the_form_computes_the_standings_again(
    admin_client, make_event, seated_round, django_capture_on_commit_callbacks
):
    """The public standings stop before ``standings_hidden_from_round``: clearing it shows them at once,
    not at the next result (and a series holding the finished event counts it then)."""
    from tournament.services.results import table_finish
    from tournament.services.standings import standings_recompute

    event = make_event(4)
    table_finish(table=seated_round(event).tables.get(), final_points=[40000, 30000, 20000, 10000])
    Event.objects.filter(pk=event.pk).update(standings_hidden_from_round=1)
    standings_recompute(event_id=event.pk)
    assert event.standings_snapshot.hidden_from_round == 1
    url = reverse("admin:tournament_event_change", args=[event.pk])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(url, EVENT_FORM | {"ruleset": event.ruleset_id, "name": event.name})
    assert response.status_code == 302 and callbacks  # the form leaves the field empty: the recompute is queued
    event.refresh_from_db()
    assert event.standings_hidden_from_round is None and event.standings_snapshot.hidden_from_round is None
    # a save that changes nothing the standings read queues nothing
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        admin_client.post(url, EVENT_FORM | {"ruleset": event.ruleset_id, "name": "Renamed again"})
    assert not callbacks


def test_an_entry_is_marked_away_withdrawn_or_active_through_the_actions(admin_client, make_event):
    event = make_event(4)
    entry, disqualified = event.entries.order_by("id")[:2]
    Entry.objects.filter(pk=disqualified.pk).update(status=Entry.Status.DISQUALIFIED)
    change = reverse("admin:tournament_entry_change", args=[entry.pk])
    # the change form does not set the status
    admin_client.post(change, {"event": event.pk, "player": entry.player_id, "status": "withdrawn"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    # the actions do, through the service; a disqualification is not undone that way
    changelist = reverse("admin:tournament_entry_changelist")
    response = admin_client.post(
        changelist, {"action": "mark_away", "_selected_action": [entry.pk, disqualified.pk]}, follow=True
    )
    entry.refresh_from_db()
    disqualified.refresh_from_db()
    assert (entry.status, disqualified.status) == (Entry.Status.AWAY, Entry.Status.DISQUALIFIED)
    assert "cancel the penalty that disqualified them" in response.content.decode()
    admin_client.post(changelist, {"action": "mark_active", "_selected_action": [entry.pk]})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


def test_a_long_registration_file_on_the_event_page_goes_to_a_worker_and_registers_its_players(
    admin_client, make_event, settings, django_capture_on_commit_callbacks
):
    """A file longer than a request may take (10 MB took the 60 s of a web worker) is a job, as the players
    import is: its page shows the progress, then the players registered in the event."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from players.models import Player, PlayerImport

    # given an event, a player known by EMA number, and a file longer than the admin registers at once
    settings.PLAYER_IMPORT_INLINE_ROWS = 3
    event = make_event(0)
    known = Player.objects.create(display_name="Known", external_id="04-001")
    rows = ["display_name,external_id", "Known again,04-001"] + [f"New {i}," for i in range(5)]
    upload = SimpleUploadedFile("field.csv", ("\n".join(rows) + "\n").encode(), content_type="text/csv")
    # when it is uploaded on the event's page
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:tournament_event_register_csv", args=[event.pk]), {"csv_file": upload}
        )
    # then a job registers the six players (the known one named, not duplicated), and its page says so
    job = PlayerImport.objects.get()
    assert response.status_code == 302 and response.url == reverse("admin:players_player_import_job", args=[job.pk])
    job.refresh_from_db()
    assert (job.state, job.event_id, job.imported) == ("done", event.pk, 6)
    assert set(event.entries.values_list("player__display_name", flat=True)) == {"Known"} | {
        f"New {i}" for i in range(5)
    }
    assert Player.objects.filter(external_id="04-001").get() == known
    page = admin_client.get(response.url).content.decode()
    assert "6 players registered in Spring Open." in page
    assert reverse("admin:tournament_event_change", args=[event.pk]) in page
