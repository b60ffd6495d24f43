"""Bring an online game into an event from its log: read it, check it against the event, find its table,
record every hand through the console's own services, and keep where the log's scoring and Taikai's differ.

One transaction: a log is recorded whole or not at all. The event row is locked first, so that the same log
sent twice at once is recorded once (the second finds the first's record: ``log_already_imported``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
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
from gamelogs.models import Disagreement, GameLogImport
from players.models import OnlineAccount
from scoring.services import win_evaluate
from taikai.errors import Conflict, Forbidden, TaikaiError
from tournament.models import Event, Round, Seat, Table
from tournament.models import Hand as TableHand
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


def game_log_read(data: bytes, content_type: str = "") -> ReadLog:
    """The game of a log given as bytes (XML or JSON, plain or gzip), or a ``TaikaiError`` naming where."""
    try:
        text = log_text(data)
        json_form = "json" in content_type or text.lstrip().startswith("{")
        game = read_tenhou_json(text) if json_form else read_tenhou_xml(text)
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
) -> GameLogImport:
    """Record the game of ``data`` at its table of ``event``; ``may_record`` says whether the caller may
    record at the table the log turns out to be (a referee of some tables only)."""
    read = game_log_read(data, content_type)
    game = read.game
    event = lock_event(event.pk)
    _refuse_twice(event, game, read.digest)
    _refuse_other_rules(event, game)
    entries = _entries_of(event, game)
    table = _table_of(event, entries)
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
    if not record.disagreements.exists() and list(table.running_points) == list(game.final_scores):
        # the platform ended the game (a bust, an east-only game): where Taikai's count of hands says it
        # stopped early, that is why, recorded as a ruling
        ended = _("the game ended on %(platform)s, as its log shows") % {"platform": record.get_platform_display()}
        table_finish(table=table, user=user, end_reason="other", end_note=ended)
        table.refresh_from_db()
    record.table = table
    return record


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


def _entries_of(event: Event, game: GameLog) -> list:
    """The event's entries of the log's seats, in the log's order, matched by their online accounts."""
    accounts = {
        account.name: account.player_id
        for account in OnlineAccount.objects.filter(platform=game.platform, name__in=game.players)
    }
    unknown = [name for name in game.players if name not in accounts]
    if unknown:
        raise TaikaiError(
            "unknown_players",
            # Translators: names lists the players' names on the platform, as the log writes them.
            _("no player of Taikai has these names on %(platform)s: %(names)s")
            % {"platform": OnlineAccount.Platform(game.platform).label, "names": ", ".join(unknown)},
            field="log",
        )
    entries = {entry.player_id: entry for entry in event.entries.filter(player_id__in=accounts.values())}
    missing = [name for name in game.players if accounts[name] not in entries]
    if missing:
        raise TaikaiError(
            "unknown_players",
            _("these players are not entered in the event: %(names)s") % {"names": ", ".join(missing)},
            field="log",
        )
    return [entries[accounts[name]] for name in game.players]


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
            return table
    raise TaikaiError(
        "no_table_for_players",
        _("no table of a round in play seats these players together"),
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
