"""Simulated seed 004 incidents: penalties (arts. 35–37, 43), absences (art. 42) and overtime (art. 39)."""

import random
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.models import Ruleset
from tournament.audit import event_audit
from tournament.models import Entry, Event, HandVersion, Penalty, Ruling, Seat, SeatResult, Table
from tournament.simulation import (
    OVERTIME_HAND_CAP,
    OVERTIME_THRESHOLD,
    GameState,
    Incidents,
    SimulationError,
    event_create,
    event_simulate,
    game_advance,
    hand_draw,
    overtime_wanted,
    replayed_hand,
    seat_leaves,
    simulated_players,
)

pytestmark = pytest.mark.once

ALL_INCIDENTS = Incidents(penalties=True, absences=True, overtime=True, final=True)
# 16 players × 4 rounds and a final of 2 games with every incident at least once (shuffle seating, so no
# search is involved), as ``simulate_event --penalties --absences --overtime`` plays it.
INCIDENTS_SEED = 69


def state(**fields) -> GameState:
    return GameState(**{"players": 4, "start_points": 25000, "riichi_stick": 1000, **fields})


def ron(winner: int, discarder: int, **extra) -> dict:
    return {
        "outcome": "ron",
        "wins": [{"winner": winner, "discarder": discarder, "han": 1, "fu": 30}],
        **extra,
    }


def roles(hand: dict) -> set[int]:
    named = {hand["dealer_position"], *hand["riichi_positions"], *hand["tenpai_positions"]}
    for win in hand["wins"]:
        named.add(win["winner"])
        if win["discarder"] is not None:
            named.add(win["discarder"])
    return named


# --- Art. 42: the game goes on without a player who left ---------------------------------------


def test_art42_the_deal_skips_a_seat_that_left():
    game = state(dealer=1)
    seat_leaves(game, 2)
    game_advance(game, ron(0, 3), [1000, 0, 0, -1000], 0)
    assert (game.dealer, game.honba, game.wind, game.active) == (3, 0, 0, [0, 1, 3])


def test_art42_when_the_next_dealer_leaves_the_following_seat_deals():
    game = state(dealer=2, honba=1)
    seat_leaves(game, 2)
    assert (game.dealer, game.honba, game.wind, game.over) == (3, 1, 0, False)


def test_art42_when_the_last_seat_leaves_on_its_deal_the_next_wind_round_starts():
    east = state(dealer=3, wind=0)
    seat_leaves(east, 3)
    assert (east.dealer, east.wind, east.over) == (0, 1, False)
    south = state(dealer=3, wind=1)
    seat_leaves(south, 3)  # South 4 had no one left to deal it: the game is over
    assert (south.dealer, south.wind, south.over) == (0, 2, True)


def test_art42_a_game_of_three_after_a_leave_ends_after_its_third_south_hand():
    game = state(dealer=3, wind=1, active=[0, 1, 3])
    game_advance(game, ron(1, 0), [-1000, 1000, 0, 0], 0)
    assert (game.dealer, game.wind, game.over) == (0, 2, True)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), left=st.integers(0, 3))
def test_art42_hands_after_a_leave_name_only_the_seats_still_playing(seed, left):
    game = state(dealer=(left + 1) % 4)
    seat_leaves(game, left)
    hand = hand_draw(random.Random(seed), game)
    assert left not in roles(hand)


# --- Arts. 35, 36: a seat whose foul took a right does not win that way ------------------------


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 3), lost=st.sampled_from(["ron", "both"]))
def test_art35_art36_a_barred_seat_never_wins_the_way_it_lost(seed, seat, lost):
    barred = {seat: frozenset({"ron"} if lost == "ron" else {"ron", "tsumo"})}
    hand = hand_draw(random.Random(seed), state(), barred=barred)
    for win in hand["wins"]:
        if win["winner"] == seat:
            assert lost == "ron" and win["discarder"] is None  # art. 35 keeps the tsumo


def test_art36_when_nobody_may_win_the_hand_is_drawn():
    everyone = dict.fromkeys(range(4), frozenset({"ron", "tsumo"}))
    outcomes = {hand_draw(random.Random(seed), state(), barred=everyone)["outcome"] for seed in range(200)}
    assert outcomes == {"exhaustive_draw", "abortive_draw"}


def test_art36_a_replayed_hand_keeps_dealer_and_honba_and_moves_nothing():
    game = state(dealer=2, honba=1, deposits=1000)
    hand = replayed_hand(game)
    assert (hand["outcome"], hand["dealer_position"], hand["honba"], hand["deposits_in"]) == (
        "replayed",
        2,
        1,
        1000,
    )
    game_advance(game, hand, [0, 0, 0, 0], 1000)
    assert (game.dealer, game.honba, game.deposits, game.hands) == (2, 1, 1000, 1)


# --- Art. 39: overtime ---------------------------------------------------------------------------


def overtime_state(points=None, hands=0) -> GameState:
    return state(points=points or [27000, 26000, 24000, 23000], overtime=True, overtime_hands=hands)


def test_art39_a_game_with_nobody_above_the_threshold_goes_to_overtime():
    level = state(points=[OVERTIME_THRESHOLD, 26000, 24000, 20000])
    assert overtime_wanted(random.Random(0), level)


def test_art39_overtime_hands_are_marked_as_such():
    assert hand_draw(random.Random(1), overtime_state())["overtime"] is True
    assert "overtime" not in hand_draw(random.Random(1), state())


def test_art39_a_drawn_overtime_hand_ends_the_game():  # 和者が出ずに終局
    game = overtime_state()
    game_advance(game, {"outcome": "exhaustive_draw", "tenpai_positions": []}, [0, 0, 0, 0], 0)
    assert game.over and game.overtime_hands == 1 and not game.overtime_closed


def test_art39_an_overtime_winner_meeting_the_win_condition_ends_the_game():
    # the engine's win condition: the winner ends above every other player (art. 39 ②)
    game = overtime_state([27000, 26000, 24000, 23000])
    game_advance(game, ron(1, 3), [0, 2000, 0, -2000], 0)
    assert game.points[1] > max(game.points[0], game.points[2], game.points[3]) and game.over
    assert not game.overtime_closed


def test_art39_an_overtime_winner_below_the_win_condition_plays_on():
    game = overtime_state()
    game_advance(game, ron(1, 3), [0, 1000, 0, -1000], 0)
    assert not game.over and game.overtime_hands == 1


def test_art39_art44_the_directors_close_an_overtime_at_the_cap():
    game = overtime_state(hands=OVERTIME_HAND_CAP - 1)
    game_advance(game, ron(1, 3), [0, 1000, 0, -1000], 0)
    assert game.over and game.overtime_closed and game.overtime_hands == OVERTIME_HAND_CAP


# --- Whole events through the services ---------------------------------------------------------


def incidents_event(players: int, rounds: int, seed: int, slug: str, tally: Counter | None = None) -> Event:
    event = event_create(
        slug=slug,
        name="Incidents",
        players=simulated_players(players),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=rounds,
        overtime_enabled=True,
        final_games=2,
        clock_bank_seconds=60,
        clock_increment_seconds=5,
    )
    summary = event_simulate(event, rounds=rounds, seed=seed, seating="shuffle", incidents=ALL_INCIDENTS)
    if tally is not None:
        tally.update(summary.incidents)
    return event


@pytest.fixture(scope="module")
def incidents_once(django_db_setup, django_db_blocker):
    """16 players × 4 rounds with every incident, played once for the module and rolled back after;
    the event's id and the incidents the simulation counted."""
    tally = Counter()
    with django_db_blocker.unblock(), transaction.atomic():
        event = incidents_event(16, 4, INCIDENTS_SEED, "incidents", tally)
        yield event.pk, tally
        transaction.set_rollback(True)


@pytest.fixture
def incidents(incidents_once, db):
    return Event.objects.select_related("ruleset").get(pk=incidents_once[0])


@pytest.fixture
def tally(incidents_once) -> Counter:
    return incidents_once[1]


def test_every_incident_happens_and_the_audit_finds_nothing(incidents, tally):
    penalties = Penalty.objects.filter(event=incidents)
    kinds = Counter(penalties.filter(cancelled_at__isnull=True).values_list("kind", flat=True))
    assert kinds["art35_revealed_hand"] + kinds["art36_out_of_turn"] + kinds["art36_wrong_hand_size"] >= 1
    assert kinds["art36_wall_wrecked"] >= 1 and kinds["art37_deliberate_foul"] >= 1
    assert penalties.filter(cancelled_at__isnull=False).exists()
    absences = Counter(Seat.objects.filter(round__event=incidents).values_list("absence", flat=True))
    assert absences["absent_before"] >= 1 and absences["absent_during"] >= 1
    assert HandVersion.objects.filter(hand__table__round__event=incidents, overtime=True).exists()
    for name in (
        "lifted",
        "confirmed",
        "kept",
        "three_player_fouls",
        "clock_hands",
        "claims",
        "claims_refused",
        "final_disqualified",
        "champion",
    ):
        assert tally[name] >= 1, name
    assert event_audit(incidents) == []


def test_art36_wrecked_walls_are_replayed_hands_that_move_nothing(incidents):
    wrecked = Penalty.objects.filter(event=incidents, kind="art36_wall_wrecked")
    for penalty in wrecked:
        version = HandVersion.objects.get(hand__table=penalty.table, hand__number=penalty.hand_number)
        assert version.outcome == "replayed" and set(version.deltas) == {0}
        following = HandVersion.objects.get(hand__table=penalty.table, hand__number=penalty.hand_number + 1)
        assert (following.dealer_position, following.honba) == (version.dealer_position, version.honba)
        # art. 36 ③: the offender neither claims nor wins in the replayed hand
        playing = list(penalty.table.seats.exclude(absence="absent_before").order_by("position"))
        assert all(playing[win["winner"]].entry_id != penalty.entry_id for win in following.wins)


def test_art37_art42_a_foul_after_a_leave_counts_the_players_left(incidents, tally):
    assert tally["three_player_fouls"] >= 1
    left = Seat.objects.filter(round__event=incidents, absence="absent_during")
    fouls = [
        foul
        for seat in left
        for foul in Penalty.objects.filter(
            table=seat.table, kind="art37_deliberate_foul", hand_number=seat.left_after_hand + 1
        )
    ]
    assert fouls and all(foul.points == 300 for foul in fouls)  # 100 × the three left, not 400


def test_art43_lifted_confirmed_and_kept_disqualifications(incidents, tally):
    assert tally["lifted"] >= 1 and tally["confirmed"] >= 1 and tally["kept"] >= 1
    confirmed = Entry.objects.filter(event=incidents, disqualification_confirmed_at__isnull=False)
    assert confirmed.exists() and all(e.status == Entry.Status.DISQUALIFIED for e in confirmed)
    cancelled = Penalty.objects.filter(event=incidents, kind="art37_deliberate_foul", cancelled_at__isnull=False)
    for foul in cancelled:  # lifted, unless confirmed (or disqualified by another foul in force)
        entry = foul.entry
        assert (
            entry.status == Entry.Status.ACTIVE
            or entry.disqualification_confirmed_at is not None
            or (entry.disqualified_by_penalty_id not in (None, foul.pk))
        )


def test_art40_art43_the_final_crowns_an_eligible_finalist_after_the_prescribed_games(incidents, tally):
    finals = list(incidents.rounds.filter(is_final=True).order_by("number"))
    assert len(finals) >= incidents.final_games == 2
    first, second = ({s.entry_id for s in r.seats.all()} for r in finals[:2])
    gone = first - second
    assert second <= first and all(Entry.objects.get(pk=e).status == Entry.Status.DISQUALIFIED for e in gone)
    assert incidents.champion is not None and incidents.champion.award_eligible
    assert incidents.champion_id in {s.entry_id for s in finals[-1].seats.all()}
    assert tally["final_disqualified"] >= 1  # a finalist disqualified in the final, and not crowned


def test_art35_art36_a_penalised_seat_does_not_win_its_hand(incidents):
    fouls = Penalty.objects.filter(
        event=incidents,
        cancelled_at__isnull=True,
        kind__in=["art35_revealed_hand", "art36_out_of_turn", "art36_wrong_hand_size"],
    )
    assert fouls.exists()
    for penalty in fouls:
        playing = list(penalty.table.seats.exclude(absence="absent_before").order_by("position"))
        position = next(i for i, seat in enumerate(playing) if seat.entry_id == penalty.entry_id)
        version = HandVersion.objects.get(hand__table=penalty.table, hand__number=penalty.hand_number)
        for win in version.wins:
            if win["winner"] == position:
                assert penalty.kind == "art35_revealed_hand" and win["discarder"] is None


def test_art37_art43_a_deliberate_foul_disqualifies_and_unseats_for_later_rounds(incidents):
    fouls = Penalty.objects.filter(event=incidents, kind="art37_deliberate_foul", cancelled_at__isnull=True)
    foul = next(f for f in fouls.order_by("id") if f.round_number < incidents.planned_rounds)
    playing = [s for s in foul.table.seats.exclude(absence="absent_before") if s.plays_hand(foul.hand_number)]
    assert foul.points == 100 * len(playing)  # art. 37: 100 × the players at the table in the foul's hand
    entry = Entry.objects.get(pk=foul.entry_id)
    assert entry.status == Entry.Status.DISQUALIFIED
    rounds = set(Seat.objects.filter(entry=entry).values_list("round__number", flat=True))
    assert max(rounds) == foul.round_number < incidents.planned_rounds  # nothing after the foul's round
    assert Ruling.objects.filter(event=incidents, entry=entry, decision__contains="art. 43").exists()


def test_art42_an_absentee_before_the_game_forfeits_at_a_smaller_table(incidents):
    seat = Seat.objects.filter(round__event=incidents, absence="absent_before").first()
    versions = HandVersion.objects.filter(hand__table=seat.table)
    seated = seat.table.seats.count()
    assert {len(v.deltas) for v in versions} == {seated - 1}  # m = seated − 1 players
    row = SeatResult.objects.get(seat=seat, is_current=True)
    uma = incidents.ruleset.uma_for(seated)
    assert row.forfeit and row.final_points is None and row.placement is None
    assert row.placement_points == uma[-1] * seat.table.multiplier  # 一人負け相当の順位点


def test_art42_a_player_who_left_changes_nothing_afterwards_and_forfeits(incidents):
    seat = Seat.objects.filter(round__event=incidents, absence="absent_during").first()
    playing = list(seat.table.seats.exclude(absence="absent_before").order_by("position"))
    position = playing.index(seat)
    later = HandVersion.objects.filter(hand__table=seat.table, hand__number__gt=seat.left_after_hand)
    assert later.exists() and all(v.deltas[position] == 0 for v in later)
    row = SeatResult.objects.get(seat=seat, is_current=True)
    seated = seat.table.seats.count()  # the sole last place of the table as seated, not as it finished
    assert row.forfeit and row.placement is None and row.final_points is not None  # the points stand
    assert row.placement_points == incidents.ruleset.uma_for(seated)[-1] * seat.table.multiplier


def test_art39_overtime_years_multiply_the_placement_points(incidents):
    table = Table.objects.filter(round__event=incidents, round__is_final=False).order_by("-overtime_year").first()
    overtime = list(HandVersion.objects.filter(hand__table=table, overtime=True).order_by("hand__number"))
    year = (len(overtime) + 3) // 4  # four seasons a year
    assert table.overtime_year == year >= 1
    assert overtime[0].label.startswith("1年春") and overtime[-1].label.startswith(f"{year}年")
    rows = list(SeatResult.objects.filter(table=table, is_current=True, forfeit=False))
    uma = incidents.ruleset.uma_for(len(rows))
    assert len({r.final_points for r in rows}) == len(rows)  # no tie at this table: one place each
    for row in rows:  # art. 39 ③: the placement points of each place × the year
        assert row.placement_points == uma[row.placement - 1] * year and row.multiplier == year


@pytest.mark.django_db
def test_a_simulation_with_incidents_is_deterministic_for_its_seed():
    def sequences(event):
        hands = HandVersion.objects.filter(hand__table__round__event=event).order_by(
            "hand__table__round__number", "hand__table__number", "hand__number"
        )
        fouls = Penalty.objects.filter(event=event).order_by("id")
        absences = Seat.objects.filter(round__event=event).order_by("round__number", "table__number", "position")
        return (
            [(v.outcome, v.deltas, v.overtime) for v in hands],
            [(p.kind, p.hand_number, p.cancelled_at is None) for p in fouls],
            [(s.absence, s.left_after_hand) for s in absences],
        )

    first = sequences(incidents_event(8, 2, 17, "first"))
    again = sequences(incidents_event(8, 2, 17, "again"))
    assert first == again


@pytest.mark.django_db
def test_overtime_incidents_need_an_event_with_overtime():
    event = event_create(
        slug="no-overtime",
        name="No overtime",
        players=simulated_players(4),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=1,
    )
    with pytest.raises(SimulationError) as info:
        event_simulate(event, rounds=1, seed=1, incidents=Incidents(overtime=True))
    assert info.value.code == "overtime_disabled"


@pytest.mark.django_db
def test_simulate_event_command_with_every_incident_flag_passes_the_audit():
    out = StringIO()
    call_command(
        "simulate_event",
        "--players",
        "16",
        "--rounds",
        "4",
        "--seed",
        str(INCIDENTS_SEED),
        "--seating",
        "shuffle",
        "--penalties",
        "--absences",
        "--overtime",
        stdout=out,
    )
    assert "Incidents: penalties " in out.getvalue()
    event = Event.objects.get(slug=f"sim-16x4-s{INCIDENTS_SEED}")
    assert event.overtime_enabled and Penalty.objects.filter(event=event).exists()
    audit = StringIO()
    call_command("audit_event", event.slug, stdout=audit)
    assert "no violations" in audit.getvalue()


@pytest.mark.slow
@pytest.mark.django_db
def test_a_64_player_6_round_event_with_every_incident_passes_the_audit():
    tally = Counter()
    event = incidents_event(64, 6, 7, "large-incidents", tally)
    assert event_audit(event) == []
    years = set(Table.objects.filter(round__event=event).values_list("overtime_year", flat=True))
    assert 2 in years  # art. 39 ③: placement points ×2 (an overtime the engine let run into year 2)
    assert Entry.objects.filter(event=event, status=Entry.Status.DISQUALIFIED).exists()
    for name in ("lifted", "confirmed", "kept", "three_player_fouls", "claims_refused", "final_games"):
        assert tally[name] >= 1, name
    assert event.champion.award_eligible
    assert Seat.objects.filter(round__event=event).exclude(absence="present").count() >= 2
