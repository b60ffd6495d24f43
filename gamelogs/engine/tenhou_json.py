"""The tenhou.net/6 JSON form of a game (``title``, ``name``, ``rule``, ``log``, ``sc``; converters of
Mahjong Soul records write the same form and add ``playerMapping``) read into a ``GameLog``.

Each hand of ``log`` is ``[[hand, honba, deposits], scores, dora, ura dora, then per seat its first
tiles, its draws and its discards, then the outcome]``. Tiles are numbers: 11-19 characters, 21-29
circles, 31-39 bamboo, 41-47 honours, 51-53 the red fives; a draw or discard may instead be a call
written as text (``c`` chi, ``p`` pon, ``m`` open kan among the draws; ``k`` added kan, ``a`` closed kan
among the discards), ``r`` marks a riichi discard and 60 a discard of the tile just drawn (ツモ切り).
A win's tiles are not written: they are found by playing the seat's draws and discards again.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .dates import played_at
from .record import Draw, GameLog, GameLogError, Hand, LogRules, Meld, Win
from .tenhou_names import yaku_id
from .tenhou_xml import log_text

OUTCOME_DRAWS = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "流し満貫": "nagashi_mangan",
    "九種九牌": "nine_terminals",
    "四家立直": "four_riichi",
    "三家和了": "triple_ron",
    "四槓散了": "four_kans",
    "四風連打": "four_winds",
}
LIMIT_WORDS = {
    "満貫": "mangan",
    "跳満": "haneman",
    "倍満": "baiman",
    "三倍満": "sanbaiman",
    "役満": "yakuman",
}
TSUMOGIRI = 60
CALL = re.compile(r"^(\d*)([cpmka])(\d+)$")
RED_CODES = {51: 15, 52: 25, 53: 35}


def read_tenhou_json(data: bytes | str | dict, *, game_id: str = "") -> GameLog:
    """The game of a tenhou.net/6 JSON log; ``GameLogError`` names what is wrong and its JSON path."""
    if isinstance(data, dict):
        document = data
    else:
        text = log_text(data) if isinstance(data, bytes) else data
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise GameLogError("not_a_game_log", "the file is not JSON", f"line {exc.lineno}") from None
        except RecursionError:
            raise GameLogError("not_a_game_log", "the JSON is nested too deeply", "$") from None
    if not isinstance(document, dict) or not isinstance(document.get("log"), list):
        raise GameLogError("not_a_game_log", "a tenhou.net/6 log is an object with a list of hands", "$.log")
    names = document.get("name")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names) or len(names) < 3:
        raise GameLogError("not_a_game_log", "name must list the players", "$.name")
    rule = document.get("rule") if isinstance(document.get("rule"), dict) else {}
    players = 3 if len(names) == 3 or names[3] == "" or "三" in str(rule.get("disp", "")) else 4
    names = names[:players]
    aka = bool(rule.get("aka") or rule.get("aka51") or rule.get("aka52") or rule.get("aka53"))
    hands = tuple(_hand(raw, index, players) for index, raw in enumerate(document["log"]))
    if not hands:
        raise GameLogError("game_not_finished", "the log has no hand", "$.log")
    final_scores, final_points = _final(document.get("sc"), players, hands)
    disp = str(rule.get("disp", ""))
    account_ids, mapped_names = _player_mapping(document.get("playerMapping"), players)
    game_id = game_id or _title_id(document)
    title = document.get("title")
    return GameLog(
        platform="mahjongsoul" if account_ids else "tenhou",
        game_id=game_id,
        players=tuple(name or mapped for name, mapped in zip(names, mapped_names or names, strict=True)),
        rules=LogRules(
            players=players,
            hanchan="南" in disp or any(hand.index >= 4 for hand in hands),
            aka_dora=aka,
            open_tanyao="喰" in disp or "disp" not in rule,
            start_points=hands[0].start_scores[0] if len(set(hands[0].start_scores)) == 1 else 0,
        ),
        hands=hands,
        final_scores=final_scores,
        final_points=final_points,
        account_ids=account_ids,
        played_at=played_at(game_id, " ".join(str(part) for part in title) if isinstance(title, list) else ""),
    )


def _player_mapping(mapping, players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The account id and nickname of each seat from ``playerMapping``, the extension converters of Mahjong Soul
    records add: a list of ``{"seat", "accountId", "nickname"}`` (``account_id``/``id``, ``name`` accepted too),
    or ``((), ())`` when the log has none."""
    if mapping is None:
        return (), ()
    if not isinstance(mapping, list) or len(mapping) != players or not all(isinstance(row, dict) for row in mapping):
        raise GameLogError("not_a_game_log", "playerMapping lists each seat's account", "$.playerMapping")
    ids, names = [""] * players, [""] * players
    for index, row in enumerate(mapping):
        seat = row.get("seat", index)
        account = next((row[key] for key in ("accountId", "account_id", "id") if key in row), None)
        if not isinstance(seat, int) or not 0 <= seat < players or ids[seat] or not isinstance(account, int | str):
            raise GameLogError(
                "not_a_game_log", "each seat of playerMapping has its seat and account id", f"$.playerMapping[{index}]"
            )
        ids[seat] = str(account)
        names[seat] = str(row.get("nickname", row.get("name", "")))
    if not all(ids):
        raise GameLogError("not_a_game_log", "playerMapping lists each seat's account", "$.playerMapping")
    return tuple(ids), tuple(names)


def tile_id_of(code: int, used: set[int]) -> int:
    """A Tenhou tile id (0-135) for a tile code, one copy not yet used (the red five is copy 0)."""
    red = code in RED_CODES
    code = RED_CODES.get(code, code)
    suit, number = divmod(code, 10)
    if not (1 <= suit <= 4 and 1 <= number <= (7 if suit == 4 else 9)):
        raise ValueError(code)
    kind = 27 + number - 1 if suit == 4 else 9 * (suit - 1) + number - 1
    copies = (0,) if red else ((1, 2, 3, 0) if number == 5 and suit < 4 else (0, 1, 2, 3))
    for copy in copies:
        tile_id = 4 * kind + copy
        if tile_id not in used:
            used.add(tile_id)
            return tile_id
    raise ValueError(code)


class _Seat:
    """One seat's tiles as its draws and discards are played again."""

    def __init__(self) -> None:
        self.hand: list[int] = []  # tile codes
        self.melds: list[tuple[str, list[int]]] = []
        self.last_draw: int | None = None
        self.last_discard: int | None = None  # the code, or the added tile of an added kan
        self.riichi = False

    def draw(self, entry) -> None:
        if isinstance(entry, int):
            self.hand.append(entry)
            self.last_draw = entry
            return
        called, letter, tiles = _call(entry)
        kind = {"c": "chi", "p": "pon", "m": "kan_open"}.get(letter)
        if kind is None:
            raise ValueError(entry)
        from_hand = list(tiles)
        from_hand.remove(called)
        for tile in from_hand:
            self.hand.remove(tile)
        self.melds.append((kind, tiles))
        self.last_draw = None

    def discard(self, entry) -> None:
        if entry == 0:  # the turn of an open kan: the next draw is its replacement tile
            return
        if isinstance(entry, str) and entry.startswith("r"):
            self.riichi = True
            entry = int(entry[1:])
        if isinstance(entry, int):
            tile = self.last_draw if entry == TSUMOGIRI else entry
            self.hand.remove(tile)
            self.last_discard = tile
            return
        added, letter, tiles = _call(entry)
        if letter == "a":
            for tile in tiles:
                self.hand.remove(tile)
            self.melds.append(("kan_closed", tiles))
        elif letter == "k":
            self.hand.remove(added)
            pon = next(i for i, (kind, meld) in enumerate(self.melds) if kind == "pon" and _same(meld[0], added))
            self.melds[pon] = ("kan_added", tiles)
            self.last_discard = added  # a win on it robs the kan (槍槓)
        else:
            raise ValueError(entry)


def _same(a: int, b: int) -> bool:
    return RED_CODES.get(a, a) == RED_CODES.get(b, b)


def _call(entry: str):
    """(the called or added tile, the letter, every tile of the meld) of a call written as text."""
    match = CALL.match(entry)
    if match is None or len(match.group(1)) % 2 or len(match.group(3)) % 2:
        raise ValueError(entry)
    before, letter, after = match.groups()
    codes = [int(before[i : i + 2]) for i in range(0, len(before), 2)]
    rest = [int(after[i : i + 2]) for i in range(0, len(after), 2)]
    tiles = codes + rest
    return rest[0], letter, tiles


def _hand(raw, index: int, players: int) -> Hand:
    path = f"$.log[{index}]"
    if not isinstance(raw, list) or len(raw) < 4 + 3 * players + 1:
        raise GameLogError("not_a_game_log", "a hand lists its start, dora, each seat's tiles and its outcome", path)
    try:
        number, honba, deposits = (int(value) for value in raw[0][:3])
        start = tuple(int(value) for value in raw[1][:players])
        dora, ura = list(raw[2]), list(raw[3])
    except (TypeError, ValueError):
        raise GameLogError("not_a_game_log", "a hand starts with its number and its scores", f"{path}[0]") from None
    seats = [_Seat() for _ in range(players)]
    for seat, state in enumerate(seats):
        first = 4 + 3 * seat
        try:
            state.hand = list(raw[first])
            draws, discards = raw[first + 1], raw[first + 2]
            for turn, entry in enumerate(draws):
                state.draw(entry)
                if turn < len(discards):
                    state.discard(discards[turn])
        except (ValueError, StopIteration, TypeError, IndexError):
            raise GameLogError(
                "not_a_game_log", "a seat's draws and discards do not play out", f"{path}[{first + 1}]"
            ) from None
    outcome = raw[4 + 3 * players]
    dealer = number % 4  # Tenhou counts four hands a wind, three-player games too
    wins_or_draw = _outcome(outcome, f"{path}[{4 + 3 * players}]", seats, dora, ura, players)
    ronned = {win.payer for win in wins_or_draw} if isinstance(wins_or_draw, tuple) else set()
    riichi = tuple(
        seat
        for seat, state in enumerate(seats)
        if state.riichi and not (seat in ronned and _riichi_on_last_discard(raw[4 + 3 * seat + 2]))
    )
    return Hand(
        index=number,
        honba=honba,
        deposits=deposits,
        dealer=dealer,
        start_scores=start,
        riichi=riichi,
        outcome=wins_or_draw,
    )


def _riichi_on_last_discard(discards) -> bool:
    """A riichi whose very discard was won on is not accepted: its stick is not paid (立直不成立)."""
    entries = [entry for entry in discards if entry != 0]
    return bool(entries) and isinstance(entries[-1], str) and entries[-1].startswith("r")


def _outcome(outcome, path: str, seats, dora, ura, players: int):
    if not isinstance(outcome, list) or not outcome or not isinstance(outcome[0], str):
        raise GameLogError("not_a_game_log", "a hand ends with its outcome", path)
    word = outcome[0]
    if word in OUTCOME_DRAWS:
        deltas = tuple(int(value) for value in outcome[1][:players]) if len(outcome) > 1 else (0,) * players
        tenpai = tuple(seat for seat, delta in enumerate(deltas) if delta > 0) if any(deltas) else ()
        if word == "全員聴牌":
            tenpai = tuple(range(players))
        return Draw(kind=OUTCOME_DRAWS[word], tenpai=tenpai, deltas=deltas)
    if word != "和了":
        raise GameLogError("not_a_game_log", f"unknown outcome {word!r}", f"{path}[0]")
    wins = []
    for pair in range(1, len(outcome) - 1, 2):
        try:
            wins.append(_win(outcome[pair], outcome[pair + 1], seats, dora, ura, players))
        except (ValueError, TypeError, IndexError, KeyError):
            raise GameLogError("not_a_game_log", "a win cannot be read", f"{path}[{pair + 1}]") from None
    if not wins:
        raise GameLogError("not_a_game_log", "a win lists no winner", path)
    return tuple(wins)


PRICE = re.compile(r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|役満|数え役満))?(\d+)(?:-(\d+))?点(∀)?$")
YAKU = re.compile(r"^(.+)\((\d+)飜\)$|^(.+)\(役満\)$")


def _win(deltas, details, seats, dora, ura, players: int) -> Win:
    winner, discarder, responsible = int(details[0]), int(details[1]), int(details[2])
    price = PRICE.match(str(details[3]))
    if price is None:
        raise ValueError(details[3])
    fu, _han, limit_word, first, second, everyone = price.groups()
    tsumo = winner == discarder
    if not tsumo:
        points = int(first)
    elif second:  # a non-dealer's tsumo: non-dealers pay the first figure, the dealer the second
        points = 2 * int(first) + int(second)
    else:  # the dealer's tsumo: every other seat pays the figure
        points = (players - 1) * int(first) if everyone else int(first)
    yaku = []
    for text in details[4:]:
        match = YAKU.match(text)
        if match is None:
            raise ValueError(text)
        name = match.group(1) or match.group(3)
        han = int(match.group(2)) if match.group(2) else 13
        key = yaku_id(name)
        yaku.append((-1 if key is None else key, han))
    state = seats[winner]
    used: set[int] = set()
    concealed_codes = list(state.hand)
    if tsumo:
        win_code = state.last_draw
    else:
        win_code = seats[discarder].last_discard
        concealed_codes.append(win_code)
    melds = []
    for kind, tiles in state.melds:
        melds.append(Meld(kind, tuple(tile_id_of(code, used) for code in tiles)))
    concealed = [tile_id_of(code, used) for code in concealed_codes]
    win_tile = next(tile for tile, code in zip(concealed, concealed_codes, strict=True) if code == win_code)
    hand_ura = [tile_id_of(code, set()) for code in ura]
    return Win(
        winner=winner,
        payer=None if tsumo else discarder,
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win_tile,
        fu=int(fu) if fu else 0,
        points=points,
        limit=LIMIT_WORDS.get((limit_word or "").removeprefix("数え")) or None,
        yaku=tuple(yaku),
        dora_indicators=tuple(tile_id_of(code, set()) for code in dora),
        ura_indicators=tuple(hand_ura),
        deltas=tuple(int(value) for value in deltas[:players]),
        responsible=None if responsible == winner else responsible,
    )


def _final(sc, players: int, hands: tuple[Hand, ...]) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """The final scores and points of ``sc``: scores in hundreds (as Tenhou writes them) or in points."""
    if not isinstance(sc, list) or len(sc) < 2 * players:
        raise GameLogError("game_not_finished", "the log has no final scores (sc)", "$.sc")
    try:
        raw = [Decimal(str(sc[2 * seat])) for seat in range(players)]
        points = tuple(Fraction(Decimal(str(sc[2 * seat + 1]))) for seat in range(players))
    except InvalidOperation:
        raise GameLogError("not_a_game_log", "sc must be a score and points per player", "$.sc") from None
    end = hands[-1].end_scores
    scale = 100 if all(100 * value == score for value, score in zip(raw, end, strict=True)) else 1
    return tuple(int(value * scale) for value in raw), points


def _title_id(document: dict) -> str:
    """A Mahjong Soul converter keeps the record's id in ``ref`` or ``title``; Tenhou's own form has none."""
    reference = document.get("ref")
    return reference if isinstance(reference, str) else ""
