"""A hybrid round: in one Swiss round, a table flagged online gets its game from a log while the others are
recorded at the console; the standings count both alike."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamelogs.models import GameLogImport, OnlineTable
from gamelogs.services import game_log_import
from taikai.errors import TaikaiError
from tournament.models import Event, SeatResult, Table
from tournament.services.results import table_finish
from tournament.services.standings import standings_rows

from .engine.conftest import log_bytes
from .test_import import online_event

pytestmark = pytest.mark.django_db


def test_a_hybrid_round_takes_its_online_tables_game_from_a_log_and_the_others_from_the_console(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)  # the log's players at table 2, four others at table 1
    Event.objects.filter(pk=event.pk).update(seating_method=Event.SeatingMethod.SWISS)
    console_table, online_table = Table.objects.filter(round__event=event).order_by("number")
    OnlineTable.objects.create(table=online_table)
    table_finish(table=console_table, final_points=[40000, 30000, 20000, 10000])  # played in the hall
    record = game_log_import(event=event, data=log_bytes("example.xml"))
    assert record.table == online_table
    online_table.refresh_from_db()
    assert online_table.status == Table.Status.FINISHED
    results = SeatResult.objects.filter(table__round__event=event, is_current=True)
    assert results.count() == 8
    rows = standings_rows(event)
    assert len(rows) == 8  # every player ranked, wherever the hanchan was played
    by_entry = {row["entry"]: row for row in rows}
    for result in results:
        assert Fraction(by_entry[result.entry_id]["history"][0][1]) == result.game_points


def test_a_log_for_a_console_table_of_a_hybrid_round_is_refused(standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    console_table = Table.objects.get(round__event=event, number=1)
    OnlineTable.objects.create(table=console_table)  # table 1 online: table 2, the log's, plays at the console
    with pytest.raises(TaikaiError) as error:
        game_log_import(event=event, data=log_bytes("example.xml"))
    assert error.value.code == "table_not_online"
    assert not GameLogImport.objects.exists()
