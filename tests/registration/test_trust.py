"""What a stranger claims at sign-up is checked against what Taikai knows: an EMA number typed on the form is a
claim (never a link to the stored player by itself, and the stranger's edits never reach a stored player);
the per-e-mail limit counts every live sign-up; the per-network limit counts only the public's sign-ups and
says when to try again; a private link can be renewed, and the old one then opens nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from players.models import Player
from profiles.services import player_merge
from registration import selectors, services
from registration.models import Registration, SignUp, SignUpChange, SignUpMessage
from taikai.errors import TaikaiError
from tests.factories import RegistrationFactory
from tournament.models import Entry
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db
State = SignUp.State
STORED = {
    "display_name": "Kobayashi Ken",
    "reading": "こばやし",
    "club": "Kyoto Riichi",
    "external_id": "04120007",
}


@pytest.fixture
def event(make_event):
    return RegistrationFactory(event=make_event(0), cap=10, checkin_open=True, pending_per_email=5).event


def sign_up_url(event) -> str:
    return reverse("registration:sign_up", args=[event.slug])


def sign(event, n: int, **values) -> SignUp:
    return services.sign_up_create(
        event=event, values={"name": f"Player {n}", "email": f"p{n}@example.org"} | values, address=f"10.1.0.{n}"
    )


# --- an EMA number is a claim -------------------------------------------------------------------------------


def test_a_stranger_with_a_stored_players_ema_number_takes_over_nothing_and_the_real_player_signs_up_after(
    event, organizer
):
    stored = Player.objects.create(**STORED)
    # a stranger signs up on the public page with the stored player's number: confirmed, as a player of their own
    stranger = Client(REMOTE_ADDR="203.0.113.5")
    answer = stranger.post(
        sign_up_url(event), {"name": "Not Kobayashi", "email": "x@example.org", "external_id": STORED["external_id"]}
    )
    assert answer.status_code == 302
    made = SignUp.objects.get(email="x@example.org")
    assert made.state == State.CONFIRMED and made.entry.player != stored and made.own_player
    assert made.external_id == STORED["external_id"]  # the claim is kept, for the organizers
    assert selectors.likely_matches(made)[0] == stored  # and shown as the likely player, not linked
    # their edit changes their sign-up and their own player, never the stored player
    edit = {
        "action": "edit",
        "name": "HACKED BY A STRANGER",
        "reading": "x",
        "club": "HACKED",
        "email": "x@example.org",
        "external_id": STORED["external_id"],
    }
    assert stranger.post(answer["Location"], edit).status_code == 302
    stored.refresh_from_db()
    assert {k: getattr(stored, k) for k in STORED} == STORED
    assert Player.objects.get(pk=made.entry.player_id).display_name == "HACKED BY A STRANGER"
    assert not Entry.objects.filter(player=stored).exists()
    assert "HACKED" not in Client().get(reverse("profiles:player", args=[stored.pk])).content.decode()
    # the real player signs up with their own number: no 500, a pending sign-up for the organizers
    real = Client(REMOTE_ADDR="198.51.100.7").post(
        sign_up_url(event),
        {"name": STORED["display_name"], "email": "ken@example.org", "external_id": STORED["external_id"]},
    )
    assert real.status_code == 302
    theirs = SignUp.objects.get(email="ken@example.org")
    assert theirs.state == State.PENDING and theirs.entry is None
    assert selectors.likely_matches(theirs)[0] == stored
    # the organizers approve and merge the real one with the stored player; the stranger's cannot be merged too
    services.sign_up_approve(sign_up=theirs, by=organizer)
    services.sign_up_player_merge(sign_up=theirs, player=stored, by=organizer)
    theirs.refresh_from_db()
    assert theirs.entry.player == stored and not theirs.own_player and selectors.likely_matches(theirs) == []
    with pytest.raises(TaikaiError) as info:
        services.sign_up_player_merge(sign_up=made, player=stored, by=organizer)
    assert info.value.code == "already_entered"
    # a merged sign-up's edits stay on the sign-up: the stored record is the organizers'
    services.sign_up_edit(sign_up=theirs, values={"name": "Someone Else", "email": "ken@example.org"})
    stored.refresh_from_db()
    assert stored.display_name == STORED["display_name"] and SignUp.objects.get(pk=theirs.pk).name == "Someone Else"


def test_the_organizers_merge_action_links_the_player_the_number_names(event, organizer, client):
    stored = Player.objects.create(**STORED)
    made = sign(event, 1, external_id=STORED["external_id"])  # another name: only the number says who
    client.force_login(organizer)
    response = client.post(
        reverse("admin:registration_signup_changelist"),
        {"action": "merge_with_likely", ACTION_CHECKBOX_NAME: [made.pk]},
    )
    assert response.status_code == 302
    made.refresh_from_db()
    assert made.entry.player == stored and SignUpChange.objects.filter(sign_up=made, what="merged").exists()


def test_a_sign_ups_edits_never_reach_the_stored_player_its_player_was_merged_into_in_the_profiles(event):
    stored = Player.objects.create(**STORED)
    made = sign(event, 1, name=STORED["display_name"])
    player_merge(kept=stored, merged=made.entry.player)  # the profiles' merge moves the entry to the stored one
    services.sign_up_edit(sign_up=made, values={"name": "HACKED BY A STRANGER", "email": "p1@example.org"})
    stored.refresh_from_db()
    assert {k: getattr(stored, k) for k in STORED} == STORED
    assert SignUp.objects.get(pk=made.pk).name == "HACKED BY A STRANGER"


def test_an_unknown_number_reaches_the_player_only_when_an_organizer_confirms_it(event, organizer):
    made = sign(event, 1, external_id="09990001")
    player = made.entry.player
    assert player.external_id != "09990001"  # a claim until confirmed
    services.sign_up_external_id_confirm(sign_up=made, by=organizer)
    player.refresh_from_db()
    assert player.external_id == "09990001"
    assert SignUpChange.objects.filter(sign_up=made, what="id_confirmed", by=organizer).exists()
    # a number a stored player holds is never given to another: the organizer merges instead
    stored = Player.objects.create(**STORED)
    other = sign(event, 2, external_id=STORED["external_id"])
    with pytest.raises(TaikaiError) as info:
        services.sign_up_external_id_confirm(sign_up=other, by=organizer)
    assert (info.value.code, info.value.field) == ("external_id_taken", "external_id")
    stored.refresh_from_db()
    assert Player.objects.filter(external_id=STORED["external_id"]).get() == stored


# --- the limits ---------------------------------------------------------------------------------------------


def test_the_per_email_limit_counts_confirmed_and_checked_in_sign_ups(event):
    Registration.objects.filter(event=event).update(pending_per_email=2)
    first = sign(event, 1, email="same@example.org")
    sign(event, 2, email="same@example.org")
    assert set(SignUp.objects.values_list("state", flat=True)) == {State.CONFIRMED}
    services.sign_up_check_in(sign_up=first)
    with pytest.raises(TaikaiError) as info:
        sign(event, 3, email="same@example.org")
    assert (info.value.code, info.value.field) == (
        "too_many_pending",
        "email",
    ) and SignUp.objects.count() == 2
    services.sign_up_withdraw(sign_up=first)  # a withdrawn sign-up no longer counts
    assert sign(event, 4, email="same@example.org").state == State.CONFIRMED


def test_moving_a_sign_up_to_an_address_at_its_limit_is_refused(event):
    Registration.objects.filter(event=event).update(pending_per_email=1)
    sign(event, 1, email="same@example.org")
    other = sign(event, 2)
    with pytest.raises(TaikaiError) as info:
        services.sign_up_edit(sign_up=other, values={"name": "Player 2", "email": "same@example.org"})
    assert (info.value.code, info.value.field) == ("too_many_pending", "email")
    assert SignUp.objects.get(pk=other.pk).email == "p2@example.org"
    services.sign_up_edit(sign_up=other, values={"name": "Player Two", "email": "p2@example.org"})  # its own: fine


def test_the_organizers_api_sign_ups_are_not_counted_by_the_public_limit(event):
    token = api_token_issue(event=event, name="club software", scope="organizer").secret
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}", REMOTE_ADDR="192.0.2.1")
    address = reverse("api_v1:event_sign_ups", args=[event.slug])
    answers = [
        api.post(
            address, json.dumps({"name": f"Player {n}", "email": f"p{n}@example.org"}), content_type="application/json"
        ).status_code
        for n in range(services.SIGN_UPS_PER_ADDRESS + 3)
    ]
    assert answers == [201] * (services.SIGN_UPS_PER_ADDRESS + 3)


def test_an_organizer_signing_people_up_on_the_page_is_not_counted_and_the_public_limit_says_when(event, organizer):
    desk = Client(REMOTE_ADDR="192.0.2.2")  # the venue's network
    desk.force_login(organizer)
    for n in range(services.SIGN_UPS_PER_ADDRESS + 2):
        assert desk.post(sign_up_url(event), {"name": f"At desk {n}", "email": f"d{n}@example.org"}).status_code == 302
    assert SignUpChange.objects.filter(what="signed_up", by=organizer).count() == services.SIGN_UPS_PER_ADDRESS + 2
    phone = Client(REMOTE_ADDR="192.0.2.2")  # a player on the same network
    for n in range(services.SIGN_UPS_PER_ADDRESS):
        assert phone.post(sign_up_url(event), {"name": f"Phone {n}", "email": f"f{n}@example.org"}).status_code == 302
    refused = phone.post(sign_up_url(event), {"name": "One more", "email": "more@example.org"})
    assert refused.status_code == 400 and not SignUp.objects.filter(name="One more").exists()
    minutes = int(re.search(r"try again in (\d+) minutes?", refused.content.decode()).group(1))
    assert 1 <= minutes <= services.THROTTLE_SECONDS // 60


def test_the_public_limit_refusal_gives_the_seconds_until_its_window_ends(event):
    for n in range(services.SIGN_UPS_PER_ADDRESS):
        services.sign_up_create(event=event, values={"name": f"P{n}", "email": f"q{n}@example.org"}, address="10.9.9.9")
    with pytest.raises(services.TooManySignUps) as info:
        services.sign_up_create(event=event, values={"name": "More", "email": "m@example.org"}, address="10.9.9.9")
    assert info.value.status == 429 and 0 < info.value.retry_after <= services.THROTTLE_SECONDS + 1
    assert info.value.code == "too_many_sign_ups" and "try again in" in info.value.message


# --- the private link ---------------------------------------------------------------------------------------


def test_renewing_the_link_from_the_link_kills_the_old_link(event, client):
    made = sign(event, 1)
    old = reverse("registration:private", args=[services.private_token(made)])
    renewed = client.post(old, {"action": "renew"})
    made.refresh_from_db()
    new = reverse("registration:private", args=[services.private_token(made)])
    assert renewed.status_code == 302 and renewed["Location"] == new and new != old
    dead = client.get(old)
    assert dead.status_code == 403 and "renewed" in dead.content.decode()
    assert client.post(old, {"action": "withdraw"}).status_code == 403
    assert client.get(new).status_code == 200 and SignUp.objects.get(pk=made.pk).state == State.CONFIRMED
    assert SignUpMessage.objects.filter(sign_up=made, kind="link").count() == 1
    assert SignUpChange.objects.filter(sign_up=made, what="link_renewed", by=None).count() == 1


def test_renewing_the_link_from_the_admin_kills_the_old_link(event, organizer, client):
    made = sign(event, 1)
    old = reverse("registration:private", args=[services.private_token(made)])
    client.force_login(organizer)
    response = client.post(
        reverse("admin:registration_signup_changelist"), {"action": "renew_link", ACTION_CHECKBOX_NAME: [made.pk]}
    )
    assert response.status_code == 302
    client.logout()
    assert client.get(old).status_code == 403
    made.refresh_from_db()
    assert client.get(reverse("registration:private", args=[services.private_token(made)])).status_code == 200
    assert SignUpChange.objects.filter(sign_up=made, what="link_renewed", by=organizer).count() == 1
