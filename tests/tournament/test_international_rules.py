"""Events under the EMA 2025 and WRC 2025 presets: the game's end, tied placements, a substitute's game, the EMA
results file and whole simulated events, worked by hand from the rule texts."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from types import SimpleNamespace

import pytest

from players.models import Player
from scoring.models import Ruleset
from scoring.presets import PRESETS
from taikai.errors import TaikaiError
from tests.fixtures.tournament import event_with_players, standard_ruleset_installed
from tournament.audit import event_audit
from tournament.engine.game_end import GameEndRules, game_end_reason, hands_after_time_up
from tournament.engine.standings import GameRecord
from tournament.engine.substitutes import substitute_credit, substitute_credit_shift
from tournament.engine.table_result import SeatOutcome, table_result
from tournament.models import HandVersion
from tournament.options import game_end_rules, table_rules
from tournament.selectors import event_ema
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.standings import standings_recompute, standings_rows
from tournament.services.substitutes import substitute_seat
from tournament.simulation.play import event_create, event_simulate, simulated_players

BY_SLUG = {preset["slug"]: preset for preset in PRESETS}
INTERNATIONAL = ("ema-2025", "wrc-2025")


def preset_event(slug: str, **fields) -> SimpleNamespace:
    """An event's rows as ``tournament.options`` reads them, without the database."""
    return SimpleNamespace(ruleset=Ruleset(**BY_SLUG[slug]), advancing_places=1, **fields)


# --- The game's end (engine, through the options) ------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "chombo_ends", "after_time_up"),
    [("ema-2025", True, 1), ("wrc-2025", True, 0), ("ema-2016", False, 1), ("standard", False, 0)],
)
def test_chombo_and_time_up_under_each_preset(slug, chombo_ends, after_time_up):
    rules = game_end_rules(preset_event(slug))
    expected = "chombo" if chombo_ends else None
    assert game_end_reason(rules, points=(30000, 30000, 30000, 30000), chombo=True) == expected
    assert game_end_reason(rules, points=(30000, 30000, 30000, 30000)) is None
    assert hands_after_time_up(rules) == after_time_up


@pytest.mark.parametrize(
    ("rules", "points", "reason"),
    [
        (GameEndRules(), (61000, 30000, 30000, -1000), None),  # the standard plays on below zero
        (GameEndRules(busting=True), (61000, 30000, 30000, -1000), "busting"),
        (GameEndRules(busting=True), (60000, 30000, 30000, 0), None),  # zero is not below zero
        (GameEndRules(busting=True, chombo_ends_game=True), (61000, 30000, 30000, -1000), "busting"),
    ],
)
def test_busting_ends_the_game_only_where_the_ruleset_says(rules, points, reason):
    assert game_end_reason(rules, points=points) == reason


def test_the_game_end_rules_are_checked():
    with pytest.raises(TaikaiError) as info:
        GameEndRules(time_up_ending="two_more_hands")
    assert info.value.field == "time_up_ending"


# --- Placement: tied players split the uma --------------------------------------------------------------


@pytest.mark.parametrize(
    ("finals", "game_points"),
    [
        # a tie for second: (+5 − 5) / 2 = 0 each; first 10 + 15 = 25, last −10 − 15 = −25
        ((40000, 30000, 30000, 20000), (25, 0, 0, -25)),
        # a tie for first: (15 + 5) / 2 = 10 each, no oka to share
        ((35000, 35000, 25000, 25000), (15, 15, -15, -15)),
        # no tie: 52,000 / 30,000 / 21,000 / 17,000 → 22 + 15, 0 + 5, −9 − 5, −13 − 15
        ((52000, 30000, 21000, 17000), (37, 5, -14, -28)),
        # three tied for second: (5 − 5 − 15) / 3 = −5 each
        ((45000, 25000, 25000, 25000), (30, -10, -10, -10)),
    ],
)
@pytest.mark.parametrize("slug", INTERNATIONAL)
def test_tied_players_split_their_places_uma(slug, finals, game_points):
    seats = [SeatOutcome(player_id=i, final_points=p) for i, p in enumerate(finals)]
    result = table_result(seats, table_rules(preset_event(slug)))
    assert tuple(seat.game_points for seat in result.seats) == tuple(Fraction(g) for g in game_points)


# --- A substitute's game --------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", INTERNATIONAL)
def test_a_substitutes_game_counts_minus_15_with_no_other_uma(slug):
    ruleset = Ruleset(**BY_SLUG[slug])
    games = [GameRecord(9, 1, Fraction(189, 10), True)]  # the substitute won the table: +18.9
    credited, _fines = substitute_credit(
        games,
        [],
        {9: 1},
        ruleset.substitute_result,
        ruleset.substitute_fixed_points,
        ruleset.substitute_uma,
    )
    assert credited == [GameRecord(1, 1, Fraction(-15), False)]  # −15,000 → −15, no first place's +15
    shift = substitute_credit_shift(
        [Fraction(189, 10)], ruleset.substitute_result, ruleset.substitute_fixed_points, ruleset.substitute_uma
    )
    assert shift == Fraction(-339, 10)


def test_a_substitutes_placement_points_add_to_the_fixed_score():
    games = [GameRecord(9, 2, Fraction(-3), False)]
    credited, _ = substitute_credit(games, [], {9: 1}, "fixed", -15000, -15)
    assert credited == [GameRecord(1, 2, Fraction(-30), False)]


# --- A whole event: the hands, the tie, a substitute and the EMA results ----------------------------------

# Dealer East (seat 0). South (seat 1) wins 3 han 30 fu from West (seat 2): 30 · 2^5 · 4 = 3840 → 3900.
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def ema_event(db, seated_round):
    standard_ruleset_installed()  # a transactional test flushes the rows the data migration made
    event = event_with_players(
        Ruleset.objects.get(slug="ema-2025"), 4, starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 1)
    )
    for i, entry in enumerate(event.entries.order_by("id")):
        Player.objects.filter(pk=entry.player_id).update(
            family_name=f"Family{i + 1}", given_name="Given", country="DE", external_id=f"0{i + 1}090055"
        )
    return event, seated_round(event).tables.get()


def test_an_abortive_draw_is_refused_at_the_table_under_ema(ema_event):
    _event, table = ema_event
    with pytest.raises(TaikaiError) as info:
        hand_record(table=table, number=1, expected_version=0, data={"outcome": "abortive_draw", "dealer_position": 0})
    assert info.value.code == "abortive_draw_not_played"
    replay = {"outcome": "replayed", "dealer_position": 0}
    assert hand_record(table=table, number=1, expected_version=0, data=replay).deltas == [0, 0, 0, 0]


def test_a_tie_for_second_splits_the_uma_in_the_standings_and_the_ema_file(ema_event):
    # given: 30,000 / 33,900 / 26,100 / 30,000 — East and North tie for second
    event, table = ema_event
    hand_record(table=table, number=1, expected_version=0, data=RON)
    table_finish(table=table, end_reason="time")
    round_complete(round_=table.round)
    standings_recompute(event_id=event.pk)
    # when
    rows = {row["entry"]: row for row in standings_rows(event)}
    ema = event_ema(event)
    # then: 3.9 + 15 = 18.9; the tied pair (+5 − 5) / 2 = 0 each; −3.9 − 15 = −18.9
    by_seat = {seat.position: seat.entry_id for seat in table.seats.all()}
    totals = {position: Fraction(rows[entry]["total_points"]) for position, entry in by_seat.items()}
    assert totals == {0: 0, 1: Fraction(189, 10), 2: Fraction(-189, 10), 3: 0}
    assert [(row.place, row.points_text) for row in ema.report.rows] == [(1, "18.9"), (2, "0"), (2, "0"), (4, "-18.9")]
    assert [row.base_rank for row in ema.report.rows] == [1000, 667, 667, 0]
    assert ema.report.imbalance == 0
    assert event_audit(event) == []


def test_a_substitutes_seat_scores_minus_15_and_the_ema_file_balances(ema_event):
    # given: the winner's seat (South) is played by a substitute
    event, table = ema_event
    seat = table.seats.get(position=1)
    absent = seat.entry
    substitute_seat(seat=seat, name="Stand In", reason="train late")
    # when
    hand_record(table=table, number=1, expected_version=0, data=RON)
    table_finish(table=table, end_reason="time")
    round_complete(round_=table.round)
    standings_recompute(event_id=event.pk)
    # then: the absent player is credited −15 and no uma (the substitute won: +18.9 as played)
    rows = {row["entry"]: row for row in standings_rows(event)}
    assert Fraction(rows[absent.pk]["total_points"]) == -15
    ema = event_ema(event)
    assert [row.points_text for row in ema.report.rows] == ["0", "0", "-15", "-18.9"]
    assert ema.report.imbalance == 0
    assert "points_unbalanced" not in {problem.code for problem in ema.problems}
    # the audit's standings check sums the games as played and lists every entry: it does not know
    # substitutes yet, whatever the rule (the same with the standard ruleset); everything else is clean
    assert [v for v in event_audit(event) if not v.code.startswith("standings_")] == []


# --- Whole simulated events ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", INTERNATIONAL)
def test_a_simulated_event_under_each_preset_audits_clean(db, slug):
    standard_ruleset_installed()
    event = event_create(
        slug=f"sim-{slug}",
        name=f"Simulated {slug}",
        players=simulated_players(8),
        ruleset=Ruleset.objects.get(slug=slug),
        planned_rounds=2,
    )
    event_simulate(event, rounds=2, seed=7, seating="shuffle")
    assert event_audit(event) == []
    versions = HandVersion.objects.filter(hand__table__round__event=event, is_current=True)
    assert not versions.filter(outcome="abortive_draw").exists()  # neither rule plays abortive draws
    assert versions.exists()
    for row in standings_rows(event):  # 30,000 returned from 30,000 start: every game is points/1000 + uma
        for _round, points, _advanced in row["history"]:
            assert Fraction(points).denominator in (1, 2, 5, 10)
    if slug == "wrc-2025":  # head bump: a double ron pays one winner only
        for version in versions.filter(outcome="ron"):
            if len(version.wins) > 1:
                assert sum(1 for d in version.deltas if d > 0) <= 1
