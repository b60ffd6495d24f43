"""Simulated events: random but legal games played hand by hand through the tournament services.

Used for the demo data, to measure the services on a large field and, together with
``tournament.audit``, to check that everything the services record holds together.

Each game is an East-South game 半荘 (hanchan): the deal passes round the table twice, the dealer 親
repeats 連荘 on a dealer win or when tenpai 聴牌 at an exhaustive draw 荒牌流局 (and at an abortive draw
途中流局), honba 本場 go up on draws and dealer wins and back to 0 on a non-dealer win, and the game
stops after the last South hand without a dealer repeat, or at a hand cap. Wins use han/fu pairs that
exist (the services reject the others). Seating comes from the pairing engine when it is installed
(``tournament.engine.pairing.protocol.seat_round``: random for round 1, Swiss on the standings
snapshot after), otherwise from a seeded shuffle.

Deterministic for a seed: the seating of a round and the game of a table each draw from their own
random stream, seeded from (seed, round, table).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction

from players.models import Player
from scoring.models import Ruleset
from tournament.engine.dealer import next_deal
from tournament.models import Entry, Event, Round, Seat, StandingsSnapshot, Table
from tournament.services import (
    entry_register,
    event_finish,
    hand_record,
    round_complete,
    round_create,
    table_finish,
)
from tournament.standings import standings_recompute

HAND_CAP = 16  # a game stops after this many hands even while the dealer keeps repeating
PAIRING_MODULE = "tournament.engine.pairing.protocol"
SEATING_CHOICES = ("auto", "engine", "shuffle")
SIMULATED_CLUB = "Simulation"

# How hands end, in thousandths of hands (roughly what tournament score sheets show).
ABORTIVE_DRAW_PER_MILLE = 15  # 途中流局
EXHAUSTIVE_DRAW_PER_MILLE = 160  # 荒牌流局
TSUMO_PER_MILLE = 300  # 自摸和; the rest are ron 栄和
MULTIPLE_RON_PER_MILLE = 30  # of the rons: two winners on one discard (ダブロン)
YAKUMAN_PER_MILLE = 4  # of the wins
RIICHI_PER_MILLE = 180  # each seat that can pay the stick declares riichi 立直 this often
TENPAI_PER_MILLE = 350  # a seat without riichi is tenpai at an exhaustive draw this often

# Han of a win (limits from 5 han: mangan 満貫 … 13+ counted yakuman 数え役満) and the fu of a win
# below 5 han, as relative weights.
HAN_WEIGHTS = {1: 260, 2: 260, 3: 200, 4: 120, 5: 60, 6: 40, 7: 20, 8: 20, 9: 8, 10: 5, 11: 3, 12: 2, 13: 2}
FU_WEIGHTS = {20: 300, 25: 70, 30: 400, 40: 220, 50: 80, 60: 40, 70: 20, 80: 10, 90: 6, 100: 3, 110: 2}


class SimulationError(Exception):
    """The simulation cannot go on (bad arguments, or the pairing engine refused the request)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# --- One game, without the database -------------------------------------------------------------


@dataclass
class GameState:
    """Where a simulated game stands between two hands."""

    players: int
    start_points: int
    riichi_stick: int
    max_hands: int = HAND_CAP
    dealer: int = 0  # 親, seat position
    wind: int = 0  # prevailing wind 場風: 0 East round 東場, 1 South round 南場
    honba: int = 0  # 本場
    deposits: int = 0  # riichi deposits 供託 on the table, in points
    hands: int = 0
    points: list[int] = field(default_factory=list)
    over: bool = False

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [self.start_points] * self.players


def _per_mille(rng: random.Random, share: int) -> bool:
    return rng.randrange(1000) < share


def fu_allowed(*, han: int, fu: int, tsumo: bool) -> bool:
    """The han/fu pairs a hand can have (seed 001): 20 fu is pinfu tsumo (≥ 2 han), 25 fu chiitoitsu
    七対子 (≥ 2 han, ≥ 3 han with tsumo); 30–110 fu exist with any han."""
    if fu == 20:
        return tsumo and han >= 2
    if fu == 25:
        return han >= (3 if tsumo else 2)
    return 30 <= fu <= 110 and fu % 10 == 0


def win_value_draw(rng: random.Random, *, tsumo: bool) -> dict:
    """Han, fu and yakuman of one random win, as a score sheet writes them."""
    if _per_mille(rng, YAKUMAN_PER_MILLE):
        return {"han": 0, "yakuman": 1}  # 役満
    han = rng.choices(list(HAN_WEIGHTS), weights=list(HAN_WEIGHTS.values()))[0]
    if han >= 5:
        return {"han": han}  # a limit hand 満貫以上 is paid without fu
    fus = [fu for fu in FU_WEIGHTS if fu_allowed(han=han, fu=fu, tsumo=tsumo)]
    fu = rng.choices(fus, weights=[FU_WEIGHTS[fu] for fu in fus])[0]
    return {"han": han, "fu": fu}


def _winners_draw(rng: random.Random, players: int, riichi: Sequence[int], count: int) -> list[int]:
    """``count`` distinct winners; a seat in riichi is twice as likely to win as one that is not."""
    seats = list(range(players))
    winners: list[int] = []
    while len(winners) < count:
        left = [s for s in seats if s not in winners]
        winners.append(rng.choices(left, weights=[2 if s in riichi else 1 for s in left])[0])
    return winners


def hand_draw(rng: random.Random, state: GameState) -> dict:
    """The next hand of the game in the services' hand format (``tournament.hand_input``)."""
    players = state.players
    hand = {
        "dealer_position": state.dealer,
        "honba": state.honba,
        "deposits_in": state.deposits,
        "riichi_positions": [],
        "wins": [],
        "tenpai_positions": [],
    }
    if _per_mille(rng, ABORTIVE_DRAW_PER_MILLE):  # e.g. nine terminals 九種九牌, before anyone declares
        return {**hand, "outcome": "abortive_draw"}
    riichi = [
        seat
        for seat in range(players)
        if state.points[seat] >= state.riichi_stick and _per_mille(rng, RIICHI_PER_MILLE)
    ]
    hand["riichi_positions"] = riichi
    roll = rng.randrange(1000)
    if roll < EXHAUSTIVE_DRAW_PER_MILLE:
        tenpai = set(riichi) | {s for s in range(players) if _per_mille(rng, TENPAI_PER_MILLE)}
        return {**hand, "outcome": "exhaustive_draw", "tenpai_positions": sorted(tenpai)}
    if roll < EXHAUSTIVE_DRAW_PER_MILLE + TSUMO_PER_MILLE:
        (winner,) = _winners_draw(rng, players, riichi, 1)
        win = {"winner": winner, "discarder": None, **win_value_draw(rng, tsumo=True)}
        return {**hand, "outcome": "tsumo", "wins": [win]}
    count = 2 if players >= 3 and _per_mille(rng, MULTIPLE_RON_PER_MILLE) else 1
    winners = _winners_draw(rng, players, riichi, count)
    discarder = rng.choice([s for s in range(players) if s not in winners])
    wins = [{"winner": w, "discarder": discarder, **win_value_draw(rng, tsumo=False)} for w in winners]
    return {**hand, "outcome": "ron", "wins": wins}


def game_advance(state: GameState, hand: dict, deltas: Sequence[int], deposits_out: int) -> None:
    """Move the game on after a recorded hand: points, deposits, dealer, honba, and whether it is over."""
    state.points = [p + d for p, d in zip(state.points, deltas, strict=True)]
    state.deposits = deposits_out
    state.hands += 1
    deal = next_deal(
        players=state.players, dealer=state.dealer, honba=state.honba, outcome=hand["outcome"],
        winners=tuple(w["winner"] for w in hand.get("wins", ())), tenpai=tuple(hand.get("tenpai_positions", ())),
    )  # fmt: skip
    state.dealer, state.honba = deal.dealer, deal.honba
    state.wind += deal.wind_advances
    state.over = state.wind >= 2 or state.hands >= state.max_hands


def tables_partition(entry_ids: Sequence[int], table_size: int) -> list[list[int]]:
    """Split players in order into the fewest tables of at most ``table_size``, sizes within one of
    each other (17 players at four → 4, 4, 3, 3, 3)."""
    count = len(entry_ids)
    if count < 2:
        raise SimulationError("too_few_players", "a round needs at least two players")
    tables = math.ceil(count / table_size)
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    out, start = [], 0
    for size in sizes:
        out.append(list(entry_ids[start : start + size]))
        start += size
    return out


# --- Seating ------------------------------------------------------------------------------------


def pairing_engine():
    """``seat_round`` of the pairing engine when it is installed, else None."""
    try:
        spec = importlib.util.find_spec(PAIRING_MODULE)
    except ModuleNotFoundError:
        return None
    if spec is None:
        return None
    return getattr(importlib.import_module(PAIRING_MODULE), "seat_round", None)


def _seating_history(event: Event) -> list[list[list[int]]]:
    history: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, entry_id in (
        Seat.objects.filter(round__event=event)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    ):
        history.setdefault(round_number, {}).setdefault(table_number, []).append(entry_id)
    return [list(tables.values()) for _, tables in sorted(history.items())]


def _standings_order(event: Event) -> list[int]:
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    return [row["entry"] for row in snapshot.rows] if snapshot else []


def round_seat(event: Event, *, seed: int, seating: str = "auto") -> tuple[Round, str]:
    """Seat and create the event's next round; returns it and the seating used (engine or shuffle)."""
    if seating not in SEATING_CHOICES:
        raise SimulationError("invalid_seating", f"seating must be one of {', '.join(SEATING_CHOICES)}")
    number = event.rounds.count() + 1
    entries = list(event.entries.order_by("id").values_list("id", "status"))
    active = [entry_id for entry_id, status in entries if status == Entry.Status.ACTIVE]
    engine = pairing_engine() if seating != "shuffle" else None
    if seating == "engine" and engine is None:
        raise SimulationError("no_pairing_engine", f"{PAIRING_MODULE}.seat_round is not installed")
    if engine is None:
        rng = random.Random(f"{seed}:seating:{number}")
        rng.shuffle(active)
        return round_create(event=event, tables=tables_partition(active, event.table_size)), "shuffle"
    standings = _standings_order(event) if number > 1 else []
    request = {
        "players": [entry_id for entry_id, _ in entries],
        "history": _seating_history(event),
        "standings": standings,
        "absent": [entry_id for entry_id, status in entries if status != Entry.Status.ACTIVE],
        "table_size": event.table_size,
        "mode": "swiss" if standings else "random",
        "remainder": "three",
        "round": number,
        "total_rounds": max(event.planned_rounds, number),
        "seed": seed,
        "time_limit_s": 0.5,
    }
    response = engine(request)
    if "error" in response:
        error = response["error"]
        raise SimulationError(f"seating_{error.get('code')}", f"the pairing engine: {error.get('message')}")
    report = {**response.get("report", {}), "byes": response.get("byes", []), "mode": request["mode"]}
    return round_create(event=event, tables=response["tables"], report=report), "engine"


# --- Playing through the services ---------------------------------------------------------------


def _table_rng(seed: int, table: Table) -> random.Random:
    return random.Random(f"{seed}:table:{table.round.number}:{table.number}")


def table_play(table: Table, *, seed: int, user=None, hands: int | None = None, finish: bool = True) -> int:
    """Play ``table``'s game hand by hand (at most ``hands`` of it when given), confirming its result
    when the game is over and ``finish``. Returns the number of hands recorded.

    The table's hands and result go in one transaction: each service call is its own savepoint.
    """
    ruleset = table.round.event.ruleset
    players = table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE).count()
    rng = _table_rng(seed, table)
    state = GameState(players=players, start_points=ruleset.start_points, riichi_stick=ruleset.riichi_stick)
    with transaction.atomic():
        while not state.over and (hands is None or state.hands < hands):
            data = hand_draw(rng, state)
            version = hand_record(
                table=table, number=state.hands + 1, expected_version=0, data=data, user=user
            )
            game_advance(state, data, version.deltas, version.deposits_out)
        if finish and state.over:
            table_finish(table=table, user=user)
    return state.hands


@dataclass
class SimulationSummary:
    event: str
    rounds: int = 0
    tables: int = 0
    hands: int = 0
    seconds: float = 0.0
    seating: set[str] = field(default_factory=set)

    def text(self) -> str:
        return (
            f"{self.event}: {self.rounds} rounds completed, {self.tables} tables finished, {self.hands} hands "
            f"in {self.seconds:.1f} s (seating: {', '.join(sorted(self.seating)) or 'none'})"
        )


def round_play(
    round_: Round,
    *,
    seed: int,
    user=None,
    finish_tables: int | None = None,
    partial_hands: int = 0,
    summary: SimulationSummary | None = None,
) -> SimulationSummary:
    """Play a round's tables. By default every table plays to the end and the round is completed;
    with ``finish_tables`` only the first that many finish, and the next table (if any) plays its
    first ``partial_hands`` hands: a round in progress."""
    summary = summary or SimulationSummary(event=round_.event.slug)
    tables = list(round_.tables.select_related("round__event__ruleset").order_by("number"))
    for index, table in enumerate(tables):
        if finish_tables is None or index < finish_tables:
            summary.hands += table_play(table, seed=seed, user=user)
            summary.tables += 1
        elif index == finish_tables and partial_hands:
            summary.hands += table_play(table, seed=seed, user=user, hands=partial_hands, finish=False)
    if finish_tables is None:
        round_complete(round_=round_)
        summary.rounds += 1
    # The services queue a recompute after commit; refresh the snapshot now so that the next seating
    # (and a caller inside an outer transaction) sees the standings as they are.
    standings_recompute(event_id=round_.event_id)
    return summary


def event_simulate(
    event: Event,
    *,
    rounds: int,
    seed: int,
    seating: str = "auto",
    user=None,
    in_progress: tuple[int, int] | None = None,
) -> SimulationSummary:
    """Play ``rounds`` whole rounds of ``event``; then, with ``in_progress=(tables, hands)``, seat one
    more round with that many tables finished and the next one ``hands`` hands into its game.
    The event is marked finished when its planned rounds are all completed."""
    started = time.perf_counter()
    summary = SimulationSummary(event=event.slug)
    for _ in range(rounds):
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        round_play(round_, seed=seed, user=user, summary=summary)
    if in_progress is not None:
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        finish_tables, partial_hands = in_progress
        round_play(
            round_, seed=seed, user=user, finish_tables=finish_tables, partial_hands=partial_hands,
            summary=summary,
        )  # fmt: skip
    elif event.rounds.filter(status=Round.Status.COMPLETED).count() >= event.planned_rounds:
        event = event_finish(event=event)
    summary.seconds = time.perf_counter() - started
    return summary


def simulated_players(count: int) -> list[Player]:
    """Players named "Simulated player 001" …, created the first time they are needed."""
    players = []
    for number in range(1, count + 1):
        player, _ = Player.objects.get_or_create(
            display_name=f"Simulated player {number:03d}", club=SIMULATED_CLUB
        )
        players.append(player)
    return players


def event_create(
    *,
    slug: str,
    name: str,
    players: Sequence[Player],
    ruleset: Ruleset,
    planned_rounds: int,
    table_size: int = 4,
    is_public: bool = False,
    organizer=None,
    **fields,
) -> Event:
    """An event in registration with ``players`` entered through ``entry_register``."""
    if Event.objects.filter(slug=slug).exists():
        raise SimulationError("event_exists", f"an event with the slug {slug!r} already exists")
    if table_size not in (3, 4):
        raise SimulationError("invalid_table_size", "the table size is 3 or 4")
    event = Event.objects.create(
        slug=slug, name=name, ruleset=ruleset, planned_rounds=planned_rounds, table_size=table_size,
        is_public=is_public, status=Event.Status.REGISTRATION, entry_mode=Event.EntryMode.HANDS, **fields,
    )  # fmt: skip
    if organizer is not None:
        event.organizers.add(organizer)
    for player in players:
        entry_register(event=event, player=player)
    return event
