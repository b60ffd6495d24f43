from fractions import Fraction

import pytest

from core.models import QueuedTask
from taikai.errors import TaikaiError, VersionConflict
from tests.fixtures.tournament import announcements_heard
from tournament.models import Event, HandVersion, Round, SeatResult, StandingsRow, Table
from tournament.services.hands import hand_record
from tournament.services.results import table_finish, table_reopen
from tournament.services.rounds import round_complete, round_create

pytestmark = pytest.mark.django_db

# 40 fu 2 han non-dealer (seed 002): ron 2600, tsumo 700/1300.
RON_40_2 = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}],
}


def first_table(event):
    return Table.objects.filter(round__event=event).order_by("round__number", "number").first()


def test_round_create_seats_everyone_once_and_starts_the_event(make_event, seated_round):
    event = make_event(8)
    round_ = seated_round(event)
    assert round_.number == 1 and round_.status == Round.Status.PUBLISHED
    assert [t.seats.count() for t in round_.tables.all()] == [4, 4]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_round_create_rejects_a_player_seated_twice(make_event):
    event = make_event(8)
    ids = list(event.entries.values_list("id", flat=True))
    with pytest.raises(TaikaiError, match="seated twice"):
        round_create(event=event, tables=[ids[:4], [ids[0], *ids[4:7]]])
    assert not Round.objects.exists()


def test_round_create_rejects_an_entry_of_another_event(make_event, standard_ruleset):
    event = make_event(4)
    other = make_event(4, slug="other", name="Other")
    ids = [*list(event.entries.values_list("id", flat=True))[:3], other.entries.first().id]
    with pytest.raises(TaikaiError) as info:
        round_create(event=event, tables=[ids])
    assert info.value.code == "entry_not_in_event"


def test_ron_moves_points_from_discarder_to_winner(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    version = hand_record(table=first_table(event), number=1, expected_version=0, data=RON_40_2)
    assert version.deltas == [0, 2600, -2600, 0]
    assert version.label == "East 1"


def test_tsumo_with_riichi_and_deposits(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    table = first_table(event)
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "exhaustive_draw", "dealer_position": 0, "riichi_positions": [2], "tenpai_positions": [2]},
    )
    # the riichi stick stays on the table: 1000 carried into hand 2
    version = hand_record(
        table=table,
        number=2,
        expected_version=0,
        data={
            "outcome": "tsumo",
            "dealer_position": 0,
            "honba": 1,
            "wins": [{"winner": 1, "discarder": None, "han": 2, "fu": 40}],
        },
    )
    assert version.deposits_in == 1000
    # 700/1300 plus 100 per payer for one honba; the winner also takes the 1000 deposit
    assert version.deltas == [-1400, 800 + 1400 + 800 + 1000, -800, -800]
    assert sum(version.deltas) == version.deposits_in - version.deposits_out


def test_correction_is_a_new_version_and_a_stale_save_conflicts(make_event, seated_round, admin_user):
    event = make_event(4)
    seated_round(event)
    table = first_table(event)
    hand_record(table=table, number=1, expected_version=0, data=RON_40_2, user=admin_user)
    corrected = dict(RON_40_2, wins=[{"winner": 1, "discarder": 2, "han": 3, "fu": 40}])
    v2 = hand_record(table=table, number=1, expected_version=1, data=corrected, user=admin_user)
    assert v2.version == 2 and v2.deltas == [0, 5200, -5200, 0]
    assert HandVersion.objects.filter(hand=v2.hand).count() == 2  # the first version stays
    assert list(HandVersion.objects.filter(hand=v2.hand).current().values_list("version", flat=True)) == [2]
    with pytest.raises(VersionConflict) as info:
        hand_record(table=table, number=1, expected_version=1, data=RON_40_2)
    assert info.value.current_version == 2
    assert "current version is 2" in info.value.message


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (
            {"outcome": "tsumo", "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]},
            "tsumo_has_no_discarder",
        ),
        (
            {"outcome": "ron", "wins": [{"winner": 1, "discarder": 1, "han": 2, "fu": 40}]},
            "winner_is_discarder",
        ),
        (
            {"outcome": "ron", "wins": [{"winner": 5, "discarder": 1, "han": 2, "fu": 40}]},
            "seat_not_at_table",
        ),
        (
            {"outcome": "ron", "wins": [{"winner": 1, "discarder": 2, "han": 1, "fu": 20}]},
            "impossible_han_fu",
        ),
        (
            {"outcome": "ron", "wins": [{"winner": 1, "discarder": 2, "han": 1, "fu": 25}]},
            "impossible_han_fu",
        ),
        ({"outcome": "tsumo", "wins": [{"winner": 1, "han": 1, "fu": 20}]}, "impossible_han_fu"),
        ({"outcome": "ron", "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 35}]}, "impossible_fu"),
        ({"outcome": "ron", "wins": []}, "missing_winner"),
        (
            {"outcome": "abortive_draw", "wins": [{"winner": 1, "discarder": 2, "han": 1, "fu": 30}]},
            "unexpected_winner",
        ),
        ({"outcome": "ron", "wins": [{"winner": 1, "discarder": 2, "han": 0, "fu": 30}]}, "invalid_number"),
    ],
)
def test_impossible_hands_are_rejected_with_a_code(make_event, seated_round, data, code):
    event = make_event(4)
    seated_round(event)
    with pytest.raises(TaikaiError) as info:
        hand_record(table=first_table(event), number=1, expected_version=0, data={"dealer_position": 0, **data})
    assert info.value.code == code
    assert not HandVersion.objects.exists()


def test_hand_from_the_hand_format_is_scored_by_the_engine(make_event, seated_round):
    event = make_event(4)
    seated_round(event)
    # riichi, menzen tsumo, pinfu: 20 fu 3 han for a non-dealer tsumo: 700/1300
    hand = {"tiles": "123m456p789s23455s", "win_tile": "5s", "riichi": True}
    data = {
        "outcome": "tsumo",
        "dealer_position": 0,
        "riichi_positions": [1],
        "wins": [{"winner": 1, "hand": {**hand, "tiles": "123m456p789s234s55p", "win_tile": "4s"}}],
    }
    version = hand_record(table=first_table(event), number=1, expected_version=0, data=data)
    (win,) = version.wins
    assert (win["han"], win["fu"]) == (3, 20)
    assert version.deltas == [-1300, -1000 + 700 + 1300 + 700 + 1000, -700, -700]


def test_table_finish_from_hands_places_players_and_updates_standings(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    event = make_event(4)
    seated_round(event)
    table = first_table(event)
    hand_record(table=table, number=1, expected_version=0, data=RON_40_2)
    with django_capture_on_commit_callbacks(execute=True):
        rows = table_finish(table=table, end_reason="time")
    by_position = {r.seat.position: r for r in rows}
    assert [by_position[p].final_points for p in range(4)] == [25000, 27600, 22400, 25000]
    assert by_position[1].placement == 1 and by_position[1].advanced
    # ties at 25000 split 2nd/3rd placement points (10 and -10) under the split rule
    assert by_position[0].placement_points == by_position[3].placement_points == 0
    # (27600 - 30000)/1000 + 20 uma + oka (5000 × 4 / 1000)
    assert by_position[1].game_points == Fraction(-24, 10) + 20 + 20
    assert sum(r.game_points for r in rows) == 0
    first = StandingsRow.objects.get(event=event, position=0)
    assert first.name == by_position[1].entry.player.display_name


def test_final_scores_must_sum_to_start_total_minus_deposits(make_event, standard_ruleset):
    event = make_event(4, entry_mode=Event.EntryMode.FINAL_SCORES)
    ids = list(event.entries.values_list("id", flat=True))
    round_create(event=event, tables=[ids])
    table = first_table(event)
    with pytest.raises(TaikaiError) as info:
        table_finish(table=table, final_points=[30000, 30000, 30000, 10100])
    assert info.value.code == "scores_do_not_sum"
    rows = table_finish(table=table, final_points=[40000, 30000, 20000, 9000])  # 1000 left on the table
    assert [r.placement for r in rows] == [1, 2, 3, 4]
    assert not SeatResult.objects.filter(is_current=False).exists()


def test_round_complete_needs_every_table_confirmed(make_event, seated_round):
    event = make_event(8)
    round_ = seated_round(event)
    table = round_.tables.first()
    hand_record(table=table, number=1, expected_version=0, data=RON_40_2)
    table_finish(table=table, end_reason="time")
    with pytest.raises(TaikaiError) as info:
        round_complete(round_=round_)
    assert info.value.code == "tables_still_playing"


@pytest.mark.parametrize(
    ("win", "honba", "field"),
    [
        ({"han": 1_000_000_000, "fu": 30}, 0, "wins[0].han"),
        ({"han": 0, "yakuman": 50}, 0, "wins[0].yakuman"),
        ({"han": 3, "fu": 30}, 10**12, "honba"),
    ],
)
def test_numbers_beyond_any_real_hand_are_refused_not_stored(make_event, seated_round, win, honba, field):
    from tournament.models import HandVersion

    table = seated_round(make_event(4)).tables.get()
    data = {
        "outcome": "ron",
        "dealer_position": 0,
        "honba": honba,
        "wins": [{"winner": 1, "discarder": 2, **win}],
    }
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=1, expected_version=0, data=data)
    assert info.value.field == field and not HandVersion.objects.exists()


def test_confirming_a_confirmed_table_again_changes_nothing(
    make_event, seated_round, django_capture_on_commit_callbacks
):
    # given a table confirmed from its hands
    table = seated_round(make_event(4)).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=RON_40_2)
    table_finish(table=table, end_reason="time")
    first = {r.pk for r in SeatResult.objects.filter(table=table)}
    queued = QueuedTask.objects.count()
    # when it is confirmed again, twice, and again after a reopening that changed nothing
    with django_capture_on_commit_callbacks() as callbacks:
        table_finish(table=table, end_reason="time")
        table_finish(table=table, end_reason="time")
    assert callbacks == []  # nothing changed: nothing to recompute, nothing to announce
    with django_capture_on_commit_callbacks() as callbacks:
        table_reopen(table=table)
        rows = table_finish(table=table, end_reason="time")
    # then there is still one version, the same rows, and no standings recompute was asked for (the live
    # pages are told the table was reopened and confirmed again)
    table.refresh_from_db()
    assert (table.result_version, table.status) == (1, Table.Status.FINISHED)
    assert {r.pk for r in SeatResult.objects.filter(table=table)} == first == {r.pk for r in rows}
    assert QueuedTask.objects.count() == queued
    with announcements_heard() as heard:
        for callback in callbacks:
            callback()
    assert [(subject, facts["status"]) for subject, _, facts in heard] == [
        ("table", "playing"),
        ("table", "finished"),
    ]
    assert QueuedTask.objects.count() == queued


def test_confirming_other_final_scores_is_a_new_version(make_event, seated_round):
    table = seated_round(make_event(4, entry_mode="final_scores")).tables.get()
    table_finish(table=table, final_points=[40000, 30000, 20000, 10000])
    table_finish(table=table, final_points=[40000, 30000, 20000, 10000])
    table_finish(table=table, final_points=[40000, 20000, 30000, 10000])
    assert sorted(SeatResult.objects.filter(table=table).values_list("version", flat=True)) == [1] * 4 + [2] * 4


@pytest.mark.django_db
@pytest.mark.parametrize("write", ["penalty", "absence", "clock", "hand", "result", "ruling"])
def test_no_play_is_recorded_at_a_table_of_an_unpublished_round(make_event, write):
    """A seating draft is the organizers' until published (its tables read as 404 to everyone else): no
    penalty, absence, clock, hand, result or ruling at a table is recorded at one, whoever asks."""
    from taikai.errors import TaikaiError
    from tests.fixtures.tournament import round_seated
    from tournament.models import Round
    from tournament.services.clock import clock_start
    from tournament.services.discipline import penalty_log, ruling_record, seat_mark_absent
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    event = make_event(4, clock_bank_seconds=30)
    round_ = round_seated(event)
    round_.status = Round.Status.DRAFT
    round_.save(update_fields=["status"])
    table = round_.tables.get()
    seat = table.seats.get(position=0)
    attempts = {
        "penalty": lambda: penalty_log(
            event=event, entry=seat.entry, kind="art35_revealed_hand", reason="shown", table=table
        ),
        "absence": lambda: seat_mark_absent(seat=seat, during=False),
        "clock": lambda: clock_start(table=table, hand_number=1, dealer_position=0),
        "hand": lambda: hand_record(
            table=table,
            number=1,
            expected_version=0,
            data={"outcome": "draw", "dealer_position": 0, "tenpai_positions": []},
        ),
        "result": lambda: table_finish(table=table, final_points=[25000] * 4),
        "ruling": lambda: ruling_record(event=event, table=table, decision="one more hand"),
    }
    with pytest.raises(TaikaiError) as info:
        attempts[write]()
    assert info.value.code == "round_not_published"
    assert not event.penalties.exists() and not table.hands.exists() and not table.results.exists()
    assert not event.rulings.exists()
    seat.refresh_from_db()
    assert seat.absence == "present"


@pytest.mark.django_db
def test_final_scores_unlike_the_recorded_hands_are_refused_in_a_hand_by_hand_event(make_event, seated_round):
    from taikai.errors import TaikaiError
    from tournament.models import SeatResult
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    # given a hand-by-hand event where one hand moved 3,900 points from West to South
    table = seated_round(make_event(4, entry_mode="hands")).tables.get()
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]},
    )
    # when final scores that sum right but are not the hands' are given
    with pytest.raises(TaikaiError) as info:
        table_finish(table=table, final_points=[25000, 25000, 25000, 24000])
    # then they are refused, each difference named, and nothing is confirmed
    assert info.value.code == "scores_contradict_hands" and info.value.field == "final_points"
    assert "Player 02: 25000 given, 28900 from the hands" in info.value.message
    assert not SeatResult.objects.filter(table=table).exists()
    # the hands' own scores are accepted, as is confirming from the hands
    results = table_finish(table=table, final_points=[25000, 28900, 21100, 25000])
    assert [r.final_points for r in results] == [25000, 28900, 21100, 25000]


@pytest.mark.django_db
def test_a_final_scores_event_takes_the_scores_given_even_after_a_hand(make_event, seated_round):
    from tournament.services.hands import hand_record
    from tournament.services.results import table_finish

    table = seated_round(make_event(4, entry_mode="final_scores")).tables.get()
    hand_record(
        table=table,
        number=1,
        expected_version=0,
        data={"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": []},
    )
    results = table_finish(table=table, final_points=[40000, 30000, 20000, 10000])
    assert [r.final_points for r in results] == [40000, 30000, 20000, 10000]
