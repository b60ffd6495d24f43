"""Simulated events: the game flow of a hanchan, legal hands, seating, determinism, the commands."""

import itertools
import random
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.han_fu import han_fu_problem
from taikai.errors import TaikaiError
from tournament.audit import event_audit
from tournament.models import Event, HandVersion, Round, Seat, Table
from tournament.simulation import (
    GameState,
    SimulationError,
    event_create,
    event_simulate,
    fu_allowed,
    game_advance,
    hand_draw,
    simulated_players,
    tables_partition,
    win_value_draw,
)

# --- The game flow, without the database --------------------------------------------------------


def state(**fields) -> GameState:
    return GameState(**{"players": 4, "start_points": 25000, "riichi_stick": 1000, **fields})


def ron(winner: int, discarder: int) -> dict:
    return {"outcome": "ron", "wins": [{"winner": winner, "discarder": discarder, "han": 1, "fu": 30}]}


def test_non_dealer_win_passes_the_deal_and_resets_honba():
    game = state(dealer=1, honba=3)
    game_advance(game, ron(2, 0), [-1000, 0, 1000, 0], 0)
    assert (game.dealer, game.honba, game.wind) == (2, 0, 0)


def test_dealer_win_repeats_the_deal_with_one_more_honba():  # 和了連荘
    game = state(dealer=1, honba=1)
    game_advance(game, ron(1, 3), [0, 1800, 0, -1800], 0)
    assert (game.dealer, game.honba) == (1, 2)
    assert game.points == [25000, 26800, 25000, 23200]


def test_exhaustive_draw_with_dealer_tenpai_repeats_the_deal():  # 聴牌連荘
    game = state(dealer=2)
    game_advance(
        game,
        {"outcome": "exhaustive_draw", "wins": [], "tenpai_positions": [2]},
        [-1000, -1000, 3000, -1000],
        0,
    )
    assert (game.dealer, game.honba) == (2, 1)


def test_exhaustive_draw_with_dealer_noten_passes_the_deal_with_one_more_honba():
    game = state(dealer=2, honba=1)
    game_advance(
        game,
        {"outcome": "exhaustive_draw", "wins": [], "tenpai_positions": [0]},
        [3000, -1000, -1000, -1000],
        0,
    )
    assert (game.dealer, game.honba) == (3, 2)


def test_abortive_draw_repeats_the_deal_with_one_more_honba():  # 途中流局
    game = state(dealer=0)
    game_advance(game, {"outcome": "abortive_draw", "wins": []}, [0, 0, 0, 0], 0)
    assert (game.dealer, game.honba, game.over) == (0, 1, False)


def test_double_ron_with_the_dealer_among_the_winners_repeats_the_deal():
    game = state(dealer=0, honba=0)
    double = {"outcome": "ron", "wins": [{"winner": 0, "discarder": 2}, {"winner": 1, "discarder": 2}]}
    game_advance(game, double, [1500, 1000, -2500, 0], 0)
    assert (game.dealer, game.honba) == (0, 1)


def test_the_deal_passing_back_to_east_starts_the_south_round():
    game = state(dealer=3)
    game_advance(game, ron(1, 3), [0, 1000, 0, -1000], 0)
    assert (game.dealer, game.wind, game.over) == (0, 1, False)


def test_game_ends_after_south_4_without_a_dealer_repeat():  # 南4局 (オーラス)
    game = state(dealer=3, wind=1, hands=9)
    game_advance(game, ron(3, 0), [-1000, 0, 0, 1000], 0)
    assert not game.over  # the dealer won: South 4, one honba
    game_advance(game, ron(1, 0), [-1000, 1000, 0, 0], 0)
    assert game.over


def test_a_three_player_game_ends_after_south_3():
    game = state(players=3, dealer=2, wind=1)
    game_advance(game, ron(0, 1), [1000, -1000, 0], 0)
    assert game.over


def test_the_hand_cap_ends_a_game_of_dealer_repeats():
    game = state(dealer=0, max_hands=3)
    for _ in range(3):
        game_advance(game, ron(0, 1), [1500, -1500, 0, 0], 0)
    assert game.over and game.wind == 0


def test_deposits_follow_the_hands():
    game = state()
    game_advance(
        game,
        {"outcome": "exhaustive_draw", "wins": [], "tenpai_positions": [1]},
        [-1000, 2000, -1000, -1000],
        1000,
    )
    assert game.deposits == 1000


@pytest.mark.parametrize(
    ("han", "fu", "tsumo", "allowed"),
    [
        (1, 20, True, False),  # pinfu tsumo is at least 2 han (seed 001)
        (2, 20, True, True),
        (3, 20, False, False),  # a ron has at least 30 fu
        (1, 25, False, False),  # chiitoitsu is at least 2 han
        (2, 25, False, True),
        (2, 25, True, False),  # ... at least 3 with tsumo
        (3, 25, True, True),
        (1, 30, False, True),
        (4, 110, True, True),
        (2, 35, False, False),  # fu are rounded up to tens
        (1, 120, False, False),
    ],
)
def test_fu_allowed_follows_seed001(han, fu, tsumo, allowed):
    assert fu_allowed(han=han, fu=fu, tsumo=tsumo) is allowed


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), tsumo=st.booleans())
def test_random_wins_always_have_a_han_fu_pair_that_exists(seed, tsumo):
    win = win_value_draw(random.Random(seed), tsumo=tsumo)
    if win.get("yakuman"):
        assert win == {"han": 0, "yakuman": 1}
        return
    assert win["han"] >= 1
    if win["han"] < 5:
        assert han_fu_problem(han=win["han"], fu=win["fu"], tsumo=tsumo) is None
    else:
        assert "fu" not in win


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), poor=st.integers(0, 3))
def test_random_hands_are_well_formed(seed, players, poor):
    points = [25000] * players
    points[poor % players] = 900  # cannot pay the riichi stick
    game = state(players=players, points=points, dealer=seed % players, honba=seed % 3)
    hand = hand_draw(random.Random(seed), game)
    assert (hand["dealer_position"], hand["honba"]) == (game.dealer, game.honba)
    assert poor % players not in hand["riichi_positions"]
    winners = [w["winner"] for w in hand["wins"]]
    assert len(set(winners)) == len(winners)
    if hand["outcome"] == "ron":
        assert 1 <= len(winners) <= players - 1
        (discarder,) = {w["discarder"] for w in hand["wins"]}
        assert discarder not in winners
    elif hand["outcome"] == "tsumo":
        assert len(winners) == 1 and hand["wins"][0]["discarder"] is None
    else:
        assert winners == []
    if hand["outcome"] == "exhaustive_draw":
        assert set(hand["riichi_positions"]) <= set(hand["tenpai_positions"])  # riichi means tenpai
    else:
        assert hand["tenpai_positions"] == []
    if hand["outcome"] == "abortive_draw":
        assert hand["riichi_positions"] == []


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (16, 4, [4, 4, 4, 4]),
        (17, 4, [4, 4, 3, 3, 3]),
        (18, 4, [4, 4, 4, 3, 3]),
        (6, 4, [3, 3]),
        (5, 4, [3, 2]),
        (9, 3, [3, 3, 3]),
        (7, 3, [3, 2, 2]),
        (2, 4, [2]),
    ],
)
def test_tables_partition_uses_the_fewest_tables_with_sizes_within_one(players, size, sizes):
    tables = tables_partition(list(range(players)), size)
    assert [len(t) for t in tables] == sizes
    assert sorted(i for t in tables for i in t) == list(range(players))


def test_tables_partition_needs_two_players():
    with pytest.raises(SimulationError) as info:
        tables_partition([1], 4)
    assert info.value.code == "too_few_players"


# --- Whole events through the services ----------------------------------------------------------


def simulate(
    players: int,
    rounds: int,
    *,
    seed: int = 1,
    slug: str | None = None,
    seating: str = "shuffle",
    standard=None,
):
    from scoring.models import Ruleset

    event = event_create(
        slug=slug or f"sim-{players}-{rounds}-{seed}",
        name="Simulated",
        players=simulated_players(players),
        ruleset=standard or Ruleset.objects.get(slug="standard"),
        planned_rounds=rounds,
    )
    return event, event_simulate(event, rounds=rounds, seed=seed, seating=seating)


def game_sequences(event) -> dict:
    """Per (round, table): the players in seat order and every hand's outcome and changes."""
    out = {}
    for table in Table.objects.filter(round__event=event).select_related("round"):
        seats = [s.entry.player_id for s in table.seats.select_related("entry").order_by("position")]
        hands = [(v.outcome, v.deltas) for v in HandVersion.objects.filter(hand__table=table).order_by("hand__number")]
        out[(table.round.number, table.number)] = (seats, hands)
    return out


@pytest.mark.django_db
def test_simulated_event_is_played_to_the_end_and_passes_the_audit():
    event, summary = simulate(12, 3)
    assert event_audit(event) == []
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert list(event.rounds.values_list("status", flat=True)) == [Round.Status.COMPLETED] * 3
    assert (summary.rounds, summary.tables) == (3, 9)
    assert summary.hands == HandVersion.objects.filter(hand__table__round__event=event).count()
    assert not Table.objects.filter(round__event=event, status=Table.Status.PLAYING).exists()


@pytest.mark.django_db
def test_every_simulated_game_is_a_hanchan_with_honba_and_dealer_rules():
    event, _ = simulate(8, 2, seed=5)
    outcomes = Counter()
    for table in Table.objects.filter(round__event=event):
        hands = list(HandVersion.objects.filter(hand__table=table).order_by("hand__number"))
        assert 8 <= len(hands) <= 16  # East-South: every seat deals at least twice; the cap is 16
        assert hands[0].label == "East 1" and (hands[0].dealer_position, hands[0].honba) == (0, 0)
        passes = 0
        for before, after in itertools.pairwise(hands):
            outcomes[before.outcome] += 1
            winners = {w["winner"] for w in before.wins}
            if before.outcome in ("ron", "tsumo"):
                repeat = before.dealer_position in winners
                honba = before.honba + 1 if repeat else 0
            elif before.outcome == "exhaustive_draw":
                repeat = before.dealer_position in before.tenpai_positions
                honba = before.honba + 1
            else:
                repeat, honba = True, before.honba + 1
            expected_dealer = before.dealer_position if repeat else (before.dealer_position + 1) % 4
            assert (after.dealer_position, after.honba) == (expected_dealer, honba)
            assert after.deposits_in == before.deposits_out
            passes += not repeat
        if len(hands) < 16:  # not stopped by the cap: the last hand is South 4 and the deal passed on
            assert passes == 7 and hands[-1].label.startswith("South 4")
    assert outcomes["ron"] and outcomes["tsumo"] and outcomes["exhaustive_draw"]


@pytest.mark.django_db
def test_riichi_is_declared_only_with_a_stick_to_pay():
    event, _ = simulate(8, 2, seed=11)
    riichi = 0
    for table in Table.objects.filter(round__event=event):
        points = [25000] * 4
        for version in HandVersion.objects.filter(hand__table=table).order_by("hand__number"):
            for seat in version.riichi_positions:
                assert points[seat] >= 1000
                riichi += 1
            points = [p + d for p, d in zip(points, version.deltas, strict=True)]
    assert riichi > 0


@pytest.mark.django_db
def test_odd_fields_play_three_player_tables():
    event, _ = simulate(14, 2, seed=3)
    sizes = Counter(Seat.objects.filter(round__event=event).values_list("table_id", flat=True)).values()
    assert sorted(sizes) == [3, 3, 3, 3, 4, 4, 4, 4]
    assert event_audit(event) == []


@pytest.mark.django_db
def test_a_simulation_is_deterministic_for_its_seed():
    first, _ = simulate(4, 2, seed=42, slug="first")
    again, _ = simulate(4, 2, seed=42, slug="again")
    other, _ = simulate(4, 2, seed=43, slug="other")
    assert game_sequences(first) == game_sequences(again)
    assert game_sequences(first) != game_sequences(other)


@pytest.mark.django_db
def test_a_round_in_progress_keeps_open_tables():
    from scoring.models import Ruleset

    event = event_create(
        slug="running",
        name="Running",
        players=simulated_players(16),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=4,
    )
    summary = event_simulate(event, rounds=1, seed=2, seating="shuffle", in_progress=(2, 3))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    second = event.rounds.get(number=2)
    assert second.status == Round.Status.PLAYING
    assert list(second.tables.order_by("number").values_list("status", flat=True)) == [
        "finished",
        "finished",
        "playing",
        "playing",
    ]
    assert second.tables.get(number=3).hands.count() == 3
    assert not second.tables.get(number=4).hands.exists()
    assert summary.tables == 6
    assert event_audit(event) == []


@pytest.mark.django_db
def test_seating_with_the_pairing_engine_goes_swiss_after_round_1():
    event, summary = simulate(8, 3, seed=9, seating="engine")
    assert summary.seating == {"engine"}
    modes = list(event.rounds.order_by("number").values_list("seating_report__mode", flat=True))
    assert modes == ["random", "swiss", "swiss"]
    assert event_audit(event) == []


@pytest.mark.django_db
def test_a_simulation_refuses_an_existing_slug():
    simulate(4, 1, slug="taken")
    with pytest.raises(SimulationError) as info:
        simulate(4, 1, slug="taken")
    assert info.value.code == "event_exists"


@pytest.mark.django_db
def test_simulated_hands_go_through_the_services_checks(monkeypatch):
    """A hand the services reject stops the simulation: nothing is written around them."""
    import tournament.simulation.game as simulation

    monkeypatch.setattr(simulation, "win_value_draw", lambda rng, tsumo: {"han": 1, "fu": 20})
    with pytest.raises(TaikaiError) as info:
        simulate(4, 1, seed=1)
    assert info.value.code == "impossible_han_fu"


@pytest.mark.django_db
def test_simulate_event_command_prints_a_summary_and_the_audit_passes():
    out = StringIO()
    call_command("simulate_event", "--players", "8", "--rounds", "2", "--seed", "4", "--seating", "shuffle", stdout=out)
    assert "sim-8x2-s4: 2 rounds completed, 4 tables finished" in out.getvalue()
    audit = StringIO()
    call_command("audit_event", "sim-8x2-s4", stdout=audit)
    assert "no violations" in audit.getvalue()


@pytest.mark.django_db
@pytest.mark.once  # the demo of the embedded default (bin/serve)
def test_demo_event_loads_once_and_its_events_pass_the_audit(django_capture_on_commit_callbacks, monkeypatch):
    from players.models import Player
    from tournament.management.commands.demo_event import DEMO_PLAYERS

    monkeypatch.setenv("TAIKAI_ADDR", "0.0.0.0:9123")  # bin/serve's address: the demo names it
    loaded = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_event", "--if-empty", stdout=loaded)
    assert "http://0.0.0.0:9123/admin/" in loaded.getvalue() and ":8000" not in loaded.getvalue()
    counts = (Player.objects.count(), Event.objects.count(), HandVersion.objects.count())
    out = StringIO()
    call_command("demo_event", "--if-empty", stdout=out)
    assert "already loaded" in out.getvalue()
    assert (Player.objects.count(), Event.objects.count(), HandVersion.objects.count()) == counts
    assert len(DEMO_PLAYERS) == 32 and counts[0] == 32
    finished = Event.objects.get(slug="spring-open")
    running = Event.objects.get(slug="autumn-cup")
    assert finished.status == Event.Status.FINISHED and finished.rounds.count() == 3
    assert running.status == Event.Status.RUNNING and running.planned_rounds == 4
    second = running.rounds.get(number=2)
    statuses = Counter(second.tables.values_list("status", flat=True))
    assert statuses["finished"] and statuses["playing"]
    for event in (finished, running):
        assert event.is_public and event.ruleset.slug == "standard"
        assert event_audit(event) == []
