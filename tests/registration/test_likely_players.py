"""A sign-up of someone already stored is offered to the organizer as "likely the same as" that player, never
merged by itself: by the EMA number given, or by the name or reading as the public search folds them (kanji
spaced or not, kana, romaji with long vowels or not), a player of the same club first; the admin's **Merge with
the likely stored player** then makes the stored player the entry's."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import translation

from players.models import Player
from profiles.services import player_merge
from registration import selectors, services
from registration.models import Registration, SignUp, SignUpChange
from tests.factories import RegistrationFactory
from tournament.models import Entry

pytestmark = pytest.mark.django_db
ICHIRO = {"display_name": "鈴木 一郎", "reading": "すずき いちろう"}


@pytest.fixture
def event(make_event):
    return RegistrationFactory(event=make_event(0), cap=10, pending_per_email=5).event


def sign(event, n: int, **values) -> SignUp:
    return services.sign_up_create(event=event, values={"email": f"p{n}@example.org"} | values, address=f"10.2.0.{n}")


@pytest.mark.parametrize(
    "typed",
    [
        {"name": "鈴木 一郎"},
        {"name": "鈴木一郎"},  # no space
        {"name": "鈴木　一郎"},  # an ideographic space
        {"name": "Ichiro", "reading": "スズキ イチロウ"},  # the reading in katakana
        {"name": "Ichiro S.", "reading": "suzuki ichiro"},  # the reading in romaji, long vowel not written
        {"name": "Suzuki Ichirou"},  # the name in romaji
    ],
)
def test_a_sign_up_named_as_a_stored_player_offers_them_and_merges_nothing(event, typed):
    # given a stored 鈴木 一郎 (no club) from an earlier event
    stored = Player.objects.create(**ICHIRO)
    # when someone signs up under that name, written another way
    made = sign(event, 1, **typed)
    # then the sign-up is confirmed with a player of its own, and the stored player is offered
    assert made.state == SignUp.State.CONFIRMED and made.own_player and made.entry.player != stored
    assert selectors.likely_matches(made) == [stored]
    assert not Entry.objects.filter(player=stored).exists() and Player.objects.count() == 2


def test_a_namesake_of_another_club_is_offered_after_those_of_the_same_club(event):
    kyoto = Player.objects.create(**ICHIRO, club="Kyoto Riichi")
    osaka = Player.objects.create(**ICHIRO, club="Osaka Janso")
    made = sign(event, 1, name="鈴木一郎", club="osaka janso")
    assert selectors.likely_matches(made) == [osaka, kyoto]


def test_the_ema_number_comes_before_the_name(event):
    namesake = Player.objects.create(**ICHIRO)
    holder = Player.objects.create(display_name="S. Ichiro", external_id="04120042")
    made = sign(event, 1, name="鈴木 一郎", external_id="04120042")
    assert selectors.likely_matches(made) == [holder, namesake]
    assert [selectors.likely_reason(made, p) for p in (holder, namesake)] == ["same EMA number", "same name"]


def test_a_longer_name_a_merged_away_player_and_a_player_of_the_event_are_not_offered(event):
    Player.objects.create(display_name="鈴木 一郎太", reading="すずき いちろうた")  # a longer name, not the same
    kept = Player.objects.create(**ICHIRO)
    duplicate = Player.objects.create(**ICHIRO)
    player_merge(kept=kept, merged=duplicate)  # merged away: its kept player is the one to offer
    first = sign(event, 1, name="鈴木 一郎")
    second = sign(event, 2, name="鈴木 一郎")  # the same name again in this event: the first's player is entered
    assert selectors.likely_matches(first) == [kept] == selectors.likely_matches(second)


def test_a_pending_sign_up_is_offered_its_namesake_too(event):
    Registration.objects.filter(event=event).update(approval=True)
    stored = Player.objects.create(**ICHIRO)
    pending = sign(event, 1, name="Suzuki Ichiro")
    assert pending.state == SignUp.State.PENDING and selectors.likely_matches(pending) == [stored]
    assert selectors.likely_reason(pending, stored) == "same reading"


# --- the organizer, in the admin ----------------------------------------------------------------------------


def test_the_sign_up_page_shows_the_namesake_with_club_country_and_why(event, organizer, client):
    stored = Player.objects.create(**ICHIRO, club="Kyoto Riichi", country="JP")
    made = sign(event, 1, name="鈴木一郎")
    client.force_login(organizer)
    page = client.get(reverse("admin:registration_signup_change", args=[made.pk])).content.decode()
    assert f"鈴木 一郎 (#{stored.pk}, Kyoto Riichi, JP): same name" in page
    with translation.override("ja"):
        page = client.get(
            reverse("admin:registration_signup_change", args=[made.pk]), HTTP_ACCEPT_LANGUAGE="ja"
        ).content.decode()
    assert f"鈴木 一郎 (#{stored.pk}, Kyoto Riichi, JP): 同姓同名" in page


def test_the_organizers_merge_action_makes_the_namesake_the_entrys_player(event, organizer, client):
    # given a stored 鈴木 一郎 and a sign-up that made a player of its own under the name in romaji
    stored = Player.objects.create(**ICHIRO)
    made = sign(event, 1, name="Suzuki Ichiro")
    created = made.entry.player
    # when the organizer merges it with the likely stored player
    client.force_login(organizer)
    response = client.post(
        reverse("admin:registration_signup_changelist"),
        {"action": "merge_with_likely", ACTION_CHECKBOX_NAME: [made.pk]},
    )
    # then the entry is the stored player's, the player made at sign-up is gone, and the change is recorded
    assert response.status_code == 302
    made.refresh_from_db()
    assert made.entry.player == stored and not Player.objects.filter(pk=created.pk).exists()
    assert SignUpChange.objects.filter(sign_up=made, what="merged", by=organizer).exists()
    assert selectors.likely_matches(made) == []
