"""Per-event roles as people use them: granting and revoking in the admin, organizers' own events only,
referees limited to tables, scorekeepers' table cards, players' personal links."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.factories import signed_in
from tournament import access
from tournament.models import EventRole, HandVersion, Round, ScorekeeperKey
from tournament.services.roles import (
    ORGANIZERS_GROUP,
    REFEREES_GROUP,
    role_grant,
    role_revoke,
    scorekeeper_keys_issue,
)

pytestmark = pytest.mark.django_db

RON = {
    "action": "hand",
    "outcome": "ron",
    "dealer_position": 0,
    "honba": 0,
    "expected_version": 0,
    "discarder": 2,
    "winner_1": 1,
    "han_1": 3,
    "fu_1": 30,
}


@pytest.fixture
def two_events(make_event, seated_round, people):
    mine = make_event(8, owner=people("owner", ORGANIZERS_GROUP))
    theirs = make_event(4, name="Other Cup", slug="other-cup", owner=people("elsewhere", ORGANIZERS_GROUP))
    seated_round(mine)
    return mine, theirs


def event_form(event, **extra) -> dict:
    return {
        "name": event.name,
        "slug": event.slug,
        "status": event.status,
        "table_size": 4,
        "planned_rounds": 4,
        "entry_mode": "hands",
        "advancing_places": 1,
        "penalty_unit": 100,
        "standings_precedence": "advances,total_points",
        "clock_increment_seconds": 0,
        "final_games": 1,
        "seating_method": "swiss",
        "seating_remainder": "three",
        "ruleset": event.ruleset_id,
        "time_zone": "UTC",
        "round_minutes": 90,
        "team_best": 2,
        "roles-TOTAL_FORMS": 0,
        "roles-INITIAL_FORMS": 0,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        **extra,
    }


def test_owner_grants_a_referee_by_user_name_and_revoking_keeps_the_record(two_events, people):
    event, _ = two_events
    referee = people("kato")
    owner = signed_in(event.owner)
    url = reverse("admin:tournament_event_change", args=[event.pk])
    response = owner.post(
        url,
        event_form(
            event,
            **{"roles-TOTAL_FORMS": 1, "roles-0-username": "kato", "roles-0-kind": "referee", "roles-0-tables": "1-2"},
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    role = EventRole.objects.get(event=event, user=referee)
    assert (role.kind, role.tables, role.granted_by) == ("referee", "1-2", event.owner)
    referee.refresh_from_db()
    assert referee.is_staff and referee.groups.filter(name=REFEREES_GROUP).exists()
    # the event page shows who holds which role
    assert "kato" in owner.get(url).content.decode()
    # deleting the row revokes the role; the row stays, naming who and when
    response = owner.post(
        url,
        event_form(
            event,
            **{
                "roles-TOTAL_FORMS": 1,
                "roles-INITIAL_FORMS": 1,
                "roles-0-id": role.pk,
                "roles-0-event": event.pk,
                "roles-0-DELETE": "on",
            },
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    role.refresh_from_db()
    assert role.revoked_at is not None and role.revoked_by == event.owner
    assert not access.may_referee(access.Actor(referee), event.pk, 1)


def test_an_unknown_user_name_is_named_in_the_form(two_events):
    event, _ = two_events
    response = signed_in(event.owner).post(
        reverse("admin:tournament_event_change", args=[event.pk]),
        event_form(event, **{"roles-TOTAL_FORMS": 1, "roles-0-username": "nobody", "roles-0-kind": "referee"}),
    )
    assert response.status_code == 200
    assert "no active account is named &#x27;nobody&#x27;" in response.content.decode()
    assert not EventRole.objects.filter(event=event, kind="referee").exists()


def test_organizers_see_only_their_own_events_in_lists_filters_and_autocompletes(two_events):
    mine, theirs = two_events
    client = signed_in(theirs.owner)
    events = client.get(reverse("admin:tournament_event_changelist")).content.decode()
    assert "Other Cup" in events and "Spring Open" not in events
    rounds = client.get(reverse("admin:tournament_round_changelist")).content.decode()
    assert "Spring Open" not in rounds  # neither its rounds nor its name in the event filter
    found = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "tournament", "model_name": "entry", "field_name": "event", "term": ""},
    ).json()
    assert [r["text"] for r in found["results"]] == ["Other Cup"]
    # and the other event's objects are refused, not shown
    assert client.get(reverse("admin:tournament_event_change", args=[mine.pk])).status_code == 403
    round_ = mine.rounds.get()
    assert client.get(reverse("admin:tournament_round_change", args=[round_.pk])).status_code == 403


def test_register_in_event_offers_only_the_events_the_user_organizes(two_events):
    mine, theirs = two_events
    player = mine.entries.first().player
    page = signed_in(theirs.owner).post(
        reverse("admin:players_player_changelist"), {"action": "register_in_event", ACTION_CHECKBOX_NAME: [player.pk]}
    )
    body = page.content.decode()
    assert page.status_code == 200 and "Other Cup" in body and "Spring Open" not in body


def test_a_role_with_view_only_permissions_changes_nothing_in_the_admin(two_events, people):
    event, _ = two_events
    viewer = people("viewer", None)
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    role_grant(event=event, user=viewer, kind="organizer")
    viewer.groups.clear()  # the grant added the Organizers group: take its permissions away again
    round_ = event.rounds.get()
    response = signed_in(viewer).post(
        reverse("admin:tournament_round_changelist"), {"action": "complete_rounds", ACTION_CHECKBOX_NAME: [round_.pk]}
    )
    assert response.status_code == 403
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED


def test_a_referee_limited_to_table_1_sees_and_records_only_there(two_events, people):
    event, _ = two_events
    referee = people("ref1", REFEREES_GROUP)
    role_grant(event=event, user=referee, kind="referee", tables="1")
    table_1, table_2 = event.rounds.get().tables.order_by("number")
    client = signed_in(referee)
    listed = client.get(reverse("console:my_tables")).content.decode()
    assert "Table 1" in listed and "Table 2" not in listed
    assert client.post(reverse("console:table", args=[table_1.pk]), RON).status_code == 302
    assert client.post(reverse("console:table", args=[table_2.pk]), RON).status_code == 403
    assert HandVersion.objects.filter(hand__table=table_1, recorded_by=referee).count() == 1
    assert not HandVersion.objects.filter(hand__table=table_2).exists()


def test_revoking_a_role_takes_effect_at_the_next_request(two_events, people):
    event, _ = two_events
    referee = people("ref", REFEREES_GROUP)
    role = role_grant(event=event, user=referee, kind="referee")
    table = event.rounds.get().tables.first()
    client = signed_in(referee)
    assert client.get(reverse("console:table", args=[table.pk])).status_code == 200
    role_revoke(role=role, by=event.owner)
    assert client.post(reverse("console:table", args=[table.pk]), RON).status_code == 403


def open_card(client, issued):
    return client.post(reverse("console:table_card", args=[issued.token]), {"pin": issued.pin})


def test_a_table_card_opens_its_table_only_and_signs_what_it_records(two_events):
    event, _ = two_events
    table_1, table_2 = event.rounds.get().tables.order_by("number")
    [card] = scorekeeper_keys_issue(tables=[table_2], by=event.owner)
    client = Client()
    assert client.get(reverse("console:table", args=[table_2.pk])).status_code == 302  # to sign in
    response = open_card(client, card)
    assert response.status_code == 302 and response.headers["Location"] == reverse("console:table", args=[table_2.pk])
    assert client.post(reverse("console:table", args=[table_2.pk]), RON).status_code == 302
    version = HandVersion.objects.get(hand__table=table_2)
    assert version.recorded_by is None and version.recorded_by_card == ScorekeeperKey.objects.get(table=table_2)
    assert (
        f"table card #{version.recorded_by_card_id}"
        in client.get(reverse("console:table", args=[table_2.pk])).content.decode()
    )
    # not another table, and not the referee's buttons at its own
    assert client.post(reverse("console:table", args=[table_1.pk]), RON).status_code == 403
    seat = table_2.seats.get(position=3)
    absent = client.post(reverse("console:table", args=[table_2.pk]), {"action": "absent_during", "seat": seat.pk})
    assert absent.status_code == 403


def test_five_wrong_pins_lock_a_table_card(two_events):
    event, _ = two_events
    [card] = scorekeeper_keys_issue(tables=[event.rounds.get().tables.first()])
    wrong = "000000" if card.pin != "000000" else "111111"
    client = Client()
    for tries_left in (4, 3, 2, 1):
        response = client.post(reverse("console:table_card", args=[card.token]), {"pin": wrong})
        assert response.status_code == 400 and f"{tries_left} tries left" in response.content.decode()
    assert client.post(reverse("console:table_card", args=[card.token]), {"pin": wrong}).status_code == 400
    locked = open_card(client, card)
    assert locked.status_code == 403 and "too many wrong PINs" in locked.content.decode()


def test_new_cards_cancel_the_old_ones_and_a_completed_round_closes_them(two_events):
    event, _ = two_events
    round_ = event.rounds.get()
    table = round_.tables.first()
    [old] = scorekeeper_keys_issue(tables=[table])
    client = Client()
    assert open_card(client, old).status_code == 302
    [new] = scorekeeper_keys_issue(tables=[table])
    assert client.get(reverse("console:table", args=[table.pk])).status_code == 302  # the old card is closed
    assert open_card(Client(), old).status_code == 403
    assert open_card(client, new).status_code == 302
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETED)
    assert client.get(reverse("console:table", args=[table.pk])).status_code == 302


def test_the_organizer_prints_table_cards_and_only_digests_are_kept(two_events):
    event, _ = two_events
    round_ = event.rounds.get()
    response = signed_in(event.owner).post(
        reverse("admin:tournament_round_table_cards", args=[round_.pk]), {"tables": ""}
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.count('class="segno"') == 2
    pins = re.findall(r'class="pin">(\d{6})<', body)
    tokens = re.findall(r"/k/([\w-]+)/", body)
    assert len(pins) == 2 and len(set(tokens)) == 2
    for key in ScorekeeperKey.objects.filter(table__round=round_):
        assert key.issued_by == event.owner and all(p not in key.pin_hash for p in pins)
        assert all(t not in key.token_digest for t in tokens)


def test_the_clock_api_checks_csrf_for_a_scorekeeper_without_an_account(make_event, seated_round):
    event = make_event(4, clock_bank_seconds=20)
    table = seated_round(event).tables.get()
    [card] = scorekeeper_keys_issue(tables=[table])
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("console:table_card", args=[card.token]))
    token = page.cookies["csrftoken"].value
    assert (
        client.post(
            reverse("console:table_card", args=[card.token]), {"pin": card.pin, "csrfmiddlewaretoken": token}
        ).status_code
        == 302
    )
    url = reverse("tournament_api:clock_start", args=[table.pk])
    body = {"hand_number": 1, "dealer_position": 0}
    assert client.post(url, body, content_type="application/json").status_code == 403
    token = client.cookies["csrftoken"].value
    ok = client.post(url, body, content_type="application/json", headers={"X-CSRFToken": token})
    assert ok.status_code == 200 and ok.json()["seat_on_turn"] == 0


def test_a_players_link_opens_their_own_page_of_a_private_event(make_event, seated_round):
    event = make_event(4, is_public=False)
    mine, other = event.entries.order_by("pk")[:2]
    client = Client()
    own_page = reverse("tournament:player", args=[event.slug, mine.pk])
    assert client.get(own_page).status_code == 404
    assert client.get(reverse("tournament:player_link", args=[mine.link_token])).status_code == 302
    assert client.get(own_page).status_code == 200
    assert client.get(reverse("tournament:player", args=[event.slug, other.pk])).status_code == 404
    assert client.get(reverse("tournament:player_link", args=["not-a-link"])).status_code == 404


def test_a_players_account_opens_their_own_page(make_event, people):
    event = make_event(4, is_public=False)
    entry = event.entries.first()
    entry.player.user = people("player")
    entry.player.save()
    url = reverse("tournament:player", args=[event.slug, entry.pk])
    assert signed_in(entry.player.user).get(url).status_code == 200
    assert Client().get(url).status_code == 404


def test_referee_tables_are_numbers_or_ranges(two_events, people):
    event, _ = two_events
    with pytest.raises(Exception, match="not a table number"):
        role_grant(event=event, user=people("x"), kind="referee", tables="1-3, east")
    role = role_grant(event=event, user=people("y"), kind="referee", tables="1-3, 7")
    assert role.table_numbers == frozenset({1, 2, 3, 7})
    grant = access.Actor(role.user).grant(event.pk)
    assert grant.covers(7) and not grant.covers(4) and not grant.covers(None)


def test_only_the_organizers_download_the_players_personal_links(two_events, people):
    event, other = two_events
    referee = people("ref", REFEREES_GROUP)
    role_grant(event=event, user=referee, kind="referee")
    entries = [str(pk) for pk in event.entries.values_list("pk", flat=True)]
    data = {"action": "personal_links_csv", ACTION_CHECKBOX_NAME: entries}
    url = reverse("admin:tournament_entry_changelist")
    response = signed_in(event.owner).post(url, data)
    body = response.content.decode()
    assert response.status_code == 200 and body.count("/me/") == len(entries)
    assert event.entries.first().link_token in body
    for outsider in (referee, other.owner):
        assert signed_in(outsider).post(url, data).status_code == 403
