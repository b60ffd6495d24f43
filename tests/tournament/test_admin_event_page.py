"""The event's page in the admin as its organizers use it: who owns it, the archive's download, the times
of its objects in its time zone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from tournament.services.roles import ORGANIZERS_GROUP, REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    staff_groups_install()

    def make(name, group=None, **flags):
        user = User.objects.create_user(name, is_staff=group is not None, **flags)
        if group:
            user.groups.add(Group.objects.get(name=group))
        return user

    return make


@pytest.fixture
def owned_event(make_event, staff):
    return make_event(8, owner=staff("owner", ORGANIZERS_GROUP))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def change_page(client, event) -> str:
    response = client.get(reverse("admin:tournament_event_change", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_owner_is_named_without_a_link_for_an_organizer_who_may_not_open_accounts(owned_event, staff):
    # given a co-organizer, who may not open the accounts' pages
    co = staff("co", ORGANIZERS_GROUP)
    role_grant(event=owned_event, user=co, kind="organizer", by=owned_event.owner)
    user_page = reverse("admin:auth_user_change", args=[owned_event.owner.pk])
    assert signed_in(co).get(user_page).status_code == 403
    # when they open the event's page
    page = change_page(signed_in(co), owned_event)
    # then the owner (and who granted the role) is named, and no link leads to a page they may not open
    assert "owner" in page and user_page not in page
    assert f'href="/admin/auth/user/{owned_event.owner.pk}/' not in page


def test_the_owner_links_to_the_account_for_a_viewer_who_may_open_accounts(owned_event, staff):
    from django.contrib.auth.models import Permission

    co = staff("co", ORGANIZERS_GROUP)
    co.user_permissions.add(Permission.objects.get(codename="view_user"))
    role_grant(event=owned_event, user=co, kind="organizer", by=owned_event.owner)
    page = change_page(signed_in(co), owned_event)
    assert reverse("admin:auth_user_change", args=[owned_event.owner.pk]) in page
