"""The game's end at the table, as the ruleset says: a chombo 錯和 recorded (the ruleset's points against the overall
total; the game ends with it, or the hand is replayed), busting 飛び (a player below zero ends the game). Worked by
hand from the rule texts; through the services, the console and the REST API."""

from __future__ import annotations

import json
from datetime import timedelta
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tests.fixtures.tournament import event_with_players, round_seated, standard_ruleset_installed
from tournament.engine.game_end import BUSTING, CHOMBO, GameEnd, GameEndRules, TimeUp, game_ended_early
from tournament.models import HandVersion, Penalty, Round, Ruling, SeatResult, Table
from tournament.selectors import table_game_end, table_time_up
from tournament.services.discipline import penalty_cancel, penalty_log
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.standings import standings_recompute, standings_rows
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db

# Dealer East (seat 0). South (seat 1) wins 3 han 30 fu from West (seat 2): 30 · 2^5 · 4 = 3840 → 3900.
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
# South (seat 1) deals; West (seat 2) wins 3 han 30 fu from East (seat 0): 3900 again.
RON_2 = {"outcome": "ron", "dealer_position": 1, "wins": [{"winner": 2, "discarder": 0, "han": 3, "fu": 30}]}
REPLAYED = {"outcome": "replayed", "dealer_position": 1}


def preset_table(slug: str, **changes):
    """A table of four (seats 0–3 the entries in order) of an event on the preset ``slug``, changed by ``changes``."""
    standard_ruleset_installed()  # a transactional test flushes the rows the data migration made
    ruleset = Ruleset.objects.get(slug=slug)
    if changes:
        ruleset.pk, ruleset.slug, ruleset.name = None, f"{slug}-changed", f"{slug} changed"
        for name, value in changes.items():
            setattr(ruleset, name, value)
        ruleset.save()
    event = event_with_players(ruleset, 4)
    return round_seated(event).tables.get()


def seat_entry(table: Table, position: int):
    return table.seats.get(position=position).entry


def chombo(table: Table, position: int, hand_number: int | None = None) -> Penalty:
    return penalty_log(
        event=table.round.event,
        entry=seat_entry(table, position),
        kind="chombo",
        reason="declared ron on a tile that does not complete the hand",
        table=table,
        hand_number=hand_number,
    )


def totals(table: Table) -> dict[int, Fraction]:
    """Each seat's overall total once the round is complete."""
    event = table.round.event
    round_complete(round_=table.round)
    standings_recompute(event_id=event.pk)
    rows = {row["entry"]: Fraction(row["total_points"]) for row in standings_rows(event)}
    return {seat.position: rows[seat.entry_id] for seat in table.seats.all()}


# --- The engine ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "points_after", "chombo_hands", "end"),
    [
        (GameEndRules(), [[30000, -100, 30000, 30100]], (1,), None),  # the standard: neither ends it
        (GameEndRules(chombo_ends_game=True), [[30000] * 4] * 3, (3,), GameEnd(2, CHOMBO)),
        (GameEndRules(chombo_ends_game=True), [], (1,), GameEnd(0, CHOMBO)),  # a chombo in the first hand
        (GameEndRules(busting=True), [[30000] * 4, [61000, 30000, 30000, -1000], [0] * 4], (), GameEnd(2, BUSTING)),
        (GameEndRules(busting=True), [[60000, 30000, 30000, 0]], (), None),  # zero is not below zero
        # whichever comes first: a bust in hand 2 before a chombo in hand 4, a chombo in hand 2 before a bust in 3
        (GameEndRules(chombo_ends_game=True, busting=True), [[1] * 4, [-1] * 4, [-1] * 4], (4,), GameEnd(2, BUSTING)),
        (GameEndRules(chombo_ends_game=True, busting=True), [[1] * 4, [1] * 4, [-1] * 4], (2,), GameEnd(1, CHOMBO)),
    ],
)
def test_where_the_game_ends_early(rules, points_after, chombo_hands, end):
    assert game_ended_early(rules, points_after=points_after, chombo_hands=chombo_hands) == end


# --- A chombo at the table ----------------------------------------------------------------------------------


def test_a_chombo_under_ema_2025_ends_the_game_and_costs_20_on_the_overall_total():
    # given: hand 1 leaves East 30,000, South 33,900, West 26,100, North 30,000
    table = preset_table("ema-2025")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    # when: West calls a chombo in hand 2 (the hand in play)
    penalty = chombo(table, 2)
    # then: 20,000 against West's overall total, nothing at the table; the game is over after hand 1
    assert (penalty.hand_number, penalty.points, penalty.kind) == (2, 20000, "chombo")
    assert table_game_end(table) == GameEnd(1, CHOMBO)
    with pytest.raises(TaikaiError) as refused:
        hand_record(table=table, number=2, expected_version=0, data=RON_2)
    assert (refused.value.code, refused.value.field) == ("game_over", "number")
    assert "hand 2" in refused.value.message
    # confirmed without a reason: no "cut short" ruling
    table_finish(table=table)
    assert not Ruling.objects.exists()
    # South 1st 3.9 + 15 = 18.9; East and North tie for 2nd: (+5 − 5) / 2 = 0 each; West −3.9 − 15 − 20 = −38.9
    assert totals(table) == {0: 0, 1: Fraction(189, 10), 2: Fraction(-389, 10), 3: 0}


def test_a_chombo_in_the_first_hand_under_wrc_2025_ends_a_game_without_hands():
    table = preset_table("wrc-2025")
    chombo(table, 3)
    rows = table_finish(table=table)  # four players on 30,000: they share the uma, 0 each
    assert [row.final_points for row in rows] == [30000] * 4
    assert totals(table) == {0: 0, 1: 0, 2: 0, 3: -20}


def test_under_ema_2016_the_game_goes_on_and_the_chombos_hand_is_replayed():
    table = preset_table("ema-2016")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    chombo(table, 2)
    assert table_game_end(table) is None
    with pytest.raises(TaikaiError) as refused:
        hand_record(table=table, number=2, expected_version=0, data=RON_2)
    assert (refused.value.code, refused.value.field) == ("hand_must_be_replayed", "outcome")
    assert hand_record(table=table, number=2, expected_version=0, data=REPLAYED).deltas == [0, 0, 0, 0]
    # the replay: South deals again, the same honba; hand 3 is played
    assert hand_record(table=table, number=3, expected_version=0, data=RON_2).deltas == [-3900, 0, 3900, 0]


def test_a_chombo_is_refused_under_a_ruleset_without_chombo_points():
    table = preset_table("standard")
    with pytest.raises(TaikaiError) as refused:
        chombo(table, 0)
    assert (refused.value.code, refused.value.field) == ("chombo_not_played", "kind")
    assert not Penalty.objects.exists()


def test_a_chombo_that_ends_the_game_is_refused_while_its_hand_or_a_later_one_is_recorded():
    table = preset_table("ema-2025")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    hand_record(table=table, number=2, expected_version=0, data=RON_2)
    with pytest.raises(TaikaiError) as refused:
        chombo(table, 2, hand_number=2)
    assert (refused.value.code, refused.value.field) == ("hands_after_chombo", "hand_number")
    assert not Penalty.objects.exists()
    assert chombo(table, 2, hand_number=3).points == 20000  # the hand in play
    with pytest.raises(TaikaiError) as refused:  # no chombo in a hand after the game's end
        chombo(table, 1, hand_number=4)
    assert refused.value.code == "game_over"


def test_cancelling_the_chombo_opens_the_game_again():
    table = preset_table("wrc-2025")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    penalty = chombo(table, 2)
    penalty_cancel(penalty=penalty, reason="the referee saw the tiles again: a valid win")
    assert table_game_end(table) is None
    hand_record(table=table, number=2, expected_version=0, data=RON_2)
    with pytest.raises(TaikaiError) as refused:  # two hands of a hanchan: cut short again
        table_finish(table=table)
    assert refused.value.code == "game_not_finished"


def test_the_api_logs_a_chombo_and_the_hand_after_it_is_refused():
    table = preset_table("ema-2025")
    event = table.round.event
    event.is_public = False
    event.save(update_fields=["is_public"])
    hand_record(table=table, number=1, expected_version=0, data=RON)
    token = api_token_issue(event=event, name="referee", scope="referee").secret
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    url = reverse("api_v1:table_penalties", args=[table.pk])
    body = {"position": 2, "kind": "chombo", "hand_number": 2, "reason": "false ron"}
    logged = client.post(url, json.dumps(body), content_type="application/json")
    assert logged.status_code == 201, logged.content
    assert (logged.json()["kind"], logged.json()["points"]) == ("chombo", 20000)
    hand = client.post(
        reverse("api_v1:table_hands", args=[table.pk]),
        json.dumps({"number": 2, **RON_2}),
        content_type="application/json",
    )
    assert hand.status_code == 400
    assert hand.json()["error"]["code"] == "game_over"
    done = client.post(reverse("api_v1:table_result", args=[table.pk]), "{}", content_type="application/json")
    assert done.status_code == 201


def test_the_api_refuses_a_chombo_under_the_standard_rules_naming_the_field():
    table = preset_table("standard")
    event = table.round.event
    token = api_token_issue(event=event, name="referee", scope="referee").secret
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    body = {"position": 2, "kind": "chombo", "hand_number": 1, "reason": "false ron"}
    refused = client.post(
        reverse("api_v1:table_penalties", args=[table.pk]), json.dumps(body), content_type="application/json"
    )
    assert refused.status_code == 400
    assert (refused.json()["error"]["code"], refused.json()["error"]["field"]) == ("chombo_not_played", "kind")


# --- Busting ------------------------------------------------------------------------------------------------

# South (seat 1) wins a yakuman from West (seat 2): 32,000 leaves West at 30,000 − 32,000 = −2,000.
YAKUMAN = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "yakuman": 1}]}


def test_busting_ends_the_game_after_the_hand_that_leaves_a_player_below_zero():
    table = preset_table("ema-2025", busting=True)
    assert hand_record(table=table, number=1, expected_version=0, data=YAKUMAN).deltas == [0, 32000, -32000, 0]
    assert table_game_end(table) == GameEnd(1, BUSTING)
    with pytest.raises(TaikaiError) as refused:
        hand_record(table=table, number=2, expected_version=0, data=RON_2)
    assert (refused.value.code, refused.value.field) == ("game_over", "number")
    table_finish(table=table)  # no reason asked
    assert not Ruling.objects.exists()
    assert [r.final_points for r in SeatResult.objects.filter(table=table).order_by("seat__position")] == [
        30000,
        62000,
        -2000,
        30000,
    ]


def test_a_correction_that_busts_a_player_before_later_hands_is_refused():
    table = preset_table("ema-2025", busting=True)
    hand_record(table=table, number=1, expected_version=0, data=RON)
    hand_record(table=table, number=2, expected_version=0, data=RON_2)
    with pytest.raises(TaikaiError) as refused:
        hand_record(table=table, number=1, expected_version=1, data=YAKUMAN)
    assert refused.value.code == "game_over" and "void the hands after hand 1" in refused.value.message


def test_without_busting_the_game_goes_on_below_zero():
    table = preset_table("ema-2025")
    hand_record(table=table, number=1, expected_version=0, data=YAKUMAN)
    assert table_game_end(table) is None
    hand_record(table=table, number=2, expected_version=0, data=RON_2)
    with pytest.raises(TaikaiError) as refused:
        table_finish(table=table)
    assert refused.value.code == "game_not_finished"


# --- The console ------------------------------------------------------------------------------------------


def console_sheet(table: Table) -> str:
    return reverse("console:table", args=[table.pk])


def test_the_console_offers_a_chombo_only_where_the_ruleset_sets_chombo_points(admin_client):
    ema = preset_table("ema-2025")
    page = admin_client.get(reverse("console:penalty", args=[ema.pk])).content.decode()
    assert 'value="chombo"' in page and "chombo (錯和)" in page
    standard_event = event_with_players(Ruleset.objects.get(slug="standard"), 4, slug="standard-open")
    standard = round_seated(standard_event).tables.get()
    page = admin_client.get(reverse("console:penalty", args=[standard.pk])).content.decode()
    assert 'value="chombo"' not in page
    refused = admin_client.post(
        reverse("console:penalty", args=[standard.pk]),
        {"seat": standard.seats.get(position=0).pk, "kind": "chombo", "hand_number": 1, "reason": "false ron"},
    )
    assert refused.status_code == 400 and not Penalty.objects.exists()


def test_the_console_records_a_chombo_and_the_sheet_says_the_game_is_over(admin_client):
    table = preset_table("ema-2025")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    west = table.seats.get(position=2)
    logged = admin_client.post(
        reverse("console:penalty", args=[table.pk]),
        {"seat": west.pk, "kind": "chombo", "hand_number": 2, "reason": "false ron"},
    )
    assert logged.status_code == 302
    assert Penalty.objects.get().points == 20000
    page = admin_client.get(console_sheet(table), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'id="game-over"' in page and 'id="hand-form"' not in page and 'id="game-stop"' not in page
    assert "対局終了" in page
    done = admin_client.post(console_sheet(table), {"action": "finish"})
    assert done.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and not Ruling.objects.exists()


def test_the_console_offers_no_abortive_draw_under_a_ruleset_without_them(admin_client):
    ema = preset_table("ema-2025")
    page = admin_client.get(console_sheet(ema)).content.decode()
    assert 'value="exhaustive_draw"' in page and 'value="abortive_draw"' not in page
    standard_event = event_with_players(Ruleset.objects.get(slug="standard"), 4, slug="standard-open")
    standard = round_seated(standard_event).tables.get()
    assert 'value="abortive_draw"' in admin_client.get(console_sheet(standard)).content.decode()


# --- The round's time runs out ------------------------------------------------------------------------------


def passing_ron(dealer: int) -> dict:
    """The seat after the dealer wins 2 han 40 fu (2,600) off the seat after it: the deal passes on."""
    return {
        "outcome": "ron",
        "dealer_position": dealer,
        "wins": [{"winner": (dealer + 1) % 4, "discarder": (dealer + 2) % 4, "han": 2, "fu": 40}],
    }


def time_ran_out_during_hand_6(table: Table) -> None:
    """Six hands (East 1 to South 2) recorded; the round's 90 minutes ran out 10 minutes ago, hands 1–5 were
    over before, hand 6 was in play."""
    for number in range(1, 7):
        hand_record(table=table, number=number, expected_version=0, data=passing_ron((number - 1) % 4))
    started = timezone.now() - timedelta(minutes=100)
    Round.objects.filter(pk=table.round_id).update(timer_started_at=started)
    HandVersion.objects.filter(hand__table=table).update(recorded_at=started + timedelta(minutes=80))
    HandVersion.objects.filter(hand__table=table, hand__number=6).update(recorded_at=timezone.now())
    table.round.refresh_from_db()


def test_under_ema_2025_one_more_hand_is_played_after_the_time_runs_out():
    table = preset_table("ema-2025")
    time_ran_out_during_hand_6(table)
    assert table_time_up(table) == TimeUp(hand_in_play=6, last_hand=7)
    with pytest.raises(TaikaiError) as refused:
        table_finish(table=table, end_reason="time")
    assert (refused.value.code, refused.value.field) == ("one_more_hand", "end_reason")
    assert "hand 7" in refused.value.message
    assert not SeatResult.objects.exists()
    hand_record(table=table, number=7, expected_version=0, data=passing_ron(2))
    table_finish(table=table, end_reason="time")  # as a game cut short by the time: the ruling says so
    assert "the round's time ran out" in Ruling.objects.get(table=table).decision


def test_under_wrc_2025_the_game_ends_after_the_hand_in_play_as_before():
    table = preset_table("wrc-2025")
    time_ran_out_during_hand_6(table)
    assert table_time_up(table) == TimeUp(hand_in_play=6, last_hand=6)
    with pytest.raises(TaikaiError) as refused:  # still a game cut short: the reason is asked
        table_finish(table=table)
    assert refused.value.code == "game_not_finished"
    table_finish(table=table, end_reason="time")
    assert Ruling.objects.filter(table=table).count() == 1


def test_another_reason_still_ends_the_game_before_the_one_more_hand():
    table = preset_table("ema-2025")
    time_ran_out_during_hand_6(table)
    table_finish(table=table, end_reason="other", end_note="the directors stopped every table")
    assert Ruling.objects.get(table=table).decision.endswith("the directors stopped every table")


def test_time_left_or_no_timer_is_as_before():
    table = preset_table("ema-2025")
    for number in range(1, 7):
        hand_record(table=table, number=number, expected_version=0, data=passing_ron((number - 1) % 4))
    assert table_time_up(table) is None  # no timer started
    Round.objects.filter(pk=table.round_id).update(timer_started_at=timezone.now())
    table.round.refresh_from_db()
    assert table_time_up(table) is None  # 90 minutes left
    table_finish(table=table, end_reason="time")  # the referee's word, as before


def test_the_console_says_one_more_hand_is_played_and_refuses_to_confirm_before_it(admin_client):
    table = preset_table("ema-2025")
    time_ran_out_during_hand_6(table)
    page = admin_client.get(console_sheet(table), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'id="time-up"' in page and "もう 1 局（第7局）" in page
    refused = admin_client.post(console_sheet(table), {"action": "finish", "end_reason": "time"})
    assert refused.status_code == 400 and not SeatResult.objects.exists()
    hand_record(table=table, number=7, expected_version=0, data=passing_ron(2))
    page = admin_client.get(console_sheet(table)).content.decode()
    assert "the game&#x27;s last hand is recorded" in page
    assert 'value="time" id="end-reason-time" checked' in page
    assert admin_client.post(console_sheet(table), {"action": "finish", "end_reason": "time"}).status_code == 302


# --- Pao 責任払い -------------------------------------------------------------------------------------------

# South (seat 1, not the dealer) wins daisangen; West (seat 2) fed the third dragon pon.
PAO = {"responsible": 2, "pao_yakuman": "daisangen"}


def test_pao_under_ema_the_feeder_pays_a_tsumo_whole_and_half_a_ron():
    table = preset_table("ema-2025")
    tsumo = {"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 1, "yakuman": 1, **PAO}]}
    # a non-dealer yakuman tsumo is 16,000 from the dealer and 8,000 from each other: 32,000, all from West
    version = hand_record(table=table, number=1, expected_version=0, data=tsumo)
    assert version.deltas == [0, 32000, -32000, 0]
    assert (version.wins[0]["responsible"], version.wins[0]["pao_yakuman"]) == (2, "daisangen")
    # dealer South now: a dealer yakuman ron is 48,000 from North, half of it (24,000) from West
    ron = {"outcome": "ron", "dealer_position": 1, "wins": [{"winner": 1, "discarder": 3, "yakuman": 1, **PAO}]}
    assert hand_record(table=table, number=2, expected_version=0, data=ron).deltas == [0, 48000, -24000, -24000]


def test_a_win_without_pao_is_stored_as_before():
    table = preset_table("ema-2025")
    version = hand_record(table=table, number=1, expected_version=0, data=RON)
    assert "responsible" not in version.wins[0] and "pao_yakuman" not in version.wins[0]


@pytest.mark.parametrize(
    ("slug", "win", "code"),
    [
        ("standard", {"winner": 1, "yakuman": 1, **PAO}, "pao_not_played"),  # the standard has no pao
        ("ema-2025", {"winner": 1, "yakuman": 1, "responsible": 2, "pao_yakuman": "suukantsu"}, "pao_not_played"),
        ("ema-2025", {"winner": 1, "han": 6, **PAO}, "pao_needs_yakuman"),
        ("ema-2025", {"winner": 1, "yakuman": 1, "responsible": 1, "pao_yakuman": "daisangen"}, "invalid_responsible"),
        ("ema-2025", {"winner": 1, "yakuman": 1, "pao_yakuman": "daisangen"}, "missing_responsible"),
    ],
)
def test_pao_is_refused_where_the_ruleset_or_the_win_has_none(slug, win, code):
    table = preset_table(slug)
    with pytest.raises(TaikaiError) as refused:
        hand_record(
            table=table, number=1, expected_version=0, data={"outcome": "tsumo", "dealer_position": 0, "wins": [win]}
        )
    assert refused.value.code == code and refused.value.field.startswith("wins[0].")


def test_the_console_offers_pao_for_the_rulesets_yakuman_and_records_it(admin_client):
    table = preset_table("ema-2025")
    page = admin_client.get(console_sheet(table), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'id="pao"' in page and "大三元" in page and "四槓子" not in page
    posted = admin_client.post(
        console_sheet(table),
        {
            "action": "hand",
            "outcome": "tsumo",
            "dealer_position": 0,
            "honba": 0,
            "expected_version": 0,
            "winner_1": 1,
            "han_1": "Y1",
            "responsible": 2,
            "pao_yakuman": "daisangen",
        },
    )
    assert posted.status_code == 302, posted.content.decode()[:2000]
    version = HandVersion.objects.get(hand__table=table)
    assert version.deltas == [0, 32000, -32000, 0] and version.wins[0]["responsible"] == 2
    standard_event = event_with_players(Ruleset.objects.get(slug="standard"), 4, slug="standard-open")
    standard = round_seated(standard_event).tables.get()
    assert 'id="pao"' not in admin_client.get(console_sheet(standard)).content.decode()


def test_a_chombo_audits_clean_and_its_event_travels_as_an_archive():
    """The audit knows a chombo's points are the ruleset's, and the archive's schema takes the kind: an event
    with a chombo exports, imports back as a new event, and both audit clean."""
    from archive.export import archive_build
    from archive.load import event_import
    from tournament.audit import event_audit

    table = preset_table("ema-2025")
    hand_record(table=table, number=1, expected_version=0, data=RON)
    chombo(table, 2)
    table_finish(table=table)
    event = table.round.event
    assert [v for v in event_audit(event) if v.code == "penalty_points"] == []
    copy = event_import(archive=json.loads(json.dumps(archive_build(event, staff=True))))
    assert copy.pk != event.pk and Penalty.objects.get(event=copy).kind == "chombo"
    assert event_audit(copy) == []
