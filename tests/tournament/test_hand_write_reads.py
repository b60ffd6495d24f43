"""A hand write reads the game so far once (``selectors.table_game_so_far``): its queries, counted, and what it
reads from the game (the deposits and dealers before the hand, the rights a foul took away, the running
score kept) as the hands recorded say."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.penalties import PenaltyKind
from tournament.models import Table
from tournament.services.discipline import penalty_log
from tournament.services.hands import hand_record, hand_void, table_running_keep
from tournament.services.locks import lock_table, rulesets_read_once

pytestmark = pytest.mark.django_db

DRAW_RIICHI = {"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [1], "riichi_positions": [1]}
RON = {"outcome": "ron", "dealer_position": 0, "honba": 1, "wins": [{"winner": 2, "discarder": 3, "han": 3, "fu": 30}]}


@pytest.fixture
def table(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    return Table.objects.get(round__event=event)


def test_a_hand_write_reads_the_game_so_far_in_three_queries(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    with CaptureQueriesContext(connection) as queries:
        hand_record(table=table, number=2, expected_version=0, data=RON)
    # 22 queries before the game so far was read in one go (a correction: 16 → 14; an overtime hand: 27 → 18)
    assert len(queries) <= 17
    reads = [q["sql"] for q in queries if "tournament_handversion" in q["sql"] and q["sql"].startswith("SELECT")]
    assert len(reads) == 1  # the hands in force, once


def test_a_void_reads_no_more_than_before(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    hand_record(table=table, number=2, expected_version=0, data=RON)
    with CaptureQueriesContext(connection) as queries:
        hand_void(table=table, number=2, expected_version=1)
    assert len(queries) <= 12  # 13 before
    table.refresh_from_db()
    assert table.running_hands == 1
    assert table.running_points == selectors.table_hand_sheet(table).running[-1]


def test_the_game_so_far_gives_what_the_next_hand_is_checked_against(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    game = selectors.table_game_so_far(table, 2)
    assert [h.number for h in game.hands] == [1]
    assert game.after_recorded_hand and game.playing == [0, 1, 2, 3]
    assert (game.deposits_before, game.dealers_before, game.overtime_seasons_before) == (1000, (0,), 0)
    assert not game.wall_wrecked and game.rights_fouls == {}
    assert not selectors.table_game_so_far(table, 3).after_recorded_hand


def test_a_foul_that_takes_the_right_to_win_is_read_with_the_game(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    seats = selectors.table_game_seats(table)
    penalty_log(
        event=table.round.event,
        entry=seats[2].entry,
        kind=PenaltyKind.REVEALED_HAND.value,
        reason="showed the hand",
        table=table,
        hand_number=2,
    )
    game = selectors.table_game_so_far(table, 2)
    assert list(game.rights_fouls) == [seats[2].entry_id]
    with pytest.raises(TaikaiError):
        hand_record(table=table, number=2, expected_version=0, data=RON)
    assert selectors.table_game_so_far(table, 2, fouls=False).rights_fouls == {}


def test_the_running_score_kept_by_a_write_is_the_one_read_from_the_hands(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    hand_record(table=table, number=2, expected_version=0, data=RON)
    hand_record(table=table, number=1, expected_version=1, data={**DRAW_RIICHI, "tenpai_positions": [1, 2]})
    table.refresh_from_db()
    kept = (table.running_points, table.running_hands)
    table_running_keep(table)  # read from the hands in force
    table.refresh_from_db()
    assert (table.running_points, table.running_hands) == kept


def test_a_round_that_reads_each_ruleset_once_reads_it_again_once_saved(table):
    # given a block of writes that reads each ruleset once (a rehearsal's round)
    ruleset_reads = f'"{Ruleset._meta.db_table}"'  # read alone, or joined to the table
    with transaction.atomic(), rulesets_read_once():
        first = lock_table(table.pk)
        # when the table is locked again
        with CaptureQueriesContext(connection) as queries:
            again = lock_table(table.pk)
        # then the ruleset is the one read first, not read again
        assert not [q for q in queries if ruleset_reads in q["sql"]]
        assert again.round.event.ruleset is first.round.event.ruleset
        # when the ruleset is saved meanwhile, the next lock reads it afresh
        Ruleset.objects.filter(pk=first.round.event.ruleset_id).first().save()
        with CaptureQueriesContext(connection) as queries:
            after_save = lock_table(table.pk)
        assert [q for q in queries if ruleset_reads in q["sql"]]
        assert after_save.round.event.ruleset is not first.round.event.ruleset
    # and outside the block every lock reads the ruleset with the table
    with CaptureQueriesContext(connection) as queries:
        lock_table(table.pk)
    assert len(queries) == 1 and ruleset_reads in queries[0]["sql"]


def test_a_hand_recorded_again_locks_its_row_in_one_read(table):
    hand_record(table=table, number=1, expected_version=0, data=DRAW_RIICHI)
    with CaptureQueriesContext(connection) as queries:
        hand_record(table=table, number=1, expected_version=1, data=DRAW_RIICHI | {"riichi_positions": []})
    reads = [q["sql"] for q in queries if 'FROM "tournament_hand" ' in q["sql"] and q["sql"].startswith("SELECT")]
    assert len(reads) == 1
    assert [h.version for h in selectors.table_hands_in_force(table)] == [2]
