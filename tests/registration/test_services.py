"""Registration's state changes, one service each: sign-up, approve, refuse, withdraw, promote, reorder,
check in, close check-in, a waiting player at the venue, a late arrival; the cap never exceeded and the
waiting list kept in order (hypothesis, and 50 threads on PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from players.models import Player
from registration import selectors, services
from registration.models import BlockedEmail, Registration, SignUp, SignUpChange, SignUpMessage
from taikai.errors import Forbidden, TaikaiError
from tests.factories import RegistrationFactory
from tournament.models import Entry, Event

pytestmark = pytest.mark.django_db
State = SignUp.State


@pytest.fixture
def organizer(db):
    return User.objects.create_user("org", password="x")


def open_registration(event, **fields) -> Registration:
    return RegistrationFactory(event=event, **{"cap": 2} | fields)


@pytest.fixture
def event(make_event):
    event = make_event(0)
    open_registration(event)
    return event


def sign(event, n: int, **values) -> SignUp:
    return services.sign_up_create(
        event=event, values={"name": f"Player {n}", "email": f"p{n}@example.org"} | values, address=f"10.0.0.{n % 250}"
    )


def states(event) -> list[tuple[str, str]]:
    return list(SignUp.objects.filter(event=event).order_by("rank").values_list("name", "state"))


def test_sign_ups_are_confirmed_up_to_the_cap_then_wait_in_order(event):
    for n in range(1, 5):
        sign(event, n)
    assert states(event) == [
        ("Player 1", "confirmed"),
        ("Player 2", "confirmed"),
        ("Player 3", "waiting"),
        ("Player 4", "waiting"),
    ]
    confirmed = SignUp.objects.get(name="Player 1")
    assert confirmed.entry.status == Entry.Status.ACTIVE and confirmed.entry.event == event
    assert list(SignUpMessage.objects.order_by("pk").values_list("kind", flat=True)) == [
        "confirmed",
        "confirmed",
        "waiting",
        "waiting",
    ]
    assert selectors.waiting_place(SignUp.objects.get(name="Player 4")) == 2


def test_a_withdrawal_promotes_the_first_waiting_player_at_once_and_tells_them(event):
    first = sign(event, 1)
    sign(event, 2)
    sign(event, 3)
    sign(event, 4)
    services.sign_up_withdraw(sign_up=first)
    assert states(event)[0] == ("Player 1", "withdrawn") and states(event)[2] == ("Player 3", "confirmed")
    assert SignUp.objects.get(name="Player 1").entry.status == Entry.Status.WITHDRAWN
    assert SignUpMessage.objects.filter(sign_up__name="Player 3", kind="promoted").count() == 1


def test_raising_the_cap_promotes_in_order(event, organizer):
    for n in range(1, 6):
        sign(event, n)
    promoted = services.registration_cap_set(event=event, cap=4, by=organizer)
    assert [s.name for s in promoted] == ["Player 3", "Player 4"]
    assert services.registration_cap_set(event=event, cap=1, by=organizer) == []  # nobody loses a place
    assert SignUp.objects.filter(state=State.CONFIRMED).count() == 4


def close_check_in(event, organizer) -> None:
    Registration.objects.filter(event=event).update(checkin_opens_at=timezone.now() - timedelta(hours=2))
    services.checkin_close(event=event, by=organizer)


def test_raising_the_cap_once_check_in_is_closed_promotes_nobody_by_itself(event, organizer):
    # given: two confirmed, two waiting, check-in closed
    for n in range(1, 5):
        sign(event, n)
    close_check_in(event, organizer)
    # when the places are raised during the event
    promoted = services.registration_cap_set(event=event, cap=4, by=organizer)
    # then nobody is promoted or told; the organizer is shown who the places would go to
    assert promoted == [] and [s.name for s in selectors.waiting_first(Registration.objects.get(event=event))] == [
        "Player 3",
        "Player 4",
    ]
    assert states(event)[2:] == [("Player 3", "waiting"), ("Player 4", "waiting")]
    assert not SignUpMessage.objects.filter(kind__startswith="promoted").exists()


def test_a_withdrawal_once_round_1_is_seated_promotes_nobody_by_itself(event, organizer):
    # given: round 1 seated (the event runs), check-in never closed
    first, _second, waiting = sign(event, 1), sign(event, 2), sign(event, 3)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    # when a confirmed player withdraws
    services.sign_up_withdraw(sign_up=first)
    # then the waiting player still waits (a free place is given at the desk to one who comes)
    assert SignUp.objects.get(pk=waiting.pk).state == State.WAITING


def test_promoting_knowingly_under_way_says_the_truth_and_seats_only_after_the_desk(event, organizer):
    # given: check-in closed, one waiting
    sign(event, 1), sign(event, 2)
    waiting = services.sign_up_create(
        event=event, values={"name": "Player 3", "email": "p3@example.org"}, language="ja"
    )
    close_check_in(event, organizer)
    # when the organizer raises the places and asks for the promotion, told who it goes to
    promoted = services.registration_cap_set(event=event, cap=3, by=organizer, promote_under_way=True)
    # then the player is confirmed but away (not seated) until the desk, and told the event is in progress
    waiting.refresh_from_db()
    assert promoted == [waiting] and waiting.state == State.CONFIRMED
    assert waiting.entry.status == Entry.Status.AWAY
    message = SignUpMessage.objects.get(sign_up=waiting, kind="promoted_under_way")
    with translation.override("en"):
        english = services._words(waiting, "promoted_under_way", "")[1]
    assert "under way" in english and "desk" in english and "Open your link at the venue" not in english
    assert message.body != english and "大会はすでに始まっています" in message.body  # in the player's language
    # at the desk: seated from the next round
    services.late_arrival(sign_up=waiting, by=organizer)
    assert SignUp.objects.get(pk=waiting.pk).entry.status == Entry.Status.ACTIVE


def test_with_approval_a_sign_up_is_pending_until_approved_then_takes_a_place_or_waits(event, organizer):
    Registration.objects.filter(event=event).update(approval=True, cap=1)
    a, b = sign(event, 1), sign(event, 2)
    assert states(event) == [("Player 1", "pending"), ("Player 2", "pending")]
    services.sign_up_approve(sign_up=a, by=organizer)
    services.sign_up_approve(sign_up=b, by=organizer)
    assert states(event) == [("Player 1", "confirmed"), ("Player 2", "waiting")]
    change = SignUpChange.objects.filter(sign_up=a, what="approved").get()
    assert change.by == organizer and (change.state_before, change.state_after) == ("pending", "confirmed")


def test_refusing_a_confirmed_player_frees_the_place_and_block_refuses_the_address_later(event, organizer):
    first, _second, _third = sign(event, 1), sign(event, 2), sign(event, 3)
    services.sign_up_refuse(sign_up=first, by=organizer, reason="not a member", block=True)
    assert states(event) == [("Player 1", "refused"), ("Player 2", "confirmed"), ("Player 3", "confirmed")]
    assert BlockedEmail.objects.filter(event=event, email="p1@example.org").exists()
    assert "not a member" in SignUpMessage.objects.get(sign_up=first, kind="refused").body
    with pytest.raises(TaikaiError) as info:
        sign(event, 1, name="Player 1 again")
    assert info.value.code == "email_blocked"


def test_reordering_the_waiting_list_needs_a_reason_and_is_recorded(event, organizer):
    for n in range(1, 6):
        sign(event, n)
    fifth, third = SignUp.objects.get(name="Player 5"), SignUp.objects.get(name="Player 3")
    with pytest.raises(TaikaiError):
        services.waiting_move(sign_up=fifth, before=third, reason=" ", by=organizer)
    services.waiting_move(sign_up=fifth, before=third, reason="seeded player", by=organizer)
    waiting = [s.name for s in SignUp.objects.filter(state=State.WAITING).order_by("rank")]
    assert waiting == ["Player 5", "Player 3", "Player 4"]
    assert SignUpChange.objects.get(sign_up=fifth, what="reordered").reason == "seeded player"


def test_the_honeypot_the_window_and_the_pending_cap_per_address_refuse_writing_nothing(event):
    with pytest.raises(TaikaiError):
        services.sign_up_create(event=event, values={"name": "Bot", "email": "b@example.org"}, trap="http://spam")
    Registration.objects.filter(event=event).update(cap=0, pending_per_email=2)
    sign(event, 7)
    sign(event, 7, name="Twin")
    with pytest.raises(TaikaiError) as info:
        sign(event, 7, name="Triplet")
    assert info.value.code == "too_many_pending" and SignUp.objects.count() == 2
    Registration.objects.filter(event=event).update(closes_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(TaikaiError) as info:
        sign(event, 8)
    assert info.value.code == "registration_closed"


def test_a_known_ema_number_is_offered_as_the_likely_player_never_linked(event):
    known = Player.objects.create(display_name="Yamada", external_id="01234567")
    made = sign(event, 1, name="Yamada Taro", external_id="01234567")
    assert made.entry.player != known and Player.objects.count() == 2
    assert made.entry.player.external_id != "01234567" and selectors.likely_matches(made) == [known]


def test_a_likely_match_is_offered_not_merged(event):
    Player.objects.create(display_name="Player 1", club="Kyoto")
    made = sign(event, 1, club="Kyoto")
    assert [p.club for p in selectors.likely_matches(made)] == ["Kyoto"] and Player.objects.count() == 2


def test_check_in_close_marks_the_missing_away_and_a_waiting_player_at_the_venue_takes_the_place(event, organizer):
    Registration.objects.filter(event=event).update(checkin_opens_at=timezone.now() - timedelta(minutes=5))
    here, absent, waiting = sign(event, 1), sign(event, 2), sign(event, 3)
    services.sign_up_check_in(sign_up=here)
    missing = services.checkin_close(event=event, by=organizer)
    assert [s.name for s in missing] == ["Player 2"]
    assert SignUp.objects.get(pk=absent.pk).entry.status == Entry.Status.AWAY
    with pytest.raises(TaikaiError):
        services.sign_up_check_in(sign_up=absent)  # closed
    services.waiting_seat_at_venue(sign_up=waiting, by=organizer)
    waiting.refresh_from_db()
    assert waiting.state == State.CONFIRMED and waiting.checked_in_at and waiting.entry.status == Entry.Status.ACTIVE
    services.late_arrival(sign_up=absent, by=organizer)
    assert SignUp.objects.get(pk=absent.pk).entry.status == Entry.Status.ACTIVE


def test_the_private_link_opens_its_sign_up_only(event):
    made = sign(event, 1)
    assert services.sign_up_from_token(services.private_token(made)) == made
    for forged in (f"{made.pk}-x.abc", services.private_token(made)[:-2] + "zz", "nonsense"):
        with pytest.raises(Forbidden):
            services.sign_up_from_token(forged)


def test_messages_are_sent_by_email_in_the_players_language_once(event, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        made = services.sign_up_create(event=event, values={"name": "山田", "email": "y@example.org"}, language="ja")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["y@example.org"]
    assert services.private_token(made) in mail.outbox[0].body
    message = SignUpMessage.objects.get()
    assert message.sent_at is not None and message.subject != f"Your place at {event.name} is confirmed"
    assert services.message_send(message_id=message.pk, link="x") is False and len(mail.outbox) == 1


OPERATIONS = st.lists(st.tuples(st.sampled_from(["sign", "withdraw", "cap"]), st.integers(0, 30)), max_size=40)


@pytest.mark.once  # sequential: the 50 threads below are the test on PostgreSQL
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_the_cap_is_never_exceeded_and_the_waiting_list_keeps_its_order(make_event, operations):
    with transaction.atomic():  # each example from an empty event, rolled back after
        cap_and_order_hold(make_event(0), operations)
        transaction.set_rollback(True)


def cap_and_order_hold(event, operations) -> None:
    open_registration(event, cap=3, pending_per_email=100)
    admin = User.objects.get_or_create(username="prop")[0]
    cache.clear()  # the sign-up throttle counts per address across examples otherwise
    before = 0
    for n, (operation, value) in enumerate(operations):
        if operation == "sign":
            sign(event, n)
        elif operation == "cap":
            services.registration_cap_set(event=event, cap=value % 8, by=admin)
        else:
            live = list(SignUp.objects.filter(event=event, state__in=(State.CONFIRMED, State.WAITING)).order_by("rank"))
            if live:
                services.sign_up_withdraw(sign_up=live[value % len(live)])
        cap = Registration.objects.get(event=event).cap
        confirmed = SignUp.objects.filter(event=event, state=State.CONFIRMED).count()
        waiting = SignUp.objects.filter(event=event, state=State.WAITING).count()
        # a place is only ever taken while one is left (a lowered cap takes no place back); nobody waits
        # while a place is free
        assert confirmed <= max(cap, before) and (waiting == 0 or confirmed >= cap)
        before = confirmed
    # everyone confirmed signed up before everyone still waiting (promotions follow the order)
    confirmed_ranks = list(SignUp.objects.filter(event=event, state=State.CONFIRMED).values_list("rank", flat=True))
    waiting_ranks = list(SignUp.objects.filter(event=event, state=State.WAITING).values_list("rank", flat=True))
    if waiting_ranks and confirmed_ranks and not any(op == "cap" for op, _ in operations):
        assert max(confirmed_ranks) < min(waiting_ranks)


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_50_threads_signing_up_and_withdrawing_at_once_never_pass_the_cap(make_event):
    event = make_event(0)
    open_registration(event, cap=20, pending_per_email=100)
    early = [sign(event, n) for n in range(20)]  # every place taken
    barrier = threading.Barrier(50)
    errors = []

    def work(n):
        try:
            barrier.wait(timeout=20)
            if n < 20:
                services.sign_up_withdraw(sign_up=early[n])
            else:
                sign(event, 100 + n)
        except Exception as exc:  # the test reports any
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    confirmed = SignUp.objects.filter(event=event, state=State.CONFIRMED)
    waiting = SignUp.objects.filter(event=event, state=State.WAITING)
    assert confirmed.count() == 20 and waiting.count() == 10
    assert max(confirmed.values_list("rank", flat=True)) < min(waiting.values_list("rank", flat=True))
    assert Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).count() == 20


def test_checking_in_tells_the_desk_the_count_and_no_name(event, django_capture_on_commit_callbacks):
    from tests.fixtures.tournament import announcements_heard

    Registration.objects.filter(event=event).update(checkin_opens_at=timezone.now() - timedelta(minutes=1))
    made = sign(event, 1)
    with announcements_heard() as heard, django_capture_on_commit_callbacks(execute=True):
        services.sign_up_check_in(sign_up=made)
    assert heard == [("checkin", event.pk, {"checked_in": 1})]


def test_a_likely_match_merged_by_the_organizer_becomes_the_entrys_player(event, organizer):
    stored = Player.objects.create(display_name="Player 1", club="Kyoto")
    made = sign(event, 1, club="Kyoto")
    created = made.entry.player
    services.sign_up_player_merge(sign_up=made, player=stored, by=organizer)
    made.refresh_from_db()
    assert made.entry.player == stored and not Player.objects.filter(pk=created.pk).exists()
    assert SignUpChange.objects.filter(sign_up=made, what="merged", by=organizer).exists()
