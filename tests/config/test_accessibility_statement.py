"""The accessibility statement (``/accessibility/``) in both languages, linked from every page's footer and the
admin's."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["WCAG", "2.2", "level AA", "How it is tested", "What does not conform yet", "Whom to tell"]),
        ("ja", ["WCAG", "2.2", "レベル AA", "確認の方法", "まだ準拠していない点", "連絡先", "axe-core"]),
    ],
)
def test_the_statement_says_the_standard_the_tests_what_does_not_conform_and_whom_to_tell(language, words):
    page = Client().get("/accessibility/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert f'<html lang="{language}">' in page.text
    for word in words:
        assert word in page.text, word


def test_the_contact_address_is_given_when_the_site_has_one(settings):
    assert "mailto:" not in Client().get("/accessibility/", HTTP_ACCEPT_LANGUAGE="en").text
    settings.ACCESSIBILITY_CONTACT = "access@example.org"
    page = Client().get("/accessibility/", HTTP_ACCEPT_LANGUAGE="en")
    assert '<a href="mailto:access@example.org">access@example.org</a>' in page.text


def test_every_page_and_the_admin_link_to_it_from_their_footer(admin_client):
    home = Client().get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE="ja")
    assert '<footer class="site"><a href="/accessibility/">アクセシビリティ</a></footer>' in home.text
    admin = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<a href="/accessibility/">Accessibility</a>' in admin.text
