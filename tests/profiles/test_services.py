"""Merging a duplicate player into the one kept: what moves (entries, and with them sign-ups; the account
link and the external id when only the duplicate has them), the record, the refusals (nothing written), the
undo that moves exactly those entries back, and who may merge."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from players.models import Player
from profiles import selectors, services
from profiles.models import PlayerMerge
from registration.models import SignUp
from taikai.errors import Conflict, Forbidden, TaikaiError
from tests.factories import EventRoleFactory
from tournament.access import Actor
from tournament.models import Entry
from tournament.services.roles import role_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_events(make_event):
    return make_event(2, name="Spring Open", slug="spring"), make_event(2, name="Autumn Open", slug="autumn")


@pytest.fixture
def pair(two_events):
    """Sato (kept) in the spring event, Satou (the duplicate) in the autumn one."""
    spring, autumn = two_events
    kept = Player.objects.create(display_name="Sato Kenta", reading="さとう けんた")
    duplicate = Player.objects.create(display_name="Satou Kenta")
    Entry.objects.create(event=spring, player=kept)
    Entry.objects.create(event=autumn, player=duplicate)
    return kept, duplicate


def test_a_merge_moves_the_duplicates_entries_and_records_them(pair, two_events):
    # given
    kept, duplicate = pair
    _spring, autumn = two_events
    moved = Entry.objects.get(player=duplicate)
    sign_up = SignUp.objects.create(
        event=autumn, state="confirmed", rank=1, name="Satou", email="s@example.org", nonce="n", entry=moved
    )
    organizer = User.objects.create_user("org")
    # when
    merge = services.player_merge(kept=kept, merged=duplicate, by=organizer)
    # then
    assert set(Entry.objects.filter(player=kept).values_list("event__slug", flat=True)) == {
        "spring",
        "autumn",
    }
    assert merge.entry_ids == [moved.pk] and merge.by == organizer and merge.in_force
    assert Player.objects.filter(pk=duplicate.pk).exists()  # never deleted
    sign_up.refresh_from_db()
    assert sign_up.entry.player_id == kept.pk
    assert selectors.merge_in_force_of(duplicate) == merge


def test_undo_moves_exactly_the_moved_entries_back(pair, two_events, make_event):
    kept, duplicate = pair
    spring, autumn = two_events
    merge = services.player_merge(kept=kept, merged=duplicate)
    later = make_event(2, name="Winter Open", slug="winter")
    added_after = Entry.objects.create(event=later, player=kept)  # the kept player's own, after the merge
    undone = services.player_merge_undo(merge=merge)
    assert undone.undone_at is not None
    assert set(Entry.objects.filter(player=duplicate).values_list("event_id", flat=True)) == {autumn.pk}
    assert set(Entry.objects.filter(player=kept).values_list("pk", flat=True)) == {
        Entry.objects.get(event=spring, player=kept).pk,
        added_after.pk,
    }
    assert selectors.merge_in_force_of(duplicate) is None


def test_undoing_twice_is_refused(pair):
    kept, duplicate = pair
    merge = services.player_merge(kept=kept, merged=duplicate)
    services.player_merge_undo(merge=merge)
    with pytest.raises(Conflict) as refused:
        services.player_merge_undo(merge=merge)
    assert refused.value.code == "merge_undone"


def test_the_external_id_moves_with_the_merge_and_back_with_the_undo(pair):
    kept, duplicate = pair
    Player.objects.filter(pk=duplicate.pk).update(external_id="04130007")
    duplicate.refresh_from_db()
    merge = services.player_merge(kept=kept, merged=duplicate)
    assert Player.objects.get(pk=kept.pk).external_id == "04130007"
    assert Player.objects.get(pk=duplicate.pk).external_id is None
    services.player_merge_undo(merge=merge)
    assert Player.objects.get(pk=kept.pk).external_id is None
    assert Player.objects.get(pk=duplicate.pk).external_id == "04130007"


def test_the_account_link_moves_only_in_a_superusers_merge(pair):
    kept, duplicate = pair
    account = User.objects.create_user("kenta")
    Player.objects.filter(pk=duplicate.pk).update(user=account)
    duplicate.refresh_from_db()
    with pytest.raises(Forbidden) as refused:
        services.player_merge(kept=kept, merged=duplicate)
    assert refused.value.code == "merge_moves_account" and not PlayerMerge.objects.exists()
    merge = services.player_merge(kept=kept, merged=duplicate, move_account=True)
    assert Player.objects.get(pk=kept.pk).user == account and merge.moved_user == account
    services.player_merge_undo(merge=merge)
    assert Player.objects.get(pk=duplicate.pk).user == account and Player.objects.get(pk=kept.pk).user is None


@pytest.mark.parametrize(
    ("case", "code", "field"),
    [
        ("itself", "merge_same_player", "merged"),
        ("same_event", "merge_same_event", "merged"),
        ("into_merged_away", "merge_into_merged", "kept"),
        ("already_merged", "merge_already_merged", "merged"),
        ("two_external_ids", "merge_external_ids_differ", "merged"),
        ("two_accounts", "merge_both_linked", "merged"),
    ],
)
def test_a_merge_is_refused_with_its_code_and_nothing_is_written(pair, two_events, case, code, field):
    kept, duplicate = pair
    spring, _autumn = two_events
    third = Player.objects.create(display_name="Someone Else")
    if case == "itself":
        duplicate = kept
    elif case == "same_event":
        Entry.objects.create(event=spring, player=duplicate)
    elif case == "into_merged_away":
        services.player_merge(kept=third, merged=kept)
    elif case == "already_merged":
        services.player_merge(kept=third, merged=duplicate)
    elif case == "two_external_ids":
        Player.objects.filter(pk=kept.pk).update(external_id="04130001")
        Player.objects.filter(pk=duplicate.pk).update(external_id="04130002")
    elif case == "two_accounts":
        Player.objects.filter(pk=kept.pk).update(user=User.objects.create_user("a"))
        Player.objects.filter(pk=duplicate.pk).update(user=User.objects.create_user("b"))
    kept.refresh_from_db()
    duplicate.refresh_from_db()
    entries_before = sorted(Entry.objects.values_list("pk", "player_id"))
    merges_before = PlayerMerge.objects.count()
    with pytest.raises(TaikaiError) as refused:
        services.player_merge(kept=kept, merged=duplicate)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert sorted(Entry.objects.values_list("pk", "player_id")) == entries_before
    assert PlayerMerge.objects.count() == merges_before


def test_the_preview_lists_each_entry_its_event_and_the_refusal(pair, two_events):
    kept, duplicate = pair
    spring, _autumn = two_events
    Entry.objects.create(event=spring, player=duplicate)
    preview = selectors.merge_preview(kept=kept, merged=duplicate)
    by_event = {row.entry.event.slug: row.refusal for row in preview.entries}
    assert by_event["autumn"] == "" and "Spring Open" in by_event["spring"]
    assert not preview.allowed and [p.code for p in preview.problems] == ["merge_same_event"]


def test_undo_is_refused_once_the_kept_player_was_merged_away_since(pair):
    kept, duplicate = pair
    merge = services.player_merge(kept=kept, merged=duplicate)
    services.player_merge(kept=Player.objects.create(display_name="Third"), merged=kept)
    with pytest.raises(TaikaiError) as refused:
        services.player_merge_undo(merge=merge)
    assert refused.value.code == "merge_kept_merged"


def _actor(user) -> Actor:
    return Actor(user)


def test_an_organizer_merges_only_players_of_events_they_all_organize(pair, two_events):
    kept, duplicate = pair
    spring, autumn = two_events
    both, one = User.objects.create_user("both"), User.objects.create_user("one")
    for event in (spring, autumn):
        role_grant(event=event, user=both, kind="organizer")
    role_grant(event=spring, user=one, kind="organizer")
    referee = EventRoleFactory(event=spring, user__username="ref", kind="referee").user
    role_grant(event=autumn, user=referee, kind="referee")
    root = User.objects.create_superuser("root")
    assert services.may_merge(_actor(both), kept=kept, merged=duplicate)
    assert not services.may_merge(_actor(one), kept=kept, merged=duplicate)
    assert not services.may_merge(_actor(referee), kept=kept, merged=duplicate)
    assert services.may_merge(_actor(root), kept=kept, merged=duplicate)
    merge = services.player_merge(kept=kept, merged=duplicate)
    assert services.may_undo(_actor(both), merge) and not services.may_undo(_actor(one), merge)


def test_a_player_switches_their_own_profile_off_and_nobody_else_does(pair):
    kept, _duplicate = pair
    account = User.objects.create_user("kenta")
    Player.objects.filter(pk=kept.pk).update(user=account)
    kept.refresh_from_db()
    services.profile_listed_set(player=kept, user=account, listed=False)
    assert not selectors.player_is_listed(kept.pk)
    with pytest.raises(Forbidden):
        services.profile_listed_set(player=kept, user=User.objects.create_user("other"), listed=True)
    assert not selectors.player_is_listed(kept.pk)


def test_merges_are_stamped_with_the_time(pair):
    kept, duplicate = pair
    before = timezone.now()
    assert services.player_merge(kept=kept, merged=duplicate).at >= before
