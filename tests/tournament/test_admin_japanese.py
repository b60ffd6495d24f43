"""The admin in Japanese where English used to leak: texts the services stored in another language (status
reasons, seating job messages, sign-up changes), hand versions, the series' counts, the API tokens page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournament.models import Entry, SeatingJob
from tournament.services.entries import entry_status_set
from tournament.stored_text import stored_text_display

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_a_reason_stored_in_english_reads_in_japanese_and_the_record_is_kept(admin_client, make_event):
    # given an entry made away by the close of check-in, run in English (a command, an English organizer)
    event = make_event(4)
    entry = event.entries.order_by("pk").first()
    with translation.override("en"):
        entry_status_set(entry=entry, status=Entry.Status.AWAY, reason=translation.gettext("not checked in (art. 42)"))
    # when a Japanese organizer reads the entries and the entry
    listed = admin_client.get(reverse("admin:tournament_entry_changelist"), **JA).content.decode()
    page = admin_client.get(reverse("admin:tournament_entry_change", args=[entry.pk]), **JA).content.decode()
    event_page = admin_client.get(reverse("admin:tournament_event_change", args=[event.pk]), **JA).content.decode()
    # then the reason reads in Japanese everywhere, and the record keeps the text as it was stored
    for html in (listed, page, event_page):
        assert "未受付（第42条）" in html and "not checked in" not in html
    entry.refresh_from_db()
    assert entry.status_reason == "not checked in (art. 42)"


def test_a_reason_stored_in_japanese_reads_in_english():
    with translation.override("ja"):
        stored = translation.gettext("replaced by a substitute")
    assert stored != "replaced by a substitute"
    with translation.override("en"):
        assert stored_text_display(stored) == "replaced by a substitute"


@pytest.mark.parametrize(
    ("stored", "japanese"),
    [
        ("round 2: 3 tables", "第2回戦: 3卓"),
        ("asked again after: seating 12 players", "12人の席順を決定中 のあと、もう一度依頼しました"),
        ("art. 37①: left the table", "第37条①: left the table"),  # the foul's reason as the referee typed it
        ("art. 43: decision by boss", "第43条: boss の判断"),
        ("the organizer's own words", "the organizer's own words"),
    ],
)
def test_stored_texts_are_said_in_the_reader_s_language(stored, japanese):
    with translation.override("ja"):
        assert stored_text_display(stored) == japanese


def test_a_seating_job_message_stored_in_english_reads_in_japanese(admin_client, make_event):
    event = make_event(4)
    job = SeatingJob.objects.create(
        event=event,
        round_number=1,
        state=SeatingJob.State.DONE,
        percent=100,
        message="round 1: 1 tables",
        language="en",
    )
    page = admin_client.get(reverse("admin:tournament_event_seating_job", args=[event.pk, job.pk]), **JA)
    listed = admin_client.get(reverse("admin:tournament_seatingjob_changelist"), **JA)
    for html in (page.content.decode(), listed.content.decode()):
        assert "第1回戦: 1卓" in html and "round 1: 1 tables" not in html


def test_hand_versions_name_their_hands_and_wins_in_japanese(admin_client, make_event, play_round):
    from tournament.models import HandVersion

    event = make_event(4)
    play_round(
        event,
        {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]},
    )
    version = HandVersion.objects.get()
    assert version.label.startswith("East 1")
    listed = admin_client.get(reverse("admin:tournament_handversion_changelist"), **JA).content.decode()
    page = admin_client.get(reverse("admin:tournament_handversion_change", args=[version.pk]), **JA).content.decode()
    assert "東1局" in listed and "East 1" not in listed
    assert "東1局" in page and "3翻30符" in page and '"winner"' not in page


def test_the_api_tokens_page_in_japanese(admin_client, make_event):
    event = make_event(4)
    page = admin_client.get(reverse("admin:tournament_event_api_tokens", args=[event.pk]), **JA).content.decode()
    assert "トークンを発行" in page and "Issue a token" not in page and "Tokens of this event" not in page
    english = admin_client.get(reverse("admin:tournament_event_api_tokens", args=[event.pk]), **EN).content.decode()
    assert "Issue a token" in english and "in the event&#x27;s time zone (UTC)" in english
