"""Bring an online game into an event from its log: read it, check it against the event, find its table,
record every hand through the console's own services, and keep where the log's scoring and Taikai's differ.

One transaction: a log is recorded whole or not at all. The event row is locked first, so that the same log
sent twice at once is recorded once (the second finds the first's record: ``log_already_imported``).
"""

from __future__ import annotations

import hashlib
import json
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from gamelogs.engine import (
    Draw,
    GameLog,
    GameLogError,
    Hand,
    Win,
    read_tenhou_json,
    read_tenhou_xml,
    win_request,
)
from gamelogs.engine.tenhou_xml import log_text
from gamelogs.models import Disagreement, GameLogImport, OnlineLeague, OnlineTable
from players.models import OnlineAccount, Player
from scoring.models import Ruleset
from scoring.services import win_evaluate, win_points
from taikai.errors import Conflict, Forbidden, TaikaiError
from tournament.models import Entry, Event, Round, Seat, Table
from tournament.models import Hand as TableHand
from tournament.selectors import event_next_round_number
from tournament.services.hands import hand_record
from tournament.services.locks import lock_event, lock_table
from tournament.services.results import table_finish

DRAW_OUTCOMES = {"exhaustive": "exhaustive_draw"}  # every other draw is abortive (途中流局)
YAKUMAN_HAN = 13


@dataclass(frozen=True)
class ReadLog:
    game: GameLog
    text: str
    log_format: str
    digest: str


def game_log_read(data: bytes, content_type: str = "", log_id: str = "") -> ReadLog:
    """The game of a log given as bytes (XML or JSON, plain or gzip), or a ``TaikaiError`` naming where;
    ``log_id`` is the platform's id of the log when known apart from it (Tenhou's XML does not carry it)."""
    try:
        text = log_text(data)
        json_form = "json" in content_type or text.lstrip().startswith("{")
        game = read_tenhou_json(text, game_id=log_id) if json_form else read_tenhou_xml(text, game_id=log_id)
    except GameLogError as error:
        raise TaikaiError(error.code, _log_error_message(error), field="log") from None
    log_format = GameLogImport.Format.TENHOU_JSON if json_form else GameLogImport.Format.TENHOU_XML
    return ReadLog(game, text, log_format, hashlib.sha256(_canonical(text, json_form).encode()).hexdigest())


def _canonical(text: str, json_form: bool) -> str:
    """The same game sent with other spacing or key order is the same log."""
    if json_form:
        return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "".join(text.split())


def _log_error_message(error: GameLogError) -> str:
    if error.code == "game_not_finished":
        message = _("the log stops before the end of the game")
    else:
        message = _("the file is not a game log Taikai reads (Tenhou XML or tenhou.net/6 JSON)")
    # Translators: message says what is wrong with a game log; where names the place in the file.
    return _("%(message)s: %(where)s") % {"message": message, "where": error.where} if error.where else message


@transaction.atomic
def game_log_import(
    *,
    event: Event,
    data: bytes,
    content_type: str = "",
    user=None,
    may_record: Callable[[Table], bool] = lambda table: True,
    log_id: str = "",
) -> GameLogImport:
    """Record the game of ``data`` at its table of ``event``; ``may_record`` says whether the caller may
    record at the table the log turns out to be (a referee of some tables only)."""
    read = game_log_read(data, content_type, log_id)
    game = read.game
    event = lock_event(event.pk)
    league = OnlineLeague.objects.filter(event=event).first()
    _refuse_twice(event, game, read.digest)
    _refuse_other_rules(event, game)
    _refuse_other_lobby(league, game)
    _refuse_too_old(event, league, game)
    entries = _entries_of(event, game, league)
    table = _free_table(event, entries) if league is not None and league.free_tables else _table_of(event, entries)
    _refuse_played_before_the_round(event, table.round, game)
    if not may_record(table):
        raise Forbidden("forbidden", _("you may not record play at table %(table)s") % {"table": table.number})
    table = lock_table(table.pk)
    seating_before = _seat_in_log_order(table, entries)
    record = GameLogImport.objects.create(
        event=event,
        table=table,
        platform=game.platform,
        game_id=game.game_id,
        digest=read.digest,
        log_format=read.log_format,
        log=read.text,
        players=list(game.players),
        final_scores=list(game.final_scores),
        hands=len(game.hands),
        seating_before=seating_before,
        imported_by=user if getattr(user, "is_authenticated", False) else None,
        imported_with=str(user) if user is not None and not getattr(user, "is_authenticated", False) else "",
    )
    note = _("imported from %(platform)s log %(game)s") % {
        "platform": record.get_platform_display(),
        "game": game.game_id or read.digest[:12],
    }
    for number, hand in enumerate(game.hands, start=1):
        _record_hand(record, table, number, hand, game, user=user, note=note)
    table.refresh_from_db()
    accepted = _accept_by_the_league(record, league)
    if not record.disagreements.filter(state=Disagreement.State.OPEN).exists() and (
        accepted or list(table.running_points) == list(game.final_scores)
    ):
        # the platform ended the game (a bust, an east-only game): where Taikai's count of hands says it
        # stopped early, that is why, recorded as a ruling
        ended = _("the game ended on %(platform)s, as its log shows") % {"platform": record.get_platform_display()}
        table_finish(table=table, user=user, end_reason="other", end_note=ended)
        table.refresh_from_db()
    record.table = table
    return record


def _accept_by_the_league(record: GameLogImport, league: OnlineLeague | None) -> int:
    """An event whose league accepts the log's scoring settles every disagreement at once, by no one (the
    setting), now; returns how many."""
    if league is None or not league.accepts_log_scoring:
        return 0
    return record.disagreements.filter(state=Disagreement.State.OPEN).update(
        state=Disagreement.State.ACCEPTED, resolved_by=None, resolved_at=timezone.now()
    )


def table_result_waits_for_disagreements(sender, *, table: Table, **kwargs) -> None:
    """Receiver of ``tournament.services.results.result_confirming``: an imported game's result waits while a
    hand of it disagrees with Taikai's scoring, until a referee settles the hand."""
    hands = sorted(
        set(
            Disagreement.objects.filter(log_import__table_id=table.pk, state=Disagreement.State.OPEN).values_list(
                "hand_number", flat=True
            )
        )
    )
    if hands:
        raise Conflict(
            "disagreement_open",
            # Translators: hands lists the numbers of the hands ("3, 7").
            _(
                "the log's scoring and Taikai's differ at hands %(hands)s: a referee accepts the log's scoring or "
                "corrects each of them before the table's result is confirmed"
            )
            % {"hands": ", ".join(str(hand) for hand in hands)},
            field="table",
        )


def _refuse_twice(event: Event, game: GameLog, digest: str) -> None:
    twice = GameLogImport.objects.filter(event=event, digest=digest)
    if game.game_id:
        twice = twice | GameLogImport.objects.filter(event=event, platform=game.platform, game_id=game.game_id)
    earlier = twice.select_related("table__round").first()
    if earlier is not None:
        raise Conflict(
            "log_already_imported",
            _("this game was already imported: round %(round)s, table %(table)s")
            % {"round": earlier.table.round.number, "table": earlier.table.number},
            field="log",
        )


def _refuse_other_rules(event: Event, game: GameLog) -> None:
    """The game must have been played under the event's rules, as far as the log says them."""
    ruleset, rules = event.ruleset, game.rules
    differ = []
    if rules.players != event.table_size:
        differ.append(
            _("players: %(log)s in the log, %(event)s in the event") % {"log": rules.players, "event": event.table_size}
        )
    if rules.start_points and rules.start_points != ruleset.start_points:
        differ.append(
            _("start points: %(log)s in the log, %(event)s in the event")
            % {"log": rules.start_points, "event": ruleset.start_points}
        )
    if rules.aka_dora != ruleset.aka_dora:
        differ.append(_("red fives: %(log)s in the log") % {"log": _("yes") if rules.aka_dora else _("no")})
    if rules.open_tanyao != ruleset.open_tanyao:
        differ.append(_("open tanyao: %(log)s in the log") % {"log": _("yes") if rules.open_tanyao else _("no")})
    if differ:
        raise TaikaiError(
            "rules_differ",
            # Translators: rules lists the rules that differ ("red fives: no in the log; ...").
            _("the game was played under other rules than the event's: %(rules)s") % {"rules": "; ".join(differ)},
            field="log",
        )


def _refuse_other_lobby(league: OnlineLeague | None, game: GameLog) -> None:
    """An event that names its lobby takes only the games played there."""
    if league is None or not league.lobby or game.rules.lobby == league.lobby:
        return
    raise TaikaiError(
        "wrong_lobby",
        _("the game was played in lobby %(log)s, not in the event's lobby %(event)s")
        % {"log": game.rules.lobby or _("(a public lobby)"), "event": league.lobby},
        field="log",
    )


def _local(event: Event, moment: datetime) -> datetime:
    """A log's time (the platform's clock, no zone) read in the event's time zone."""
    return moment.replace(tzinfo=zoneinfo.ZoneInfo(event.time_zone))


def _refuse_too_old(event: Event, league: OnlineLeague | None, game: GameLog) -> None:
    """A log older than the event's limit (when the log says when it was played)."""
    if league is None or league.max_log_age_days is None or game.played_at is None:
        return
    oldest = timezone.now() - timedelta(days=league.max_log_age_days)
    if _local(event, game.played_at) < oldest:
        raise TaikaiError(
            "log_too_old",
            _("the game was played on %(played)s: the event takes games of the last %(days)s days")
            % {"played": game.played_at.date().isoformat(), "days": league.max_log_age_days},
            field="log",
        )


def _refuse_played_before_the_round(event: Event, round_: Round, game: GameLog) -> None:
    """A game that began before its round started (the round's timer) is not the round's game."""
    started = round_.timer_started_at
    if started is None or game.played_at is None or _local(event, game.played_at) >= started:
        return
    raise TaikaiError(
        "log_too_old",
        _("the game was played on %(played)s, before round %(round)s started")
        % {"played": game.played_at.isoformat(sep=" ", timespec="minutes"), "round": round_.number},
        field="log",
    )


def _accounts_of(game: GameLog) -> dict[int, int]:
    """The player of each seat Taikai knows, by the seat's account id first, then by its name."""
    known = {}
    if game.account_ids:
        by_id = dict(
            OnlineAccount.objects.filter(platform=game.platform, account_id__in=game.account_ids).values_list(
                "account_id", "player_id"
            )
        )
        known = {seat: by_id[account] for seat, account in enumerate(game.account_ids) if account in by_id}
    wanted = [name for seat, name in enumerate(game.players) if seat not in known and name]
    by_name = dict(
        OnlineAccount.objects.filter(platform=game.platform, name__in=wanted).values_list("name", "player_id")
    )
    for seat, name in enumerate(game.players):
        if seat not in known and name in by_name:
            known[seat] = by_name[name]
    return known


def _entries_of(event: Event, game: GameLog, league: OnlineLeague | None = None) -> list:
    """The event's entries of the log's seats, in the log's order, matched by their online accounts; an event
    whose league creates players from logs creates the unknown and enters them."""
    creates = league is not None and league.creates_players
    known = _accounts_of(game)
    unknown = [name or game.account_ids[seat] for seat, name in enumerate(game.players) if seat not in known]
    if unknown and not creates:
        raise TaikaiError(
            "unknown_players",
            # Translators: names lists the players' names on the platform, as the log writes them.
            _("no player of Taikai has these names on %(platform)s: %(names)s")
            % {"platform": OnlineAccount.Platform(game.platform).label, "names": ", ".join(unknown)},
            field="log",
        )
    for seat, name in enumerate(game.players):
        if seat not in known:
            account_id = game.account_ids[seat] if game.account_ids else ""
            known[seat] = _player_from_log(game.platform, name, account_id)
    entries = {entry.player_id: entry for entry in event.entries.filter(player_id__in=known.values())}
    missing = [game.players[seat] for seat in range(len(game.players)) if known[seat] not in entries]
    if missing and creates:
        for seat in range(len(game.players)):
            if known[seat] not in entries:
                entries[known[seat]] = Entry.objects.create(event=event, player_id=known[seat])
    elif missing:
        raise TaikaiError(
            "unknown_players",
            _("these players are not entered in the event: %(names)s") % {"names": ", ".join(missing)},
            field="log",
        )
    return [entries[known[seat]] for seat in range(len(game.players))]


def _player_from_log(platform: str, name: str, account_id: str) -> int:
    """A new player with their online account, or the one another import made meanwhile (two leagues on the same
    platform taking the same newcomer's games at once: the account is unique per platform)."""
    try:
        with transaction.atomic():
            player = Player.objects.create(display_name=name or account_id)
            OnlineAccount.objects.create(player=player, platform=platform, name=name, account_id=account_id)
            return player.pk
    except IntegrityError:
        same = OnlineAccount.objects.filter(platform=platform)
        same = same.filter(account_id=account_id) if account_id else same.filter(name=name)
        return same.values_list("player_id", flat=True).get()


def _free_table(event: Event, entries: list) -> Table:
    """A free online league: the log becomes a new table of the newest round in play where none of its players
    has played yet, or of a new round (rounds in play at once: a league's games arrive in any order)."""
    wanted = [entry.pk for entry in entries]
    rounds = Round.objects.filter(event=event, status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING))
    round_ = rounds.exclude(seats__entry_id__in=wanted).order_by("-number").first()
    if round_ is None:
        round_ = Round.objects.create(
            event=event, number=event_next_round_number(event), status=Round.Status.PLAYING, timer_started_at=None
        )
        if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
            Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    number = (round_.tables.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    table = Table.objects.create(round=round_, number=number)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, entry_id=entry_id, position=seat) for seat, entry_id in enumerate(wanted)
    )
    return table


def _table_of(event: Event, entries: list) -> Table:
    """The table of the event's round in play that seats exactly the log's players, with no hand yet."""
    wanted = {entry.pk for entry in entries}
    seats = Seat.objects.filter(
        round__event=event,
        round__status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING),
        entry_id__in=wanted,
    ).select_related("table__round")
    tables = {}
    for seat in seats:
        tables.setdefault(seat.table_id, (seat.table, set()))[1].add(seat.entry_id)
    for table, seated in tables.values():
        if seated == wanted and set(table.seats.values_list("entry_id", flat=True)) == wanted:
            if table.status != Table.Status.PLAYING or table.running_hands:
                raise TaikaiError(
                    "table_already_played",
                    _("round %(round)s, table %(table)s already has hands or a result")
                    % {"round": table.round.number, "table": table.number},
                    field="log",
                )
            _refuse_a_console_table(table)
            return table
    raise TaikaiError(
        "no_table_for_players",
        _("no table of a round in play seats these players together"),
        field="log",
    )


def _refuse_a_console_table(table: Table) -> None:
    """A hybrid round (some of its tables flagged online) takes logs at its online tables only."""
    flagged = OnlineTable.objects.filter(table__round_id=table.round_id)
    if flagged.exists() and not flagged.filter(table=table).exists():
        raise TaikaiError(
            "table_not_online",
            _("round %(round)s, table %(table)s plays at the console, not online")
            % {"round": table.round.number, "table": table.number},
            field="log",
        )


def _seat_in_log_order(table: Table, entries: list) -> list[int]:
    """The platform decided the winds: the table's seats take the log's order (its first seat East).
    Returns the entries as they were seated, East first, kept with the import."""
    seats = {seat.entry_id: seat for seat in table.seats.all()}
    before = [seat.entry_id for seat in sorted(seats.values(), key=lambda seat: seat.position)]
    if before != [entry.pk for entry in entries]:
        Seat.objects.filter(table=table).update(position=F("position") + 100)  # positions are unique
        for position, entry in enumerate(entries):
            Seat.objects.filter(pk=seats[entry.pk].pk).update(position=position)
    return before


def _record_hand(record, table, number: int, hand: Hand, game: GameLog, *, user, note: str) -> None:
    data = _hand_data(hand)
    version = hand_record(table=table, number=number, expected_version=0, data=data, user=user, note=note)
    if isinstance(hand.outcome, tuple):
        for win in hand.outcome:
            _compare_win(record, table, number, hand, win, game)
    expected = _log_deltas(hand)
    if list(version.deltas) != expected:
        Disagreement.objects.create(
            log_import=record,
            hand_number=number,
            log_scoring={"deltas": expected},
            engine_scoring={"deltas": list(version.deltas)},
        )


def _hand_data(hand: Hand) -> dict:
    """The hand as the console records it: the log's winners, payers, han and fu."""
    data = {
        "dealer_position": hand.dealer,
        "honba": hand.honba,
        "deposits_in": 1000 * hand.deposits,
        "riichi_positions": list(hand.riichi),
    }
    if isinstance(hand.outcome, Draw):
        outcome = DRAW_OUTCOMES.get(hand.outcome.kind, "abortive_draw")
        data["outcome"] = outcome
        if outcome == "exhaustive_draw":
            data["tenpai_positions"] = list(hand.outcome.tenpai)
        return data
    wins = hand.outcome
    data["outcome"] = "tsumo" if wins[0].tsumo else "ron"
    data["wins"] = [_win_data(win) for win in wins]
    return data


def _win_data(win: Win) -> dict:
    yakuman = sum(1 for _key, han in win.yaku if han >= YAKUMAN_HAN) if win.limit == "yakuman" else 0
    if win.limit == "yakuman" and not yakuman:  # counted yakuman (数え役満): the han as counted
        return {"winner": win.winner, "discarder": win.payer, "han": win.han, "fu": win.fu}
    if yakuman:
        return {"winner": win.winner, "discarder": win.payer, "yakuman": yakuman}
    return {"winner": win.winner, "discarder": win.payer, "han": win.han, "fu": win.fu}


def _log_deltas(hand: Hand) -> list[int]:
    """Each seat's change as the log says it, with the riichi sticks paid (Taikai counts them in the hand)."""
    outcomes = hand.outcome if isinstance(hand.outcome, tuple) else (hand.outcome,)
    deltas = [-1000 * (seat in hand.riichi) for seat in range(len(hand.start_scores))]
    for outcome in outcomes:
        deltas = [delta + change for delta, change in zip(deltas, outcome.deltas, strict=True)]
    return deltas


def _compare_win(record, table, number: int, hand: Hand, win: Win, game: GameLog) -> None:
    """Price the win's tiles under the event's rules; where Taikai and the log differ, keep both."""
    ruleset = table.round.event.ruleset
    log_scoring = {
        "han": win.han,
        "fu": win.fu,
        "limit": win.limit,
        "points": win.points,
        "yaku": list(win.yaku),
    }
    request = win_request(game, hand, win)["hand"]
    try:
        evaluated = win_evaluate(
            request,
            seat=win.winner,
            dealer_seat=hand.dealer,
            seats=game.rules.players,
            tsumo=win.tsumo,
            ruleset=ruleset,
        )
    except TaikaiError as error:
        engine_scoring = {"error": error.code, "message": error.message}
    else:
        engine_scoring = {
            "han": evaluated.han,
            "fu": evaluated.fu,
            "yakuman": evaluated.yakuman,
            "points": win_points(
                ruleset,
                han=evaluated.han,
                fu=evaluated.fu,
                yakuman=evaluated.yakuman,
                dealer=win.winner == hand.dealer,
                tsumo=win.tsumo,
                seats=game.rules.players,
            ),
            "yaku": [list(y) for y in evaluated.yaku],
        }
        log_yakuman = sum(1 for _key, han in win.yaku if han >= YAKUMAN_HAN)
        same = (
            evaluated.yakuman == log_yakuman
            if log_yakuman
            else evaluated.han == win.han and (evaluated.fu == win.fu or win.limit is not None)
        )
        if same:
            return
    Disagreement.objects.create(
        log_import=record,
        hand_number=number,
        winner_position=win.winner,
        log_scoring=log_scoring,
        engine_scoring=engine_scoring,
    )


SETTLED = (Disagreement.State.ACCEPTED, Disagreement.State.CORRECTED)


@transaction.atomic
def disagreement_settle(*, disagreement: Disagreement, state: str, user=None) -> Disagreement:
    """The referee settles a disagreement: the hand as recorded stands (``accepted``), or it was corrected
    at the console as a new version (``corrected``). Once none is open, the table's result is confirmed."""
    record = disagreement.log_import
    table = lock_table(record.table_id)
    disagreement = Disagreement.objects.select_for_update().get(pk=disagreement.pk)
    if state not in SETTLED:
        raise TaikaiError("invalid_state", _("a disagreement is settled as accepted or corrected"), field="state")
    if disagreement.state != Disagreement.State.OPEN:
        raise Conflict("already_settled", _("this disagreement is settled already"), field="state")
    if state == Disagreement.State.CORRECTED and not _hand_corrected(table, disagreement.hand_number):
        raise TaikaiError(
            "not_corrected",
            _("hand %(hand)s has not been corrected: correct it at the table first, or accept it as recorded")
            % {"hand": disagreement.hand_number},
            field="state",
        )
    disagreement.state = state
    disagreement.resolved_by = user if getattr(user, "is_authenticated", False) else None
    disagreement.resolved_at = timezone.now()
    disagreement.save(update_fields=["state", "resolved_by", "resolved_at"])
    if table.status == Table.Status.PLAYING and not record.disagreements.filter(state=Disagreement.State.OPEN).exists():
        ended = _("the game ended on %(platform)s, as its log shows") % {"platform": record.get_platform_display()}
        table_finish(table=table, user=user, end_reason="other", end_note=ended)
    return disagreement


def _hand_corrected(table: Table, number: int) -> bool:
    """A version of the hand was made after the one the import recorded (version 1)."""
    return TableHand.objects.filter(table=table, number=number, current_version__gt=1).exists()


@transaction.atomic
def online_league_create(*, slug: str, ruleset_slug: str, name: str = "") -> Event:
    """A free online league: a public event with that slug under a ruleset (a platform's preset), whose every
    log becomes a table of the round in play and whose logs enter their players."""
    if not ruleset_slug:
        raise TaikaiError("ruleset_required", _("name the league's ruleset (a preset, e.g. tenhou)"), field="ruleset")
    ruleset = Ruleset.objects.filter(slug=ruleset_slug).first()
    if ruleset is None:
        known = ", ".join(Ruleset.objects.order_by("slug").values_list("slug", flat=True))
        raise TaikaiError(
            "unknown_ruleset",
            _("no ruleset is named %(slug)s (known: %(known)s)") % {"slug": ruleset_slug, "known": known},
            field="ruleset",
        )
    if Event.objects.filter(slug=slug).exists():
        raise Conflict("event_exists", _("an event is already named %(slug)s") % {"slug": slug}, field="event")
    event = Event(
        name=name or slug,
        slug=slug,
        ruleset=ruleset,
        table_size=3 if ruleset.standard_players == 3 else 4,
        is_public=True,
        status=Event.Status.RUNNING,
    )
    try:
        event.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise TaikaiError("invalid_event", f"{field}: {' '.join(messages)}", field=field) from None
    event.save()
    OnlineLeague.objects.create(event=event, free_tables=True, creates_players=True)
    return event
