"""A hand write reads the game so far once (``selectors.table_game_so_far``): its queries, counted, and what it
reads from the game (the deposits and dealers before the hand, the rights a foul took away, the running
score kept) as the hands recorded say."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.penalties import PenaltyKind
from tournament.models import Table
from tournament.services.discipline import penalty_log
from tournament.services.hands import hand_record, hand_void, table_running_keep

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
