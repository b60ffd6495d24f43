"""The seating report in plain words on the organizer's seating page: what the seats traded."""

import pytest

from tournament.templatetags.taikai import seating_report_words

pytestmark = pytest.mark.once

BASE = {"repeat_pairs": 0, "max_meetings": 1, "seat_imbalance_max": 1, "mode": "swiss"}


def trade(**fields):
    return {
        "crossed": 0,
        "short_table": 0,
        "out_of_reach": 0,
        "detoured": 0,
        "traded_for": None,
        "cross_ranks": None,
    } | fields


def test_words_no_trade_no_sentence_about_it():
    said = seating_report_words(BASE | {"seat_above_ideal": 0, "seat_trade": trade(traded_for="repeats")})
    assert not any("uneven" in sentence or "three-player" in sentence for sentence in said)


def test_words_crossed_for_repeats():
    said = " ".join(
        seating_report_words(BASE | {"seat_above_ideal": 3, "seat_trade": trade(crossed=3, traded_for="repeats")})
    )
    assert "3 players now have one wind more than once ahead of another." in said
    assert "3 players take a wind this round that leaves their winds uneven at the end of the event" in said
    assert "seated two players together again" in said


def test_words_crossed_for_standings_names_the_weight():
    report = BASE | {"seat_trade": trade(crossed=1, traded_for="standings", cross_ranks=8)}
    said = " ".join(seating_report_words(report))
    assert "1 player takes a wind" in said
    assert "as much as 8 places of rank spread" in said


def test_words_short_tables_out_of_reach_and_detours():
    report = BASE | {"seat_trade": trade(short_table=2, out_of_reach=1, detoured=5)}
    said = " ".join(seating_report_words(report))
    assert "2 players needed North but sit at a three-player table" in said
    assert "1 player can no longer reach even winds by the end" in said
    assert "5 players sit a wind for the second time before another for now" in said


def test_words_reports_without_the_new_fields_still_read():
    # a round seated before the seat trade was reported
    assert seating_report_words(BASE)


def team_groups(pairs, lower_bound=0):
    kinds = {"team": {"pairs": pairs, "event_pairs": pairs, "lower_bound": lower_bound}}
    return {"groups": {"kinds": kinds, "breaks": [], "never_pairs": pairs, "never_lower_bound": lower_bound}}


def test_words_team_event_says_teammates_are_kept_apart():
    said = seating_report_words(BASE | {"mode": "random"} | team_groups(0))
    assert "Teammates are kept apart: no two players of one team share a table." in said


def test_words_team_event_says_when_teammates_share_a_table():
    said = " ".join(seating_report_words(BASE | team_groups(2, lower_bound=1)))
    assert "Teammates could not all be kept apart: 2 pairs of teammates share a table" in said
    assert "the fewest these tables allow: 1" in said


def test_words_team_event_in_japanese():
    from django.utils import translation

    with translation.override("ja"):
        kept = " ".join(seating_report_words(BASE | team_groups(0)))
        shared = " ".join(seating_report_words(BASE | team_groups(2, lower_bound=1)))
    assert "チーム" in kept and "Teammates" not in kept
    assert "2" in shared and "Teammates" not in shared


def test_words_no_team_sentence_without_teams():
    said = " ".join(seating_report_words(BASE))
    assert "Teammates" not in said
