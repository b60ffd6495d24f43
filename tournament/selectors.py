"""Every read of the tournament app, with the prefetching each caller needs in one place.

Services call these to read, pages call them to show; nothing here writes. Two querysets carry the
shared filters: ``Seat.objects.playing()`` (everyone but a player absent before the game, art. 42)
and ``.current()`` on hand versions and seat results (the version in force).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import connection
from django.db.models import Case, CharField, Count, F, Prefetch, Q, Sum, Value, When
from django.db.models.functions import Cast
from django.utils.translation import get_language, gettext, gettext_lazy

from players.models import Player
from players.reading import search_needle
from tournament.engine.dealer import GameStand, NextDealer, next_dealer_position, regular_game_stand
from tournament.engine.ema import EmaLine, EmaProblem, EmaReport, MersWeight, ema_report, mers_weight
from tournament.engine.overtime import OvertimeHandResult, OvertimeProgress, overtime_progress
from tournament.engine.penalties import PenaltyKind, fouls_in_force, is_disqualifying, penalty_effect
from tournament.models import (
    SEAT_WIND_CHOICES,
    ApiToken,
    Entry,
    Event,
    EventRole,
    HandVersion,
    Penalty,
    Round,
    Ruling,
    ScorekeeperKey,
    Seat,
    SeatingJob,
    SeatReading,
    SeatResult,
    StandingsRow,
    StandingsSnapshot,
    Table,
    TableClock,
    Team,
    TeamMember,
)

# --- Roles ---------------------------------------------------------------------------------------


def user_roles_held(user_id: int) -> list[tuple[int, str, str]]:
    """(event id, kind, tables) of each role the user holds now; owning an event is an organizer role."""
    held = list(
        EventRole.objects.filter(user_id=user_id, revoked_at__isnull=True).values_list("event_id", "kind", "tables")
    )
    owned = Event.objects.filter(owner_id=user_id).values_list("pk", flat=True)
    return held + [(event_id, EventRole.Kind.ORGANIZER, "") for event_id in owned]


def event_roles_held(event: Event) -> list[EventRole]:
    return list(event.roles.filter(revoked_at__isnull=True).select_related("user", "granted_by"))


def scorekeeper_tables(key_ids) -> dict[int, int]:
    """Key id → table id of the keys that still open their table: not revoked, not locked by wrong PINs,
    and the table's round not completed."""
    if not key_ids:
        return {}
    rows = ScorekeeperKey.objects.filter(
        pk__in=list(key_ids), revoked_at__isnull=True, failed_pins__lt=ScorekeeperKey.MAX_FAILED_PINS
    ).exclude(table__round__status=Round.Status.COMPLETED)
    return dict(rows.values_list("pk", "table_id"))


def scorekeeper_card_table(token_digest: str) -> Table | None:
    """The table a table card's link opens (its event and round with it), while the card is valid: what the
    PIN page names before the PIN is typed. The link is the card's secret, so whoever holds it may know."""
    key = (
        ScorekeeperKey.objects.filter(token_digest=token_digest, revoked_at__isnull=True)
        .select_related("table__round__event")
        .first()
    )
    return key.table if key is not None else None


def entry_by_link(token: str) -> Entry | None:
    return Entry.objects.filter(link_token=token).select_related("event", "player").first()


def entries_of_user(user_id: int) -> dict[int, int]:
    """Event id → entry id of the player whose account this is."""
    return dict(Entry.objects.filter(player__user_id=user_id).values_list("event_id", "pk"))


def tables_playing_in(scopes: dict[int, frozenset[int] | None] | None, *, table_ids=()):
    """The tables of published or playing rounds, those still playing first, then by event, round and number
    (a referee looks for the games going on, not the finished ones): ``scopes`` maps an event id
    to the table numbers wanted there (None: every table), None means every event; ``table_ids`` adds
    single tables. A queryset: the caller pages it."""
    where = Q(pk__in=list(table_ids))
    if scopes is None:
        where = Q()
    for event_id, numbers in (scopes or {}).items():
        where |= Q(round__event_id=event_id) & (Q() if numbers is None else Q(number__in=sorted(numbers)))
    return (
        Table.objects.filter(where, round__status__in=[Round.Status.PUBLISHED, Round.Status.PLAYING])
        .select_related("round__event")
        .order_by(
            Case(When(status=Table.Status.PLAYING, then=Value(0)), default=Value(1)),
            "round__event__name",
            "round__number",
            "number",
        )
    )


# --- Events, entries, rounds ---------------------------------------------------------------------


def event_public_list():
    return Event.objects.filter(is_public=True).select_related("ruleset").order_by("-starts_on", "name")


def event_get_public(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug, is_public=True).select_related("ruleset").first()


def event_get(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug).select_related("ruleset").first()


def events_open_for_entries():
    """Events players may still be registered in (not finished)."""
    return Event.objects.exclude(status=Event.Status.FINISHED).order_by("-starts_on", "name")


def event_entry_rows(event: Event) -> list[tuple]:
    """(entry id, player id, name, club, country, status, search keys) of every entry, by entry id."""
    return list(
        Entry.objects.filter(event=event)
        .order_by("id")
        .values_list(
            "id", "player_id", "player__display_name", "player__club", "player__country", "status", "player__search"
        )
    )


def event_entry_statuses(event: Event) -> list[tuple[int, str]]:
    return list(Entry.objects.filter(event=event).order_by("id").values_list("id", "status"))


def event_entries_by_id(event: Event, ids) -> dict[int, Entry]:
    return {e.id: e for e in Entry.objects.filter(event=event, id__in=ids).select_related("player")}


def event_entries_with_players(event: Event) -> list[Entry]:
    return list(Entry.objects.filter(event=event).select_related("player"))


def entries_active_among(ids) -> set[int]:
    return set(Entry.objects.filter(id__in=ids, status=Entry.Status.ACTIVE).values_list("id", flat=True))


def event_next_round_number(event: Event) -> int:
    return (Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first() or 0) + 1


def event_unfinished_round_numbers(event: Event) -> list[int]:
    return list(
        Round.objects.filter(event=event).exclude(status=Round.Status.COMPLETED).values_list("number", flat=True)
    )


def event_completed_round_count(event: Event) -> int:
    return Round.objects.filter(event=event, status=Round.Status.COMPLETED).count()


def event_round(event: Event, number: int) -> Round | None:
    return Round.objects.filter(event=event, number=number).first()


def event_final_game_number(round_: Round) -> int:
    """Which game of the final (決勝戦) ``round_`` is: 1 for the first final round, 2 for the next, …"""
    return Round.objects.filter(event_id=round_.event_id, is_final=True, number__lte=round_.number).count()


def event_published_rounds(event: Event) -> list[Round]:
    return list(Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("number"))


def event_published_round_states(event: Event) -> list[tuple[int, int, str]]:
    """(id, number, status) of each round published or later, by number."""
    rounds = Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("number")
    return list(rounds.values_list("pk", "number", "status"))


def event_seating_history(event: Event, *, before_round: int | None = None) -> list[list[list[int]]]:
    """Every earlier round's tables as entry ids in seat order: the seating protocol's ``history``."""
    seats = Seat.objects.filter(round__event=event)
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
    history: dict[int, dict[int, list[int]]] = {}
    rows = seats.order_by("round__number", "table__number", "position").values_list(
        "round__number", "table__number", "entry_id"
    )
    for round_number, table_number, entry_id in rows:
        history.setdefault(round_number, {}).setdefault(table_number, []).append(entry_id)
    return [list(tables.values()) for _, tables in sorted(history.items())]


def round_open_table_numbers(round_: Round) -> list[int]:
    return list(round_.tables.filter(status=Table.Status.PLAYING).values_list("number", flat=True))


def round_playing_tables(round_: Round) -> list[Table]:
    return list(round_.tables.filter(status=Table.Status.PLAYING).select_related("round__event").order_by("number"))


def round_tables_with_seats(round_: Round) -> list[Table]:
    return list(round_.tables.prefetch_related("seats__entry__player").order_by("number"))


def event_published_round(event: Event, number: int) -> Round | None:
    return Round.objects.filter(event=event, number=number).exclude(status=Round.Status.DRAFT).first()


def event_latest_published_round(event: Event) -> Round | None:
    return Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("-number").first()


def round_tables_page(round_: Round, *, start: int, stop: int) -> list[Table]:
    """Tables ``start``..``stop`` - 1 of the round (in table order) with their seats and current results:
    a page reads the rows it shows."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return list(
        Table.objects.filter(round=round_)
        .order_by("number")[start:stop]
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch("results", queryset=SeatResult.objects.current(), to_attr="current_results"),
        )
    )


def round_tables_page_hands(round_: Round, *, start: int, stop: int) -> int:
    """How many hand writes tables ``start``..``stop`` - 1 of the round have seen: a record, correction or
    void at one of them changes it (their running scores are cached for it). One aggregate over the page's
    table rows."""
    page = Table.objects.filter(round=round_).order_by("number").values("pk")[start:stop]
    return Table.objects.filter(pk__in=page).aggregate(writes=Sum("running_version"))["writes"] or 0


def table_hand_deltas_in_force(table: Table):
    """Each hand in force of ``table``, in order: its points per seat of the game."""
    return (
        HandVersion.objects.in_force()
        .filter(hand__table=table)
        .order_by("hand__number")
        .values_list("deltas", flat=True)
    )


def tables_running_points(tables: list[Table]) -> None:
    """The score of each game in progress after its last recorded hand (provisional until the table's
    result is confirmed), read from the tables' own rows: sets ``running`` on each seat in the game of a
    playing table with hands."""
    for table in tables:
        if table.status != Table.Status.PLAYING or not table.running_hands:
            continue
        seats = [seat for seat in table.seats.all() if seat.in_game]
        for seat, running in zip(seats, table.running_points, strict=False):
            seat.running = running


def round_tables_by_id(round_id: int):
    return Table.objects.filter(round_id=round_id)


def round_tables(round_: Round):
    return Table.objects.filter(round=round_)


def round_table_progress(round_: Round) -> tuple[int, int]:
    """(tables finished, tables) of the round, counted by the database."""
    version = tables_version(Table.objects.filter(round=round_))
    return version.finished, version.tables


@dataclass(frozen=True)
class TablesVersion:
    """What a list of tables shows, summed up by the database in one query. For one set of tables (a
    round's), a confirmed result adds to ``results`` (result versions only grow) and a reopened table takes
    one from ``finished``, so two states of the tables never share a version; ``tables`` and the sum of
    their ids change when the set does (a round published or completed). It names the cached part of a
    page and goes into its ETag."""

    tables: int
    finished: int
    results: int
    ids: int

    def __str__(self) -> str:
        return f"{self.tables}.{self.finished}.{self.results}.{self.ids}"


def tables_version(tables) -> TablesVersion:
    """The ``TablesVersion`` of a queryset of tables (its order and slicing ignored)."""
    counts = tables.order_by().aggregate(
        tables=Count("pk"),
        finished=Count("pk", filter=Q(status=Table.Status.FINISHED)),
        results=Sum("result_version"),
        ids=Sum("pk"),
    )
    return TablesVersion(counts["tables"], counts["finished"], counts["results"] or 0, counts["ids"] or 0)


SUBSTITUTES_SHOWN = 20


def substitute_eligible(event: Event):
    """The stored players who may be seated as a substitute in the event: every player who is not one of its
    players (a substitute of it already may be chosen again; the service says when not)."""
    entered = Entry.objects.filter(event=event, substitute_for__isnull=True).values("player_id")
    return Player.objects.exclude(pk__in=entered)


def substitute_candidates(event: Event, query: str) -> list[Player]:
    """The eligible players whose name or reading (kana or romaji), club or external id (an EMA number)
    matches ``query``, at most ``SUBSTITUTES_SHOWN``, in name order; none for an empty query."""
    query = " ".join((query or "").split())[:100]
    needle = search_needle(query)
    if not needle:
        return []
    matches = Q(search__contains=needle) | Q(club__icontains=query) | Q(external_id__iexact=query)
    return list(
        substitute_eligible(event).filter(matches).order_by("display_name", "reading", "pk")[:SUBSTITUTES_SHOWN]
    )


def round_find_seats(round_: Round, query: str, *, limit: int = 20) -> list[tuple[int, str, str]]:
    """Find your table: (table number, wind, name) of the players whose name or reading (kana or romaji)
    contains ``query``, at most ``limit``: the database matches the players' search keys."""
    needle = search_needle(query)
    if not needle:
        return []
    rows = (
        Seat.objects.filter(round=round_, entry__player__search__contains=needle)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry__player__display_name")[:limit]
    )
    return [(number, str(SEAT_WIND_CHOICES[position][1]), name) for number, position, name in rows]


def seating_job_for(event_id: int, job_id: int) -> SeatingJob | None:
    return SeatingJob.objects.select_related("event").filter(pk=job_id, event_id=event_id).first()


# --- Tables, seats, hands ------------------------------------------------------------------------


def table_number(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("number", flat=True).first()


def tables_with_events(table_ids) -> list[Table]:
    return list(Table.objects.select_related("round__event").filter(pk__in=list(table_ids)))


def table_with_event(table_id: int) -> Table | None:
    return Table.objects.select_related("round__event__ruleset").filter(pk=table_id).first()


def table_game_seats(table: Table) -> list[Seat]:
    """The seats of the table's game (art. 42: a player absent before the game is not one), E first."""
    return list(Seat.objects.filter(table=table).playing().select_related("entry__player"))


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("entry__player").order_by("position"))


def seats_playing_hand(game_seats: Sequence[Seat], number: int) -> list[int]:
    """The positions (0.. among the game's seats) that play hand ``number``: art. 42, a player who left
    during the game is not in the hands after the one they left after (三人ないし二人戦)."""
    return [i for i, seat in enumerate(game_seats) if seat.plays_hand(number)]


def table_current_hands(table: Table, *, before_number: int | None = None) -> list[HandVersion]:
    """The version in force of each recorded hand, in play order."""
    versions = HandVersion.objects.in_force().filter(hand__table=table)
    if before_number is not None:
        versions = versions.filter(hand__number__lt=before_number)
    return list(versions.select_related("hand").order_by("hand__number"))


def table_last_hand(table: Table) -> HandVersion | None:
    return HandVersion.objects.in_force().filter(hand__table=table).order_by("-hand__number").first()


def table_hands_recorded(table: Table) -> int:
    """Hands of the game recorded so far (a voided hand is not one)."""
    return HandVersion.objects.in_force().filter(hand__table=table).count()


def table_hand_is_recorded(table: Table, number: int) -> bool:
    return HandVersion.objects.in_force().filter(hand__table=table, hand__number=number).exists()


def table_hand_version(table: Table, number: int) -> HandVersion | None:
    """The current version of hand ``number``, voided or not (what a correction starts from)."""
    return HandVersion.objects.current().filter(hand__table=table, hand__number=number).first()


def table_deposits_before(table: Table, number: int) -> int:
    """Riichi deposits 供託 the hand before hand ``number`` left on the table."""
    previous = (
        HandVersion.objects.in_force()
        .filter(hand__table=table, hand__number__lt=number)
        .order_by("-hand__number")
        .values_list("deposits_out", flat=True)
        .first()
    )
    return previous or 0


def table_dealers_before(table: Table, number: int) -> list[int]:
    """The dealer 親 of every hand before hand ``number``, in play order (for the hand labels)."""
    return list(
        HandVersion.objects.in_force()
        .filter(hand__table=table, hand__number__lt=number)
        .order_by("hand__number")
        .values_list("dealer_position", flat=True)
    )


def overtime_seasons_played(table: Table, *, before_number: int | None = None) -> int:
    """Overtime hands 延長戦 played at the table (before hand ``before_number``, if given). A hand
    stopped and replayed (art. 36 ③) is played again in the same season, so it does not count."""
    hands = HandVersion.objects.in_force().filter(hand__table=table, overtime=True)
    if before_number is not None:
        hands = hands.filter(hand__number__lt=before_number)
    return hands.exclude(outcome=HandVersion.Outcome.REPLAYED).count()


def table_penalty_kinds(table: Table, *, hand_number: int, entry_id: int | None = None) -> list[str]:
    """The kinds of the fouls in force (not cancelled) logged for hand ``hand_number`` of the table."""
    penalties = Penalty.objects.filter(table=table, hand_number=hand_number, cancelled_at__isnull=True)
    if entry_id is not None:
        penalties = penalties.filter(entry_id=entry_id)
    return list(penalties.values_list("kind", flat=True))


def table_rights_fouls(table: Table, *, hand_number: int) -> dict[int, list[PenaltyKind]]:
    """Entry id → the fouls whose lost rights (claim 拾, ron, tsumo) hold for that player in hand
    ``hand_number``: those logged for it, and an art. 36 ③ wall wrecking of the hands just before it that
    were stopped and replayed (the offender has no claim and no win in the replay). Two queries."""
    outcomes = dict(
        HandVersion.objects.current()
        .filter(hand__table=table, hand__number__lt=hand_number)
        .values_list("hand__number", "outcome")
    )
    chain = []
    number = hand_number - 1
    while outcomes.get(number) == HandVersion.Outcome.REPLAYED:
        chain.append(number)
        number -= 1
    rows = Penalty.objects.filter(
        table=table, hand_number__in=[hand_number, *chain], cancelled_at__isnull=True
    ).values_list("entry_id", "hand_number", "kind")
    own: dict[int, list[str]] = {}
    before: dict[int, dict[int, list[str]]] = {}
    for entry_id, number, kind in rows:
        if number == hand_number:
            own.setdefault(entry_id, []).append(kind)
        else:
            before.setdefault(entry_id, {}).setdefault(number, []).append(kind)
    return {
        entry_id: fouls_in_force(own.get(entry_id, []), [before.get(entry_id, {}).get(n, []) for n in chain])
        for entry_id in {*own, *before}
    }


def entry_disqualifying_penalties(entry: Entry, *, tournament_play: bool) -> list[Penalty]:
    """The entry's penalties in force that disqualify under art. 43, oldest first."""
    penalties = Penalty.objects.filter(entry=entry, cancelled_at__isnull=True).order_by("logged_at", "id")
    return [p for p in penalties if is_disqualifying(p.kind, tournament_play=tournament_play)]


def table_current_results(table: Table) -> dict[int, SeatResult]:
    """The table's result in force, by seat id."""
    return {row.seat_id: row for row in SeatResult.objects.filter(table=table, is_current=True)}


def table_results_all_versions(table: Table):
    return (
        SeatResult.objects.filter(table=table)
        .select_related("entry__player", "seat")
        .order_by("-version", "seat__position")
    )


@dataclass
class HandSheet:
    hands: list[HandVersion]
    running: list[list[int]]  # points per seat after each hand
    deposits: int
    seats: list[Seat] | None = None  # the game's seats (art. 42: who plays which hand)


def table_hand_sheet(table: Table) -> HandSheet:
    hands = list(
        HandVersion.objects.in_force()
        .filter(hand__table=table)
        .select_related("hand", "recorded_by")
        .order_by("hand__number")
    )
    for h in hands:
        h.number = h.hand.number
    seats = table_game_seats(table)
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


def table_clock_exists(table: Table) -> bool:
    return TableClock.objects.filter(table=table).exists()


def table_clock(table: Table) -> TableClock | None:
    """The table's clock as last committed, without a lock (``None`` before the dealer starts it)."""
    return TableClock.objects.filter(table=table).first()


def table_clocks(tables) -> list[TableClock]:
    return list(TableClock.objects.filter(table__in=list(tables)))


def table_penalties(table: Table) -> list[Penalty]:
    return list(Penalty.objects.filter(table=table).select_related("entry__player").order_by("logged_at"))


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
    return None if stand.over else stand


# --- Overtime outside the finals (art. 39) -------------------------------------------------------


def table_overtime_progress(table: Table, *, closed: bool | None = None) -> OvertimeProgress:
    """The engine's reading of the table's overtime hands (art. 39 ②③): going on, or how it ended.
    ``closed`` (default: as the table records) says the directors closed it (art. 44)."""
    seats = table_game_seats(table)
    points = [table.round.event.ruleset.start_points] * len(seats)
    results = []
    for version in table_current_hands(table):
        points = [p + d for p, d in zip(points, version.deltas, strict=False)]
        if version.overtime:
            results.append(
                OvertimeHandResult(
                    winners=tuple(w["winner"] for w in version.wins),
                    points_after=tuple(points),
                    playing=tuple(seats_playing_hand(seats, version.hand.number)),
                    replayed=version.outcome == HandVersion.Outcome.REPLAYED,
                )
            )
    if closed is None:
        closed = table.overtime_state == Table.Overtime.CLOSED
    return overtime_progress(results, closed_by_organizer=closed)


@dataclass(frozen=True)
class OvertimeStatus:
    """What the referee's screen says about a table's overtime 延長戦 (art. 39), as the engine decided."""

    state: str  # a Table.Overtime value
    label: str  # the state for people
    sentence: str
    year: int = 0  # the year of the last overtime hand played (0: none)
    multiplier: int = 1  # placement points × this (art. 39 ③)
    next_hand: str = ""  # the next overtime hand, e.g. "1年夏 (Y1 Summer)", while it goes on
    winner: str = ""  # the player who met the win condition

    @property
    def playing(self) -> bool:
        return self.state == Table.Overtime.PLAYING


def _overtime_hand_name(hand) -> str:
    """An overtime hand by its Japanese name (1年春), with the English after it on English pages."""
    if (get_language() or "").startswith("ja"):
        return hand.label_ja
    return f"{hand.label_ja} ({hand.label_en})"


OVERTIME_SENTENCES = {
    "none": gettext_lazy("No overtime (art. 39) at this table."),
    "playing": gettext_lazy(
        "Overtime (art. 39) goes on: next is %(next_hand)s, placement points ×%(multiplier)s so far. It ends "
        "when a winner ends a hand above every other player, or a hand ends without a winner."
    ),
    "won_with_condition": gettext_lazy(
        "Overtime over after %(last)s: %(winner)s won it above every other player (art. 39 ②). "
        "Placement points ×%(multiplier)s."
    ),
    "no_winner": gettext_lazy(
        "Overtime over after %(last)s: the hand ended without a winner (art. 39 ②). Placement points ×%(multiplier)s."
    ),
    "closed_by_organizer": gettext_lazy(
        "Overtime closed by the directors after %(last)s (art. 44). Placement points ×%(multiplier)s."
    ),
    "final": gettext_lazy(
        "Overtime of the final: after each overtime hand, confirm the result; the final's decision "
        "(art. 40) says whether it goes on."
    ),
}


def table_overtime_status(table: Table) -> OvertimeStatus:
    """The table's overtime as the referee's screen shows it: its state and one sentence."""
    if table.round.is_final:
        state = Table.Overtime.FINAL if table.overtime_year else Table.Overtime.NONE
        return OvertimeStatus(
            state,
            Table.Overtime(state).label,
            str(OVERTIME_SENTENCES[state]),
            year=table.overtime_year,
            multiplier=table.multiplier,
        )
    progress = table_overtime_progress(table)
    winner = ""
    if progress.winner is not None:
        winner = str(table_game_seats(table)[progress.winner].entry.player)
    last = progress.last_hand
    next_hand = _overtime_hand_name(progress.next_hand) if progress.next_hand else ""
    sentence = str(OVERTIME_SENTENCES[progress.state]) % {
        "next_hand": next_hand,
        "multiplier": progress.multiplier,
        "winner": winner,
        "last": _overtime_hand_name(last) if last else "",
    }
    return OvertimeStatus(
        progress.state,
        Table.Overtime(progress.state).label,
        sentence,
        year=last.year if last else 0,
        multiplier=progress.multiplier,
        next_hand=next_hand,
        winner=winner,
    )


# --- Results and standings -----------------------------------------------------------------------


def event_current_results_text(event: Event):
    """(entry id, round number, game points as stored text, advanced) of every current result. The
    text is parsed by the caller: 100,000 results read without a converter per value."""
    return (
        SeatResult.objects.current()
        .filter(table__round__event=event)
        .annotate(points_text=Cast("game_points", CharField()))
        .values_list("entry_id", "table__round__number", "points_text", "advanced")
    )


def event_penalty_point_rows(event: Event) -> list[tuple[int, int, int | None]]:
    """(entry id, points, round number) of every penalty in force that carries points (art. 37)."""
    return list(
        Penalty.objects.filter(event=event, cancelled_at__isnull=True, points__gt=0).values_list(
            "entry_id", "points", "round_number"
        )
    )


def event_standings(event: Event) -> StandingsSnapshot | None:
    """The standings' header (when computed, the round columns, the row count); the rows are read apart."""
    return StandingsSnapshot.objects.filter(event=event).first()


def event_standings_computed_at(event_id: int):
    return StandingsSnapshot.objects.filter(event_id=event_id).values_list("computed_at", flat=True).first()


def event_standings_rows(event: Event):
    """Every standings row, best first (the CSV export streams them)."""
    return StandingsRow.objects.filter(event=event).select_related("entry").order_by("position")


class StandingsRows(Sequence):
    """A snapshot's standings rows, or those a search matched, read from the database a slice at a time:
    a page of 100 rows is one query of 100 rows, by position, whatever the size of the field. Each row
    read gets ``round_cells``: one (game points, advanced) or None per round column."""

    def __init__(self, snapshot: StandingsSnapshot, needle: str = ""):
        self.snapshot, self.needle = snapshot, needle
        self.rows = StandingsRow.objects.filter(event_id=snapshot.event_id)
        if needle:
            self.rows = self.rows.filter(search__contains=needle)
        self._count = None if needle else snapshot.row_count

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.rows.count()
        return self._count

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise ValueError("standings rows are read in runs")
        if stop <= start:
            return []
        rows = self.rows.order_by("position")
        rows = rows[start:stop] if self.needle else rows.filter(position__gte=start, position__lt=stop)
        rows = list(rows)
        for row in rows:
            row.round_cells = row.cells(self.snapshot.round_numbers)
        return rows


@dataclass
class StandingsView:
    computed_at: object
    rows: StandingsRows  # best first
    round_numbers: list[int]


def standings_view(snapshot: StandingsSnapshot, *, query: str = "") -> StandingsView:
    """The standings as the page shows them: all rows, or those whose name, reading (kana or romaji) or club
    contains ``query``; read one slice at a time (one query each, and a count for a search)."""
    return StandingsView(snapshot.computed_at, StandingsRows(snapshot, search_needle(query)), snapshot.round_numbers)


def event_standings_count(event: Event, at_most: int) -> int:
    """How many standings rows there are, counting no further than ``at_most``."""
    return StandingsRow.objects.filter(event=event, position__lt=at_most).count()


def event_standings_slice(event: Event, start: int, stop: int) -> list[StandingsRow]:
    """The standings rows from position ``start`` to ``stop`` (one query of at most ``stop - start`` rows)."""
    return list(StandingsRow.objects.filter(event=event, position__gte=start, position__lt=stop).order_by("position"))


def event_standings_top(event: Event, count: int) -> list[StandingsRow]:
    """The first ``count`` rows of the standings (by position: one query of ``count`` rows)."""
    return list(StandingsRow.objects.filter(event=event, position__lt=count).order_by("position"))


@dataclass(frozen=True)
class EntryStanding:
    """A player's line of the standings, as their page shows it."""

    rank: int
    advances: int
    total_points: object
    games: int
    penalty_points: int


STANDING_FIELDS = ("rank", "advances", "total_points", "games", "penalty_points")


def entry_for_page(slug: str, entry_id: int) -> Entry | None:
    """The entry with its event (and ruleset), player and line of the standings (``standing``: an
    ``EntryStanding``, or None before any), in one query."""
    lines = {f"standing_{name}": F(f"standings_rows__{name}") for name in STANDING_FIELDS}
    entry = (
        Entry.objects.filter(event__slug=slug, pk=entry_id)
        .select_related("event__ruleset", "player")
        .annotate(**lines)
        .first()
    )
    if entry is not None:
        values = [getattr(entry, f"standing_{name}") for name in STANDING_FIELDS]
        entry.standing = EntryStanding(*values) if values[0] is not None else None
    return entry


@dataclass
class PlayedHand:
    version: HandVersion
    says: str  # who won from whom, with names
    delta: int | None  # what the player gained or paid (None: not in that hand)


@dataclass(frozen=True)
class GameSeat(SeatReading):
    """A seat at one of the player's tables, as their page shows it."""

    entry_id: int
    position: int
    name: str
    absence: str


@dataclass(frozen=True)
class GameResult:
    """The player's current result at a confirmed table."""

    final_points: int | None
    placement: int | None
    placement_points: object
    multiplier: int
    game_points: object


@dataclass
class PlayedGame:
    round_number: int
    table_number: int
    seat: GameSeat  # the player's
    opponents: list[GameSeat]  # the other seats of the game (art. 42: not those absent before it)
    hands: list[PlayedHand]
    result: GameResult | None = None  # once the table is confirmed
    others: list[GameSeat] = field(default_factory=list)  # every other seat at the table, absentees included


@dataclass(frozen=True)
class NextSeat:
    """Where the player sits in the latest published or playing round."""

    round_number: int
    table_number: int
    wind: str
    finished: bool
    playing: bool = False  # the game is under way: a hand recorded at the table, or the round playing


@dataclass(frozen=True)
class PlayerTables:
    """Every seat at the tables the player sat at (rounds published or later), read by one query with each
    table's status and result version, its round's status, the player's current result and the id of the
    table's newest hand version. Hand and result versions are only ever added, so any record, correction,
    confirmation, reopening, absence, new round or renamed opponent changes ``version``: it names the
    cached part of the player's page, which :func:`entry_games` makes from these rows (and the hands)."""

    entry_id: int
    rows: list[tuple]
    version: str
    next_seat: NextSeat | None


# Columns of a PlayerTables row, by name.
_T, _TNUM, _RNUM, _RSTATUS, _TSTATUS, _ENTRY, _POS, _ABSENCE, _NAME, _HAND, _RESULT = range(11)


# The two reads of a player's page, in plain SQL: every player opens their own page between rounds, so
# these run once per player and are rarely found in the cache; written out, they cost a third of the same
# queries built by the ORM. Each is a few index lookups (a seat's entry, a table's seats).
_PLAYER_SEATS_SQL = """
SELECT s.table_id, t.number, r.number, r.status, t.status,
       (SELECT MAX(v.id) FROM tournament_handversion v JOIN tournament_hand h ON h.id = v.hand_id
         WHERE h.table_id = s.table_id),
       res.version, t.result_version, res.final_points, res.placement, res.placement_points, res.multiplier,
       res.game_points
  FROM tournament_seat s
  JOIN tournament_table t ON t.id = s.table_id
  JOIN tournament_round r ON r.id = s.round_id
  LEFT JOIN tournament_seatresult res ON res.seat_id = s.id AND res.is_current
 WHERE s.entry_id = %s AND r.status <> %s
"""
_TABLE_SEATS_SQL = """
SELECT s.table_id, s.entry_id, s.position, s.absence, s.left_after_hand, p.display_name
  FROM tournament_seat s
  JOIN tournament_entry e ON e.id = s.entry_id
  JOIN players_player p ON p.id = e.player_id
 WHERE s.table_id IN ({tables})
"""
_FRACTIONS = (SeatResult._meta.get_field("placement_points"), SeatResult._meta.get_field("game_points"))


def entry_tables_state(entry: Entry) -> PlayerTables:
    """Two small queries (the player's seats, then everyone at those tables) rather than one that joins
    seven tables: the planner takes longer over that join than the database takes to run both."""
    with connection.cursor() as cursor:
        cursor.execute(_PLAYER_SEATS_SQL, [entry.pk, Round.Status.DRAFT])
        own = {}
        for row in cursor.fetchall():
            exact = [
                field.from_db_value(value, None, connection)
                for field, value in zip(_FRACTIONS, row[10:13:2], strict=True)
            ]
            own[row[0]] = (*row[:10], exact[0], row[11], exact[1])
        seats = []
        if own:
            cursor.execute(_TABLE_SEATS_SQL.format(tables=", ".join(["%s"] * len(own))), list(own))
            seats = cursor.fetchall()
    rows = []
    for table_id, entry_id, position, absence, left_after_hand, name in seats:
        table = own[table_id]
        rows.append((*table[:5], entry_id, position, absence, name, table[5], *table[6:], left_after_hand))
    rows.sort(key=lambda row: (row[_RNUM], row[_T], row[_POS]))
    playing = (Round.Status.PUBLISHED, Round.Status.PLAYING)
    upcoming = [row for row in rows if row[_ENTRY] == entry.pk and row[_RSTATUS] in playing]
    next_seat = None
    if upcoming:
        last = upcoming[-1]
        finished = last[_TSTATUS] == Table.Status.FINISHED
        under_way = last[_HAND] is not None or last[_RSTATUS] == Round.Status.PLAYING
        next_seat = NextSeat(
            last[_RNUM], last[_TNUM], str(SEAT_WIND_CHOICES[last[_POS]][1]), finished, not finished and under_way
        )
    return PlayerTables(entry.pk, rows, "|".join(map(str, rows)), next_seat)


def entry_games(tables: PlayerTables) -> list[PlayedGame]:
    """Each game the player sat in, in round order, with the other seats, the hands in force said with
    names and the player's current result: from the rows of :func:`entry_tables_state`, and one query for
    the hands when the tables have any."""
    by_table: dict[int, list[tuple]] = {}
    for row in tables.rows:
        by_table.setdefault(row[_T], []).append(row)
    with_hands = [table_id for table_id, rows in by_table.items() if rows[0][_HAND] is not None]
    versions: dict[int, list[HandVersion]] = {}
    if with_hands:
        for version in (
            HandVersion.objects.in_force()
            .filter(hand__table_id__in=with_hands)
            .select_related("hand")
            .order_by("hand__number")
        ):
            versions.setdefault(version.hand.table_id, []).append(version)
    games = []
    for table_id, rows in by_table.items():
        seats = [GameSeat(row[_ENTRY], row[_POS], row[_NAME], row[_ABSENCE]) for row in rows]
        own_row = next(row for row in rows if row[_ENTRY] == tables.entry_id)
        own = next(seat for seat in seats if seat.entry_id == tables.entry_id)
        playing = [seat for seat in seats if seat.in_game]
        index = next((i for i, seat in enumerate(playing) if seat.entry_id == tables.entry_id), None)
        names = [seat.name for seat in playing]
        hands = [
            PlayedHand(
                v, _hand_in_words(v, names), v.deltas[index] if index is not None and index < len(v.deltas) else None
            )
            for v in versions.get(table_id, [])
        ]
        result = GameResult(*own_row[_RESULT + 2 : _RESULT + 7]) if own_row[_RESULT] is not None else None
        games.append(
            PlayedGame(
                own_row[_RNUM],
                own_row[_TNUM],
                own,
                [s for s in playing if s is not own],
                hands,
                result,
                [s for s in seats if s is not own],
            )
        )
    return games


def hand_version_in_words(version: HandVersion) -> str:
    """One version of a hand said in words with the names of its table's players (the admin's audit trail)."""
    seats = Seat.objects.filter(table_id=version.hand.table_id).select_related("entry__player").order_by("position")
    names = {seat.position: str(seat.entry.player) for seat in seats}
    return _hand_in_words(version, [names.get(i, "?") for i in range(max(names, default=-1) + 1)])


def _hand_in_words(version: HandVersion, names: list[str]) -> str:
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


def event_entry_with_player(event: Event, entry_id: int) -> Entry | None:
    return Entry.objects.filter(event=event, pk=entry_id).select_related("player").first()


def event_hand_versions(event: Event):
    """Every version of every hand (corrections included), in play order."""
    return (
        HandVersion.objects.filter(hand__table__round__event=event)
        .select_related("hand__table__round")
        .order_by("hand__table__round__number", "hand__table__number", "hand__number", "version")
    )


# --- The API: tokens, lists and exports ----------------------------------------------------------


def api_token_by_digest(digest: str) -> ApiToken | None:
    return ApiToken.objects.select_related("event").filter(digest=digest).first()


def event_api_tokens(event: Event) -> list[ApiToken]:
    return list(ApiToken.objects.filter(event=event).select_related("created_by", "revoked_by"))


def event_api_token(event: Event, token_id: int) -> ApiToken | None:
    return ApiToken.objects.filter(event=event, pk=token_id).first()


def events_readable(where: Q):
    """Public events and those ``where`` (an event filter; empty: every event) names, newest first."""
    events = Event.objects.filter(Q(is_public=True) | where) if where else Event.objects.all()
    return events.select_related("ruleset").order_by("-starts_on", "name")


def players_entered_in(events, *, external_id: str = ""):
    """The players entered in any of ``events`` (a queryset), by name."""
    players = Player.objects.filter(entries__event__in=events).distinct().order_by("display_name", "id")
    if external_id:
        players = players.filter(external_id=external_id)
    return players


def event_entries_page(event: Event):
    """The event's entries with their players, by entry id: a queryset the caller pages."""
    return Entry.objects.filter(event=event).select_related("player").order_by("id")


def event_rounds(event: Event, *, drafts: bool = False) -> list[Round]:
    rounds = Round.objects.filter(event=event).order_by("number")
    return list(rounds if drafts else rounds.exclude(status=Round.Status.DRAFT))


def event_round_any(event: Event, number: int, *, drafts: bool = False) -> Round | None:
    rounds = Round.objects.filter(event=event, number=number)
    return (rounds if drafts else rounds.exclude(status=Round.Status.DRAFT)).first()


def round_tables_full(round_: Round):
    """The round's tables in order with their seats (players) and current results: a queryset the caller
    pages, three queries a page."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return (
        Table.objects.filter(round=round_)
        .select_related("round__event")
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch(
                "results",
                queryset=SeatResult.objects.current().select_related("seat").order_by("seat__position"),
                to_attr="current_results",
            ),
        )
    )


def table_api(table_id: int) -> Table | None:
    """A table with its event, seats (players) and current results."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return (
        Table.objects.select_related("round__event__ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch(
                "results",
                queryset=SeatResult.objects.current().select_related("seat").order_by("seat__position"),
                to_attr="current_results",
            ),
        )
        .filter(pk=table_id)
        .first()
    )


def table_hands_current(table: Table) -> list[HandVersion]:
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


def table_rulings(table: Table) -> list[Ruling]:
    return list(
        Ruling.objects.filter(table=table).select_related("entry__player", "decided_by").order_by("decided_at", "id")
    )


def event_rulings(event: Event) -> list[Ruling]:
    return list(
        Ruling.objects.filter(event=event)
        .select_related("entry__player", "table__round", "decided_by")
        .order_by("decided_at", "id")
    )


def event_penalties(event: Event) -> list[Penalty]:
    return list(
        Penalty.objects.filter(event=event)
        .select_related("entry__player", "table__round", "logged_by")
        .order_by("logged_at", "id")
    )


def event_export_tables(event: Event) -> list[Table]:
    """Every table of the event's rounds (drafts left out) with its seats, every version of its results
    and of its hands: five queries whatever the size of the event."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    results = SeatResult.objects.select_related("seat").order_by("version", "seat__position")
    versions = HandVersion.objects.select_related("hand", "recorded_by").order_by("hand__number", "version")
    return list(
        Table.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "number")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch("results", queryset=results, to_attr="all_results"),
            Prefetch("hands__versions", queryset=versions),
        )
    )


def event_entry_final_points(event: Event) -> dict[int, int]:
    """Entry id → the sum of the final points of their current results (a table score, e.g. for a
    ranking body's results file)."""
    totals: dict[int, int] = {}
    rows = SeatResult.objects.current().filter(table__round__event=event).values_list("entry_id", "final_points")
    for entry_id, points in rows:
        totals[entry_id] = totals.get(entry_id, 0) + (points or 0)
    return totals


def event_entries_with_ids(event: Event) -> dict[int, Entry]:
    return {e.pk: e for e in Entry.objects.filter(event=event).select_related("player")}


def player_by_id(player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def tables_event_ids(table_ids) -> list[int]:
    """The events of these tables (none asked: none read)."""
    if not table_ids:
        return []
    return list(Table.objects.filter(pk__in=table_ids).values_list("round__event_id", flat=True).distinct())


def event_slug(event_id: int) -> str | None:
    return Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()


# --- Teams (団体戦) --------------------------------------------------------------------------------


def event_teams(event: Event) -> list[Team]:
    """The event's teams with their members (one query each)."""
    return list(Team.objects.filter(event=event).prefetch_related("members__entry__player").order_by("name"))


def event_team_members(event: Event) -> list[list[int]]:
    """The entry ids of each team of the event (members and reserves)."""
    teams: dict[int, list[int]] = {}
    for team_id, entry_id in TeamMember.objects.filter(team__event=event).values_list("team_id", "entry_id"):
        teams.setdefault(team_id, []).append(entry_id)
    return list(teams.values())


def event_entries_by_name_or_id(event: Event) -> dict[str, Entry]:
    """The event's entries by their player's external id and by display name (for files that name them)."""
    found: dict[str, Entry] = {}
    for entry in Entry.objects.filter(event=event).select_related("player"):
        found.setdefault(entry.player.display_name, entry)
        if entry.player.external_id:
            found[entry.player.external_id] = entry
    return found


def event_standings_points(event: Event) -> list[tuple[int, str, list, str]]:
    """(entry id, total points, history, name) of each row of the event's published standings."""
    return list(StandingsRow.objects.filter(event=event).values_list("entry_id", "total_points", "history", "name"))


def event_schedule(event_id: int) -> dict:
    """The event's fixed schedule as stored (``{}``: none)."""
    return Event.objects.filter(pk=event_id).values_list("schedule", flat=True).first() or {}


# --- EMA results (MERS) --------------------------------------------------------------------------


@dataclass(frozen=True)
class EventEma:
    """An event's results for the EMA: the file's rows with their base ranks (``report``), every problem that
    forbids sending it (``problems``: the report's and the event's own), the MERS weight previewed for an
    open and for a qualification event (None while the dates are unknown), and the files' name stem
    (``<slug>_<starts on>_<ends on>_ema``)."""

    report: EmaReport
    problems: tuple[EmaProblem, ...]
    mers: MersWeight | None
    mers_qualification: MersWeight | None
    filename_stem: str


def event_ema(event: Event) -> EventEma:
    """The event's EMA results from its published standings: the players with at least one game, in
    standings order (their place recounted among them), seven queries whatever the size of the field.

    The points balance when the standings' totals, their penalties added back (art. 37), sum to what the
    tables' own sums allow: zero, but for forfeits (art. 42) and riichi deposits lost at the end."""
    snapshot = event_standings(event)
    rows = list(
        StandingsRow.objects.filter(event=event).select_related("entry__player").order_by("position")
        if snapshot
        else []
    )
    lines = []
    for row in rows:
        if row.games == 0:
            continue
        player = row.entry.player
        last, first = (
            (player.family_name, player.given_name) if player.family_name or player.given_name else (row.name, "")
        )
        lines.append(
            EmaLine(
                entry_id=row.entry_id,
                rank=row.rank,
                name=row.name,
                last_name=last,
                first_name=first,
                ema_number=player.external_id or "",
                country=player.country or row.country,
                points=row.total_points,
            )
        )
    results = SeatResult.objects.current().filter(table__round__event=event)
    played = results.filter(final_points__isnull=False).aggregate(games=Count("id"), points=Sum("final_points"))
    # a table's game points sum to its forfeits' placement points (art. 42) minus the riichi deposits lost
    # at the end (the start total less the final points); the penalties taken off the totals are added back
    lost = event.ruleset.start_points * played["games"] - (played["points"] or 0)
    imbalance = (
        sum((row.total_points for row in rows), Fraction(0))
        + Fraction(sum(row.penalty_points for row in rows), 1000)
        - sum(results.filter(forfeit=True).values_list("placement_points", flat=True), Fraction(0))
        + Fraction(lost, 1000)
    )
    substitutes = Entry.objects.filter(event=event, substitute_for__isnull=False).count()
    report = ema_report(lines, imbalance=imbalance, substitutes=substitutes)
    problems = []
    if not event.starts_on:
        problems.append(EmaProblem("dates_missing", gettext("the event has no start date")))
    unfinished = event_unfinished_round_numbers(event)
    if unfinished:
        problems.append(
            EmaProblem(
                "rounds_unfinished",
                gettext("rounds not completed: %(rounds)s") % {"rounds": ", ".join(map(str, sorted(unfinished)))},
            )
        )
    if snapshot and snapshot.hidden_from_round:
        problems.append(
            EmaProblem(
                "standings_hidden",
                gettext("the published standings stop before round %(round)s: show every round first")
                % {"round": snapshot.hidden_from_round},
            )
        )
    mers = mers_qualification = None
    stem = f"{event.slug}_ema"
    if event.starts_on:
        ends_on = event.ends_on or event.starts_on
        days = (ends_on - event.starts_on).days + 1
        shape = {"days": days, "players": len(report.rows), "countries": report.countries}
        mers = mers_weight(**shape, qualification=False)
        mers_qualification = mers_weight(**shape, qualification=True)
        stem = f"{event.slug}_{event.starts_on.isoformat()}_{ends_on.isoformat()}_ema"
    return EventEma(
        report=report,
        problems=(*problems, *report.problems),
        mers=mers,
        mers_qualification=mers_qualification,
        filename_stem=stem,
    )


def event_substitutes(event: Event) -> dict[int, int]:
    """Substitute 代走 entry id → the absent player's entry id, of the event."""
    return dict(Entry.objects.filter(event=event, substitute_for__isnull=False).values_list("id", "substitute_for_id"))


def event_team_reserves(event: Event) -> set[int]:
    """The entry ids of the event's teams' reserves."""
    return set(
        TeamMember.objects.filter(team__event=event, role=TeamMember.Role.RESERVE).values_list("entry_id", flat=True)
    )
