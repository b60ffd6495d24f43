"""Hands 局 of a table's game: the versions in force and current, the game so far as a hand write reads it,
the sheet the referee reads, what the next hand is expected to be, and a hand said in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext

from core.prepared import PreparedRead
from scoring.models import Ruleset
from tournament.engine.dealer import GameStand, NextDealer, next_dealer_position, regular_game_stand
from tournament.engine.game_end import GameEnd, TimeUp, game_ended_early, time_up
from tournament.engine.penalties import PenaltyKind, penalty_effect
from tournament.models import (
    Event,
    HandVersion,
    Penalty,
    Seat,
    Table,
)
from tournament.options import game_end_rules
from tournament.selectors.discipline import replayed_before, rights_fouls
from tournament.selectors.tables import seats_playing_hand, table_game_seats


def table_hand_deltas_in_force(table: Table):
    """Each hand in force of ``table``, in order: its points per seat of the game."""
    return (
        HandVersion.objects.in_force()
        .filter(hand__table=table)
        .order_by("hand__number")
        .values_list("deltas", flat=True)
    )


def table_hands_in_force(table: Table) -> list[HandVersion]:
    """The version in force of each recorded hand (a voided hand has none), in play order."""
    return list(
        HandVersion.objects.in_force().filter(hand__table=table).select_related("hand").order_by("hand__number")
    )


def table_hand_history(table: Table) -> list[HandVersion]:
    """The versions of the table's hands no longer current (corrected, voided, re-seated), hand by hand, oldest
    first: what the sheet's history shows."""
    versions = (
        HandVersion.objects.filter(hand__table=table, is_current=False)
        .select_related("hand", "recorded_by")
        .order_by("hand__number", "version")
    )
    return list(versions)


def table_last_hand_in_force(table: Table) -> HandVersion | None:
    return HandVersion.objects.in_force().filter(hand__table=table).order_by("-hand__number").first()


def table_hands_recorded(table: Table) -> int:
    """Hands of the game recorded so far (a voided hand is not one)."""
    return HandVersion.objects.in_force().filter(hand__table=table).count()


def table_hand_current_version(table: Table, number: int) -> HandVersion | None:
    """The current version of hand ``number``, voided or not (what a correction starts from)."""
    return HandVersion.objects.current().filter(hand__table=table, hand__number=number).first()


def overtime_seasons_played(table: Table) -> int:
    """Overtime seasons 延長戦 played at the table, counted by the database (``overtime_seasons_in`` counts
    them in hands read already): a hand stopped and replayed (art. 36 ③) is played again in the same season,
    so it does not count."""
    hands = HandVersion.objects.in_force().filter(hand__table=table, overtime=True)
    return hands.exclude(outcome=HandVersion.Outcome.REPLAYED).count()


@dataclass(frozen=True)
class GameSoFar:
    """A table's game as a write of its hand ``number`` reads it, in one go (``table_game_so_far``: three
    queries): the table (its round, event and ruleset read with it), the ruleset, the game's seats, the hands in force,
    and what the hand is checked against, worked out from them: who plays it, the deposits and dealers
    before it, the overtime seasons played before it, and the rights its fouls took away."""

    table: Table
    ruleset: Ruleset  # the event's
    seats: tuple[Seat, ...]  # the game's seats, East first (art. 42: not a player absent before the game)
    hands: tuple[HandVersion, ...]  # the version in force of each hand, in play order (``number`` set)
    number: int  # the hand written (a new one or a correction)
    playing: list[int]  # the positions among the seats that play it (art. 42: not a player who left)
    after_recorded_hand: bool  # it is hand 1, or hand ``number - 1`` is in force
    deposits_before: int  # riichi deposits 供託 the hand before it left on the table
    dealers_before: tuple[int, ...]  # the dealer 親 of every hand before it, in play order (its label)
    overtime_seasons_before: int  # overtime seasons 延長戦 played before it (art. 39)
    wall_wrecked: bool  # an art. 36 ③ wall wrecking is logged for it: it is recorded as replayed
    chombo_hands: tuple[int, ...]  # the hands of the game a chombo 錯和 is logged for (not cancelled)
    rights_fouls: dict[int, list[PenaltyKind]]  # entry id → the fouls whose lost rights hold in it


def overtime_seasons_in(hands) -> int:
    """Overtime seasons 延長戦 played in ``hands`` (versions in force): a hand stopped and replayed (art. 36 ③)
    is played again in the same season, so it does not count."""
    return sum(1 for h in hands if h.overtime and h.outcome != HandVersion.Outcome.REPLAYED)


# The game so far's three reads, compiled once (``core.prepared``): a hand write runs them every time.
_current_versions = PreparedRead(
    lambda table_id: (
        HandVersion.objects.current().filter(hand__table_id=table_id).select_related("hand").order_by("hand__number")
    )
)
# in the order logged (the table's are all of one event: no join to order them by it)
_fouls_not_cancelled = PreparedRead(
    lambda table_id: (
        Penalty.objects.filter(table_id=table_id, cancelled_at__isnull=True)
        .order_by("logged_at", "pk")
        .values_list("entry_id", "hand_number", "kind")
    )
)
_game_seats = PreparedRead(lambda table_id: Seat.objects.filter(table_id=table_id).playing())


def table_game_so_far(table: Table, number: int, *, fouls: bool = True) -> GameSoFar:
    """The game so far at ``table`` (read with its round, event and ruleset, as ``lock_table`` reads it) as a
    write of hand ``number`` reads it: three queries (the seats, the hands in force, the fouls not
    cancelled); ``fouls=False`` reads no foul (a void checks no right): two."""
    current = _current_versions.list(table.pk)
    hands = tuple(h for h in current if h.outcome != HandVersion.Outcome.VOID)  # in force: a void is none
    for h in hands:
        h.number = h.hand.number
    before = [h for h in hands if h.number < number]
    rows = tuple(_fouls_not_cancelled.list(table.pk)) if fouls else ()
    # the seats alone: a write reads only their positions and entry ids (a refusal names its player, read then)
    seats = tuple(_game_seats.list(table.pk))
    chain = replayed_before({h.number: h.outcome for h in hands}, number)
    return GameSoFar(
        table=table,
        ruleset=table.round.event.ruleset,
        seats=seats,
        hands=hands,
        number=number,
        playing=seats_playing_hand(seats, number),
        after_recorded_hand=number == 1 or any(h.number == number - 1 for h in hands),
        deposits_before=before[-1].deposits_out if before else 0,
        dealers_before=tuple(h.dealer_position for h in before),
        overtime_seasons_before=overtime_seasons_in(before),
        wall_wrecked=any(n == number and kind == PenaltyKind.WALL_WRECKED for _, n, kind in rows),
        chombo_hands=tuple(sorted({n for _, n, kind in rows if kind == PenaltyKind.CHOMBO and n is not None})),
        rights_fouls=rights_fouls(rows, hand_number=number, chain=chain),
    )


@dataclass
class HandSheet:
    hands: list[HandVersion]
    running: list[list[int]]  # points per seat after each hand
    deposits: int
    seats: list[Seat] | None = None  # the game's seats (art. 42: who plays which hand)


def table_hand_sheet(table: Table, *, seats: list[Seat] | None = None) -> HandSheet:
    """The table's hands in force with the running score after each; ``seats``: the game's seats when read
    already (E first, none absent before the game)."""
    hands = list(
        HandVersion.objects.in_force()
        .filter(hand__table=table)
        .select_related("hand", "recorded_by")
        .order_by("hand__number")
    )
    for h in hands:
        h.number = h.hand.number
    seats = seats if seats is not None else table_game_seats(table)
    points = [table.round.event.ruleset.start_points] * len(seats)
    running = []
    for h in hands:
        points = [p + d for p, d in zip(points, h.deltas, strict=False)]
        running.append(points)
    return HandSheet(hands, running, hands[-1].deposits_out if hands else 0, seats)


@dataclass
class SheetSeat:
    """One seat of the table sheet: who, where, their points now and the fouls in force for the hand."""

    seat: Seat
    index: int  # position among the game's seats (what the hand form's seat numbers mean)
    points: int
    penalties: list[tuple[Penalty, str]]  # the foul and its label: the article, the foul, what it does


def table_sheet_seats(
    table: Table, sheet: HandSheet, *, seats: list[Seat], penalties: list[Penalty], hand_number: int
) -> list[SheetSeat]:
    """The game's ``seats`` with their points after the last hand and, of the table's ``penalties``, those
    in force for ``hand_number`` (rights lost for that hand, arts. 35–36 and 38 ⑤) and every penalty-point
    foul not cancelled. No query: the sheet has read both lists already."""
    points = sheet.running[-1] if sheet.running else [table.round.event.ruleset.start_points] * len(seats)
    in_force: dict[int, list] = {}
    for penalty in penalties:
        if penalty.cancelled_at is not None:
            continue
        effect = penalty_effect(penalty.kind)
        if effect.applies_to_hand and penalty.hand_number != hand_number and not effect.has_penalty_points:
            continue  # rights lost in another hand
        in_force.setdefault(penalty.entry_id, []).append((penalty, effect.label))
    return [
        SheetSeat(seat, i, points[i] if i < len(points) else 0, in_force.get(seat.entry_id, []))
        for i, seat in enumerate(seats)
    ]


def next_hand_defaults(sheet: HandSheet, *, players: int) -> dict:
    """Dealer and honba the next hand is expected to have, from the last recorded hand; the deal goes
    round the seats still playing (art. 42: a seat that left is skipped)."""
    if not sheet.hands:
        return {"dealer_position": 0, "honba": 0}
    deal = _deal_after_last(sheet, players=players)[2]
    return {"dealer_position": deal.position, "honba": deal.honba}


def _deal_after_last(sheet: HandSheet, *, players: int) -> tuple[list[int], list[int], NextDealer]:
    """The seats that played the sheet's last hand, those that play on, and the deal after it."""
    last = sheet.hands[-1]
    if sheet.seats is None:
        playing = playing_next = list(range(players))
    else:
        playing = seats_playing_hand(sheet.seats, last.number)
        playing_next = seats_playing_hand(sheet.seats, last.number + 1)
    deal = next_dealer_position(
        playing=playing,
        playing_next=playing_next,
        dealer=last.dealer_position,
        honba=last.honba,
        outcome=last.outcome,
        winners=tuple(w["winner"] for w in last.wins),
        tenpai=tuple(last.tenpai_positions),
    )
    return playing, playing_next, deal


def table_chombo_hands(table: Table) -> tuple[int, ...]:
    """The hands of the table's game a chombo 錯和 is logged for (not cancelled), in order."""
    rows = Penalty.objects.filter(table=table, kind=PenaltyKind.CHOMBO, cancelled_at__isnull=True)
    return tuple(sorted(set(rows.exclude(hand_number=None).values_list("hand_number", flat=True))))


def points_after_hands(seats, hands, start: int) -> list[list[int]]:
    """The points of the seats playing each of ``hands`` (in force, in play order, ``number`` set) once it is
    settled (art. 42: a seat that left is not one), as ``game_ended_early`` reads them."""
    points = [start] * len(seats)
    after = []
    for h in hands:
        points = [p + d for p, d in zip(points, h.deltas, strict=False)]
        after.append([points[i] for i in seats_playing_hand(seats, h.number) if i < len(points)])
    return after


def table_game_end(table: Table, sheet: HandSheet | None = None) -> GameEnd | None:
    """Where the table's game ended before its regular end, as the ruleset says (a chombo, busting), or None."""
    rules = game_end_rules(table.round.event)
    if not (rules.chombo_ends_game or rules.busting):
        return None
    sheet = sheet if sheet is not None else table_hand_sheet(table)
    points = points_after_hands(sheet.seats or [], sheet.hands, table.round.event.ruleset.start_points)
    chombo_hands = table_chombo_hands(table) if rules.chombo_ends_game else ()
    return game_ended_early(rules, points_after=points, chombo_hands=chombo_hands)


def round_time_up_at(table: Table) -> datetime | None:
    """When the round's time runs out: its timer's start plus the event's minutes per round (None: no timer)."""
    started = table.round.timer_started_at
    return None if started is None else started + timedelta(minutes=table.round.event.round_minutes)


def table_time_up(table: Table, sheet: HandSheet | None = None, *, now: datetime | None = None) -> TimeUp | None:
    """The round's time ran out (its timer started and its minutes are over, ``now`` or later): the hand in play
    then (the hand after those recorded before it) and the game's last hand, as the ruleset says; None while
    time is left or without a timer. A hand counts as over when its first version was recorded."""
    deadline = round_time_up_at(table)
    if deadline is None or (now or timezone.now()) < deadline:
        return None
    sheet = sheet if sheet is not None else table_hand_sheet(table)
    numbers = {h.number for h in sheet.hands}
    before = HandVersion.objects.filter(hand__table=table, version=1, recorded_at__lte=deadline)
    over = sum(1 for number in before.values_list("hand__number", flat=True) if number in numbers)
    return time_up(game_end_rules(table.round.event), hands_before=over)


def table_game_cut_short(table: Table, sheet: HandSheet | None = None) -> GameStand | None:
    """Where the table's game stopped when its hands do not play it to its end (a hanchan's South 4 with
    the deal passing on, the engine's ``regular_game_stand``); None when they do, before the first hand
    (nothing to confirm from), or once an overtime hand (art. 39) was played: it follows the game's end."""
    sheet = sheet if sheet is not None else table_hand_sheet(table)
    if not sheet.hands or any(h.overtime for h in sheet.hands):
        return None
    playing, playing_next, deal = _deal_after_last(sheet, players=len(sheet.seats or ()))
    stand = regular_game_stand(
        dealers=[h.dealer_position for h in sheet.hands],
        playing=playing,
        honba=sheet.hands[-1].honba,
        next_deal=deal,
        playing_next=playing_next,
    )
    return None if stand.over or table_game_end(table, sheet) is not None else stand


def hand_version_in_words(version: HandVersion) -> str:
    """One version of a hand said in words with the names of its table's players (the admin's audit trail)."""
    seats = Seat.objects.filter(table_id=version.hand.table_id).select_related("entry__player").order_by("position")
    names = {seat.position: str(seat.entry.player) for seat in seats}
    return hand_in_words_with_names(version, [names.get(i, "?") for i in range(max(names, default=-1) + 1)])


def hand_in_words_with_names(version: HandVersion, names: list[str]) -> str:
    """Who won from whom and for how much, with names, in the reader's language."""
    name = lambda i: names[i] if i is not None and 0 <= i < len(names) else "?"  # noqa: E731
    if version.outcome not in (HandVersion.Outcome.RON, HandVersion.Outcome.TSUMO):
        tenpai = ", ".join(name(i) for i in version.tenpai_positions)
        if not tenpai:
            return str(version.get_outcome_display())
        return gettext("%(outcome)s — tenpai: %(seats)s") % {
            "outcome": version.get_outcome_display(),
            "seats": tenpai,
        }
    said = []
    for win in version.wins:
        if win.get("yakuman"):
            value = gettext("yakuman")
        elif win.get("fu") and win["han"] < 5:
            value = gettext("%(han)s han %(fu)s fu") % {"han": win["han"], "fu": win["fu"]}
        else:
            value = gettext("%(han)s han") % {"han": win["han"]}
        if win.get("discarder") is None:
            said.append(gettext("%(winner)s: tsumo, %(value)s") % {"winner": name(win["winner"]), "value": value})
        else:
            said.append(
                gettext("%(winner)s: ron from %(discarder)s, %(value)s")
                % {"winner": name(win["winner"]), "discarder": name(win["discarder"]), "value": value}
            )
    return "; ".join(said)


def event_hand_versions(event: Event):
    """Every version of every hand (corrections included), in play order."""
    return (
        HandVersion.objects.filter(hand__table__round__event=event)
        .select_related("hand__table__round")
        .order_by("hand__table__round__number", "hand__table__number", "hand__number", "version")
    )


def table_hand_current_versions(table: Table) -> list[HandVersion]:
    """The current version of each hand of the table, voided ones included, in play order."""
    return list(
        HandVersion.objects.current()
        .filter(hand__table=table)
        .select_related("hand", "recorded_by", "recorded_by_token")
        .order_by("hand__number")
    )


def table_hand_versions(table: Table, number: int) -> list[HandVersion]:
    """Every version of hand ``number`` of the table, oldest first."""
    return list(
        HandVersion.objects.filter(hand__table=table, hand__number=number)
        .select_related("hand", "recorded_by", "recorded_by_token")
        .order_by("version")
    )
