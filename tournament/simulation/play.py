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
  recorded as replayed and played again with the same dealer and honba, and the offender neither claims
  nor wins in the replay. Rarely an art. 37 deliberate foul (always in the hand after a player left,
  when absences are on too: 100 × the three left): penalty points, and in tournament play
  disqualification (art. 43). Some are cancelled at once (the disqualification is lifted), some an
  organizer confirms (and some of those are cancelled after: it stays); a player still disqualified
  finishes the game in progress (a director's ruling, art. 44) and is not seated in later rounds.
* the clock (art. 38, when the event has a time bank): at the hands with a claim lost by a foul, and at
  the first hand after a player left, the dealer starts the clock and the seats press round the table
  twice, claiming now and then; a claim by a seat whose foul took that right is refused (art. 36), and
  the turn never comes to a seat that left (art. 42).
* absences (art. 42): a player absent before the game (the table plays three- or two-player), or one who
  leaves during it after some hands (the game goes on without them; the deal skips their seat).
* overtime (art. 39, the event's ``overtime_enabled``): a game that ends with nobody above
  ``OVERTIME_THRESHOLD``, and now and then another, goes on with overtime hands 1年春, 1年夏, … until the
  engine ends it (a winner above every other player, or a hand without a winner, art. 39 ②); the
  directors close one still going now and then, and always after ``OVERTIME_HAND_CAP`` hands (3年春:
  placement points ×3, art. 44).
* the final (art. 40, ``Incidents.final``): the four best players still eligible play the event's
  ``final_games`` games, then the final's decisions are applied until a champion is crowned (overtime
  hands, eliminations down to two players); with penalties, now and then a finalist commits an art. 37
  foul and is disqualified, and is never crowned (art. 43).

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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.queue import queued_work_merged
from players.models import Player
from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.penalties import PenaltyKind, penalty_effect
from tournament.models import Entry, Event, Penalty, Round, Seat, Table
from tournament.services.clock import clock_press, clock_start, clock_view
from tournament.services.discipline import (
    entry_disqualification_confirm,
    penalty_cancel,
    penalty_log,
    ruling_record,
    seat_mark_absent,
)
from tournament.services.entries import entry_register
from tournament.services.events import event_finish
from tournament.services.finals import final_apply, final_situation
from tournament.services.hands import hand_record, table_overtime_close
from tournament.services.locks import rulesets_read_once
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create
from tournament.services.seating import seating_from_engine, seating_request_for
from tournament.services.standings import standings_recompute, standings_rows
from tournament.simulation.game import (
    ABSENT_BEFORE_PER_MILLE,
    ABSENT_DURING_PER_MILLE,
    CANCELLED_PER_MILLE,
    CLOCK_CLAIM_PER_MILLE,
    DELIBERATE_FOUL_PER_MILLE,
    DISQUALIFICATION_CONFIRMED_PER_MILLE,
    DISQUALIFICATION_LIFTED_PER_MILLE,
    FINAL_FOUL_PER_MILLE,
    FINAL_HAND_CAP,
    HAND_CAP,
    LEAVE_AFTER_HANDS,
    NO_INCIDENTS,
    OVERTIME_CLOSED_PER_MILLE,
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

LOST_IN_REPLAY = frozenset({"ron", "tsumo"})  # art. 36 ③: the wall wrecker's wins in the replayed hand

SEATING_CHOICES = ("auto", "engine", "shuffle")


def round_seat(event: Event, *, seed: int, seating: str = "auto") -> tuple[Round, str]:
    """Seat and create the event's next round with the pairing engine (random for round 1, then the
    event's method on the standings), or by a seeded shuffle; returns it and the seating used."""
    if seating not in SEATING_CHOICES:
        raise SimulationError(
            "invalid_seating",
            _("seating must be one of %(choices)s") % {"choices": ", ".join(SEATING_CHOICES)},
        )
    number = event.rounds.count() + 1
    if seating == "shuffle":
        active = [
            entry_id for entry_id, status in selectors.event_entry_statuses(event) if status == Entry.Status.ACTIVE
        ]
        random.Random(f"{seed}:seating:{number}").shuffle(active)
        return round_create(event=event, tables=tables_partition(active, event.table_size)), "shuffle"
    request = seating_request_for(event, round_number=number, seed=seed, time_limit_s=0.5)
    response = seating_from_engine(request)
    report = {
        **response.get("report", {}),
        "byes": response.get("byes", []),
        "mode": request["mode"],
        "seed": request["seed"],
    }
    return round_create(event=event, tables=response["tables"], report=report, request=request), "engine"


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
    clocked = table.round.event.clock_bank_seconds and (fouls or absences)
    clock = _incident_rng(seed, table, "clock") if clocked else None
    with transaction.atomic():
        leave_after = _absences_plan(table, absences, tally, user) if absences else None
        seats = selectors.table_game_seats(table)
        state = GameState(
            players=len(seats),
            start_points=ruleset.start_points,
            riichi_stick=ruleset.riichi_stick,
            abortive_draws=ruleset.abortive_draws,
        )
        carried: dict[int, frozenset[str]] = {}  # art. 36 ③: the wall wrecker's lost wins in the replay
        after_leave = False  # the first hand after a player left: foul (with penalties) and clock
        while not state.over and (hands is None or state.hands < hands):
            number = state.hands + 1
            barred, claim_lost, wrecker = (
                _fouls_before_hand(table, number, seats, state, fouls, tally, user, deliberate=after_leave)
                if fouls
                else ({}, set(), None)
            )
            for position, lost in carried.items():
                barred[position] = barred.get(position, frozenset()) | lost
                claim_lost.add(position)
            if clock is not None and wrecker is None and (claim_lost or after_leave):
                _clock_hand(table, number, seats, state, claim_lost, clock, tally, user)
            after_leave = False
            data = replayed_hand(state) if wrecker is not None else hand_draw(rng, state, barred=barred)
            version = hand_record(table=table, number=number, expected_version=0, data=data, user=user)
            game_advance(state, data, version.deltas, version.deposits_out)
            if wrecker is None:
                carried = {}
            else:
                carried[wrecker] = LOST_IN_REPLAY
            if state.overtime and not state.over and per_mille(overtime, OVERTIME_CLOSED_PER_MILLE):
                state.overtime_closed = state.over = True  # the schedule runs out (art. 44)
            if state.overtime_closed:
                table_overtime_close(table=table, reason="simulated: the overtime runs past the schedule", user=user)
            if leave_after == state.hands and not state.over and len(state.active) > 2:
                _seat_leaves(seats, state, absences, tally, user)
                after_leave = True
            if state.over and overtime is not None and not state.overtime and overtime_wanted(overtime, state):
                state.overtime, state.over = True, False
                tally["overtime_games"] += 1
        if state.overtime_hands:
            tally["overtime_hands"] += state.overtime_hands
        tally["overtime_closed"] += state.overtime_closed
        if finish and state.over:
            table_finish(table=table, user=user, end_reason=_cut_short(state.hands))
    return state.hands


def _clock_hand(
    table: Table,
    number: int,
    seats: list[Seat],
    state: GameState,
    claim_lost: set[int],
    rng: random.Random,
    tally: Counter,
    user,
) -> None:
    """Art. 38 at an incident hand: the dealer starts the clock, the seats press round the table twice.
    A seat that left never gets the turn (art. 42); a claim by a seat whose foul took that right is
    refused (art. 36), any other claim hands it the turn."""
    clock = clock_start(table=table, hand_number=number, dealer_position=state.dealer, user=user)
    tally["clock_hands"] += 1
    tried: set[int] = set()
    for _turn in range(2 * len(state.active)):
        view = clock_view(clock)
        on_turn = view["seat_on_turn"]
        if on_turn not in state.active or on_turn in view["absent"]:
            raise SimulationError("clock_turn_to_absent", f"the clock gave the turn to seat {on_turn}, who left")
        others = [p for p in state.active if p != on_turn]
        for barred in [p for p in others if p in claim_lost and p not in tried][:1]:
            tried.add(barred)  # once per seat: it stays refused all hand
            try:
                clock_press(table=table, seat=on_turn, turn_number=view["turn_number"], claim_by=barred, user=user)
            except TaikaiError as exc:
                if exc.code not in ("claim_forbidden_by_penalty", "claim_forbidden"):  # a foul, or 38 ⑤
                    raise
                tally["claims_refused"] += 1
            else:
                raise SimulationError("claim_despite_foul", f"seat {barred} claimed after losing the right")
        claimants = [p for p in others if p not in claim_lost and p not in view["flagged"]]
        claim_by = rng.choice(claimants) if claimants and per_mille(rng, CLOCK_CLAIM_PER_MILLE) else None
        clock = clock_press(table=table, seat=on_turn, turn_number=view["turn_number"], claim_by=claim_by, user=user)
        tally["claims"] += claim_by is not None


# Labels of the incident counts in the summary, read in the active language when it is printed.
INCIDENT_NAMES = {
    "penalties": gettext_lazy("penalties"),
    "cancelled": gettext_lazy("cancelled"),
    "replayed": gettext_lazy("replayed hands"),
    "disqualified": gettext_lazy("disqualified"),
    "lifted": gettext_lazy("disqualifications lifted"),
    "confirmed": gettext_lazy("disqualifications confirmed"),
    "kept": gettext_lazy("confirmed and kept after cancelling"),
    "absent_before": gettext_lazy("absent before the game"),
    "left_during": gettext_lazy("left during the game"),
    "three_player_fouls": gettext_lazy("art. 37 fouls after a leave"),
    "clock_hands": gettext_lazy("hands on the clock"),
    "claims": gettext_lazy("claims"),
    "claims_refused": gettext_lazy("claims refused"),
    "overtime_games": gettext_lazy("games to overtime"),
    "overtime_hands": gettext_lazy("overtime hands"),
    "overtime_closed": gettext_lazy("overtimes closed"),
    "final_games": gettext_lazy("final games"),
    "final_overtime_hands": gettext_lazy("final overtime hands"),
    "final_eliminated": gettext_lazy("eliminated in the final"),
    "final_disqualified": gettext_lazy("disqualified in the final"),
    "champion": gettext_lazy("champions"),
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
    table: Table,
    number: int,
    seats: list[Seat],
    state: GameState,
    rng: random.Random,
    tally: Counter,
    user,
    *,
    deliberate: bool = False,
) -> tuple[dict[int, frozenset[str]], set[int], int | None]:
    """Fouls a referee logs during hand ``number`` before it is recorded: the wins they take away per
    seat, the seats that lost the right to claim (拾), and the seat that wrecked the wall when the hand
    is stopped and replayed (art. 36 ③). ``deliberate``: an art. 37 foul for sure (the first hand after
    a player left: its penalty points count the three left)."""
    event = table.round.event
    barred: dict[int, frozenset[str]] = {}
    claim_lost: set[int] = set()
    if per_mille(rng, RIGHTS_PENALTY_PER_MILLE):
        position = rng.choice(state.active)
        kind = rng.choice(RIGHTS_PENALTY_KINDS)
        penalty = penalty_log(
            event=event,
            entry=seats[position].entry,
            kind=kind,
            table=table,
            hand_number=number,
            reason=f"simulated: {penalty_effect(kind).title}",
            user=user,
        )
        tally["penalties"] += 1
        if per_mille(rng, CANCELLED_PER_MILLE):
            penalty_cancel(penalty=penalty, reason="simulated: the referee misread the situation", user=user)
            tally["cancelled"] += 1
        else:
            barred[position] = penalty_effect(kind).lost_wins
            if penalty_effect(kind).loses_claim:
                claim_lost.add(position)
    wrecker = None
    if not state.overtime and per_mille(rng, WALL_WRECKED_PER_MILLE):
        kind = PenaltyKind.WALL_WRECKED
        wrecker = rng.choice(state.active)
        penalty_log(
            event=event,
            entry=seats[wrecker].entry,
            kind=kind,
            table=table,
            hand_number=number,
            reason=f"simulated: {penalty_effect(kind).title}",
            user=user,
        )
        tally["penalties"] += 1
        tally["replayed"] += 1
    fouled = (deliberate or per_mille(rng, DELIBERATE_FOUL_PER_MILLE)) and _deliberate_foul(
        table, number, seats, state.active, rng, tally, user
    )
    tally["three_player_fouls"] += bool(fouled and deliberate)
    return barred, claim_lost, wrecker


def _deliberate_foul(
    table: Table, number: int, seats: list[Seat], active: list[int], rng: random.Random, tally: Counter, user
) -> Penalty | None:
    """Art. 37 penalty points; in tournament play the player is disqualified (art. 43). Now and then
    the penalty is cancelled at once (the disqualification is lifted), or an organizer confirms it (and
    sometimes the penalty is cancelled after: it stays). A player still disqualified finishes the game
    in progress by the directors' ruling (art. 44) and is not seated again."""
    event = table.round.event
    active_entries = selectors.entries_active_among([seats[p].entry_id for p in active])
    offenders = [p for p in active if seats[p].entry_id in active_entries]
    if not offenders:
        return None
    kind = PenaltyKind.DELIBERATE_FOUL
    entry = seats[rng.choice(offenders)].entry
    penalty = penalty_log(
        event=event,
        entry=entry,
        kind=kind,
        table=table,
        hand_number=number,
        reason=f"simulated: {penalty_effect(kind).title}",
        user=user,
    )
    tally["penalties"] += 1
    entry.refresh_from_db(fields=["status"])
    if entry.status != Entry.Status.DISQUALIFIED:
        return penalty
    tally["disqualified"] += 1
    if per_mille(rng, DISQUALIFICATION_LIFTED_PER_MILLE):
        penalty_cancel(penalty=penalty, reason="simulated: the director saw it was not deliberate", user=user)
        tally["cancelled"] += 1
        tally["lifted"] += 1
        return penalty
    if per_mille(rng, DISQUALIFICATION_CONFIRMED_PER_MILLE):
        entry_disqualification_confirm(entry=entry, user=user)
        tally["confirmed"] += 1
        if per_mille(rng, 500):
            penalty_cancel(penalty=penalty, reason="simulated: appeal on the points upheld", user=user)
            tally["cancelled"] += 1
            tally["kept"] += 1
    ruling_record(
        event=event,
        table=table,
        entry=entry,
        user=user,
        decision="Disqualified (art. 43): finishes the game in progress, not seated in later rounds",
    )
    return penalty


# --- The final (art. 40) -------------------------------------------------------------------------


def final_play(
    event: Event, *, seed: int, user=None, incidents: Incidents = NO_INCIDENTS, tally: Counter | None = None
) -> Entry | None:
    """Art. 40: the four best players still eligible (art. 41 order) play the event's ``final_games``
    games, then the final's decisions are applied (overtime hands, eliminations, a new game) until a
    champion; returns the champion, or None when the directors take it over (art. 44)."""
    tally = Counter() if tally is None else tally
    statuses = dict(selectors.event_entry_statuses(event))
    ranked = [row["entry"] for row in standings_rows(event) if statuses[row["entry"]] == Entry.Status.ACTIVE]
    finalists = ranked[: min(4, event.table_size)]
    if len(finalists) < 2:
        return None
    rng = random.Random(f"{seed}:final")
    round_ = round_create(event=event, tables=[finalists], report={"final": True, "game": 1}, is_final=True)
    overtime_hands = 0
    champion = None
    while True:
        table = round_.tables.select_related("round__event__ruleset").get()
        if selectors.table_hands_recorded(table):  # reopened for an overtime hand (40①)
            _final_overtime_hand(table, rng, tally, user)
            overtime_hands += 1
        else:
            _final_game(table, seed, rng, incidents, tally, user)
        decision = final_situation(table=table).decision
        if decision.kind == "directors_ruling" or overtime_hands >= FINAL_HAND_CAP:
            ruling_record(
                event=event,
                table=table,
                user=user,
                decision=f"Final left to the directors (art. 44): {decision.reason}",
            )
            round_complete(round_=round_)
            break
        final_apply(table=table, user=user)
        tally["final_eliminated"] += decision.kind == "eliminate" and decision.player_id not in decision.disqualified
        if decision.kind == "champion":
            champion = selectors.event_entries_by_id(event, [decision.player_id])[decision.player_id]
            tally["champion"] += 1
            break
        if decision.kind in ("next_game", "eliminate"):
            round_ = event.rounds.filter(is_final=True).order_by("-number").first()
    standings_recompute(event_id=event.id)
    return champion


def _final_game(table: Table, seed: int, rng: random.Random, incidents: Incidents, tally: Counter, user) -> None:
    """One game of the final, confirmed; with penalties, now and then an art. 37 foul in its last hand."""
    hands = table_play(
        table, seed=seed, user=user, finish=False, tally=tally, incidents=Incidents(penalties=incidents.penalties)
    )
    tally["final_games"] += 1
    if incidents.penalties and per_mille(rng, FINAL_FOUL_PER_MILLE):
        seats = selectors.table_game_seats(table)
        active = selectors.seats_playing_hand(seats, hands)
        penalty = _deliberate_foul(table, hands, seats, active, rng, tally, user)
        if penalty is not None and Entry.objects.get(pk=penalty.entry_id).status == Entry.Status.DISQUALIFIED:
            tally["final_disqualified"] += 1
    table_finish(table=table, user=user, end_reason=_cut_short(hands))


def _cut_short(hands: int) -> str | None:
    """A game stopped at the hand cap before its end: for the results, the round's time ran out."""
    return "time" if hands >= HAND_CAP else None


def _final_overtime_hand(table: Table, rng: random.Random, tally: Counter, user) -> None:
    """One overtime hand of the final (1年春, …), confirmed: art. 40 decides after it."""
    ruleset = table.round.event.ruleset
    seats = selectors.table_game_seats(table)
    sheet = selectors.table_hand_sheet(table)
    deal = selectors.next_hand_defaults(sheet, players=len(seats))
    number = len(sheet.hands) + 1
    state = GameState(
        players=len(seats),
        start_points=ruleset.start_points,
        riichi_stick=ruleset.riichi_stick,
        dealer=deal["dealer_position"],
        honba=deal["honba"],
        deposits=sheet.deposits,
        hands=len(sheet.hands),
        points=list(sheet.running[-1]),
        active=selectors.seats_playing_hand(seats, number),
        overtime=True,
        decided_by_final=True,
        abortive_draws=ruleset.abortive_draws,
    )
    data = hand_draw(rng, state)
    hand_record(table=table, number=number, expected_version=0, data=data, user=user)
    tally["final_overtime_hands"] += 1
    table_finish(table=table, user=user)


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
        text = _(
            "%(event)s: %(rounds)s rounds completed, %(tables)s tables finished, %(hands)s hands in %(seconds)s s "
            "(seating: %(seating)s)"
        ) % {
            "event": self.event,
            "rounds": self.rounds,
            "tables": self.tables,
            "hands": self.hands,
            "seconds": f"{self.seconds:.1f}",
            # Translators: no seating method was used (the event was not seated).
            "seating": ", ".join(sorted(self.seating)) or _("none"),
        }
        if any(self.incidents.values()):
            counts = ", ".join(f"{label} {self.incidents[key]}" for key, label in INCIDENT_NAMES.items())
            # Translators: incidents lists labels with their counts ("penalties 3, cancelled 1").
            text += "\n" + _("Incidents: %(incidents)s") % {"incidents": counts}
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
    first ``partial_hands`` hands: a round in progress.

    The round is one transaction (each service call its own savepoint): the standings recompute its tables
    and its completion ask for is sent once, at its commit (``core.queue``), not once per table; the event's
    ruleset is read once for the round, not with every hand (``rulesets_read_once``)."""
    summary = summary or SimulationSummary(event=round_.event.slug)
    tables = list(round_.tables.select_related("round__event__ruleset").order_by("number"))
    with transaction.atomic(), queued_work_merged(), rulesets_read_once():
        for index, table in enumerate(tables):
            if finish_tables is None or index < finish_tables:
                summary.hands += table_play(table, seed=seed, user=user, incidents=incidents, tally=summary.incidents)
                summary.tables += 1
            elif index == finish_tables and partial_hands:
                summary.hands += table_play(
                    table,
                    seed=seed,
                    user=user,
                    hands=partial_hands,
                    finish=False,
                    incidents=incidents,
                    tally=summary.incidents,
                )
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
    The event is marked finished when its planned rounds are all completed; with ``incidents.final``
    a final (art. 40) is played after them and crowns the champion. Overtime incidents need an event
    with overtime (``overtime_enabled``)."""
    if incidents.overtime and not event.overtime_enabled:
        raise SimulationError(
            "overtime_disabled",
            _("%(event)s has no overtime (art. 39): enable it first") % {"event": event.slug},
        )
    started = time.perf_counter()
    summary = SimulationSummary(event=event.slug)
    for _round in range(rounds):
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        round_play(round_, seed=seed, user=user, summary=summary, incidents=incidents)
    if in_progress is not None:
        round_, used = round_seat(event, seed=seed, seating=seating)
        summary.seating.add(used)
        finish_tables, partial_hands = in_progress
        round_play(
            round_,
            seed=seed,
            user=user,
            finish_tables=finish_tables,
            partial_hands=partial_hands,
            summary=summary,
            incidents=incidents,
        )
    elif event.rounds.filter(status=Round.Status.COMPLETED).count() >= event.planned_rounds:
        if incidents.final:
            final_play(event, seed=seed, user=user, incidents=incidents, tally=summary.incidents)
        event.refresh_from_db()
        if not selectors.event_unfinished_round_numbers(event):
            event = event_finish(event=event)
    summary.seconds = time.perf_counter() - started
    return summary


def simulated_players(count: int) -> list[Player]:
    """Players named "Simulated player 001" …, created the first time they are needed."""
    players = []
    with transaction.atomic():  # one commit, not one per player
        for number in range(1, count + 1):
            player, _ = Player.objects.get_or_create(display_name=f"Simulated player {number:03d}", club=SIMULATED_CLUB)
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
    """An event in registration with ``players`` entered through ``entry_register``, in one transaction."""
    if Event.objects.filter(slug=slug).exists():
        raise SimulationError(
            "event_exists", _("an event with the slug %(slug)s already exists") % {"slug": repr(slug)}
        )
    if table_size not in (3, 4):
        raise SimulationError("invalid_table_size", _("the table size is 3 or 4"))
    with transaction.atomic():  # one commit, not one per entry
        event = Event.objects.create(
            slug=slug,
            name=name,
            ruleset=ruleset,
            planned_rounds=planned_rounds,
            table_size=table_size,
            is_public=is_public,
            status=Event.Status.REGISTRATION,
            entry_mode=Event.EntryMode.HANDS,
            owner=organizer,
            **fields,
        )
        for player in players:
            entry_register(event=event, player=player)
    return event
