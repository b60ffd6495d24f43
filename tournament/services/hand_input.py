"""Validate what a referee records for one hand and turn it into what the scoring service
prices (``scoring.services.RecordedHand``).

A win is given either as han/fu (what is written on a score sheet) or as the whole hand in the
``hand-format.md`` JSON, in which case the engine works out yaku, han and fu.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from scoring.services import RecordedHand, RecordedWin, win_check_han_fu, win_evaluate
from taikai.errors import TaikaiError

if TYPE_CHECKING:
    from scoring.models import Ruleset

OUTCOMES = ("ron", "tsumo", "exhaustive_draw", "abortive_draw", "replayed")
MAX_HAN = 130  # counted han 数え役満 never reach this; anything above is a typing slip
MAX_YAKUMAN = 6  # multiple yakuman 多倍役満
MAX_YAKU = 40  # far more than any hand holds: the yaku named with a win, as entered
MAX_HONBA = 100  # 本場


@dataclass(frozen=True)
class WinInput:
    winner: int
    discarder: int | None
    han: int
    fu: int
    yakuman: int = 0
    yaku: tuple = ()
    hand: dict | None = None
    responsible: int | None = None  # 責任払い (pao): the seat that fed the yakuman's last meld
    pao_yakuman: str = ""  # the yakuman it answers for (one the ruleset names)


@dataclass(frozen=True)
class HandInput:
    outcome: str
    dealer_position: int
    honba: int = 0
    deposits_in: int = 0
    riichi_positions: tuple[int, ...] = ()
    wins: tuple[WinInput, ...] = ()
    tenpai_positions: tuple[int, ...] = ()


def _int(value, field: str, *, minimum: int = 0, maximum: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except (TypeError, ValueError) as exc:
            raise TaikaiError(
                "invalid_number",
                # Translators: field is the input at fault (honba, wins[0].han, ...).
                _("%(field)s must be a whole number") % {"field": field},
                field=field,
            ) from exc
    if value < minimum:
        raise TaikaiError(
            "invalid_number",
            _("%(field)s must be at least %(minimum)s") % {"field": field, "minimum": minimum},
            field=field,
        )
    if value > maximum:
        raise TaikaiError(
            "invalid_number",
            _("%(field)s must be at most %(maximum)s") % {"field": field, "maximum": maximum},
            field=field,
        )
    return value


def _positions(values, field: str, players: int) -> tuple[int, ...]:
    if values in (None, ""):
        return ()
    if not isinstance(values, list | tuple):
        raise TaikaiError(
            "invalid_seats",
            # Translators: field is the input at fault (riichi_positions, tenpai_positions).
            _("%(field)s must be a list of seat positions") % {"field": field},
            field=field,
        )
    positions = tuple(_int(v, field) for v in values)
    for p in positions:
        if p >= players:
            raise TaikaiError(
                "seat_not_at_table",
                _("%(field)s: seat %(seat)s is not at this table") % {"field": field, "seat": p},
                field=field,
            )
    if len(set(positions)) != len(positions):
        raise TaikaiError("invalid_seats", _("%(field)s lists a seat twice") % {"field": field}, field=field)
    return tuple(sorted(positions))


def _evaluated_win(
    raw: dict, *, winner: int, discarder, dealer_position: int, active: list[int], ruleset: Ruleset, field: str
) -> WinInput:
    hand = raw.get("hand")
    if not isinstance(hand, dict):
        raise TaikaiError("invalid_hand", _("hand must be an object in the hand format"), field=field)
    if winner not in active or dealer_position not in active:
        raise TaikaiError("player_left", _("the winner or the dealer has left the game (art. 42)"), field=field)
    try:
        win = win_evaluate(
            hand,
            seat=active.index(winner),
            dealer_seat=active.index(dealer_position),
            seats=len(active),
            tsumo=discarder is None,
            ruleset=ruleset,
        )
    except TaikaiError as exc:
        raise exc.at(field) from exc
    return WinInput(winner, discarder, win.han, win.fu, win.yakuman, win.yaku, hand)


def parse_hand_input(data: dict, *, players: int, ruleset: Ruleset, active: list[int] | None = None) -> HandInput:
    """Check a recorded hand against the table: ``players`` seats numbered 0.. from the game's East,
    of which ``active`` (default: all) are still playing (art. 42: a player may leave mid-game)."""
    active = list(range(players)) if active is None else active
    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        raise TaikaiError(
            "invalid_outcome",
            _("outcome must be one of %(outcomes)s") % {"outcomes": ", ".join(OUTCOMES)},
            field="outcome",
        )
    dealer = _int(data.get("dealer_position", 0), "dealer_position")
    if dealer >= players:
        raise TaikaiError(
            "seat_not_at_table",
            _("dealer seat %(seat)s is not at this table") % {"seat": dealer},
            field="dealer_position",
        )
    raw_wins = data.get("wins") or []
    if outcome in ("ron", "tsumo") and not raw_wins:
        needs = {"ron": _("a ron needs a winner"), "tsumo": _("a tsumo needs a winner")}
        raise TaikaiError("missing_winner", needs[outcome], field="wins")
    if outcome not in ("ron", "tsumo") and raw_wins:
        has_none = {
            "exhaustive_draw": _("a exhaustive draw has no winner"),
            "abortive_draw": _("a abortive draw has no winner"),
            "replayed": _("a replayed has no winner"),
        }
        raise TaikaiError("unexpected_winner", has_none[outcome], field="wins")
    if outcome == "tsumo" and len(raw_wins) != 1:
        raise TaikaiError("invalid_winners", _("a tsumo has exactly one winner"), field="wins")
    wins: list[WinInput] = []
    discarders = set()
    for i, raw in enumerate(raw_wins):
        field = f"wins[{i}]"
        if not isinstance(raw, dict):
            raise TaikaiError("invalid_win", _("each win is an object"), field=field)
        winner = _int(raw.get("winner"), f"{field}.winner")
        if winner >= players:
            raise TaikaiError(
                "seat_not_at_table",
                _("winner seat %(seat)s is not at this table") % {"seat": winner},
                field=f"{field}.winner",
            )
        discarder = raw.get("discarder")
        if outcome == "tsumo":
            if discarder not in (None, ""):
                raise TaikaiError("tsumo_has_no_discarder", _("a tsumo has no discarder"), field=f"{field}.discarder")
            discarder = None
        else:
            if discarder in (None, ""):
                raise TaikaiError("missing_discarder", _("a ron needs the discarder"), field=f"{field}.discarder")
            discarder = _int(discarder, f"{field}.discarder")
            if discarder >= players:
                raise TaikaiError(
                    "seat_not_at_table",
                    _("discarder seat %(seat)s is not at this table") % {"seat": discarder},
                    field=f"{field}.discarder",
                )
            if discarder == winner:
                raise TaikaiError(
                    "winner_is_discarder", _("a ron winner cannot be the discarder"), field=f"{field}.winner"
                )
            discarders.add(discarder)
        pao = _pao(raw, field, winner=winner, players=players, ruleset=ruleset)
        if raw.get("hand") is not None:
            evaluated = _evaluated_win(
                raw,
                winner=winner,
                discarder=discarder,
                dealer_position=dealer,
                active=active,
                ruleset=ruleset,
                field=f"{field}.hand",
            )
            wins.append(_with_pao(evaluated, pao, field))
            continue
        yakuman = _int(raw.get("yakuman") or 0, f"{field}.yakuman", maximum=MAX_YAKUMAN)
        if not yakuman and raw.get("han") in (None, ""):
            raise TaikaiError("missing_han", _("choose the han of the win (or yakuman)"), field=f"{field}.han")
        han = _int(raw.get("han") or 0, f"{field}.han", minimum=0 if yakuman else 1, maximum=MAX_HAN)
        fu = 0
        if han < 5 and not yakuman:  # below mangan 満貫 the fu count: a score sheet always gives them
            if raw.get("fu") in (None, ""):
                raise TaikaiError(
                    "missing_fu", _("a win of %(han)s han needs its fu") % {"han": han}, field=f"{field}.fu"
                )
            fu = _int(raw.get("fu"), f"{field}.fu")
        if not yakuman:
            win_check_han_fu(han=han, fu=fu, tsumo=discarder is None, ruleset=ruleset, field=f"{field}.fu")
        win = WinInput(winner, discarder, han, fu, yakuman, _yaku_named(raw.get("yaku"), f"{field}.yaku"))
        wins.append(_with_pao(win, pao, field))
    if len(discarders) > 1:
        raise TaikaiError("invalid_winners", _("all ron winners win on the same discard"), field="wins")
    if len({w.winner for w in wins}) != len(wins):
        raise TaikaiError("invalid_winners", _("a seat wins at most once per hand"), field="wins")
    tenpai = _positions(data.get("tenpai_positions"), "tenpai_positions", players)
    riichi = _positions(data.get("riichi_positions"), "riichi_positions", players)
    if tenpai and outcome != "exhaustive_draw":
        raise TaikaiError(
            "unexpected_tenpai", _("tenpai seats are recorded for an exhaustive draw only"), field="tenpai_positions"
        )
    for name, positions in (
        ("dealer_position", [dealer]),
        (
            "wins",
            [w.winner for w in wins]
            + [w.discarder for w in wins if w.discarder is not None]
            + [w.responsible for w in wins if w.responsible is not None],
        ),
        ("riichi_positions", riichi),
        ("tenpai_positions", tenpai),
    ):
        gone = [p for p in positions if p not in active]
        if gone:
            raise TaikaiError(
                "player_left", _("seat %(seat)s has left the game (art. 42)") % {"seat": gone[0]}, field=name
            )
    return HandInput(
        outcome=outcome,
        dealer_position=dealer,
        honba=_int(data.get("honba", 0), "honba", maximum=MAX_HONBA),
        deposits_in=_int(data.get("deposits_in", 0), "deposits_in"),
        riichi_positions=riichi,
        wins=tuple(wins),
        tenpai_positions=tenpai,
    )


def recorded_hand(hand: HandInput, *, active: list[int]) -> RecordedHand:
    """The hand as the scoring service prices it: the ``active`` seats renumbered 0..m-1 (art. 42).
    A hand stopped and replayed (art. 36 ③) is settled as a replay: nothing moves, whether or not the ruleset
    plays abortive draws."""
    index = {position: i for i, position in enumerate(active)}
    replayed = hand.outcome == "replayed"
    return RecordedHand(
        seats=len(active),
        dealer_seat=index[hand.dealer_position],
        kind="replay" if replayed else hand.outcome,
        honba=hand.honba,
        deposits_in=hand.deposits_in,
        riichi_seats=() if replayed else tuple(index[p] for p in hand.riichi_positions),
        wins=tuple(
            RecordedWin(
                index[w.winner],
                None if w.discarder is None else index[w.discarder],
                w.han,
                w.fu,
                w.yakuman,
                responsible=None if w.responsible is None else index[w.responsible],
                pao_yakuman=w.pao_yakuman,
            )
            for w in hand.wins
        ),
        tenpai_seats=tuple(index[p] for p in hand.tenpai_positions),
    )


def _pao(raw: dict, field: str, *, winner: int, players: int, ruleset: Ruleset) -> tuple[int, str] | None:
    """責任払い (pao) named with a win: the responsible seat and the yakuman it answers for, one the ruleset names;
    None when the win names none."""
    if raw.get("responsible") in (None, ""):
        if raw.get("pao_yakuman"):
            raise TaikaiError("missing_responsible", _("pao needs the responsible seat"), field=f"{field}.responsible")
        return None
    responsible = _int(raw.get("responsible"), f"{field}.responsible")
    if responsible >= players:
        raise TaikaiError(
            "seat_not_at_table",
            _("responsible seat %(seat)s is not at this table") % {"seat": responsible},
            field=f"{field}.responsible",
        )
    if responsible == winner:
        raise TaikaiError(
            "invalid_responsible",
            _("a winner cannot be responsible for their own win"),
            field=f"{field}.responsible",
        )
    key = raw.get("pao_yakuman") or ""
    if key not in (ruleset.pao_yakuman or ()):
        named = ", ".join(ruleset.pao_yakuman or ()) or "—"
        raise TaikaiError(
            "pao_not_played",
            # Translators: named lists the yakuman the ruleset has pao for (daisangen, daisuushii), or —.
            _("the ruleset has pao 責任払い only for %(named)s") % {"named": named},
            field=f"{field}.pao_yakuman",
        )
    return responsible, key


def _with_pao(win: WinInput, pao: tuple[int, str] | None, field: str) -> WinInput:
    if pao is None:
        return win
    if not win.yakuman:
        raise TaikaiError("pao_needs_yakuman", _("pao 責任払い is for a yakuman win"), field=f"{field}.pao_yakuman")
    return WinInput(win.winner, win.discarder, win.han, win.fu, win.yakuman, win.yaku, win.hand, *pao)


def _yaku_named(raw, field: str) -> tuple:
    """The yaku named with a win (``[["riichi", 1], ...]``), kept as entered: a short list of pairs."""
    if not raw:
        return ()
    if not isinstance(raw, list | tuple) or len(raw) > MAX_YAKU:
        raise TaikaiError(
            "invalid_yaku", _("name at most %(count)s yaku, as a list") % {"count": MAX_YAKU}, field=field
        )
    if not all(isinstance(y, list | tuple) and len(y) <= 2 for y in raw):
        raise TaikaiError("invalid_yaku", _("each yaku is its name and its han"), field=field)
    return tuple(tuple(y) for y in raw)
