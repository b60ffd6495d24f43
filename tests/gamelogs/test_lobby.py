"""An online round's seating with each player's name on the platform and what to do: the manual adapter (a Tenhou
tournament lobby's names in wind order, a friend room's host), adapters that call a platform off unless enabled."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from gamelogs.lobby import ADAPTERS, Started, lobby_adapter, lobby_adapter_register, round_online_plans
from gamelogs.models import OnlineLeague
from players.models import OnlineAccount
from tests.fixtures.tournament import event_with_players, round_seated
from tournament.services.roles import role_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_round(standard_ruleset):
    event = event_with_players(standard_ruleset, 8, slug="online-seating")
    round_ = round_seated(event)
    for entry in event.entries.order_by("pk")[:7]:  # the eighth player has no Tenhou name yet
        OnlineAccount.objects.create(player=entry.player, platform="tenhou", name=f"T-{entry.pk}")
    return event, round_


def seat_names(table) -> list[str]:
    """The table's names on Tenhou from East ("" for a player without one)."""
    names = dict(OnlineAccount.objects.values_list("player_id", "name"))
    return [names.get(seat.entry.player_id, "") for seat in table.seats.order_by("position")]


def test_a_tournament_lobby_takes_the_names_in_wind_order(online_round):
    event, round_ = online_round
    OnlineLeague.objects.create(event=event, table_start="tournament_lobby", lobby="C1234")
    plans = round_online_plans(round_)
    assert [plan.table_number for plan, _ in plans] == [1, 2]
    plan, started = plans[0]
    table = round_.tables.get(number=1)
    assert [seat.wind for seat in plan.seats] == ["E", "S", "W", "N"]
    assert started.started is False and "C1234" in started.steps[0]
    assert started.form_text.split("\n") == seat_names(table)


def test_a_friend_room_is_hosted_by_east_and_a_missing_name_is_shown(online_round):
    event, round_ = online_round
    OnlineLeague.objects.create(event=event, table_start="friend_room")
    plans = round_online_plans(round_)
    missing = [plan.missing for plan, _ in plans if plan.missing]
    assert len(missing) == 1 and len(missing[0]) == 1  # the eighth player
    plan, started = plans[0]
    assert plan.seats[0].player in started.steps[0] and plan.seats[0].platform_name in started.steps[0]


class FailingAdapter:
    key = "tenhou_api"
    calls_platform = True

    def start(self, plan):
        raise ConnectionError("the platform is down")


class WorkingAdapter:
    key = "tenhou_api"
    calls_platform = True

    def start(self, plan):
        return Started(True, ("started on the platform",))


def test_an_adapter_that_calls_a_platform_is_off_unless_the_site_enables_it(online_round, settings):
    event, round_ = online_round
    OnlineLeague.objects.create(event=event, lobby_adapter="tenhou_api")
    lobby_adapter_register(WorkingAdapter())
    try:
        assert lobby_adapter("tenhou_api").key == "manual"  # off by default
        assert all(not started.started for _, started in round_online_plans(round_))
        settings.ONLINE_LOBBY_ADAPTERS = ["manual", "tenhou_api"]
        assert all(started.started for _, started in round_online_plans(round_))
        lobby_adapter_register(FailingAdapter())  # a platform down: the manual steps still work
        assert all(not started.started and started.steps for _, started in round_online_plans(round_))
    finally:
        ADAPTERS.pop("tenhou_api", None)


def test_the_console_shows_the_round_to_its_referees_only(client, online_round):
    event, round_ = online_round
    OnlineLeague.objects.create(event=event, table_start="tournament_lobby")
    url = reverse("gamelogs:online_round", args=[round_.pk])
    referee = User.objects.create_user("referee")
    role_grant(event=event, user=referee, kind="referee")
    client.force_login(referee)
    page = client.get(url)
    assert page.status_code == 200
    assert all(name in page.content.decode() for name in seat_names(round_.tables.get(number=1)))
    client.force_login(User.objects.create_user("stranger"))
    assert client.get(url).status_code in (403, 404)
