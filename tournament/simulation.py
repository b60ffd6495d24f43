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

Seed 004 incidents, each behind its own flag (``Incidents``; all off by default, and with them off
the games are exactly those of a plain simulation):

* penalties: now and then a referee logs an art. 35 / 36 ①② foul against a seat before its hand is
  recorded, and that seat does not win the hand (another seat wins, or nobody); sometimes the penalty
  is cancelled at once and the right comes back. An art. 36 ③ wrecked wall stops the hand: it is
  recorded as replayed and played again with the same dealer and honba. Rarely an art. 37 deliberate
  foul: penalty points, and in tournament play disqualification (art. 43): the player finishes the game
  in progress (a director's ruling, art. 44) and is not seated in later rounds.
* absences (art. 42): a player absent before the game (the table plays three- or two-player), or one who
  leaves during it after some hands (the game goes on without them; the deal skips their seat).
* overtime (art. 39, the event's ``overtime_enabled``): a game that ends with nobody above
  ``OVERTIME_THRESHOLD``, and now and then another, goes on with overtime hands 1年春, 1年夏, … until a
  hand is drawn or its winner ends above ``OVERTIME_WIN_POINTS`` (the win condition 勝利条件); the
  directors close it after ``OVERTIME_HAND_CAP`` hands (3年春: placement points ×3).

Deterministic for a seed: the seating of a round and the game of a table each draw from their own
random stream, seeded from (seed, round, table); each kind of incident has its own stream too.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction

from players.models import Player
from scoring.models import Ruleset
from tournament.engine.dealer import next_deal
from tournament.engine.overtime import OvertimeHandOutcome, overtime_after_hand, overtime_hand_at
from tournament.engine.penalties import PenaltyKind, penalty_effect
from tournament.models import Entry, Event, Round, Seat, StandingsSnapshot, Table
from tournament.rules_services import penalty_cancel, penalty_log, ruling_record, seat_mark_absent
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

# Seed 004 incidents, in thousandths (only with their flags).
RIGHTS_PENALTY_PER_MILLE = 12  # of hands: an art. 35 / 36 ①② foul before the hand is recorded
RIGHTS_PENALTY_KINDS = (PenaltyKind.REVEALED_HAND, PenaltyKind.OUT_OF_TURN, PenaltyKind.WRONG_HAND_SIZE)
CANCELLED_PER_MILLE = 250  # of those: cancelled at once (the referee misread the situation)
WALL_WRECKED_PER_MILLE = 5  # of regular hands: art. 36 ③, the hand is replayed from the shuffle 洗札
DELIBERATE_FOUL_PER_MILLE = 2  # of hands: art. 37 penalty points; disqualifying in tournament play
ABSENT_BEFORE_PER_MILLE = 25  # of tables: a player absent before the game 対局前の欠員 (art. 42)
ABSENT_DURING_PER_MILLE = 25  # of tables: a player who leaves during the game 対局中の欠員
LEAVE_AFTER_HANDS = (1, 8)  # ... after this many hands (at least, at most)
OVERTIME_THRESHOLD = 30000  # a game that ends with nobody above this goes to overtime
OVERTIME_RANDOM_PER_MILLE = 100  # of the other games: overtime all the same
OVERTIME_WIN_POINTS = 40000  # the win condition 勝利条件: an overtime winner who ends above this
OVERTIME_HAND_CAP = 9  # the directors close an overtime after 3年春 (art. 44)


@dataclass(frozen=True)
class Incidents:
    """The seed 004 incidents a simulation plays; none by default."""

    penalties: bool = False
    absences: bool = False
    overtime: bool = False


NO_INCIDENTS = Incidents()


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
    active: list[int] = field(default_factory=list)  # seat positions still playing (art. 42), in order
    overtime: bool = False  # playing overtime hands 延長戦 (art. 39)
    overtime_hands: int = 0
    overtime_closed: bool = False  # closed by the directors at the cap (art. 44)

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [self.start_points] * self.players
        if not self.active:
            self.active = list(range(self.players))


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


def _winners_draw(rng: random.Random, seats: Sequence[int], riichi: Sequence[int], count: int) -> list[int]:
    """``count`` distinct winners among ``seats``; a seat in riichi is twice as likely to win."""
    winners: list[int] = []
    while len(winners) < count:
        left = [s for s in seats if s not in winners]
        winners.append(rng.choices(left, weights=[2 if s in riichi else 1 for s in left])[0])
    return winners


def hand_draw(
    rng: random.Random, state: GameState, *, barred: dict[int, frozenset[str]] | None = None
) -> dict:
    """The next hand of the game in the services' hand format (``tournament.hand_input``).

    Only the seats still playing take part. ``barred`` maps a seat to the wins ("ron", "tsumo") a
    penalty took from it this hand: it is not drawn as such a winner; when nobody may win the drawn
    way, the hand is an exhaustive draw."""
    active = state.active
    barred = barred or {}
    hand = {
        "dealer_position": state.dealer,
        "honba": state.honba,
        "deposits_in": state.deposits,
        "riichi_positions": [],
        "wins": [],
        "tenpai_positions": [],
    }
    if state.overtime:
        hand["overtime"] = True  # 延長戦 (art. 39)
    if _per_mille(rng, ABORTIVE_DRAW_PER_MILLE):  # e.g. nine terminals 九種九牌, before anyone declares
        return {**hand, "outcome": "abortive_draw"}
    riichi = [
        seat
        for seat in active
        if state.points[seat] >= state.riichi_stick and _per_mille(rng, RIICHI_PER_MILLE)
    ]
    hand["riichi_positions"] = riichi
    roll = rng.randrange(1000)
    if roll < EXHAUSTIVE_DRAW_PER_MILLE:
        return _exhaustive_draw(rng, hand, active, riichi)
    if roll < EXHAUSTIVE_DRAW_PER_MILLE + TSUMO_PER_MILLE:
        allowed = [s for s in active if "tsumo" not in barred.get(s, ())]
        if not allowed:
            return _exhaustive_draw(rng, hand, active, riichi)
        (winner,) = _winners_draw(rng, allowed, riichi, 1)
        win = {"winner": winner, "discarder": None, **win_value_draw(rng, tsumo=True)}
        return {**hand, "outcome": "tsumo", "wins": [win]}
    allowed = [s for s in active if "ron" not in barred.get(s, ())]
    count = 2 if len(active) >= 3 and _per_mille(rng, MULTIPLE_RON_PER_MILLE) else 1
    if not allowed:
        return _exhaustive_draw(rng, hand, active, riichi)
    winners = _winners_draw(rng, allowed, riichi, min(count, len(allowed)))
    discarder = rng.choice([s for s in active if s not in winners])
    wins = [{"winner": w, "discarder": discarder, **win_value_draw(rng, tsumo=False)} for w in winners]
    return {**hand, "outcome": "ron", "wins": wins}


def _exhaustive_draw(rng: random.Random, hand: dict, active: Sequence[int], riichi: Sequence[int]) -> dict:
    """荒牌流局: the seats in riichi are tenpai, the others now and then."""
    tenpai = set(riichi) | {s for s in active if _per_mille(rng, TENPAI_PER_MILLE)}
    return {**hand, "outcome": "exhaustive_draw", "tenpai_positions": sorted(tenpai)}


def replayed_hand(state: GameState) -> dict:
    """A hand stopped by a wrecked wall (art. 36 ③): recorded as replayed, it moves no points."""
    hand = {
        "dealer_position": state.dealer, "honba": state.honba, "deposits_in": state.deposits,
        "riichi_positions": [], "wins": [], "tenpai_positions": [], "outcome": "replayed",
    }  # fmt: skip
    if state.overtime:
        hand["overtime"] = True
    return hand


def game_advance(state: GameState, hand: dict, deltas: Sequence[int], deposits_out: int) -> None:
    """Move the game on after a recorded hand: points, deposits, dealer, honba, and whether it is over.

    The deal goes round the seats still playing. In overtime the game ends as art. 39 ② says: when a
    hand is drawn, or its winner meets the win condition (ends above ``OVERTIME_WIN_POINTS``); the
    directors close it after ``OVERTIME_HAND_CAP`` hands."""
    state.points = [p + d for p, d in zip(state.points, deltas, strict=True)]
    state.deposits = deposits_out
    state.hands += 1
    active = state.active
    deal = next_deal(
        players=len(active), dealer=active.index(state.dealer), honba=state.honba, outcome=hand["outcome"],
        winners=tuple(active.index(w["winner"]) for w in hand.get("wins", ())),
        tenpai=tuple(active.index(s) for s in hand.get("tenpai_positions", ())),
    )  # fmt: skip
    state.dealer, state.honba = active[deal.dealer], deal.honba
    state.wind += deal.wind_advances
    if state.overtime:
        _overtime_advance(state, hand)
    else:
        state.over = state.wind >= 2 or state.hands >= state.max_hands


def _overtime_advance(state: GameState, hand: dict) -> None:
    state.overtime_hands += 1
    winners = [w["winner"] for w in hand.get("wins", ())]
    meets = any(state.points[w] > OVERTIME_WIN_POINTS for w in winners)  # 勝利条件
    closed = bool(winners) and not meets and state.overtime_hands >= OVERTIME_HAND_CAP
    decision = overtime_after_hand(
        overtime_hand_at(state.overtime_hands - 1),
        OvertimeHandOutcome(winners[0] if winners else None, meets, closed_by_organizer=closed),
    )
    state.over = decision.game_over
    state.overtime_closed = decision.reason == "closed_by_organizer"


def seat_leaves(state: GameState, position: int) -> None:
    """Art. 42: the player at ``position`` leaves between two hands. When it was their deal, the next
    seat still playing deals; passing back to the first seat starts the next wind round."""
    following = [p for p in state.active if p > position]
    state.active = [p for p in state.active if p != position]
    if state.dealer != position:
        return
    if following:
        state.dealer = following[0]
    else:
        state.dealer = state.active[0]
        state.wind += 1
        if not state.overtime:
            state.over = state.wind >= 2


def overtime_wanted(rng: random.Random, state: GameState) -> bool:
    """Art. 39 ①: a winner has to be decided when nobody still playing ended above the threshold;
    now and then an event wants one all the same."""
    top = max(state.points[p] for p in state.active)
    return top <= OVERTIME_THRESHOLD or _per_mille(rng, OVERTIME_RANDOM_PER_MILLE)


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


def _incident_rng(seed: int, table: Table, kind: str) -> random.Random:
    return random.Random(f"{seed}:{kind}:{table.round.number}:{table.number}")


def table_play(
    table: Table,
    *,
    seed: int,
    user=None,
    hands: int | None = None,
    finish: bool = True,
    incidents: Incidents = NO_INCIDENTS,
    tally: Counter | None = None,
) -> int:
    """Play ``table``'s game hand by hand (at most ``hands`` of it when given), confirming its result
    when the game is over and ``finish``. Returns the number of hands recorded; ``tally`` counts the
    incidents played (see ``INCIDENT_NAMES``).

    The table's hands and result go in one transaction: each service call is its own savepoint.
    """
    ruleset = table.round.event.ruleset
    tally = Counter() if tally is None else tally
    rng = _table_rng(seed, table)
    absences = _incident_rng(seed, table, "absences") if incidents.absences else None
    fouls = _incident_rng(seed, table, "penalties") if incidents.penalties else None
    overtime = _incident_rng(seed, table, "overtime") if incidents.overtime else None
    with transaction.atomic():
        leave_after = _absences_plan(table, absences, tally, user) if absences else None
        seats = list(
            table.seats.exclude(absence=Seat.Absence.ABSENT_BEFORE)
            .select_related("entry")
            .order_by("position")
        )
        state = GameState(
            players=len(seats), start_points=ruleset.start_points, riichi_stick=ruleset.riichi_stick
        )
        while not state.over and (hands is None or state.hands < hands):
            number = state.hands + 1
            barred, replay = (
                _fouls_before_hand(table, number, seats, state, fouls, tally, user) if fouls else ({}, False)
            )
            data = replayed_hand(state) if replay else hand_draw(rng, state, barred=barred)
            version = hand_record(table=table, number=number, expected_version=0, data=data, user=user)
            game_advance(state, data, version.deltas, version.deposits_out)
            if leave_after == state.hands and not state.over and len(state.active) > 2:
                _seat_leaves(seats, state, absences, tally, user)
            if (
                state.over
                and overtime is not None
                and not state.overtime
                and overtime_wanted(overtime, state)
            ):
                state.overtime, state.over = True, False
                tally["overtime_games"] += 1
        if state.overtime_hands:
            tally["overtime_hands"] += state.overtime_hands
        if state.overtime_closed:
            ruling_record(event=table.round.event, table=table, user=user, decision=(
                f"Overtime closed after {overtime_hand_at(state.overtime_hands - 1).label_ja} (art. 39, art. 44)"
            ))  # fmt: skip
        if finish and state.over:
            table_finish(table=table, user=user)
    return state.hands


INCIDENT_NAMES = {
    "penalties": "penalties",
    "cancelled": "cancelled",
    "replayed": "replayed hands",
    "disqualified": "disqualified",
    "absent_before": "absent before the game",
    "left_during": "left during the game",
    "overtime_games": "games to overtime",
    "overtime_hands": "overtime hands",
}


def _absences_plan(table: Table, rng: random.Random, tally: Counter, user) -> int | None:
    """Art. 42 before the game: now and then a player does not come (the table plays with the others).
    Returns after how many hands a player will leave during the game, or None."""
    seats = list(table.seats.order_by("position"))
    if _per_mille(rng, ABSENT_BEFORE_PER_MILLE) and len(seats) > 2:
        seat_mark_absent(seat=rng.choice(seats), during=False, user=user)
        tally["absent_before"] += 1
    if _per_mille(rng, ABSENT_DURING_PER_MILLE):
        return rng.randint(*LEAVE_AFTER_HANDS)
    return None


def _seat_leaves(seats: list[Seat], state: GameState, rng: random.Random, tally: Counter, user) -> None:
    """Art. 42 during the game: a player still playing leaves; the game goes on without them."""
    position = rng.choice(state.active)
    seat_mark_absent(seat=seats[position], during=True, user=user)
    seat_leaves(state, position)
    tally["left_during"] += 1


def _fouls_before_hand(
    table: Table, number: int, seats: list[Seat], state: GameState, rng: random.Random, tally: Counter, user
) -> tuple[dict[int, frozenset[str]], bool]:
    """Fouls a referee logs during hand ``number`` before it is recorded: the wins they take away per
    seat, and whether the hand is stopped and replayed (art. 36 ③)."""
    event = table.round.event
    barred: dict[int, frozenset[str]] = {}
    if _per_mille(rng, RIGHTS_PENALTY_PER_MILLE):
        position = rng.choice(state.active)
        kind = rng.choice(RIGHTS_PENALTY_KINDS)
        penalty = penalty_log(event=event, entry=seats[position].entry, kind=kind, table=table, hand_number=number,
                              reason=f"simulated: {penalty_effect(kind).title}", user=user)  # fmt: skip
        tally["penalties"] += 1
        if _per_mille(rng, CANCELLED_PER_MILLE):
            penalty_cancel(penalty=penalty, reason="simulated: the referee misread the situation", user=user)
            tally["cancelled"] += 1
        else:
            effect = penalty_effect(kind)
            barred[position] = frozenset(
                win for win, lost in (("ron", effect.loses_ron), ("tsumo", effect.loses_tsumo)) if lost
            )
    replay = not state.overtime and _per_mille(rng, WALL_WRECKED_PER_MILLE)
    if replay:
        kind = PenaltyKind.WALL_WRECKED
        penalty_log(event=event, entry=seats[rng.choice(state.active)].entry, kind=kind, table=table,
                    hand_number=number, reason=f"simulated: {penalty_effect(kind).title}", user=user)  # fmt: skip
        tally["penalties"] += 1
        tally["replayed"] += 1
    if _per_mille(rng, DELIBERATE_FOUL_PER_MILLE):
        _deliberate_foul(table, number, seats, state, rng, tally, user)
    return barred, replay


def _deliberate_foul(
    table: Table, number: int, seats: list[Seat], state: GameState, rng: random.Random, tally: Counter, user
) -> None:
    """Art. 37 penalty points; in tournament play the player is disqualified (art. 43), finishes the
    game in progress by the directors' ruling (art. 44) and is not seated again."""
    event = table.round.event
    active_entries = set(
        Entry.objects.filter(id__in=[seats[p].entry_id for p in state.active], status=Entry.Status.ACTIVE)
        .values_list("id", flat=True)
    )  # fmt: skip
    offenders = [p for p in state.active if seats[p].entry_id in active_entries]
    if not offenders:
        return
    kind = PenaltyKind.DELIBERATE_FOUL
    entry = seats[rng.choice(offenders)].entry
    penalty_log(event=event, entry=entry, kind=kind, table=table, hand_number=number,
                reason=f"simulated: {penalty_effect(kind).title}", user=user)  # fmt: skip
    tally["penalties"] += 1
    entry.refresh_from_db(fields=["status"])
    if entry.status == Entry.Status.DISQUALIFIED:
        tally["disqualified"] += 1
        ruling_record(event=event, table=table, entry=entry, user=user,
                      decision="Disqualified (art. 43): finishes the game in progress, not seated in later rounds")  # fmt: skip


@dataclass
class SimulationSummary:
    event: str
    rounds: int = 0
    tables: int = 0
    hands: int = 0
    seconds: float = 0.0
    seating: set[str] = field(default_factory=set)
    incidents: Counter = field(default_factory=Counter)

    def text(self) -> str:
        text = (
            f"{self.event}: {self.rounds} rounds completed, {self.tables} tables finished, {self.hands} hands "
            f"in {self.seconds:.1f} s (seating: {', '.join(sorted(self.seating)) or 'none'})"
        )
        if any(self.incidents.values()):
            text += "\nIncidents: " + ", ".join(
                f"{label} {self.incidents[key]}" for key, label in INCIDENT_NAMES.items()
            )
        return text


def round_play(
    round_: Round,
    *,
    seed: int,
    user=None,
    finish_tables: int | None = None,
    partial_hands: int = 0,
    summary: SimulationSummary | None = None,
    incidents: Incidents = NO_INCIDENTS,
) -> SimulationSummary:
    """Play a round's tables. By default every table plays to the end and the round is completed;
    with ``finish_tables`` only the first that many finish, and the next table (if any) plays its
    first ``partial_hands`` hands: a round in progress."""
    summary = summary or SimulationSummary(event=round_.event.slug)
    tables = list(round_.tables.select_related("round__event__ruleset").order_by("number"))
    for index, table in enumerate(tables):
        if finish_tables is None or index < finish_tables:
            summary.hands += table_play(
                table, seed=seed, user=user, incidents=incidents, tally=summary.incidents
            )
            summary.tables += 1
        elif index == finish_tables and partial_hands:
            summary.hands += table_play(table, seed=seed, user=user, hands=partial_hands, finish=False,
                                        incidents=incidents, tally=summary.incidents)  # fmt: skip
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
    incidents: Incidents = NO_INCIDENTS,
) -> SimulationSummary:
    """Play ``rounds`` whole rounds of ``event``; then, with ``in_progress=(tables, hands)``, seat one
    more round with that many tables finished and the next one ``hands`` hands into its game.
    The event is marked finished when its planned rounds are all completed. Overtime incidents need
    an event with overtime (``overtime_enabled``)."""
    if incidents.overtime and not event.overtime_enabled:
        raise SimulationError("overtime_disabled", f"{event.slug} has no overtime (art. 39): enable it first")
    started = time.perf_counter()
    summary = SimulationSummary(event=event.slug)
    for _ in range(rounds):
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        round_play(round_, seed=seed, user=user, summary=summary, incidents=incidents)
    if in_progress is not None:
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        finish_tables, partial_hands = in_progress
        round_play(
            round_, seed=seed, user=user, finish_tables=finish_tables, partial_hands=partial_hands,
            summary=summary, incidents=incidents,
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
