"""Art. 38 through the service and the JSON API, with a controlled server clock."""

import pytest
from django.urls import reverse

from taikai.errors import Conflict, TaikaiError
from tournament.models import Penalty, Table
from tournament.services import clock as clock_services
from tournament.services.hands import hand_record

from .test_concurrency import run_concurrently

RON_BY_EAST = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 0, "discarder": 2, "han": 1, "fu": 30}],
}


@pytest.fixture
def now(monkeypatch):
    """The server clock in milliseconds, moved by the test."""
    clock = {"ms": 1_000_000}
    monkeypatch.setattr(clock_services, "_now_ms", lambda: clock["ms"])
    return clock


@pytest.fixture
def clocked_table(make_event, seated_round):
    event = make_event(4, clock_bank_seconds=20, clock_increment_seconds=5)
    seated_round(event)
    return Table.objects.get(round__event=event)


@pytest.mark.django_db
def test_art38_dealer_starts_and_each_press_charges_and_passes_the_turn(clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    now["ms"] += 8000
    view = clock_services.clock_view(clock_services.clock_press(table=clocked_table, seat=0, turn_number=1))
    # 20 s − 8 s used + 5 s increment = 17 s; South is on turn
    assert view["remaining_ms"][0] == 17000 and view["seat_on_turn"] == 1 and view["turn_number"] == 2


@pytest.mark.django_db
def test_art38_increment_never_exceeds_bank(clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    now["ms"] += 1000
    view = clock_services.clock_view(clock_services.clock_press(table=clocked_table, seat=0, turn_number=1))
    assert view["remaining_ms"][0] == 20000  # 19 s + 5 s capped at the 20 s bank


@pytest.mark.django_db
def test_art38_wrong_seat_or_old_turn_is_a_conflict(clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    with pytest.raises(Conflict) as info:
        clock_services.clock_press(table=clocked_table, seat=2, turn_number=1)
    assert info.value.code == "clock_wrong_seat"
    clock_services.clock_press(table=clocked_table, seat=0, turn_number=1)
    with pytest.raises(Conflict) as info:
        clock_services.clock_press(table=clocked_table, seat=0, turn_number=1)
    assert info.value.code == "clock_stale_turn"


@pytest.mark.django_db
def test_art38_pause_charges_nobody(clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    now["ms"] += 3000
    clock_services.clock_pause(table=clocked_table)
    now["ms"] += 60000
    clock_services.clock_resume(table=clocked_table)
    now["ms"] += 2000
    view = clock_services.clock_view(clock_services.clock_press(table=clocked_table, seat=0, turn_number=1))
    assert view["remaining_ms"][0] == 20000  # 15 s + 5 s: the paused minute was not charged


@pytest.mark.django_db
def test_art38_a_read_shows_a_seat_out_of_time_and_writes_nothing(client, clocked_table, now):
    # given a public event's clock whose seat on turn has run out of time
    clocked_table.round.event.is_public = True
    clocked_table.round.event.save(update_fields=["is_public"])
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    version = clocked_table.clock.version
    now["ms"] += 25000
    # when anybody reads it, again and again
    url = reverse("tournament_api:clock", args=[clocked_table.pk])
    views = [client.get(url).json() for _ in range(3)] + [clock_services.clock_state(table=clocked_table)]
    # then it shows the seat flagged, its bank empty, the flag due; and nothing is written
    assert all(v["flagged"] == [0] and v["remaining_ms"][0] == 0 and v["flag_due"] for v in views)
    assert not Penalty.objects.exists()
    clocked_table.clock.refresh_from_db()
    assert clocked_table.clock.version == version


@pytest.mark.django_db
def test_art38_the_flag_is_recorded_once_by_a_write(client, admin_user, clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    client.force_login(admin_user)
    url = reverse("tournament_api:clock", args=[clocked_table.pk])
    assert client.post(url + "/flag").json()["flagged"] == []  # nobody out of time: nothing to record
    now["ms"] += 25000
    first = client.post(url + "/flag").json()
    again = client.post(url + "/flag").json()
    assert first["flagged"] == again["flagged"] == [0] and not first["flag_due"]
    assert Penalty.objects.filter(kind="art38_clock_flag").count() == 1


@pytest.mark.django_db
def test_art38_recording_the_hand_stops_its_clock(client, clocked_table, now):
    clocked_table.round.event.is_public = True
    clocked_table.round.event.save(update_fields=["is_public"])
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    now["ms"] += 3000
    clock_services.clock_press(table=clocked_table, seat=0, turn_number=1)
    now["ms"] += 4000
    hand_record(table=clocked_table, number=1, expected_version=0, data=RON_BY_EAST)
    now["ms"] += 3_600_000  # an hour later, the clock has not moved
    view = client.get(reverse("tournament_api:clock", args=[clocked_table.pk])).json()
    assert view["status"] == "finished" and view["flagged"] == [] and not view["flag_due"]
    assert view["remaining_ms"] == [20000, 20000, 20000, 20000]  # South's 4 s since the press are nobody's
    assert not Penalty.objects.exists()


@pytest.mark.django_db
def test_a_confirmed_table_stops_its_clock_and_a_later_read_writes_no_penalty(client, clocked_table, now):
    from tournament.services.results import table_finish

    clocked_table.round.event.is_public = True
    clocked_table.round.event.save(update_fields=["is_public"])
    hand_record(table=clocked_table, number=1, expected_version=0, data=RON_BY_EAST)
    clock_services.clock_start(table=clocked_table, hand_number=2, dealer_position=0)  # a hand begun, then
    table_finish(table=clocked_table, end_reason="time")  # the directors end the game
    now["ms"] += 3_600_000
    view = client.get(reverse("tournament_api:clock", args=[clocked_table.pk])).json()
    assert view["status"] == "finished" and view["flagged"] == []
    clock_services.clock_observe(table=clocked_table)  # a flag sent late finds nobody on turn
    assert not Penalty.objects.exists()


@pytest.mark.django_db
def test_art38_at_zero_the_player_loses_claim_and_win_for_the_hand(clocked_table, now):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    now["ms"] += 25000  # East thinks past the 20 s bank
    view = clock_services.clock_view(clock_services.clock_observe(table=clocked_table))  # the clock's flag
    assert view["flagged"] == [0] and view["remaining_ms"][0] == 0
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.hand_number, penalty.entry.player.display_name) == (
        "art38_clock_flag",
        1,
        "Player 01",
    )
    with pytest.raises(TaikaiError) as info:
        hand_record(table=clocked_table, number=1, expected_version=0, data=RON_BY_EAST)
    assert info.value.code == "win_forbidden_by_penalty"
    # and may not claim a discard either
    clock_services.clock_press(table=clocked_table, seat=0, turn_number=1)
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_press(table=clocked_table, seat=1, turn_number=2, claim_by=0)
    assert info.value.code == "claim_forbidden"


@pytest.mark.django_db
def test_clock_api_state_start_press_pause_resume(client, admin_user, clocked_table, now):
    url = reverse("tournament_api:clock", args=[clocked_table.pk])
    assert (
        client.post(
            url + "/start", {"hand_number": 1, "dealer_position": 0}, content_type="application/json"
        ).status_code
        == 403
    )
    client.force_login(admin_user)
    before = client.get(url).json()  # not started yet: its state, every bank full
    assert before["status"] == "not_started" and before["remaining_ms"] == [20000] * 4
    assert before["seat_on_turn"] is None and before["cap_ms"] == 20000
    response = client.post(url + "/start", {"hand_number": 1, "dealer_position": 0}, content_type="application/json")
    assert response.status_code == 200 and response.json()["seat_on_turn"] == 0
    now["ms"] += 4000
    response = client.post(url + "/press", {"seat": 0, "turn_number": 1}, content_type="application/json")
    assert response.json()["remaining_ms"][0] == 20000 and response.json()["seat_on_turn"] == 1
    stale = client.post(url + "/press", {"seat": 0, "turn_number": 1}, content_type="application/json")
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "clock_stale_turn"
    bad = client.post(url + "/press", {"seat": "x", "turn_number": 2}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "seat"
    assert client.post(url + "/pause").json()["status"] == "paused"
    assert client.post(url + "/resume").json()["status"] == "running"
    assert client.get(url).json()["turn_number"] == 2


@pytest.mark.django_db
def test_clock_disabled_when_the_event_has_no_bank(make_event, seated_round, now):
    event = make_event(4)
    table = seated_round(event).tables.get()
    with pytest.raises(TaikaiError) as info:
        clock_services.clock_start(table=table, hand_number=1, dealer_position=0)
    assert info.value.code == "clock_disabled"


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_presses_one_wins_the_other_conflicts(clocked_table):
    clock_services.clock_start(table=clocked_table, hand_number=1, dealer_position=0)
    outcomes = run_concurrently(
        lambda: clock_services.clock_press(table=clocked_table, seat=0, turn_number=1),
        lambda: clock_services.clock_press(table=clocked_table, seat=0, turn_number=1),
    )
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(conflicts) == 1 and conflicts[0].code == "clock_stale_turn", outcomes
    view = clock_services.clock_view(clocked_table.clock)
    assert view["turn_number"] == 2


@pytest.mark.django_db
def test_a_clock_hand_number_beyond_any_game_is_a_400_not_a_500(admin_client, clocked_table):
    url = reverse("tournament_api:clock_start", args=[clocked_table.pk])
    response = admin_client.post(url, {"hand_number": 40000, "dealer_position": 0}, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "hand_number"
