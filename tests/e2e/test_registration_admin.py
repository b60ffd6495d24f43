"""The registration's form in the admin on a desktop, in English and in Japanese: the details asked and
required are checkboxes (not JSON text), stored as before; a detail required but not asked is refused on its
field, nothing saved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from registration.models import Registration
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
WORDS = {  # what the page says, in each language
    "en-US": {
        "club": "club / affiliation",
        "refused": "required but not asked",
        "saved": "was changed successfully",
    },
    "ja-JP": {"club": "所属", "refused": "必須ですが入力項目にありません", "saved": "変更しました"},
}


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_details_asked_and_required_are_checkboxes_and_a_required_one_must_be_asked(
    screen, make_event, admin_user, locale
):
    # given: a registration asking name, reading and e-mail
    event = make_event(0)
    now = timezone.now()
    registration = Registration.objects.create(
        event=event,
        opens_at=now - timedelta(days=1),
        cap=8,
        closes_at=now + timedelta(days=1),
        asked=["name", "reading", "email"],
        required=["name", "email"],
    )
    page = screen(DESKTOP, locale)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, "/admin/login/", "admin", "password", submit="input[type=submit]", then="#user-tools")
    page.goto(f"/admin/registration/registration/{registration.pk}/change/")
    words = WORDS[locale]
    asked = page.locator(".field-asked")
    required = page.locator(".field-required")
    assert asked.locator("textarea").count() == 0 and required.locator("textarea").count() == 0
    assert asked.locator("input[type=checkbox][value=reading]").is_checked()
    assert not asked.locator("input[type=checkbox][value=club]").is_checked()
    # when: the club is required but not asked
    required.get_by_label(words["club"]).check()
    page.click("input[name=_continue]")
    # then: refused on the field, nothing saved
    page.wait_for_selector(".field-required .errorlist")
    assert words["refused"] in page.inner_text(".field-required .errorlist")
    registration.refresh_from_db()
    assert registration.required == ["name", "email"]
    # when: asked too
    page.locator(".field-asked").get_by_label(words["club"]).check()
    page.click("input[name=_continue]")
    page.wait_for_selector(".messagelist .success")
    assert words["saved"] in page.inner_text(".messagelist")
    # then: stored as before, in the form's order
    registration.refresh_from_db()
    assert registration.asked == ["name", "reading", "club", "email"]
    assert registration.required == ["name", "club", "email"]
    assert errors == []
