"""A player's way to round 1, in Chromium on a phone in Japanese: signing up (the event is full: the
waiting list), the message on the e-mail backend, promoted when a place is freed, checked in at the venue
through the page's code, and the round-1 table shown the moment the round is published."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from registration import services
from registration.models import Registration, SignUp, SignUpMessage
from tests.e2e.waiting import until
from tournament.models import Entry, Round
from tournament.services.rounds import round_create, round_publish

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sent_to(address: str, kind: str, wait_s: float = 15.0) -> SignUpMessage:
    """The message of ``kind`` to ``address``, once it is sent (after the commit, by this process or a worker)."""
    return until(
        lambda: SignUpMessage.objects.filter(sign_up__email=address, kind=kind, sent_at__isnull=False).first(),
        f"a {kind} message sent to {address}",
        timeout_s=wait_s,
    )


PHONE = {"width": 390, "height": 844}


@pytest.mark.embedded  # the smoke set of bin/serve: the sign-up messages sent in-process
def test_a_player_signs_up_in_japanese_waits_is_promoted_checks_in_and_sees_their_table(
    screen, make_event, task_worker
):
    """``task_worker``: the messages are sent by the worker in the services pass (in-process otherwise)."""
    event = make_event(3)  # three players entered by the organizer already
    now = timezone.now()
    Registration.objects.create(
        event=event,
        opens_at=now - timedelta(days=1),
        closes_at=now + timedelta(days=1),
        cap=1,
        checkin_opens_at=now - timedelta(minutes=5),
    )
    first = services.sign_up_create(event=event, values={"name": "Early Bird", "email": "early@example.org"})
    page = screen(PHONE, "ja-JP")

    page.goto(f"/events/{event.slug}/register/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.fill("#id_name", "佐藤 花子")
    page.fill("#id_reading", "さとう はなこ")
    page.fill("#id_email", "hanako@example.org")
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#state.waiting")
    assert "キャンセル待ち 1 番目" in page.inner_text("#state")
    private_url = page.url
    # the message, in Japanese, sent by e-mail (here, or by the worker of the services pass), with the link
    waiting = sent_to("hanako@example.org", "waiting")
    assert "キャンセル待ち" in waiting.subject
    if settings.CELERY_TASK_ALWAYS_EAGER:  # sent by this process: on the e-mail backend of the tests
        mailed = next(m for m in mail.outbox if m.to == ["hanako@example.org"])
        assert mailed.subject == waiting.subject and urlsplit(private_url).path in mailed.body  # SITE_URL's host

    services.sign_up_withdraw(sign_up=first)  # a place is freed: promoted at once, and told
    assert "繰り上がりました" in sent_to("hanako@example.org", "promoted").subject
    page.reload()
    page.wait_for_selector("#state.confirmed")
    # at the venue: the page's code opens the same page, and one tap checks in
    assert page.locator(".qr svg").count() == 1
    page.goto(private_url)
    page.click("#check-in")
    page.wait_for_selector("#checked-in")
    assert SignUp.objects.get(email="hanako@example.org").checked_in_at is not None

    # round 1 is seated and published: the page shows the table without a tap
    seated = list(event.entries.filter(status=Entry.Status.ACTIVE).values_list("id", flat=True))
    round_ = round_create(event=event, tables=[seated], status=Round.Status.DRAFT)
    page.wait_for_selector("#live[data-live-state='live']", state="attached")
    round_publish(round_=round_)
    page.wait_for_selector("#seat", timeout=15000)
    entry = SignUp.objects.get(email="hanako@example.org").entry
    table = entry.seats.get().table
    assert re.search(rf"{table.number}\s*卓", page.inner_text("#seat")) and entry.status == Entry.Status.ACTIVE
