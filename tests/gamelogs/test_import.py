"""Importing a whole online game from its log: through the service, the API and the command."""

from __future__ import annotations

import gzip
import json
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from gamelogs.engine import read_tenhou_xml
from gamelogs.models import Disagreement, GameLogImport
from gamelogs.services import game_log_import
from players.models import OnlineAccount, Player
from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tournament.models import Entry, HandVersion, Seat, Table
from tournament.services.rounds import round_create
from tournament.services.tokens import api_token_issue

from .engine.conftest import log_bytes
from .engine.tenhou6 import tenhou6_from_xml

pytestmark = pytest.mark.django_db


def tenhou_ruleset(standard: Ruleset, **changes) -> Ruleset:
    """Tenhou's public rules as far as the logs say them: red fives, open tanyao, 25,000 to start."""
    fields = {f.name: getattr(standard, f.name) for f in Ruleset._meta.concrete_fields if f.name not in ("id",)}
    number = Ruleset.objects.count()
    return Ruleset.objects.create(
        **{**fields, "aka_dora": True, **changes, "name": f"Tenhou {number}", "slug": f"tenhou-{number}"}
    )


def online_event(standard_ruleset, log_name: str = "example.xml", *, slug="online-league", **ruleset_changes):
    """An event of the log's four players (known by their Tenhou names) and four others, round 1 seated with
    the log's players at table 2 in another order than the log's."""
    from tournament.models import Event

    game = read_tenhou_xml(log_bytes(log_name))
    event = Event.objects.create(
        name="Online league", slug=slug, ruleset=tenhou_ruleset(standard_ruleset, **ruleset_changes)
    )
    entries = []
    for name in game.players:
        account = OnlineAccount.objects.filter(platform="tenhou", name=name).first()
        player = account.player if account else Player.objects.create(display_name=f"Player {name}")
        if account is None:
            OnlineAccount.objects.create(player=player, platform="tenhou", name=name)
        entries.append(Entry.objects.create(event=event, player=player))
    others = [
        Entry.objects.create(event=event, player=Player.objects.create(display_name=f"Other {i}")) for i in range(4)
    ]
    seated = [entries[2].pk, entries[0].pk, entries[3].pk, entries[1].pk]
    round_create(event=event, tables=[[entry.pk for entry in others], seated])
    return event, game, entries


def log_table(event) -> Table:
    return Table.objects.get(round__event=event, number=2)


def test_a_tenhou_log_becomes_its_tables_hands_and_result_point_for_point(standard_ruleset):
    event, game, entries = online_event(standard_ruleset)
    record = game_log_import(event=event, data=log_bytes("example.xml"))
    table = log_table(event)
    assert record.table == table and record.hands == len(game.hands)
    assert HandVersion.objects.filter(hand__table=table, is_current=True).count() == len(game.hands)
    table.refresh_from_db()
    assert list(table.running_points) == list(game.final_scores)
    assert table.status == Table.Status.FINISHED  # no disagreement: the result is confirmed
    assert not record.disagreements.exists()
    # the platform decided the winds: the table's seats follow the log's order, the seating before is kept
    assert [seat.entry_id for seat in table.seats.order_by("position")] == [entry.pk for entry in entries]
    assert record.seating_before == [entries[2].pk, entries[0].pk, entries[3].pk, entries[1].pk]


@pytest.mark.parametrize("log_name", ["bye.xml", "shuffle.xml"])
def test_every_shared_log_of_four_players_imports_without_disagreement(standard_ruleset, log_name):
    event, game, _ = online_event(standard_ruleset, log_name)
    record = game_log_import(event=event, data=log_bytes(log_name))
    table = log_table(event)
    table.refresh_from_db()
    assert list(Disagreement.objects.filter(log_import=record).values_list("hand_number", flat=True)) == []
    assert list(table.running_points) == list(game.final_scores)


def test_a_yakuman_paid_by_the_responsible_player_is_a_disagreement_and_the_result_waits(standard_ruleset):
    """責任払い (pao): Tenhou makes the player who fed the third dragon pay the whole daisangen; Taikai's
    rules have no pao, so the hand's payments differ: the referee sees both, the table's result waits."""
    event, game, _ = online_event(standard_ruleset, "pao.xml")
    record = game_log_import(event=event, data=log_bytes("pao.xml"))
    disagreements = list(record.disagreements.all())
    assert [(d.hand_number, d.state) for d in disagreements] == [(len(game.hands), Disagreement.State.OPEN)]
    win = game.hands[-1].outcome[0]
    payers = [seat for seat, delta in enumerate(disagreements[0].log_scoring["deltas"]) if delta < 0]
    assert payers == [win.responsible]
    assert len([delta for delta in disagreements[0].engine_scoring["deltas"] if delta < 0]) == 3
    table = log_table(event)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_each_imported_hand_names_the_log_it_came_from(standard_ruleset, admin_user):
    event, _, _ = online_event(standard_ruleset)
    game_log_import(event=event, data=log_bytes("example.xml"), user=admin_user)
    versions = HandVersion.objects.filter(hand__table=log_table(event))
    assert {version.recorded_by_id for version in versions} == {admin_user.pk}
    assert all("Tenhou" in version.note for version in versions)


def test_the_json_form_and_gzip_import_as_the_xml_does(standard_ruleset):
    event, game, _ = online_event(standard_ruleset)
    document = tenhou6_from_xml(log_bytes("example.xml").decode())
    record = game_log_import(
        event=event, data=gzip.compress(json.dumps(document).encode()), content_type="application/json"
    )
    assert record.log_format == GameLogImport.Format.TENHOU_JSON
    table = log_table(event)
    table.refresh_from_db()
    assert list(table.running_points) == list(game.final_scores)


def refused(code: str, **kwargs):
    with pytest.raises(TaikaiError) as error:
        game_log_import(**kwargs)
    assert error.value.code == code, error.value.message
    return error.value


def nothing_written(event) -> bool:
    return (
        not GameLogImport.objects.exists() and not HandVersion.objects.filter(hand__table__round__event=event).exists()
    )


def test_the_same_log_twice_is_refused_and_names_where_it_went(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    game_log_import(event=event, data=log_bytes("example.xml"))
    spaced = log_bytes("example.xml").replace(b"><", b">\n<")  # the same game with other spacing
    error = refused("log_already_imported", event=event, data=spaced)
    assert "2" in error.message and error.status == 409
    assert GameLogImport.objects.count() == 1


def test_a_log_naming_someone_unknown_is_refused_with_the_names(standard_ruleset):
    event, game, _ = online_event(standard_ruleset)
    OnlineAccount.objects.filter(name=game.players[1]).delete()
    error = refused("unknown_players", event=event, data=log_bytes("example.xml"))
    assert game.players[1] in error.message and game.players[0] not in error.message
    assert nothing_written(event)


def test_a_log_played_under_other_rules_is_refused_naming_them(standard_ruleset):
    event, _, _ = online_event(standard_ruleset, aka_dora=False)
    error = refused("rules_differ", event=event, data=log_bytes("example.xml"))
    assert "red fives" in error.message
    assert nothing_written(event)


def test_a_file_that_is_not_a_log_is_refused_with_where(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    error = refused("not_a_game_log", event=event, data=b"<html>\n<body>\n</html>")
    assert "line" in error.message
    assert nothing_written(event)


def test_a_truncated_log_is_a_game_not_finished(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    text = log_bytes("example.xml").decode()
    refused("game_not_finished", event=event, data=(text[: text.rindex("<INIT")] + "</mjloggm>").encode())
    assert nothing_written(event)


def test_a_log_whose_players_share_no_table_is_refused(standard_ruleset):
    event, _, entries = online_event(standard_ruleset)
    other = Seat.objects.filter(table__number=1).first()
    mine = Seat.objects.get(entry=entries[0])
    Seat.objects.filter(pk=mine.pk).update(table=other.table, position=9)
    Seat.objects.filter(pk=other.pk).update(table=mine.table, position=mine.position)
    refused("no_table_for_players", event=event, data=log_bytes("example.xml"))
    assert nothing_written(event)


def test_a_referee_of_another_table_cannot_import_the_game_of_table_two(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    error = refused("forbidden", event=event, data=log_bytes("example.xml"), may_record=lambda table: table.number == 1)
    assert error.status == 403
    assert nothing_written(event)


# --- the API


def api(event, secret: str | None, body: bytes, content_type="application/xml"):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}") if secret else Client()
    return client.post(reverse("api_game_logs", args=[event.slug]), body, content_type=content_type)


def test_the_api_imports_a_log_for_an_organizer_token_and_answers_the_table(standard_ruleset):
    event, game, _ = online_event(standard_ruleset)
    issued = api_token_issue(event=event, name="league bot", scope="organizer")
    answer = api(event, issued.secret, log_bytes("example.xml"))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["table"] == log_table(event).pk and body["round"] == 1
    assert body["hands"] == len(game.hands)
    assert body["final_scores"] == list(game.final_scores) and body["players"] == list(game.players)
    assert body["disagreements"] == [] and body["finished"] is True
    again = api(event, issued.secret, log_bytes("example.xml"))
    assert again.status_code == 409 and again.json()["error"]["code"] == "log_already_imported"


@pytest.mark.parametrize(
    ("scope", "tables", "status"),
    [
        ("organizer", "", 201),
        ("referee", "", 201),
        ("referee", "2", 201),
        ("referee", "1", 403),
        ("read", "", 403),
    ],
)
def test_who_may_import_through_the_api(standard_ruleset, scope, tables, status):
    event, _, _ = online_event(standard_ruleset)
    issued = api_token_issue(event=event, name=f"{scope} {tables}", scope=scope, tables=tables)
    answer = api(event, issued.secret, log_bytes("example.xml"))
    assert answer.status_code == status, answer.content
    assert GameLogImport.objects.exists() == (status == 201)


def test_nobody_and_another_events_token_import_nothing(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    other, _, _ = online_event(standard_ruleset, slug="other-league")
    assert api(event, None, log_bytes("example.xml")).status_code == 401
    stranger = api_token_issue(event=other, name="other", scope="organizer")
    assert api(event, stranger.secret, log_bytes("example.xml")).status_code in (403, 404)
    assert not GameLogImport.objects.exists()


def test_the_api_refuses_a_bad_log_in_its_error_shape(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    issued = api_token_issue(event=event, name="league bot", scope="organizer")
    answer = api(event, issued.secret, b"not a log at all", content_type="text/plain")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "not_a_game_log" and answer.json()["error"]["field"] == "log"


# --- the command


def test_the_command_imports_a_folder_of_logs_and_says_what_it_refused(standard_ruleset, tmp_path, capsys):
    event, _, _ = online_event(standard_ruleset)
    good = tmp_path / "good.xml"
    good.write_bytes(log_bytes("example.xml"))
    call_command("import_game_logs", str(good), event=event.slug)
    assert GameLogImport.objects.count() == 1
    with pytest.raises(CommandError, match="1 of 1 logs refused"):
        call_command("import_game_logs", str(good), event=event.slug)
    assert "log_already_imported" in capsys.readouterr().err


# --- at once


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_the_same_log_sent_twice_at_once_gives_one_table(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    outcomes = []
    barrier = threading.Barrier(2)

    def send():
        barrier.wait()
        try:
            game_log_import(event=event, data=log_bytes("example.xml"))
            outcomes.append("imported")
        except TaikaiError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["imported", "log_already_imported"]
    assert GameLogImport.objects.count() == 1


def test_a_signed_in_player_of_the_game_and_an_account_without_a_role_import_nothing(standard_ruleset):
    from django.contrib.auth.models import User

    event, _, entries = online_event(standard_ruleset)
    player_user = User.objects.create_user("player", password="pw-123456")
    Player.objects.filter(pk=entries[0].player_id).update(user=player_user)
    User.objects.create_user("nobody", password="pw-123456")
    for username in ("player", "nobody"):
        client = Client()
        client.login(username=username, password="pw-123456")
        answer = client.post(
            reverse("api_game_logs", args=[event.slug]),
            log_bytes("example.xml"),
            content_type="application/xml",
        )
        assert answer.status_code in (403, 404), (username, answer.status_code)
    assert not GameLogImport.objects.exists()


def test_an_east_only_game_is_confirmed_as_the_platform_ended_it_with_a_ruling_saying_so(standard_ruleset):
    """東風戦 on Tenhou: Taikai counts a hanchan, so the result records why it ends after East 4."""
    from tournament.models import Ruling

    event, game, _ = online_event(standard_ruleset, "shuffle.xml")
    assert game.rules.hanchan is False
    game_log_import(event=event, data=log_bytes("shuffle.xml"))
    table = log_table(event)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert Ruling.objects.filter(table=table).exists()


def test_a_log_whose_payments_were_altered_is_recorded_as_taikai_prices_it_and_the_result_waits(
    standard_ruleset,
):
    """A claim, not a fact: a log whose first win says the discarder paid 1,000 more than the hand is worth
    is recorded as Taikai prices the hand; the altered payment shows as a disagreement and nothing is confirmed."""
    event, _, _ = online_event(standard_ruleset)
    text = log_bytes("example.xml").decode()
    first_win = text.index("<AGARI")
    altered = text[:first_win] + text[first_win:].replace(
        'sc="260,-41,220,-21,250,93,260,-21"', 'sc="260,-51,220,-21,250,103,260,-21"', 1
    )
    assert altered != text
    record = game_log_import(event=event, data=altered.encode())
    disagreements = list(record.disagreements.all())
    assert [d.hand_number for d in disagreements] == [2]
    table = log_table(event)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    recorded = HandVersion.objects.get(hand__table=table, hand__number=2, is_current=True)
    assert recorded.deltas == disagreements[0].engine_scoring["deltas"] != disagreements[0].log_scoring["deltas"]
