"""Validate what a referee records for one hand and turn it into the scoring engine's inputs.

A win is given either as han/fu (what is written on a score sheet) or as the whole hand in the
``hand-format.md`` JSON, in which case the engine works out yaku, han and fu.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine import evaluate
from scoring.engine.errors import ScoringError
from scoring.engine.rules import Rules
from scoring.engine.schemes import win_payment
from scoring.engine.settle import HandOutcome, Win
from tournament.errors import ServiceError

OUTCOMES = ("ron", "tsumo", "exhaustive_draw", "abortive_draw", "replayed")
STANDARD_FU = {20, 25, *range(30, 111, 10)}
WIND_LETTERS = "ESWN"


@dataclass(frozen=True)
class WinInput:
    winner: int
    discarder: int | None
    han: int
    fu: int
    yakuman: int = 0
    yaku: tuple = ()
    hand: dict | None = None


@dataclass(frozen=True)
class HandInput:
    outcome: str
    dealer_position: int
    honba: int = 0
    deposits_in: int = 0
    riichi_positions: tuple[int, ...] = ()
    wins: tuple[WinInput, ...] = ()
    tenpai_positions: tuple[int, ...] = ()


def _int(value, field: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except (TypeError, ValueError) as exc:
            raise ServiceError("invalid_number", f"{field} must be a whole number", field=field) from exc
    if value < minimum:
        raise ServiceError("invalid_number", f"{field} must be at least {minimum}", field=field)
    return value


def _positions(values, field: str, players: int) -> tuple[int, ...]:
    if values in (None, ""):
        return ()
    if not isinstance(values, list | tuple):
        raise ServiceError("invalid_seats", f"{field} must be a list of seat positions", field=field)
    positions = tuple(_int(v, field) for v in values)
    for p in positions:
        if p >= players:
            raise ServiceError("seat_not_at_table", f"{field}: seat {p} is not at this table", field=field)
    if len(set(positions)) != len(positions):
        raise ServiceError("invalid_seats", f"{field} lists a seat twice", field=field)
    return tuple(sorted(positions))


def check_han_fu_exists(*, han: int, fu: int, tsumo: bool, field: str, raw_fu: bool = False) -> None:
    """Reject han/fu pairs no hand can have (seed 001): 20 fu is pinfu tsumo only (so ≥ 2 han), 25 fu
    is chiitoitsu only (≥ 2 han, ≥ 3 with tsumo), and fu is 20, 25 or 30–110 in tens (raw, even: 20–108)."""
    if han >= 5:
        return  # limit hands are paid without fu
    if raw_fu:
        if not (fu == 25 or (20 <= fu <= 110 and fu % 2 == 0)):
            raise ServiceError(
                "impossible_fu", f"{fu} fu cannot happen (20–110 in steps of 2, or 25)", field=field
            )
    elif fu not in STANDARD_FU:
        raise ServiceError("impossible_fu", f"{fu} fu cannot happen (20, 25, or 30–110 in tens)", field=field)
    if fu == 20 and not tsumo:
        raise ServiceError(
            "impossible_han_fu", "20 fu is only pinfu tsumo: a ron has at least 30 fu", field=field
        )
    if fu == 20 and han < 2:
        raise ServiceError("impossible_han_fu", "20 fu is pinfu tsumo, which is at least 2 han", field=field)
    if fu == 25 and han < (3 if tsumo else 2):
        raise ServiceError(
            "impossible_han_fu",
            f"25 fu is only chiitoitsu, which is at least {3 if tsumo else 2} han"
            + (" with tsumo" if tsumo else ""),
            field=field,
        )


def _evaluated_win(
    raw: dict, *, winner: int, discarder, dealer_position: int, active: list[int], rules: Rules, field
):
    hand = raw.get("hand")
    if not isinstance(hand, dict):
        raise ServiceError("invalid_hand", "hand must be an object in the hand format", field=field)
    if winner not in active or dealer_position not in active:
        raise ServiceError("player_left", "the winner or the dealer has left the game (art. 42)", field=field)
    seat_wind = WIND_LETTERS[(active.index(winner) - active.index(dealer_position)) % len(active)]
    request = {"id": "hand", "hand": {**hand, "seat_wind": seat_wind, "tsumo": discarder is None,
                                      "dealer": winner == dealer_position}}  # fmt: skip
    result = evaluate(request, rules)
    if "error" in result:
        raise ServiceError(result["error"]["code"], result["error"]["message"], field=field)
    r = result["result"]
    yakuman_keys = {"tenhou", "chiihou", "tsuuiisou", "suuankou", "ryuuiisou", "shousuushii", "daisuushii",
                    "daisangen", "chuuren", "chinroutou", "kokushi", "suukantsu"}  # fmt: skip
    yakuman = sum(1 for key, _ in r["yaku"] if key in yakuman_keys)
    return WinInput(winner, discarder, r["han"], r["fu"], yakuman, tuple(tuple(y) for y in r["yaku"]), hand)


def parse_hand_input(
    data: dict, *, players: int, rules: Rules, raw_fu: bool = False, active: list[int] | None = None
) -> HandInput:
    """Check a recorded hand against the table: ``players`` seats numbered 0.. from the game's East,
    of which ``active`` (default: all) are still playing (art. 42: a player may leave mid-game)."""
    active = list(range(players)) if active is None else active
    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        raise ServiceError(
            "invalid_outcome", f"outcome must be one of {', '.join(OUTCOMES)}", field="outcome"
        )
    dealer = _int(data.get("dealer_position", 0), "dealer_position")
    if dealer >= players:
        raise ServiceError(
            "seat_not_at_table", f"dealer seat {dealer} is not at this table", field="dealer_position"
        )
    raw_wins = data.get("wins") or []
    if outcome in ("ron", "tsumo") and not raw_wins:
        raise ServiceError("missing_winner", f"a {outcome} needs a winner", field="wins")
    if outcome not in ("ron", "tsumo") and raw_wins:
        raise ServiceError("unexpected_winner", f"a {outcome.replace('_', ' ')} has no winner", field="wins")
    if outcome == "tsumo" and len(raw_wins) != 1:
        raise ServiceError("invalid_winners", "a tsumo has exactly one winner", field="wins")
    wins: list[WinInput] = []
    discarders = set()
    for i, raw in enumerate(raw_wins):
        field = f"wins[{i}]"
        if not isinstance(raw, dict):
            raise ServiceError("invalid_win", "each win is an object", field=field)
        winner = _int(raw.get("winner"), f"{field}.winner")
        if winner >= players:
            raise ServiceError(
                "seat_not_at_table", f"winner seat {winner} is not at this table", field=f"{field}.winner"
            )
        discarder = raw.get("discarder")
        if outcome == "tsumo":
            if discarder not in (None, ""):
                raise ServiceError(
                    "tsumo_has_no_discarder", "a tsumo has no discarder", field=f"{field}.discarder"
                )
            discarder = None
        else:
            if discarder in (None, ""):
                raise ServiceError(
                    "missing_discarder", "a ron needs the discarder", field=f"{field}.discarder"
                )
            discarder = _int(discarder, f"{field}.discarder")
            if discarder >= players:
                raise ServiceError("seat_not_at_table", f"discarder seat {discarder} is not at this table",
                                   field=f"{field}.discarder")  # fmt: skip
            if discarder == winner:
                raise ServiceError(
                    "winner_is_discarder", "a ron winner cannot be the discarder", field=f"{field}.winner"
                )
            discarders.add(discarder)
        if raw.get("hand") is not None:
            wins.append(_evaluated_win(raw, winner=winner, discarder=discarder, dealer_position=dealer,
                                       active=active, rules=rules, field=f"{field}.hand"))  # fmt: skip
            continue
        yakuman = _int(raw.get("yakuman", 0), f"{field}.yakuman")
        han = _int(raw.get("han", 0), f"{field}.han", minimum=0 if yakuman else 1)
        fu = _int(raw.get("fu", 30), f"{field}.fu") if han < 5 and not yakuman else 0
        if not yakuman:
            check_han_fu_exists(han=han, fu=fu, tsumo=discarder is None, field=f"{field}.fu", raw_fu=raw_fu)
        wins.append(
            WinInput(winner, discarder, han, fu, yakuman, tuple(tuple(y) for y in raw.get("yaku") or ()))
        )
    if len(discarders) > 1:
        raise ServiceError("invalid_winners", "all ron winners win on the same discard", field="wins")
    if len({w.winner for w in wins}) != len(wins):
        raise ServiceError("invalid_winners", "a seat wins at most once per hand", field="wins")
    tenpai = _positions(data.get("tenpai_positions"), "tenpai_positions", players)
    riichi = _positions(data.get("riichi_positions"), "riichi_positions", players)
    if tenpai and outcome != "exhaustive_draw":
        raise ServiceError("unexpected_tenpai", "tenpai seats are recorded for an exhaustive draw only",
                           field="tenpai_positions")  # fmt: skip
    for name, positions in (
        ("dealer_position", [dealer]),
        ("wins", [w.winner for w in wins] + [w.discarder for w in wins if w.discarder is not None]),
        ("riichi_positions", riichi),
        ("tenpai_positions", tenpai),
    ):
        gone = [p for p in positions if p not in active]
        if gone:
            raise ServiceError("player_left", f"seat {gone[0]} has left the game (art. 42)", field=name)
    return HandInput(
        outcome=outcome,
        dealer_position=dealer,
        honba=_int(data.get("honba", 0), "honba"),
        deposits_in=_int(data.get("deposits_in", 0), "deposits_in"),
        riichi_positions=riichi,
        wins=tuple(wins),
        tenpai_positions=tenpai,
    )


def engine_outcome(
    hand: HandInput, *, players: int, rules: Rules, active: list[int] | None = None
) -> HandOutcome:
    """The scoring engine's view of the hand: the ``active`` seats renumbered 0..m-1, every win priced
    under the table's scheme for m players."""
    if active is not None:
        index = {position: i for i, position in enumerate(active)}
        hand = HandInput(
            outcome=hand.outcome, dealer_position=index[hand.dealer_position], honba=hand.honba,
            deposits_in=hand.deposits_in, riichi_positions=tuple(index[p] for p in hand.riichi_positions),
            wins=tuple(WinInput(index[w.winner], None if w.discarder is None else index[w.discarder], w.han, w.fu,
                                w.yakuman, w.yaku, w.hand) for w in hand.wins),
            tenpai_positions=tuple(index[p] for p in hand.tenpai_positions),
        )  # fmt: skip
        players = len(active)
    wins = []
    for w in hand.wins:
        try:
            payment = win_payment(rules.scheme, rules.limits, han=w.han, fu=w.fu, fu_is_fixed=w.fu == 25,
                                  yakuman=w.yakuman, dealer=w.winner == hand.dealer_position, honba=hand.honba)  # fmt: skip
        except ScoringError as exc:
            raise ServiceError(exc.code, exc.message, field="wins") from exc
        wins.append(Win(winner=w.winner, discarder=w.discarder, payment=payment))
    return HandOutcome(
        seats=players,
        dealer_seat=hand.dealer_position,
        kind="abortive_draw" if hand.outcome == "replayed" else hand.outcome,
        deposits_in=hand.deposits_in,
        riichi_seats=() if hand.outcome == "replayed" else hand.riichi_positions,
        wins=tuple(wins),
        tenpai_seats=hand.tenpai_positions,
    )
