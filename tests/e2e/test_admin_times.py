"""The admin's times in the event's time zone, in Chromium on a desktop: a sign-up close typed as 00:00 in the
admin of an Asia/Tokyo event is 00:00 on the event's public sign-up page, and the form says which zone it
uses, in English and in Japanese."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from registration.models import Registration
from tests.e2e.conftest import sign_in
from tournament.services.roles import ORGANIZERS_GROUP, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def tokyo_registration(make_event):
    staff_groups_install()
    owner = User.objects.create_user("owner", password="taikai-test", is_staff=True)
    owner.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
    event = make_event(4, time_zone="Asia/Tokyo", owner=owner, is_public=True)
    now = timezone.now()
    return Registration.objects.create(
        event=event, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=3), cap=8
    )


def organizer_admin(screen, locale):
    page = screen(DESKTOP, locale)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, "/admin/login/", "owner", "taikai-test", submit="input[type=submit]", then="#user-tools")
    return page, errors


def test_a_close_typed_as_midnight_in_the_admin_is_midnight_on_the_public_page(screen, tokyo_registration):
    # given an Asia/Tokyo event open for sign-ups, and its organizer in the admin (English)
    page, errors = organizer_admin(screen, "en-US")
    page.goto(f"/admin/registration/registration/{tokyo_registration.pk}/change/")
    # the form says which time zone it uses
    assert "Asia/Tokyo" in page.inner_text(".field-closes_at")
    # when they type the close as 2030-01-15 00:00
    page.fill("#id_closes_at_0", "2030-01-15")
    page.fill("#id_closes_at_1", "00:00:00")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")
    # then it is midnight in Tokyo (15:00 the day before in UTC) ...
    tokyo_registration.refresh_from_db()
    assert tokyo_registration.closes_at == datetime(2030, 1, 14, 15, 0, tzinfo=UTC)
    # ... the form shows it again as typed ...
    page.goto(f"/admin/registration/registration/{tokyo_registration.pk}/change/")
    assert page.input_value("#id_closes_at_1").startswith("00:00")
    # ... and the public page says 00:00
    page.goto(f"/events/{tokyo_registration.event.slug}/register/")
    assert "2030-01-15 00:00" in page.inner_text("main")
    assert errors == []


def test_the_japanese_admin_names_the_event_s_time_zone(screen, tokyo_registration):
    page, errors = organizer_admin(screen, "ja-JP")
    page.goto(f"/admin/registration/registration/{tokyo_registration.pk}/change/")
    help_text = page.inner_text(".field-closes_at")
    assert "Asia/Tokyo" in help_text and "タイムゾーン" in help_text
    # the time shown is Tokyo's
    shown = tokyo_registration.closes_at.astimezone(timezone.get_fixed_timezone(9 * 60))
    assert page.input_value("#id_closes_at_1").startswith(shown.strftime("%H:%M"))
    assert errors == []
