"""A free online league: made by the command with --create, each log a table of the round in play, its players
entered from the logs."""

from __future__ import annotations

import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from gamelogs.engine import read_tenhou_xml
from gamelogs.models import GameLogImport, OnlineLeague
from gamelogs.services import game_log_import, online_league_create
from players.models import OnlineAccount
from scoring.models import Ruleset
from scoring.presets import install_presets
from taikai.errors import TaikaiError
from tournament.models import Event, Table

from .engine.conftest import LOGS, log_bytes

pytestmark = pytest.mark.django_db


def test_create_makes_a_public_free_league_under_the_preset_with_no_file(capsys):
    call_command("import_game_logs", event="friday-league", create=True, ruleset="tenhou")
    event = Event.objects.get(slug="friday-league")
    assert event.is_public and event.ruleset.slug == "tenhou" and event.table_size == 4
    league = OnlineLeague.objects.get(event=event)
    assert league.free_tables and league.creates_players
    assert "friday-league" in capsys.readouterr().out


def test_create_then_each_log_is_a_table_and_a_player_plays_once_a_round():
    files = [str(LOGS / name) for name in ("example.xml", "bye.xml", "shuffle.xml")]
    call_command("import_game_logs", *files, event="league", create=True, ruleset="tenhou")
    event = Event.objects.get(slug="league")
    places = [(r.table.round.number, r.table.number) for r in GameLogImport.objects.order_by("created_at", "id")]
    # bye.xml and shuffle.xml share a player: the third log opens round 2
    assert places == [(1, 1), (1, 2), (2, 1)]
    for record in GameLogImport.objects.select_related("table"):
        assert record.table.status == Table.Status.FINISHED
        assert list(record.table.running_points) == record.final_scores
    names = {name for name in read_tenhou_xml(log_bytes("example.xml")).players}
    assert set(OnlineAccount.objects.filter(platform="tenhou", name__in=names).values_list("name", flat=True)) == names
    assert event.entries.count() == len(set(OnlineAccount.objects.values_list("player_id", flat=True)))


def test_create_on_an_existing_event_imports_into_it():
    call_command("import_game_logs", event="league", create=True, ruleset="tenhou")
    call_command("import_game_logs", str(LOGS / "example.xml"), event="league", create=True, ruleset="tenhou")
    assert Event.objects.filter(slug="league").count() == 1 and GameLogImport.objects.count() == 1


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"event": "nowhere"}, "unknown_event"),
        ({"event": "league", "create": True, "ruleset": "no-such-rules"}, "unknown_ruleset"),
        ({"event": "league", "create": True}, "ruleset_required"),
        ({"event": "league", "ruleset": "tenhou"}, "ruleset_without_create"),
        ({"event": "not a slug!", "create": True, "ruleset": "tenhou"}, "invalid_event"),
    ],
)
def test_command_errors_are_one_line_with_a_code(options, code):
    with pytest.raises(CommandError) as error:
        call_command("import_game_logs", **options)
    message = str(error.value)
    assert message.startswith(f"{code}: ") and "\n" not in message
    assert not Event.objects.filter(slug=options["event"]).exists()


def test_an_unreadable_file_is_one_line_with_a_code(tmp_path):
    with pytest.raises(CommandError) as error:
        call_command("import_game_logs", str(tmp_path / "missing.xml"), event="league", create=True, ruleset="tenhou")
    assert str(error.value).startswith("log_unreadable: ") and "\n" not in str(error.value)


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_leagues_taking_the_same_newcomers_game_at_once_make_each_player_once():
    """Two free leagues on Tenhou import a game of the same unknown players at once: each gets its table, and each
    player is made once (the other import finds them)."""
    install_presets(Ruleset)
    leagues = [online_league_create(slug=f"league-{n}", ruleset_slug="tenhou") for n in range(2)]
    outcomes = []
    barrier = threading.Barrier(2)

    def send(event):
        barrier.wait()
        try:
            game_log_import(event=event, data=log_bytes("example.xml"))
            outcomes.append("imported")
        except TaikaiError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(league,)) for league in leagues]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["imported", "imported"]
    assert GameLogImport.objects.count() == 2
    names = read_tenhou_xml(log_bytes("example.xml")).players
    assert OnlineAccount.objects.filter(platform="tenhou", name__in=names).count() == len(names)
