"""Tenhou's XML game log (mjlog: ``<mjloggm>``) read into a ``GameLog``.

What is read: ``GO`` (the rules and the lobby), ``UN`` (the names, URL-encoded), ``TAIKYOKU``, each
``INIT`` (a hand's number, honba, deposits, dealer, scores), ``REACH`` step 2 (a riichi accepted and its
stick paid), ``N`` is not needed (a win lists its own melds), ``AGARI`` (a win: hand, melds, winning tile,
fu, points, yaku, dora, each seat's change), ``RYUUKYOKU`` (a draw, its kind and who was ready), ``BYE``
(a player disconnected) and the ``owari`` of the last outcome (final scores and points). Draws and
discards (``T``…``G``) are the play itself: the outcome does not depend on them.
"""

from __future__ import annotations

import zlib
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from urllib.parse import unquote
from xml.etree import ElementTree

from .dates import played_at
from .record import Draw, GameLog, GameLogError, Hand, LogRules, Win
from .tenhou_tiles import decode_call

MAX_LOG_BYTES = 2_000_000  # a hanchan is about 15 kB; nothing larger is a real log
LIMITS = (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
DRAWS = {
    "": "exhaustive",
    "yao9": "nine_terminals",
    "reach4": "four_riichi",
    "ron3": "triple_ron",
    "kan4": "four_kans",
    "kaze4": "four_winds",
    "nm": "nagashi_mangan",
}
GO_NO_RED_FIVES = 0x02
GO_NO_OPEN_TANYAO = 0x04
GO_HANCHAN = 0x08
GO_THREE_PLAYERS = 0x10


def log_text(data: bytes) -> str:
    """The log's text from its bytes, gzip or plain, refused past ``MAX_LOG_BYTES`` once unpacked."""
    if data[:2] == b"\x1f\x8b":
        unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            data = unpacker.decompress(data, MAX_LOG_BYTES + 1)
        except zlib.error:
            raise GameLogError("not_a_game_log", "the file is not a readable gzip file") from None
    if len(data) > MAX_LOG_BYTES:
        raise GameLogError("not_a_game_log", f"the log is larger than {MAX_LOG_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameLogError("not_a_game_log", "the log is not UTF-8 text", f"byte {exc.start}") from None


def read_tenhou_xml(data: bytes | str, *, game_id: str = "") -> GameLog:
    """The game of a Tenhou XML log; ``GameLogError`` names what is wrong and where."""
    text = log_text(data) if isinstance(data, bytes) else data
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # a game log declares nothing; entities can explode
        raise GameLogError("not_a_game_log", "a game log has no document type or entities", "line 1")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        line, column = exc.position
        raise GameLogError("not_a_game_log", "the file is not XML", f"line {line}, column {column}") from None
    if root.tag != "mjloggm":
        raise GameLogError("not_a_game_log", "the XML is not a Tenhou game log (mjloggm)", root.tag)
    return _Reader(root, game_id).game()


class _Reader:
    """Walks the elements once, in order, keeping the hand being played."""

    def __init__(self, root: ElementTree.Element, game_id: str) -> None:
        self.root = root
        self.game_id = game_id
        self.names: list[str] = []
        self.go_type: int | None = None
        self.lobby = ""
        self.hands: list[Hand] = []
        self.hand: dict | None = None
        self.left: list[int] = []
        self.owari: str | None = None
        self.seen: dict[str, int] = {}
        self.following: ElementTree.Element | None = None  # the element after the one being read

    def game(self) -> GameLog:
        children = list(self.root)
        for element, following in zip(children, [*children[1:], None], strict=True):
            self.following = following
            self.seen[element.tag] = self.seen.get(element.tag, 0) + 1
            handler = getattr(self, f"_on_{element.tag}", None)
            if handler is not None:
                handler(element)
        if self.go_type is None or not self.names:
            raise GameLogError("not_a_game_log", "the log has no GO or UN element: it names no game", "mjloggm")
        if self.hand is not None:
            raise GameLogError("game_not_finished", "the log stops during a hand", f"INIT {len(self.hands) + 1}")
        if not self.hands or self.owari is None:
            raise GameLogError("game_not_finished", "the log has no end of game (owari)", "mjloggm")
        players = len(self.names)
        final_scores, final_points = self._final(self.owari, players)
        return GameLog(
            platform="tenhou",
            game_id=self.game_id,
            players=tuple(self.names),
            rules=self._rules(players),
            hands=tuple(self.hands),
            final_scores=final_scores,
            final_points=final_points,
            left=tuple(self.left),
            played_at=played_at(self.game_id),
        )

    # --- elements
    def _on_GO(self, element) -> None:
        self.go_type = _int(element, "type", "GO")
        self.lobby = element.get("lobby", "")
        if self.lobby == "0":
            self.lobby = ""

    def _on_UN(self, element) -> None:
        if self.names:  # a later UN is a player coming back (再接続)
            return
        names = [unquote(element.get(f"n{seat}", "")) for seat in range(4)]
        if names[3] == "" and self.go_type is not None and self.go_type & GO_THREE_PLAYERS:
            names = names[:3]
        self.names = names

    def _on_BYE(self, element) -> None:
        seat = _int(element, "who", "BYE")
        if seat not in self.left:
            self.left.append(seat)

    def _on_INIT(self, element) -> None:
        where = f"INIT {self.seen['INIT']}"
        if self.hand is not None:
            raise GameLogError("not_a_game_log", "a hand starts before the last one ended", where)
        seed = _ints(element, "seed", where)
        scores = _ints(element, "ten", where)
        if len(seed) < 3 or len(scores) < len(self.names):
            raise GameLogError("not_a_game_log", "INIT needs a seed and a score per player", where)
        self.hand = {
            "index": seed[0],
            "honba": seed[1],
            "deposits": seed[2],
            "dealer": _int(element, "oya", where),
            "start_scores": tuple(100 * score for score in scores[: len(self.names)]),
            "riichi": [],
            "wins": [],
        }

    def _on_REACH(self, element) -> None:
        if self.hand is not None and element.get("step") == "2":
            self.hand["riichi"].append(_int(element, "who", "REACH"))

    def _on_AGARI(self, element) -> None:
        where = f"AGARI {self.seen['AGARI']}"
        hand = self._hand_in_play(where)
        hand["wins"].append(self._win(element, where))
        self._end_if_last(element, hand, where)

    def _on_RYUUKYOKU(self, element) -> None:
        where = f"RYUUKYOKU {self.seen['RYUUKYOKU']}"
        hand = self._hand_in_play(where)
        kind = DRAWS.get(element.get("type", ""))
        if kind is None:
            raise GameLogError("not_a_game_log", f"unknown kind of draw {element.get('type')!r}", where)
        tenpai = tuple(seat for seat in range(len(self.names)) if element.get(f"hai{seat}"))
        hand["draw"] = Draw(kind=kind, tenpai=tenpai, deltas=self._deltas(element, where))
        self._end_if_last(element, hand, where)

    # --- pieces
    def _win(self, element, where: str) -> Win:
        winner = _int(element, "who", where)
        discarder = _int(element, "fromWho", where)
        ten = _ints(element, "ten", where)
        if len(ten) != 3 or not 0 <= ten[2] < len(LIMITS):
            raise GameLogError("not_a_game_log", "ten must be fu, points, limit", where)
        pairs = _ints(element, "yaku", where) if element.get("yaku") else []
        yaku = tuple(zip(pairs[::2], pairs[1::2], strict=True))
        yakuman = tuple((key, 13) for key in (_ints(element, "yakuman", where) if element.get("yakuman") else []))
        calls = _ints(element, "m", where) if element.get("m") else []
        responsible = element.get("paoWho")
        return Win(
            winner=winner,
            payer=None if discarder == winner else discarder,
            concealed=tuple(_ints(element, "hai", where)),
            melds=tuple(decode_call(code, winner, len(self.names)) for code in calls),
            win_tile=_int(element, "machi", where),
            fu=ten[0],
            points=ten[1],
            limit=LIMITS[ten[2]],
            yaku=yaku + yakuman,
            dora_indicators=tuple(_ints(element, "doraHai", where)),
            ura_indicators=tuple(_ints(element, "doraHaiUra", where)) if element.get("doraHaiUra") else (),
            deltas=self._deltas(element, where),
            responsible=int(responsible) if responsible not in (None, "") else None,
        )

    def _deltas(self, element, where: str) -> tuple[int, ...]:
        values = _ints(element, "sc", where)
        if len(values) < 2 * len(self.names):
            raise GameLogError("not_a_game_log", "sc needs a score and a change per player", where)
        return tuple(100 * values[2 * seat + 1] for seat in range(len(self.names)))

    def _hand_in_play(self, where: str) -> dict:
        if self.hand is None:
            raise GameLogError("not_a_game_log", "an outcome comes before any hand started", where)
        return self.hand

    def _end_if_last(self, element, hand: dict, where: str) -> None:
        """A hand ends with its draw, or with the last win of a multiple ron: the next element is not a win."""
        if self.following is not None and self.following.tag == "AGARI" and "draw" not in hand:
            return
        outcome = hand.pop("draw", None) or tuple(hand.pop("wins"))
        hand.pop("wins", None)
        self.hands.append(Hand(riichi=tuple(sorted(hand.pop("riichi"))), outcome=outcome, **hand))
        self.hand = None
        if element.get("owari"):
            self.owari = element.get("owari")

    def _rules(self, players: int) -> LogRules:
        go = self.go_type or 0
        return LogRules(
            players=players,
            hanchan=bool(go & GO_HANCHAN),
            aka_dora=not go & GO_NO_RED_FIVES,
            open_tanyao=not go & GO_NO_OPEN_TANYAO,
            start_points=self.hands[0].start_scores[0] if len(set(self.hands[0].start_scores)) == 1 else 0,
            lobby=self.lobby,
        )

    @staticmethod
    def _final(owari: str, players: int) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
        parts = owari.split(",")
        try:
            scores = tuple(100 * int(parts[2 * seat]) for seat in range(players))
            points = tuple(Fraction(Decimal(parts[2 * seat + 1])) for seat in range(players))
        except (IndexError, ValueError, InvalidOperation):
            raise GameLogError("not_a_game_log", "owari must be a score and points per player", "owari") from None
        return scores, points


def _int(element, name: str, where: str) -> int:
    try:
        return int(element.get(name, ""))
    except ValueError:
        raise GameLogError("not_a_game_log", f"{name} must be a whole number", f"{where}: {name}") from None


def _ints(element, name: str, where: str) -> list[int]:
    text = element.get(name)
    if text is None:
        raise GameLogError("not_a_game_log", f"{name} is missing", f"{where}: {name}")
    try:
        return [int(part) for part in text.split(",") if part != ""]
    except ValueError:
        raise GameLogError(
            "not_a_game_log", f"{name} must be whole numbers separated by commas", f"{where}: {name}"
        ) from None
