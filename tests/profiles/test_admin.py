"""The merge page in the admin: the preview (each entry of the duplicate, its event, the refusals), the
confirming POST, and the undo action; an organizer of one of the two players' events only is refused."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import User
from django.urls import reverse

from players.models import Player
from profiles.models import PlayerMerge
from tests.factories import signed_in
from tests.fixtures.writes import writes_recorded
from tournament.models import Entry
from tournament.services.roles import role_grant, staff_groups_install

pytestmark = [pytest.mark.django_db, pytest.mark.once]
MERGE = "admin:profiles_playermerge_merge"


@pytest.fixture
def setting(make_event):
    staff_groups_install()
    spring, autumn = (
        make_event(1, name="Spring Open", slug="spring"),
        make_event(1, name="Autumn Open", slug="autumn"),
    )
    kept, duplicate = spring.entries.get().player, autumn.entries.get().player
    both, one = User.objects.create_user("both"), User.objects.create_user("one")
    for event in (spring, autumn):
        role_grant(event=event, user=both, kind="organizer")
    role_grant(event=spring, user=one, kind="organizer")
    return kept, duplicate, both, one


def test_the_preview_shows_each_entry_and_writes_nothing_then_the_post_merges(setting):
    kept, duplicate, both, _one = setting
    client = signed_in(both)
    with writes_recorded() as written:
        page = client.get(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk})
    body = page.content.decode()
    assert page.status_code == 200 and "Autumn Open" in body and 'id="merge-confirm"' in body and written == []
    response = client.post(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk})
    assert response.status_code == 302
    merge = PlayerMerge.objects.get()
    assert merge.by == both and set(Entry.objects.filter(player=kept).values_list("event__slug", flat=True)) == {
        "spring",
        "autumn",
    }


def test_the_preview_names_the_refusal_and_offers_no_merge(setting):
    kept, duplicate, both, _one = setting
    Entry.objects.create(event=kept.entries.get().event, player=duplicate)
    body = signed_in(both).get(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk}).content.decode()
    assert 'id="merge-problems"' in body and "both players have an entry in Spring Open" in body
    assert 'id="merge-confirm"' not in body


def test_an_organizer_of_one_of_the_events_is_refused_the_preview_and_the_merge(setting):
    kept, duplicate, _both, one = setting
    client = signed_in(one)
    with writes_recorded() as written:
        assert client.get(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk}).status_code == 403
        assert client.post(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk}).status_code == 403
    assert written == [] and not PlayerMerge.objects.exists()


def test_the_undo_action_moves_the_entries_back(setting):
    kept, duplicate, both, one = setting
    client = signed_in(both)
    client.post(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk})
    merge = PlayerMerge.objects.get()
    changelist = reverse("admin:profiles_playermerge_changelist")
    assert signed_in(one).post(changelist, {"action": "undo", ACTION_CHECKBOX_NAME: [merge.pk]}).status_code == 403
    assert client.post(changelist, {"action": "undo", ACTION_CHECKBOX_NAME: [merge.pk]}).status_code == 302
    merge.refresh_from_db()
    assert merge.undone_by == both and Player.objects.get(pk=duplicate.pk).entries.count() == 1


def test_an_organizer_is_told_to_keep_the_player_with_the_account(setting):
    kept, duplicate, both, _one = setting
    Player.objects.filter(pk=duplicate.pk).update(user=User.objects.create_user("kenta"))
    client = signed_in(both)
    body = client.get(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk}).content.decode()
    assert "is linked to an account: keep that player instead" in body and 'id="merge-confirm"' not in body
    assert client.post(reverse(MERGE), {"merged": duplicate.pk, "kept": kept.pk}).status_code == 400
    assert not PlayerMerge.objects.exists()
