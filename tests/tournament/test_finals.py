"""Art. 40 through the services: the final's decision after a confirmed game, and applying it."""

import pytest
from django.urls import reverse

from tournament.models import Event, Round, Table
from tournament.services.finals import final_apply, final_situation
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_create

pytestmark = pytest.mark.django_db


def final_table(event, entry_ids):
    round_ = round_create(event=event, tables=[entry_ids])
    Round.objects.filter(pk=round_.pk).update(is_final=True)
    return Table.objects.get(round=round_)


@pytest.fixture
def final(make_event):
    event = make_event(4, overtime_enabled=True)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    return event, ids, final_table(event, ids)


def ron(winner, discarder, han=2, fu=40, **extra):
    return {
        "outcome": "ron",
        "dealer_position": 0,
        "wins": [{"winner": winner, "discarder": discarder, "han": han, "fu": fu}],
        **extra,
    }


def test_art40_winner_of_the_last_hand_not_last_eliminates_the_overall_last(final):
    event, ids, table = final
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 2))  # South wins off West: West is last
    table_finish(table=table, end_reason="time")
    situation = final_situation(table=table)
    assert situation.decision.kind == "eliminate" and situation.decision.player_id == ids[2]
    message = final_apply(table=table)
    assert "eliminated" in message
    next_round = Round.objects.get(event=event, number=2)
    assert next_round.is_final
    seated = list(next_round.seats.order_by("position").values_list("entry_id", flat=True))
    assert seated == [ids[0], ids[1], ids[3]]  # three-player game with the remaining finalists


def test_art40_last_hand_won_by_the_overall_last_goes_to_overtime(final):
    _, _, table = final
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 2, han=5))  # mangan off West: 17000
    hand_record(table=table, number=2, expected_version=0, data=ron(2, 3, han=1, fu=30))  # West wins: 18000, still last
    table_finish(table=table, end_reason="time")
    situation = final_situation(table=table)
    assert situation.decision.kind == "overtime", situation.decision.reason
    assert "1年春" in final_apply(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_art40_two_player_final_winner_beating_the_opponent_is_champion(make_event):
    event = make_event(2)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = final_table(event, ids)
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 0))
    table_finish(table=table, end_reason="time")
    assert final_situation(table=table).decision.kind == "champion"
    assert "champion" in final_apply(table=table)
    event.refresh_from_db()
    assert event.champion_id == ids[1] and event.status == Event.Status.FINISHED


def test_art40_decision_is_shown_in_the_admin(admin_client, final):
    event, _, table = final
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 2))
    table_finish(table=table, end_reason="time")
    body = admin_client.get(reverse("console:table", args=[table.pk])).content.decode()
    assert 'id="final-decision"' in body and "Eliminate" in body
    assert admin_client.post(reverse("console:table", args=[table.pk]), {"action": "final_apply"}).status_code == 302
    assert Round.objects.filter(event=event, number=2, is_final=True).exists()


# --- Art. 43: a disqualified finalist is never champion ------------------------------------------


def test_art43_a_disqualified_finalist_who_wins_the_two_player_final_is_not_crowned(admin_client, make_event):
    from tournament.models import Entry
    from tournament.services.discipline import penalty_log

    event = make_event(2)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = final_table(event, ids)
    fouler = Entry.objects.get(pk=ids[1])
    # South swaps tiles (art. 37) and is disqualified (art. 43), then wins the hand and leads
    penalty_log(
        event=event,
        entry=fouler,
        kind="art37_deliberate_foul",
        reason="tile swap",
        table=table,
        hand_number=1,
    )
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 0, han=5))
    table_finish(table=table, end_reason="time")
    situation = final_situation(table=table)
    assert (situation.decision.kind, situation.decision.player_id) == ("champion", ids[0])
    assert situation.decision.disqualified == (ids[1],) and "disqualified" in situation.decision.reason
    # the referee's screen says why
    body = admin_client.get(reverse("console:table", args=[table.pk])).content.decode()
    assert "only finalist not disqualified (art. 43" in body
    assert "Player 01 is the champion" in final_apply(table=table)
    event.refresh_from_db()
    assert event.champion_id == ids[0]


def test_art43_disqualifying_the_champion_takes_the_title_away(make_event):
    from tournament.services.discipline import entry_disqualify

    event = make_event(2)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = final_table(event, ids)
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 0))
    table_finish(table=table, end_reason="time")
    final_apply(table=table)
    entry_disqualify(entry=event.entries.get(pk=ids[1]), reason="art. 43: conduct found after the final")
    event.refresh_from_db()
    assert event.champion_id is None


def test_art43_a_disqualified_finalist_leaves_and_the_others_play_on(final):
    from tournament.services.discipline import penalty_log

    event, ids, table = final
    # North fouls (art. 37) in the last hand; West wins off South and is not last: among the eligible,
    # South is last and eliminated, and North leaves too (art. 43): a two-player game follows (40③)
    penalty_log(
        event=event,
        entry=event.entries.get(pk=ids[3]),
        kind="art37_deliberate_foul",
        reason="swap",
        table=table,
        hand_number=1,
    )
    hand_record(table=table, number=1, expected_version=0, data=ron(2, 1))
    table_finish(table=table, end_reason="time")
    decision = final_situation(table=table).decision
    assert (decision.kind, decision.player_id, decision.disqualified) == ("eliminate", ids[1], (ids[3],))
    message = final_apply(table=table)
    assert "eliminated" in message and "disqualified (art. 43)" in message
    seated = list(
        Round.objects.get(event=event, number=2).seats.order_by("position").values_list("entry_id", flat=True)
    )
    assert seated == [ids[0], ids[2]]


# --- Art. 40 ①: the decision comes after the last prescribed game ---------------------------------


def test_art40_1_the_decision_comes_after_the_last_prescribed_game(make_event):
    event = make_event(4, overtime_enabled=True, final_games=2)
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    table = final_table(event, ids)
    hand_record(table=table, number=1, expected_version=0, data=ron(1, 2))  # West last: would be eliminated
    table_finish(table=table, end_reason="time")
    situation = final_situation(table=table)
    assert (situation.decision.kind, situation.game, situation.games) == ("next_game", 1, 2)
    assert "game 1 of the 2 prescribed games" in situation.decision.reason
    assert "the next is seated in round 2" in final_apply(table=table)
    second = Table.objects.get(round__event=event, round__number=2)
    assert second.round.is_final
    assert list(second.seats.order_by("position").values_list("entry_id", flat=True)) == ids
    hand_record(table=second, number=1, expected_version=0, data=ron(1, 2))
    table_finish(table=second, end_reason="time")
    situation = final_situation(table=second)
    assert (situation.decision.kind, situation.decision.player_id, situation.game) == ("eliminate", ids[2], 2)


def test_art40_1_a_final_lasts_at_least_one_game(make_event):
    from django.core.exceptions import ValidationError

    event = make_event(4, final_games=0)
    with pytest.raises(ValidationError) as info:
        event.full_clean()
    assert "final_games" in info.value.message_dict
