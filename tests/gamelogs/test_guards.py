"""The guards of an online league: a log from another lobby than the event's (``wrong_lobby``), a log older than
the event's limit or played before its round started (``log_too_old``); each refused with nothing written."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta

import pytest
from django.utils import timezone

from gamelogs.models import GameLogImport, OnlineLeague
from gamelogs.services import game_log_import
from tournament.models import Round

from .engine.conftest import log_bytes
from .test_import import nothing_written, online_event, refused

pytestmark = pytest.mark.django_db


def tenhou_log_id(moment) -> str:
    """A Tenhou log id of a game played in the hour of ``moment`` (Tenhou's ids start with the hour)."""
    return f"{moment:%Y%m%d%H}gm-0009-0000-0a1b2c3d"


def in_lobby(lobby: str) -> bytes:
    return log_bytes("example.xml").replace(b'lobby="0"', f'lobby="{lobby}"'.encode(), 1)


def test_a_log_from_another_lobby_than_the_events_is_refused_naming_both(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    OnlineLeague.objects.create(event=event, lobby="1234")
    error = refused("wrong_lobby", event=event, data=log_bytes("example.xml"))  # a public lobby
    assert "1234" in error.message and error.field == "log"
    refused("wrong_lobby", event=event, data=in_lobby("5678"))
    assert nothing_written(event)
    game_log_import(event=event, data=in_lobby("1234"))
    assert GameLogImport.objects.count() == 1


def test_an_event_naming_no_lobby_takes_every_lobby(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    OnlineLeague.objects.create(event=event)
    game_log_import(event=event, data=in_lobby("5678"))
    assert GameLogImport.objects.count() == 1


def test_a_log_older_than_the_events_limit_is_refused(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    OnlineLeague.objects.create(event=event, max_log_age_days=30)
    old = tenhou_log_id(timezone.now() - timedelta(days=40))
    error = refused("log_too_old", event=event, data=log_bytes("example.xml"), log_id=old)
    assert "30" in error.message
    assert nothing_written(event)
    recent = tenhou_log_id(timezone.now() - timedelta(days=3))
    record = game_log_import(event=event, data=log_bytes("example.xml"), log_id=recent)
    assert record.game_id == recent


def test_a_log_that_does_not_say_when_it_was_played_is_taken(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    OnlineLeague.objects.create(event=event, max_log_age_days=1)
    game_log_import(event=event, data=log_bytes("example.xml"))
    assert GameLogImport.objects.count() == 1


def test_a_game_played_before_its_round_started_is_refused(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    Round.objects.filter(event=event).update(timer_started_at=timezone.now())
    error = refused(
        "log_too_old", event=event, data=log_bytes("example.xml"), log_id=tenhou_log_id(timezone.now() - timedelta(1))
    )
    assert "1" in error.message
    assert nothing_written(event)


def test_a_game_played_since_its_round_started_is_taken(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    Round.objects.filter(event=event).update(timer_started_at=timezone.now() - timedelta(hours=2))
    now_there = timezone.localtime(timezone.now(), zoneinfo.ZoneInfo(event.time_zone))
    game_log_import(event=event, data=log_bytes("example.xml"), log_id=tenhou_log_id(now_there))
    assert GameLogImport.objects.count() == 1


def test_the_command_keeps_a_tenhou_log_id_given_as_the_files_name(standard_ruleset, tmp_path):
    from django.core.management import call_command

    event, _, _ = online_event(standard_ruleset)
    OnlineLeague.objects.create(event=event, max_log_age_days=30)
    named = tmp_path / f"{tenhou_log_id(timezone.now() - timedelta(days=400))}.xml"
    named.write_bytes(log_bytes("example.xml"))
    with pytest.raises(Exception, match="logs_refused"):
        call_command("import_game_logs", str(named), event=event.slug)
    assert nothing_written(event)


def test_an_organizer_names_the_events_lobby_in_the_admin_and_not_another_events(client, standard_ruleset):
    from django.urls import reverse

    from .test_admin import organizer_of

    event, _, _ = online_event(standard_ruleset)
    other, _, _ = online_event(standard_ruleset, slug="other-league")
    client.force_login(organizer_of(event))
    url = reverse("admin:gamelogs_onlineleague_add")
    settings = {
        "platform": "tenhou",
        "table_start": "friend_room",
        "lobby_adapter": "manual",
        "unconfirmed": "left_out",
    }
    answer = client.post(url, {"event": event.pk, "lobby": "1234", "max_log_age_days": "30", **settings})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert OnlineLeague.objects.get(event=event).lobby == "1234"
    assert client.post(url, {"event": other.pk, "lobby": "1"}).status_code == 403
    assert not OnlineLeague.objects.filter(event=other).exists()
