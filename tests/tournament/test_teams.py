"""Team events (団体戦): teams from CSV (all or nothing), the team standings from the published standings,
the seating keeping a team's players apart, the public team page and CSV, a reserve in for a member for one
round, and the teams and team standings in the REST API."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from taikai.errors import TaikaiError
from tests.fixtures.tournament import round_seated
from tournament.models import Entry, Event, Team, TeamMember, TeamSwap
from tournament.services.seating import round_seat_next, seating_from_engine, seating_request_for
from tournament.services.teams import (
    round_lineup_absent,
    round_lineup_present,
    team_reserve_in,
    team_standings_for,
    teams_import_csv,
)

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def names(event) -> list[str]:
    return [e.player.display_name for e in event.entries.order_by("id").select_related("player")]


def team_csv(event, per_team: int) -> bytes:
    rows = [f"Team {i // per_team + 1},{name},member" for i, name in enumerate(names(event))]
    return ("team,player,role\n" + "\n".join(rows) + "\n").encode()


def test_teams_are_read_from_csv_all_or_nothing(make_event):
    event = make_event(8)
    assert teams_import_csv(event=event, data=team_csv(event, 4)) == 8
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Team 1", "Team 2"]
    bad = b"team,player,role\nTeam 3,Nobody Here,member\n"
    with pytest.raises(TaikaiError) as info:
        teams_import_csv(event=event, data=bad)
    assert "line 2" in info.value.message and Team.objects.count() == 2
    with pytest.raises(TaikaiError):
        teams_import_csv(event=event, data=f"team,player,role\nTeam 1,{names(event)[0]},captain\n".encode())


def test_a_player_of_another_event_is_not_found_by_the_csv(make_event):
    event, other = make_event(4), make_event(4, name="Other", slug="other")
    with pytest.raises(TaikaiError):
        teams_import_csv(event=event, data=f"team,player\nT,{names(other)[0]}x\n".encode())
    assert not TeamMember.objects.exists()


def test_the_seating_keeps_a_teams_players_apart(make_event):
    event = make_event(16)
    teams_import_csv(event=event, data=team_csv(event, 4))  # four teams of four: one of each at every table
    request = seating_request_for(event, round_number=1)
    assert len(request["groups"]) == 4 and {g["policy"] for g in request["groups"]} == {"never"}
    round_ = round_seat_next(event=event, round_number=1)
    for table in round_.tables.all():
        teams = [seat.entry.team_member.team_id for seat in table.seats.select_related("entry__team_member")]
        assert len(set(teams)) == len(teams)


@pytest.mark.parametrize("rule", ["sum", "best", "placement"])
def test_team_standings_follow_the_published_standings(make_event, play_round, rule):
    event = make_event(8)
    Event.objects.filter(pk=event.pk).update(team_rule=rule, team_best=2)
    event.refresh_from_db()
    teams_import_csv(event=event, data=team_csv(event, 4))
    play_round(event, RON)
    rows = team_standings_for(event)
    members = {t.pk: {m.entry_id for m in t.members.all()} for t in Team.objects.all()}
    published = {row.entry_id: row for row in event.standings_rows.all()}
    for row in rows:
        if rule == "sum":
            expected = sum((Fraction(published[e].total_points) for e in members[row.team.pk]), Fraction(0))
            assert row.score == expected
        assert [number for number, _score in row.rounds] == [1]
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_the_team_page_and_csv_show_the_teams_and_a_non_team_event_has_none(client, make_event, play_round):
    event = make_event(8)
    assert client.get(reverse("tournament:teams", args=[event.slug])).status_code == 404
    Event.objects.filter(pk=event.pk).update(team_rule="sum")
    teams_import_csv(event=event, data=team_csv(event, 4))
    play_round(event, RON)
    page = client.get(reverse("tournament:teams", args=[event.slug])).content.decode()
    assert "Team 1" in page and "Team 2" in page
    csv_text = client.get(reverse("tournament:teams_csv", args=[event.slug])).content.decode()
    assert csv_text.splitlines()[0] == "rank,team,score,members" and len(csv_text.splitlines()) == 3


# --- A reserve in for a member, for one round -------------------------------------------------------


def reserve_event(make_event, **fields):
    """12 entries, two teams: Team 1 has entries 1–4 as members and 5–6 as reserves (away), Team 2 the rest."""
    event = make_event(12, team_rule="sum", **fields)
    roles = ["member"] * 4 + ["reserve"] * 2
    rows = [f"Team {i // 6 + 1},{name},{roles[i % 6]}" for i, name in enumerate(names(event))]
    teams_import_csv(event=event, data=("team,player,role\n" + "\n".join(rows) + "\n").encode())
    Entry.objects.filter(team_member__role=TeamMember.Role.RESERVE).update(status=Entry.Status.AWAY)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    return event, Team.objects.get(name="Team 1"), Entry.objects.get(pk=ids[4]), Entry.objects.get(pk=ids[0])


def test_a_reserve_comes_in_for_a_member_for_one_round(make_event, django_user_model):
    event, team, reserve, member = reserve_event(make_event)
    user = django_user_model.objects.create_user("organizer")
    swap = team_reserve_in(team=team, reserve=reserve, member=member, round_number=1, by=user)
    assert (swap.team, swap.reserve, swap.member, swap.round_number, swap.by) == (
        team,
        reserve,
        member,
        1,
        user,
    )
    assert round_lineup_absent(event, 1) == {member.pk} and round_lineup_present(event, 1) == {reserve.pk}
    assert round_lineup_absent(event, 2) == set() and round_lineup_present(event, 2) == set()
    with pytest.raises(TaikaiError) as info:  # the member is replaced once a round
        team_reserve_in(team=team, reserve=Entry.objects.get(pk=reserve.pk + 1), member=member, round_number=1)
    assert info.value.code == "member_replaced"


@pytest.mark.parametrize(
    ("who", "code"),
    [
        ("member_as_reserve", "not_a_reserve"),
        ("reserve_as_member", "not_a_member"),
        ("other_team", "not_a_member"),
        ("seated", "round_seated"),
    ],
)
def test_a_reserve_in_is_refused_unless_reserve_member_and_round_fit(make_event, who, code):
    event, team, reserve, member = reserve_event(make_event)
    number = 1
    if who == "member_as_reserve":
        reserve = Entry.objects.get(pk=member.pk + 1)
    elif who == "reserve_as_member":
        member = Entry.objects.get(pk=reserve.pk + 1)
    elif who == "other_team":
        member = Entry.objects.get(pk=member.pk + 6)  # a member of Team 2
    else:
        Entry.objects.filter(event=event).update(status=Entry.Status.ACTIVE)
        round_seated(event)
    with pytest.raises(TaikaiError) as info:
        team_reserve_in(team=team, reserve=reserve, member=member, round_number=number)
    assert info.value.code == code and not TeamSwap.objects.exists()


def test_the_seating_with_the_lineup_seats_the_reserve_instead_of_the_member(make_event):
    """What seating_request_for does with the round's lineup (the two lines it takes): the member is left out
    and the reserve, away otherwise, is seated."""
    event, team, reserve, member = reserve_event(make_event)
    team_reserve_in(team=team, reserve=reserve, member=member, round_number=1)
    request = seating_request_for(event, round_number=1)
    absent = (set(request["absent"]) - round_lineup_present(event, 1)) | round_lineup_absent(event, 1)
    request["absent"] = sorted(absent)
    seated = {e for table in seating_from_engine(request)["tables"] for e in table}
    assert reserve.pk in seated and member.pk not in seated and len(seated) == 8


# --- The REST API ------------------------------------------------------------------------------------


def test_the_api_gives_the_teams_and_the_team_standings(client, make_event, play_round):
    event = make_event(8, is_public=True)
    assert client.get(reverse("api_v1:event_teams", args=[event.slug])).status_code == 404
    assert client.get(reverse("api_v1:event_team_standings", args=[event.slug])).status_code == 404
    Event.objects.filter(pk=event.pk).update(team_rule="sum")
    teams_import_csv(event=event, data=team_csv(event, 4))
    Team.objects.filter(name="Team 1").update(captain=event.entries.order_by("id").first())
    play_round(event, RON)
    teams = client.get(reverse("api_v1:event_teams", args=[event.slug])).json()
    assert [t["name"] for t in teams] == ["Team 1", "Team 2"]
    assert teams[0]["captain"] == teams[0]["members"][0]["entry"] and len(teams[0]["members"]) == 4
    assert {m["role"] for t in teams for m in t["members"]} == {"member"}
    body = client.get(reverse("api_v1:event_team_standings", args=[event.slug])).json()
    event.refresh_from_db()
    expected = team_standings_for(event)
    assert body["rule"] == "sum" and body["rounds"] == [1]
    assert [(r["rank"], r["name"], r["score"]) for r in body["results"]] == [
        (row.rank, row.team.name, str(row.score)) for row in expected
    ]
    assert body["results"][0]["rounds"][0]["round"] == 1 and len(body["results"][0]["members"]) == 4


def test_a_private_events_teams_need_a_role_or_token(client, make_event):
    event = make_event(8, is_public=False, team_rule="sum")
    assert client.get(reverse("api_v1:event_team_standings", args=[event.slug])).status_code == 401


def test_an_organizer_brings_a_reserve_in_through_the_api(client, make_event, django_user_model):
    event, team, reserve, member = reserve_event(make_event)
    owner = django_user_model.objects.create_user("owner")
    Event.objects.filter(pk=event.pk).update(owner=owner)
    client.force_login(owner)
    url = reverse("api_v1:team_reserve_in", args=[event.slug, team.pk])
    body = {"reserve": reserve.pk, "member": member.pk, "round": 1}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json() | {"at": None} == {
        "id": TeamSwap.objects.get().pk,
        "team": team.pk,
        "round": 1,
        "reserve": reserve.pk,
        "member": member.pk,
        "at": None,
    }
    assert TeamSwap.objects.get().by == owner
    again = client.post(url, body, content_type="application/json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "member_replaced"
    elsewhere = client.post(
        url, body | {"member": make_event(4, slug="other").entries.first().pk}, content_type="application/json"
    )
    assert elsewhere.status_code == 400 and elsewhere.json()["error"]["field"] == "member"


def test_an_organizer_brings_a_reserve_in_from_the_admin(admin_client, make_event):
    # given a team event with reserves
    _event, team, reserve, member = reserve_event(make_event)
    url = reverse("admin:tournament_team_reserve_in", args=[team.pk])
    form = admin_client.get(url).content.decode()
    assert f'value="{reserve.pk}"' in form and f'value="{member.pk}"' in form
    # when the organizer records a reserve in for round 1
    response = admin_client.post(url, {"round_number": 1, "member": member.pk, "reserve": reserve.pk})
    # then it is recorded, with who, and shown on the team's page
    assert response.status_code == 302
    swap = TeamSwap.objects.get()
    assert (swap.reserve, swap.member, swap.round_number, swap.by.username) == (reserve, member, 1, "admin")
    assert (
        str(reserve.player)
        in admin_client.get(reverse("admin:tournament_team_change", args=[team.pk])).content.decode()
    )
    # and the same member again is refused with the reason, nothing more written
    again = admin_client.post(url, {"round_number": 1, "member": member.pk, "reserve": reserve.pk + 1})
    assert again.status_code == 400 and "replaced in round 1 already" in again.content.decode()
    assert TeamSwap.objects.count() == 1
