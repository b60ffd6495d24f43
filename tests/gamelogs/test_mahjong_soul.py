"""Mahjong Soul games, as converters of its records write them: the tenhou.net/6 JSON form with the
``playerMapping`` extension (each seat's account id and nickname). The logs here are derived: a real Tenhou log
(``example.xml``) written in the JSON form by the tests' converter, with a ``playerMapping`` added by hand."""

from __future__ import annotations

import json

import pytest

from gamelogs.engine import read_tenhou_json
from gamelogs.models import GameLogImport
from gamelogs.services import game_log_import
from players.models import OnlineAccount
from taikai.errors import TaikaiError
from tournament.models import Table

from .engine.conftest import log_bytes
from .engine.tenhou6 import tenhou6_from_xml
from .test_import import log_table, nothing_written, online_event

pytestmark = pytest.mark.django_db
ACCOUNT_IDS = ["10234567", "20345678", "30456789", "40567890"]
NICKNAMES = ["雀士A", "雀士B", "雀士C", "雀士D"]


def soul_document(**changes) -> dict:
    """example.xml in the tenhou.net/6 form as a Mahjong Soul converter writes it: its nicknames in ``name``,
    each seat's account in ``playerMapping`` (seat order), the record's id in ``ref``."""
    document = tenhou6_from_xml(log_bytes("example.xml").decode())
    document["name"] = list(NICKNAMES)
    document["ref"] = "231120-0a1b2c3d-4e5f-6789-abcd-ef0123456789"
    document["playerMapping"] = [
        {"seat": seat, "accountId": int(account), "nickname": nickname}
        for seat, (account, nickname) in enumerate(zip(ACCOUNT_IDS, NICKNAMES, strict=True))
    ]
    return {**document, **changes}


def soul_bytes(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode()


def soul_accounts(entries, *, names=NICKNAMES, ids=ACCOUNT_IDS) -> None:
    for entry, name, account in zip(entries, names, ids, strict=True):
        OnlineAccount.objects.create(player_id=entry.player_id, platform="mahjongsoul", account_id=account, name=name)


def test_the_reader_takes_each_seats_account_and_the_record_id():
    game = read_tenhou_json(soul_bytes(soul_document()))
    assert game.platform == "mahjongsoul" and game.account_ids == tuple(ACCOUNT_IDS)
    assert game.players == tuple(NICKNAMES) and game.game_id.startswith("231120-")
    assert game.played_at is not None and game.played_at.date().isoformat() == "2023-11-20"


def test_a_mahjong_soul_log_is_matched_by_account_id_and_recorded_point_for_point(standard_ruleset):
    event, game, entries = online_event(standard_ruleset)
    soul_accounts(entries)
    record = game_log_import(event=event, data=soul_bytes(soul_document()), content_type="application/json")
    assert record.platform == "mahjongsoul" and record.game_id.startswith("231120-")
    table = log_table(event)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and not record.disagreements.exists()
    assert list(table.running_points) == list(game.final_scores)
    assert [seat.entry_id for seat in table.seats.order_by("position")] == [entry.pk for entry in entries]


def test_the_account_id_wins_over_a_nickname_changed_since_and_a_name_alone_still_matches(standard_ruleset):
    """Nicknames change on Mahjong Soul; the account id does not. A player known only by a nickname (no id
    entered) is matched by it."""
    event, _, entries = online_event(standard_ruleset)
    soul_accounts(entries[:3], names=["old name 1", "old name 2", "old name 3"], ids=ACCOUNT_IDS[:3])
    OnlineAccount.objects.create(player_id=entries[3].player_id, platform="mahjongsoul", name=NICKNAMES[3])
    game_log_import(event=event, data=soul_bytes(soul_document()))
    table = log_table(event)
    assert [seat.entry_id for seat in table.seats.order_by("position")] == [entry.pk for entry in entries]


def test_a_tenhou_account_of_the_same_name_does_not_match_a_mahjong_soul_seat(standard_ruleset):
    event, _, entries = online_event(standard_ruleset)
    soul_accounts(entries[1:], names=NICKNAMES[1:], ids=ACCOUNT_IDS[1:])
    OnlineAccount.objects.filter(player_id=entries[0].player_id).update(name=NICKNAMES[0])  # its Tenhou account
    with pytest.raises(TaikaiError) as error:
        game_log_import(event=event, data=soul_bytes(soul_document()))
    assert error.value.code == "unknown_players"
    assert NICKNAMES[0] in error.value.message and NICKNAMES[1] not in error.value.message
    assert nothing_written(event)


@pytest.mark.parametrize(
    ("mapping", "where"),
    [
        ({"seat": 0}, "$.playerMapping"),
        ([{"seat": 0, "accountId": 1}], "$.playerMapping"),
        ([{"seat": 0, "accountId": n} for n in range(4)], "$.playerMapping[1]"),
        ([{"seat": 9, "accountId": n} for n in range(4)], "$.playerMapping[0]"),
        ([{"seat": n, "nickname": "x"} for n in range(4)], "$.playerMapping[0]"),
    ],
)
def test_a_broken_player_mapping_is_not_a_game_log_and_names_where(standard_ruleset, mapping, where):
    event, _, entries = online_event(standard_ruleset)
    soul_accounts(entries)
    with pytest.raises(TaikaiError) as error:
        game_log_import(event=event, data=soul_bytes(soul_document(playerMapping=mapping)))
    assert error.value.code == "not_a_game_log" and error.value.message.endswith(where)
    assert not GameLogImport.objects.exists()
