"""Japanese or English: the switch on every page, the account's own choice, the browser's language."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import AccountPreference

pytestmark = [pytest.mark.django_db, pytest.mark.once]

SWITCH = "/i18n/language"


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def test_pages_are_english_when_nothing_asks_otherwise(client):
    response = client.get(reverse("tournament:event_list"))
    assert html_lang(response) == "en"
    assert response["Content-Language"] == "en"


def test_accept_language_japanese_is_honoured(client):
    response = client.get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert html_lang(response) == "ja"
    assert response["Content-Language"] == "ja"
    assert "Accept-Language" in response["Vary"]


def test_every_page_offers_the_switch_in_both_languages(client):
    page = client.get(reverse("tournament:event_list")).content.decode()
    assert f'action="{SWITCH}"' in page
    assert 'value="ja" lang="ja"' in page and 'value="en" lang="en"' in page


@pytest.mark.parametrize("accept", ["en", "ja"])
def test_each_language_is_named_in_itself_whatever_the_page_language(client, accept):
    """A reader who does not read the page's language still finds their own: 日本語 | English."""
    page = client.get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert re.search(r'value="ja" lang="ja"[^>]*>日本語</button>', page)
    assert re.search(r'value="en" lang="en"[^>]*>English</button>', page)


def test_switch_sets_the_browser_language_and_returns_to_the_page(client):
    response = client.post(SWITCH, {"language": "ja", "next": "/scoring/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/scoring/"
    page = client.get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE="en")
    assert html_lang(page) == "ja"


def test_switch_never_redirects_to_another_site(client):
    response = client.post(SWITCH, {"language": "en", "next": "https://evil.example.org/"})
    assert response["Location"] == "/"


def test_switch_refuses_an_unknown_language_with_its_field(client):
    response = client.post(SWITCH, {"language": "xx"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "language"
    assert response.json()["error"]["code"] == "unknown_language"


def test_switch_answers_only_post(client):
    assert client.get(SWITCH, {"language": "ja"}).status_code == 405


def test_an_accounts_choice_follows_it_to_another_device(client, django_user_model):
    # given an account that chose Japanese on one device
    user = django_user_model.objects.create_user("yamada", password="pw-1234567")
    client.force_login(user)
    client.post(SWITCH, {"language": "ja"})
    assert AccountPreference.objects.get(user=user).language == "ja"
    # when it signs in on another device whose browser asks for English
    from django.test import Client

    other = Client()
    assert other.login(username="yamada", password="pw-1234567")
    page = other.get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE="en")
    # then the pages are in Japanese
    assert html_lang(page) == "ja"


def test_switching_back_to_english_is_kept_too(client):
    user = get_user_model().objects.create_user("smith", password="pw-1234567")
    client.force_login(user)
    client.post(SWITCH, {"language": "ja"})
    client.post(SWITCH, {"language": "en"})
    assert AccountPreference.objects.get(user=user).language == "en"
    assert html_lang(client.get(reverse("tournament:event_list"), HTTP_ACCEPT_LANGUAGE="ja")) == "en"


def test_the_admin_speaks_japanese_too(client):
    page = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="ja")
    assert html_lang(page) == "ja"
    assert "ユーザー名" in page.content.decode()
    assert 'action="/i18n/language"' in page.content.decode()
