"""Simulated events: random but legal games (:mod:`tournament.simulation.game`) played hand by hand
through the tournament services.

Used for the demo data, to measure the services on a large field and, together with
``tournament.audit``, to check that everything the services record holds together.

Seating comes from the pairing engine through the seating service (random for round 1, Swiss on
the standings after), or from a seeded shuffle.

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

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction

from players.models import Player
from scoring.models import Ruleset
from tournament import selectors
from tournament.engine.overtime import overtime_hand_at
from tournament.engine.penalties import PenaltyKind, penalty_effect
from tournament.models import Entry, Event, Round, Seat, Table
from tournament.services.discipline import penalty_cancel, penalty_log, ruling_record, seat_mark_absent
from tournament.services.entries import entry_register
from tournament.services.events import event_finish
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create
from tournament.services.seating import seating_from_engine, seating_request_for
from tournament.services.standings import standings_recompute
from tournament.simulation.game import (
    ABSENT_BEFORE_PER_MILLE,
    ABSENT_DURING_PER_MILLE,
    CANCELLED_PER_MILLE,
    DELIBERATE_FOUL_PER_MILLE,
    LEAVE_AFTER_HANDS,
    NO_INCIDENTS,
    RIGHTS_PENALTY_KINDS,
    RIGHTS_PENALTY_PER_MILLE,
    SIMULATED_CLUB,
    WALL_WRECKED_PER_MILLE,
    GameState,
    Incidents,
    SimulationError,
    game_advance,
    hand_draw,
    overtime_wanted,
    per_mille,
    replayed_hand,
    seat_leaves,
    tables_partition,
)

SEATING_CHOICES = ("auto", "engine", "shuffle")


def round_seat(event: Event, *, seed: int, seating: str = "auto") -> tuple[Round, str]:
    """Seat and create the event's next round with the pairing engine (random for round 1, then the
    event's method on the standings), or by a seeded shuffle; returns it and the seating used."""
    if seating not in SEATING_CHOICES:
        raise SimulationError("invalid_seating", f"seating must be one of {', '.join(SEATING_CHOICES)}")
    number = event.rounds.count() + 1
    if seating == "shuffle":
        active = [entry_id for entry_id, status in selectors.event_entry_statuses(event)
                  if status == Entry.Status.ACTIVE]  # fmt: skip
        random.Random(f"{seed}:seating:{number}").shuffle(active)
        return round_create(event=event, tables=tables_partition(active, event.table_size)), "shuffle"
    request = seating_request_for(event, round_number=number, seed=seed, time_limit_s=0.5)
    response = seating_from_engine(request)
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
        seats = selectors.table_game_seats(table)
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
    if per_mille(rng, ABSENT_BEFORE_PER_MILLE) and len(seats) > 2:
        seat_mark_absent(seat=rng.choice(seats), during=False, user=user)
        tally["absent_before"] += 1
    if per_mille(rng, ABSENT_DURING_PER_MILLE):
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
    if per_mille(rng, RIGHTS_PENALTY_PER_MILLE):
        position = rng.choice(state.active)
        kind = rng.choice(RIGHTS_PENALTY_KINDS)
        penalty = penalty_log(event=event, entry=seats[position].entry, kind=kind, table=table, hand_number=number,
                              reason=f"simulated: {penalty_effect(kind).title}", user=user)  # fmt: skip
        tally["penalties"] += 1
        if per_mille(rng, CANCELLED_PER_MILLE):
            penalty_cancel(penalty=penalty, reason="simulated: the referee misread the situation", user=user)
            tally["cancelled"] += 1
        else:
            barred[position] = penalty_effect(kind).lost_wins
    replay = not state.overtime and per_mille(rng, WALL_WRECKED_PER_MILLE)
    if replay:
        kind = PenaltyKind.WALL_WRECKED
        penalty_log(event=event, entry=seats[rng.choice(state.active)].entry, kind=kind, table=table,
                    hand_number=number, reason=f"simulated: {penalty_effect(kind).title}", user=user)  # fmt: skip
        tally["penalties"] += 1
        tally["replayed"] += 1
    if per_mille(rng, DELIBERATE_FOUL_PER_MILLE):
        _deliberate_foul(table, number, seats, state, rng, tally, user)
    return barred, replay


def _deliberate_foul(
    table: Table, number: int, seats: list[Seat], state: GameState, rng: random.Random, tally: Counter, user
) -> None:
    """Art. 37 penalty points; in tournament play the player is disqualified (art. 43), finishes the
    game in progress by the directors' ruling (art. 44) and is not seated again."""
    event = table.round.event
    active_entries = selectors.entries_active_among([seats[p].entry_id for p in state.active])
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
        is_public=is_public, status=Event.Status.REGISTRATION, entry_mode=Event.EntryMode.HANDS, owner=organizer,
        **fields,
    )  # fmt: skip
    for player in players:
        entry_register(event=event, player=player)
    return event
