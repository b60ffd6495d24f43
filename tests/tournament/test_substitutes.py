"""Substitutes 代走: seated in an absent player's place before the first hand (a ruling records it), the
seat's result counting as the ruleset says (own points, fixed points and last place, or nobody), never
ranked and never seated automatically."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from players.models import Player
from taikai.errors import TaikaiError
from tournament.engine.standings import GameRecord, PenaltyDeduction
from tournament.engine.substitutes import substitute_credit
from tournament.models import Entry, Ruling
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.seating import seating_request_for
from tournament.services.standings import standings_rows
from tournament.services.substitutes import substitute_seat

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def test_credit_rules_worked_by_hand():
    games = [GameRecord(9, 1, Fraction(23), True), GameRecord(2, 1, Fraction(-5), False)]
    fines = [PenaltyDeduction(9, 1000, 1)]
    subs = {9: 1}  # entry 9 played for entry 1
    own = substitute_credit(games, fines, subs, "own", -15000)
    assert own == (
        [GameRecord(2, 1, Fraction(-5), False), GameRecord(1, 1, Fraction(23), True)],
        [PenaltyDeduction(1, 1000, 1)],
    )
    fixed = substitute_credit(games, fines, subs, "fixed", -15000)
    assert fixed == ([GameRecord(2, 1, Fraction(-5), False), GameRecord(1, 1, Fraction(-15), False)], [])
    assert substitute_credit(games, fines, subs, "none", -15000) == (
        [GameRecord(2, 1, Fraction(-5), False)],
        [],
    )


def play_and_rank(table):
    hand_record(table=table, number=1, expected_version=0, data=RON)
    table_finish(table=table, end_reason="time")
    round_complete(round_=table.round)
    return {row["entry"]: row for row in standings_rows(table.round.event)}


@pytest.mark.parametrize(("rule", "credited"), [("own", None), ("fixed", Fraction(-15)), ("none", "absent")])
def test_a_substitutes_game_counts_as_the_ruleset_says(table, rule, credited):
    event = table.round.event
    event.ruleset.substitute_result = rule
    event.ruleset.save()
    seat = table.seats.get(position=1)  # South: the hand's winner
    absent = seat.entry
    substitute = substitute_seat(seat=seat, name="Stand In", reason="train late")
    assert substitute.substitute_for == absent and Entry.objects.get(pk=absent.pk).status == Entry.Status.AWAY
    assert Ruling.objects.filter(entry=absent, table=table).exists()
    rows = play_and_rank(table)
    assert substitute.pk not in rows  # a substitute is never ranked
    played = table.results.current().get(entry=substitute).game_points
    if credited is None:
        assert Fraction(rows[absent.pk]["total_points"]) == played
    elif credited == "absent":
        assert rows[absent.pk]["games"] == 0
    else:
        assert Fraction(rows[absent.pk]["total_points"]) == credited


def test_a_substitute_comes_only_before_the_first_hand_and_is_never_seated_automatically(table):
    seat = table.seats.get(position=2)
    substitute = substitute_seat(seat=seat, player=Player.objects.create(display_name="Reserve"))
    assert substitute.pk in seating_request_for(table.round.event, round_number=2)["absent"]
    hand_record(table=table, number=1, expected_version=0, data=RON)
    with pytest.raises(TaikaiError) as info:
        substitute_seat(seat=table.seats.get(position=3), name="Too Late")
    assert info.value.code == "game_started" and not Player.objects.filter(display_name="Too Late").exists()


def test_the_organizer_seats_a_substitute_from_the_tables_admin_and_the_sheet_marks_it(admin_client, table):
    seat = table.seats.get(position=0)
    url = reverse("admin:tournament_table_substitute", args=[table.pk])
    assert admin_client.get(url).status_code == 200
    response = admin_client.post(url, {"seat": seat.pk, "name": "Stand In", "reason": "ill"})
    assert response.status_code == 302
    sheet = admin_client.get(reverse("console:table", args=[table.pk])).content.decode()
    assert "Stand In" in sheet and "(substitute 代走)" in sheet
    refused = admin_client.post(url, {"seat": seat.pk})
    assert refused.status_code == 400


def test_the_audit_checks_the_substitute_rules(table):
    from tournament.audit import event_audit

    substitute = substitute_seat(seat=table.seats.get(position=1), name="Stand In")
    play_and_rank(table)
    assert [v for v in event_audit(table.round.event) if v.code.startswith("substitute")] == []
    Entry.objects.filter(pk=substitute.pk).update(substitute_for=substitute)  # written directly: plays for itself
    codes = {v.code for v in event_audit(table.round.event)}
    assert "substitute_chain" in codes
