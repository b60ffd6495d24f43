"""The event's page in the admin as its organizers use it: who owns it, the archive's download, the times
of its objects in its time zone."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import signed_in
from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, role_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def owned_event(make_event, people):
    return make_event(8, owner=people("owner", ORGANIZERS_GROUP))


def change_page(client, event) -> str:
    response = client.get(reverse("admin:tournament_event_change", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_owner_is_named_without_a_link_for_an_organizer_who_may_not_open_accounts(owned_event, people):
    # given a co-organizer, who may not open the accounts' pages
    co = people("co", ORGANIZERS_GROUP)
    role_grant(event=owned_event, user=co, kind="organizer", by=owned_event.owner)
    user_page = reverse("admin:auth_user_change", args=[owned_event.owner.pk])
    assert signed_in(co).get(user_page).status_code == 403
    # when they open the event's page
    page = change_page(signed_in(co), owned_event)
    # then the owner (and who granted the role) is named, and no link leads to a page they may not open
    assert "owner" in page and user_page not in page
    assert f'href="/admin/auth/user/{owned_event.owner.pk}/' not in page


def test_the_owner_links_to_the_account_for_a_viewer_who_may_open_accounts(owned_event, people):
    from django.contrib.auth.models import Permission

    co = people("co", ORGANIZERS_GROUP)
    co.user_permissions.add(Permission.objects.get(codename="view_user"))
    role_grant(event=owned_event, user=co, kind="organizer", by=owned_event.owner)
    page = change_page(signed_in(co), owned_event)
    assert reverse("admin:auth_user_change", args=[owned_event.owner.pk]) in page


def export_url(event) -> str:
    return reverse("admin:tournament_event_export_archive", args=[event.pk])


def without_export_time(archive: dict) -> dict:
    return {name: value for name, value in archive.items() if name != "exported_at"}


def test_an_organizer_exports_the_archive_from_the_event_page_the_same_as_the_api(owned_event, seated_round):
    # given an event with a seated round, and its owner in the admin
    seated_round(owned_event)
    owner = signed_in(owned_event.owner)
    # the event's page offers the download
    assert f'href="{export_url(owned_event)}"' in change_page(owner, owned_event)
    # when they download it
    response = owner.get(export_url(owned_event))
    # then it is the API's archive of the event, for its staff (who recorded what, penalties, rulings)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{owned_event.slug}.json"'
    api = owner.get(f"/api/v1/events/{owned_event.slug}/export.json")
    assert api.status_code == 200
    assert without_export_time(json.loads(response.content)) == without_export_time(api.json())
    assert "penalties" in response.json() and response.json()["rules"]["ruleset"]["slug"]


def test_the_archive_s_rules_are_the_rules_endpoint_s(owned_event):
    owner = signed_in(owned_event.owner)
    archive = owner.get(export_url(owned_event)).json()
    assert archive["rules"] == owner.get(f"/api/v1/events/{owned_event.slug}/rules").json()


@pytest.mark.parametrize("role", ["referee", "other organizer", "no role", "co-organizer"])
def test_only_the_event_s_organizers_export_its_archive(owned_event, make_event, people, role):
    # given someone with a role in the event, in another event, or none
    if role == "referee":
        user = people("kato", REFEREES_GROUP)
        role_grant(event=owned_event, user=user, kind="referee", by=owned_event.owner)
    elif role == "other organizer":
        user = people("elsewhere", ORGANIZERS_GROUP)
        make_event(4, name="Other Cup", slug="other-cup", owner=user)
    elif role == "co-organizer":
        user = people("co", ORGANIZERS_GROUP)
        role_grant(event=owned_event, user=user, kind="organizer", by=owned_event.owner)
    else:
        user = people("nobody", ORGANIZERS_GROUP)
    client = signed_in(user)
    # when they ask for the archive from the admin
    response = client.get(export_url(owned_event))
    # then only an organizer of the event gets it; the referee does not even see the button
    if role == "co-organizer":
        assert response.status_code == 200 and response.json()["event"]["slug"] == owned_event.slug
        return
    assert response.status_code == 403
    if role == "referee":
        assert export_url(owned_event) not in change_page(client, owned_event)


def test_the_archive_is_not_exported_signed_out_or_by_post(owned_event):
    assert Client().get(export_url(owned_event)).status_code == 302  # the sign-in page
    assert signed_in(owned_event.owner).post(export_url(owned_event)).status_code == 405


def tokyo_registration(event):
    from datetime import UTC, datetime

    from registration.models import Registration

    event.time_zone = "Asia/Tokyo"
    event.save(update_fields=["time_zone"])
    return Registration.objects.create(
        event=event,
        opens_at=datetime(2030, 1, 1, 0, 0, tzinfo=UTC),
        closes_at=datetime(2030, 1, 14, 15, 0, tzinfo=UTC),
        cap=8,
    )


def test_the_list_of_an_event_s_rows_shows_their_times_in_its_zone(owned_event):
    # given an organizer whose only event is in Tokyo, its sign-ups closing at 00:00 on 15 January there
    registration = tokyo_registration(owned_event)
    owner = signed_in(owned_event.owner)
    # when they list the registrations (all of their events, or filtered by the event)
    url = reverse("admin:registration_registration_changelist")
    for address in (url, f"{url}?event__id__exact={owned_event.pk}"):
        page = owner.get(address, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        # then the close reads midnight in Tokyo, not 15:00 UTC the day before
        assert "Jan. 15, 2030, midnight" in page, address
    # the change form says its zone; the stored value stays UTC
    form = owner.get(reverse("admin:registration_registration_change", args=[registration.pk])).content.decode()
    assert "Time in the time zone Asia/Tokyo." in form


@pytest.mark.parametrize("event", ["abc", "99999999999999999999999", "-1", "０"])
def test_an_add_form_with_an_event_it_cannot_hold_opens_in_the_site_s_zone(owned_event, event):
    response = signed_in(owned_event.owner).get(reverse("admin:registration_registration_add") + f"?event={event}")
    assert response.status_code == 200
    assert "Time in the time zone UTC." in response.content.decode()
