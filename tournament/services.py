"""Writes for the tournament app: each service is one transaction that validates, locks and records.

Locks are taken in one order everywhere: event → round → table → hand (rows of one kind by id).
Nothing recorded is edited in place: hands and table results get new versions naming who and when.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from players.models import Player
from scoring.engine.errors import ScoringError
from scoring.engine.settle import game_end_deposits, settle_hand
from scoring.rules import ruleset_engine_rules, ruleset_settle_options
from tournament.engine.errors import TournamentError
from tournament.engine.overtime import overtime_hand_at
from tournament.engine.table_result import SeatOutcome, TableRules, table_result
from tournament.errors import ServiceError, VersionConflict
from tournament.hand_input import engine_outcome, parse_hand_input
from tournament.labels import hand_label
from tournament.models import Entry, Event, Hand, HandVersion, Round, Seat, SeatResult, Table
from tournament.rules_services import check_rights_for_hand
from tournament.selectors import overtime_seasons_played


def _full_clean_or_error(instance) -> None:
    from django.core.exceptions import ValidationError

    try:
        instance.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError("invalid", f"{field}: {' '.join(messages)}", field=field) from exc


@transaction.atomic
def entry_register(*, event: Event, player: Player) -> Entry:
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", "the event is finished; no new entries", field="event")
    entry, created = Entry.objects.get_or_create(event=event, player=player)
    if not created and entry.status != Entry.Status.ACTIVE:
        raise ServiceError(
            "entry_inactive", f"{player} is {entry.get_status_display().lower()}", field="player"
        )
    return entry


@transaction.atomic
def round_create(
    *,
    event: Event,
    tables: Sequence[Sequence[int]],
    report: dict | None = None,
    status: str = Round.Status.PUBLISHED,
) -> Round:
    """Create the next round with its tables: ``tables`` lists entry ids in seat order East, South, …"""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", "the event is finished", field="event")
    unfinished = event.rounds.exclude(status=Round.Status.COMPLETED).first()
    if unfinished is not None:
        raise ServiceError(
            "round_in_progress", f"round {unfinished.number} is not completed yet", field="round"
        )
    flat = [entry_id for table in tables for entry_id in table]
    if not tables:
        raise ServiceError("no_tables", "a round needs at least one table", field="tables")
    if len(set(flat)) != len(flat):
        raise ServiceError("player_seated_twice", "a player is seated twice in this round", field="tables")
    for number, table in enumerate(tables, start=1):
        if not 2 <= len(table) <= 4:
            raise ServiceError(
                "invalid_table_size", f"table {number} has {len(table)} players (2–4)", field="tables"
            )
    entries = {e.id: e for e in Entry.objects.filter(event=event, id__in=flat)}
    for entry_id in flat:
        entry = entries.get(entry_id)
        if entry is None:
            raise ServiceError(
                "entry_not_in_event", f"entry {entry_id} is not registered in this event", field="tables"
            )
        if entry.status != Entry.Status.ACTIVE:
            raise ServiceError("entry_inactive", f"{entry.player} is {entry.status}", field="tables")
    number = (event.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    round_ = Round.objects.create(event=event, number=number, status=status, seating_report=report or {})
    table_rows = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, len(tables) + 1))
    Seat.objects.bulk_create(
        Seat(table=table_row, round=round_, entry_id=entry_id, position=position)
        for table_row, table in zip(table_rows, tables, strict=True)
        for position, entry_id in enumerate(table)
    )
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return round_


def _playing_seats(table: Table) -> list[Seat]:
    return [s for s in table.seats.order_by("position") if s.absence != Seat.Absence.ABSENT_BEFORE]


def _previous_deposits(table: Table, number: int) -> int:
    """Riichi deposits 供託 the previous hand left on the table."""
    previous = (
        HandVersion.objects.filter(
            hand__table=table, hand__number__lt=number, version=F("hand__current_version")
        )
        .order_by("-hand__number")
        .values_list("deposits_out", flat=True)
        .first()
    )
    return previous or 0


@transaction.atomic
def hand_record(
    *, table: Table, number: int, expected_version: int, data: dict, user=None, note: str = ""
) -> HandVersion:
    """Record hand ``number`` of ``table`` (a new hand with ``expected_version`` 0, or a correction of
    the version the referee saw). Raises ``VersionConflict`` when someone saved first."""
    table = Table.objects.select_for_update().select_related("round__event__ruleset").get(pk=table.pk)
    if table.status != Table.Status.PLAYING:
        raise ServiceError(
            "table_finished", "the table's result is confirmed; reopen it to correct hands", field="table"
        )
    if number < 1:
        raise ServiceError("invalid_number", "hands are numbered from 1", field="number")
    if table.round.status == Round.Status.DRAFT:
        raise ServiceError(
            "round_not_published", "publish the round's seating before recording hands", field="table"
        )
    hand, _ = Hand.objects.get_or_create(table=table, number=number)
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.current_version != expected_version:
        raise VersionConflict(current_version=hand.current_version, expected_version=expected_version)
    if (
        hand.current_version == 0
        and number > 1
        and not Hand.objects.filter(table=table, number=number - 1, current_version__gt=0).exists()
    ):
        raise ServiceError(
            "hand_out_of_order", f"hand {number - 1} has not been recorded yet", field="number"
        )

    event = table.round.event
    game_seats = _playing_seats(table)
    active = [i for i, seat in enumerate(game_seats) if _still_playing(seat, number)]
    rules = ruleset_engine_rules(event.ruleset, players=len(active))
    data = dict(data)
    data.setdefault("deposits_in", _previous_deposits(table, number))
    hand_input = parse_hand_input(
        data,
        players=len(game_seats),
        rules=rules,
        raw_fu=rules.scheme.scheme == "simple_doubling",
        active=active,
    )
    check_rights_for_hand(table=table, hand_number=number, seats_by_position=dict(enumerate(game_seats)),
                          hand_input=hand_input)  # fmt: skip
    overtime = bool(data.get("overtime"))
    if overtime and not event.overtime_enabled:
        raise ServiceError("overtime_disabled", "this event has no overtime (art. 39)", field="overtime")
    expected_deposits = _previous_deposits(table, number)
    if hand_input.deposits_in != expected_deposits:
        raise ServiceError(
            "deposits_mismatch",
            f"{expected_deposits} points of riichi deposits were left on the table by the previous hand",
            field="deposits_in",
        )
    try:
        settlement = settle_hand(
            engine_outcome(hand_input, players=len(game_seats), rules=rules, active=active),
            ruleset_settle_options(event.ruleset),
        )
    except ScoringError as exc:
        raise ServiceError(exc.code, exc.message, field=exc.field) from exc
    version = HandVersion.objects.create(
        hand=hand,
        version=hand.current_version + 1,
        label=hand_label(event, table, number, hand_input, overtime=overtime),
        overtime=overtime,
        dealer_position=hand_input.dealer_position,
        honba=hand_input.honba,
        deposits_in=hand_input.deposits_in,
        riichi_positions=list(hand_input.riichi_positions),
        outcome=hand_input.outcome,
        wins=[
            {
                "winner": w.winner,
                "discarder": w.discarder,
                "han": w.han,
                "fu": w.fu,
                "yakuman": w.yakuman,
                "yaku": [list(y) for y in w.yaku],
                "hand": w.hand,
            }
            for w in hand_input.wins
        ],
        tenpai_positions=list(hand_input.tenpai_positions),
        deltas=_deltas_for_game_seats(settlement.deltas, active, len(game_seats)),
        deposits_out=settlement.deposits_out,
        recorded_by=user if getattr(user, "is_authenticated", False) else None,
        note=note,
    )
    hand.current_version = version.version
    hand.save(update_fields=["current_version"])
    _update_overtime_year(table)
    return version


def _still_playing(seat: Seat, number: int) -> bool:
    """Art. 42: a player who left during the game plays no hand after the one they left after."""
    return not (seat.absence == Seat.Absence.ABSENT_DURING and (seat.left_after_hand or 0) < number)


def _deltas_for_game_seats(deltas, active: list[int], seats: int) -> list[int]:
    full = [0] * seats
    for engine_index, position in enumerate(active):
        full[position] = int(deltas[engine_index])
    return full


def _update_overtime_year(table: Table) -> None:
    """Art. 39: the game's overtime year is that of its last overtime hand (placement points × year)."""
    seasons = overtime_seasons_played(table)
    year = overtime_hand_at(seasons - 1).year if seasons else 0
    if table.overtime_year != year:
        table.overtime_year = year
        table.save(update_fields=["overtime_year"])


def current_hand_versions(table: Table) -> list[HandVersion]:
    return list(
        HandVersion.objects.filter(hand__table=table, version=F("hand__current_version")).order_by(
            "hand__number"
        )
    )


def table_final_points_from_hands(table: Table) -> tuple[list[int], int]:
    """Start points plus every hand's changes, and the deposits left on the table at the end."""
    ruleset = table.round.event.ruleset
    seats = _playing_seats(table)
    points = [ruleset.start_points] * len(seats)
    deposits = 0
    for version in current_hand_versions(table):
        if len(version.deltas) != len(points):
            raise ServiceError(
                "hand_seat_mismatch", f"hand {version.hand.number} has a different number of seats"
            )
        points = [p + d for p, d in zip(points, version.deltas, strict=True)]
        deposits = version.deposits_out
    return points, deposits


def table_rules_for(event: Event) -> TableRules:
    ruleset = event.ruleset
    return TableRules(
        uma_4=ruleset.uma_for(4),
        uma_3=ruleset.uma_for(3),
        uma_2=ruleset.uma_for(2),
        start_points=ruleset.start_points,
        return_points=ruleset.return_points,
        tie_rule=ruleset.tie_rule,
        advancing_places=event.advancing_places,
    )


@transaction.atomic
def table_finish(*, table: Table, final_points: Sequence[int] | None = None, user=None) -> list[SeatResult]:
    """Confirm a table's result: from its hands (hand-by-hand events) or from the final scores given.

    Riichi deposits still on the table go to the top player or are lost, per the ruleset. Given final
    scores must add up to the start total minus the deposits left on the table.
    """
    table = Table.objects.select_for_update().select_related("round__event__ruleset").get(pk=table.pk)
    event = table.round.event
    ruleset = event.ruleset
    seats = list(table.seats.select_related("entry").order_by("position"))
    playing = [s for s in seats if s.absence != Seat.Absence.ABSENT_BEFORE]
    if final_points is None:
        if not table.hands.exists():
            raise ServiceError("no_hands", "no hand has been recorded at this table", field="final_points")
        points, deposits = table_final_points_from_hands(table)
        end_share = game_end_deposits(tuple(points), deposits, ruleset.deposits_at_end)
        points = [p + int(d) for p, d in zip(points, end_share, strict=True)]
        lost = deposits if ruleset.deposits_at_end == "lost" else 0
    else:
        if len(final_points) != len(playing):
            raise ServiceError("wrong_seat_count", f"give {len(playing)} final scores", field="final_points")
        points = [int(p) for p in final_points]
        expected_total = ruleset.start_points * len(playing)
        lost = expected_total - sum(points)
        if lost < 0 or lost % ruleset.riichi_stick:
            raise ServiceError(
                "scores_do_not_sum",
                f"final scores add up to {sum(points)}; expected {expected_total} minus riichi deposits left "
                f"on the table (multiples of {ruleset.riichi_stick})",
                field="final_points",
            )
    # Deposits lost at the end leave the table: the top player is charged nothing; placement uses
    # the points as they stand, so give the engine a table that balances by adding them back to nobody.
    outcomes = []
    iter_points = iter(points)
    for seat in seats:
        if seat.absence == Seat.Absence.ABSENT_BEFORE:
            outcomes.append(SeatOutcome(player_id=seat.entry_id, final_points=None, absence=seat.absence))
        else:
            outcomes.append(
                SeatOutcome(player_id=seat.entry_id, final_points=next(iter_points), absence=seat.absence)
            )
    try:
        result = table_result(
            outcomes, table_rules_for(event), multiplier=table.multiplier, deposits_lost=lost
        )
    except TournamentError as exc:
        raise ServiceError(exc.code, exc.message, field="final_points") from exc
    version = table.result_version + 1
    SeatResult.objects.filter(table=table, is_current=True).update(is_current=False)
    rows = SeatResult.objects.bulk_create(
        SeatResult(
            table=table, seat=seat, entry=seat.entry, version=version, final_points=r.final_points,
            placement=r.placement, point_score=r.point_score, placement_points=r.placement_points, oka=r.oka,
            game_points=r.game_points, multiplier=result.multiplier, advanced=r.advanced, forfeit=r.forfeit,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
        )
        for seat, r in zip(seats, result.seats, strict=True)
    )  # fmt: skip
    table.result_version = version
    table.status = Table.Status.FINISHED
    table.save(update_fields=["result_version", "status"])
    round_ = table.round
    if round_.status == Round.Status.PUBLISHED:
        round_.status = Round.Status.PLAYING
        round_.save(update_fields=["status"])
    standings_schedule_recompute(event_id=event.id)
    return rows


@transaction.atomic
def table_reopen(*, table: Table) -> Table:
    """Open a confirmed table for corrections; its confirmed results stay until the next confirmation.

    A completed round goes back to playing until it is completed again; later rounds keep their seating.
    """
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    if table.round.status == Round.Status.COMPLETED:
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.PLAYING)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    return table


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """Close the event once every round is completed; standings are recomputed one last time."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    unfinished = list(event.rounds.exclude(status=Round.Status.COMPLETED).values_list("number", flat=True))
    if unfinished:
        raise ServiceError(
            "rounds_not_completed",
            f"rounds {', '.join(map(str, unfinished))} are not completed",
            field="event",
        )
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    standings_schedule_recompute(event_id=event.id)
    return event


@transaction.atomic
def round_publish(*, round_: Round) -> Round:
    """A seating draft becomes the published seating players see."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise ServiceError(
            "not_a_draft", f"round {round_.number} is already {round_.get_status_display().lower()}"
        )
    round_.status = Round.Status.PUBLISHED
    round_.save(update_fields=["status"])
    return round_


@transaction.atomic
def round_complete(*, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    open_tables = list(round_.tables.filter(status=Table.Status.PLAYING).values_list("number", flat=True))
    if open_tables:
        raise ServiceError(
            "tables_still_playing",
            f"tables {', '.join(map(str, open_tables))} have no confirmed result",
            field="round",
        )
    round_.status = Round.Status.COMPLETED
    round_.save(update_fields=["status"])
    standings_schedule_recompute(event_id=round_.event_id)
    return round_


def standings_schedule_recompute(*, event_id: int) -> None:
    """Queue a standings recompute after commit; bursts coalesce in the task itself.

    The request time is taken when the commit has happened (inside the callback), so a recompute that
    started later is sure to see this change: tasks queued during a burst find a newer snapshot and
    return at once. Taking it before the commit would let a recompute that began between the request
    and the commit hide the change.
    """
    from tournament.tasks import standings_recompute_task

    transaction.on_commit(lambda: standings_recompute_task.delay(event_id, timezone.now().isoformat()))


@transaction.atomic
def entries_register(*, event: Event, players: Sequence[Player]) -> list[Entry]:
    """Register several players at once; players already registered keep their entry."""
    return [entry_register(event=event, player=player) for player in players]
