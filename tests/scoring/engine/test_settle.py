"""Settling one hand: ron, tsumo, draws, deposits, and the zero-sum invariant."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import InvariantViolation, ScoringError
from scoring.engine.params import LimitOptions, SchemeParams
from scoring.engine.schemes import WinPayment, win_payment
from scoring.engine.settle import (
    HandOutcome,
    Settlement,
    SettleOptions,
    Win,
    _check_zero_sum,
    game_end_deposits,
    noten_payments,
    settle_hand,
)


def priced(han, fu, *, dealer=False, honba=0, players=4):
    return win_payment(
        SchemeParams(scheme="same_word", players=players),
        LimitOptions(),
        han=han,
        fu=fu,
        fu_is_fixed=False,
        yakuman=0,
        dealer=dealer,
        honba=honba,
    )


NON_DEALER_2_40 = priced(2, 40)  # ron 2600, tsumo 700/1300
DEALER_2_40 = priced(2, 40, dealer=True)  # ron 3900, tsumo 1300 each


def test_ron_discarder_pays_the_winner():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="ron", wins=(Win(2, 1, NON_DEALER_2_40),))
    assert settle_hand(outcome) == Settlement(deltas=(0, -2600, 2600, 0), deposits_out=0, winners=(2,))


def test_tsumo_non_dealer_dealer_pays_e_others_pay_k():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="tsumo", wins=(Win(2, None, NON_DEALER_2_40),))
    assert settle_hand(outcome).deltas == (-1300, -700, 2700, -700)


def test_tsumo_dealer_every_other_player_pays_each():
    outcome = HandOutcome(seats=4, dealer_seat=3, kind="tsumo", wins=(Win(3, None, DEALER_2_40),))
    assert settle_hand(outcome).deltas == (-1300, -1300, -1300, 3900)


def test_tsumo_three_players_same_word_loses_the_absent_share():
    payment = priced(2, 40, players=3)
    outcome = HandOutcome(seats=3, dealer_seat=0, kind="tsumo", wins=(Win(1, None, payment),))
    assert settle_hand(outcome).deltas == (-1300, 2000, -700)


def test_tsumo_rejects_a_payment_priced_for_the_other_role():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="tsumo", wins=(Win(2, None, DEALER_2_40),))
    with pytest.raises(ScoringError) as error:
        settle_hand(outcome)
    assert error.value.code == "payment_mismatch"


def test_riichi_deposits_go_to_the_winner():
    # 2 sticks carried in, seats 1 and 2 declare: the winner (2) takes 2000 + 2000
    outcome = HandOutcome(
        seats=4,
        dealer_seat=0,
        kind="ron",
        deposits_in=2000,
        riichi_seats=(1, 2),
        wins=(Win(2, 1, NON_DEALER_2_40),),
    )
    settlement = settle_hand(outcome)
    assert settlement.deltas == (0, -1000 - 2600, -1000 + 2600 + 4000, 0)
    assert settlement.deposits_out == 0
    assert settlement.deposits_to == 2


@pytest.mark.parametrize(
    ("options", "deltas", "winners"),
    [
        # discarder 3 (in riichi: 1000 to the table); seat 0 plays one turn after seat 3, seat 1 two:
        # seat 0 is first. Dealer 60 fu 2 han: 960 · 6 = 5760 → 5800, + 2 honba · 300 = 6400;
        # non-dealer 40 fu 2 han: 2600 + 600 = 3200. The deposit goes to seat 0.
        (SettleOptions(), (6400 + 1000, 3200, 0, -6400 - 3200 - 1000), (0, 1)),
        # honba only to the first winner: seat 1 gets 2600
        (SettleOptions(honba_to="first_winner"), (6400 + 1000, 2600, 0, -6400 - 2600 - 1000), (0, 1)),
        # head bump 頭ハネ: only seat 0 is paid
        (SettleOptions(multiple_ron="head_bump"), (6400 + 1000, 0, 0, -6400 - 1000), (0,)),
    ],
)
def test_double_ron_options(options, deltas, winners):
    dealer_win = priced(2, 60, dealer=True, honba=2)
    non_dealer_win = priced(2, 40, honba=2)
    assert (dealer_win.ron, non_dealer_win.ron) == (6400, 3200)
    outcome = HandOutcome(
        seats=4,
        dealer_seat=0,
        kind="ron",
        riichi_seats=(3,),
        wins=(Win(1, 3, non_dealer_win), Win(0, 3, dealer_win)),
    )
    settlement = settle_hand(outcome, options)
    assert settlement.deltas == deltas
    assert settlement.winners == winners
    assert settlement.deposits_to == 0


def test_triple_ron_pays_all_three_in_full():
    wins = tuple(Win(seat, 0, NON_DEALER_2_40) for seat in (3, 1, 2))
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="ron", deposits_in=1000, wins=wins)
    settlement = settle_hand(outcome)
    assert settlement.deltas == (-7800, 2600 + 1000, 2600, 2600)
    assert settlement.winners == (1, 2, 3)


@pytest.mark.parametrize(
    ("seats", "tenpai", "total", "expected"),
    [
        ((4), (), 3000, (0, 0, 0, 0)),
        ((4), (2,), 3000, (-1000, -1000, 3000, -1000)),
        ((4), (0, 3), 3000, (1500, -1500, -1500, 1500)),
        ((4), (0, 1, 2), 3000, (1000, 1000, 1000, -3000)),
        ((4), (0, 1, 2, 3), 3000, (0, 0, 0, 0)),
        ((3), (1,), 3000, (-1500, 3000, -1500)),
        ((3), (0, 2), 3000, (1500, -3000, 1500)),
        ((3), (1,), 2000, (-1000, 2000, -1000)),
        ((3), (0, 1, 2), 2000, (0, 0, 0)),
        ((2), (0,), 3000, (3000, -3000)),
        ((2), (), 3000, (0, 0)),
        # 2000 among 1 tenpai and 3 noten does not split into hundreds: 1800 moves (600 each)
        ((4), (1,), 2000, (-600, 1800, -600, -600)),
        # 1000 among 2 and 2: 1000 / 2 = 500 each side, exact
        ((4), (0, 1), 1000, (500, 500, -500, -500)),
    ],
)
def test_noten_payments_split_the_total(seats, tenpai, total, expected):
    assert noten_payments(seats, tenpai, total=total, unit=100) == expected


def test_exhaustive_draw_keeps_deposits_on_the_table():
    outcome = HandOutcome(
        seats=4, dealer_seat=0, kind="exhaustive_draw", deposits_in=1000, riichi_seats=(2,), tenpai_seats=(2,)
    )
    settlement = settle_hand(outcome)
    assert settlement.deltas == (-1000, -1000, 3000 - 1000, -1000)
    assert settlement.deposits_out == 2000
    assert settlement.winners == ()


def test_abortive_draw_moves_nothing_but_new_riichi_sticks():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="abortive_draw", deposits_in=3000, riichi_seats=(0, 1))
    settlement = settle_hand(outcome, SettleOptions(riichi_stick=500))
    assert settlement.deltas == (-500, -500, 0, 0)
    assert settlement.deposits_out == 4000


@pytest.mark.parametrize(
    ("outcome", "code"),
    [
        (HandOutcome(seats=5, dealer_seat=0, kind="abortive_draw"), "invalid_seats"),
        (HandOutcome(seats=4, dealer_seat=4, kind="abortive_draw"), "invalid_seat"),
        (HandOutcome(seats=4, dealer_seat=0, kind="chombo"), "invalid_kind"),
        (HandOutcome(seats=4, dealer_seat=0, kind="abortive_draw", deposits_in=-1), "invalid_deposits"),
        (HandOutcome(seats=4, dealer_seat=0, kind="abortive_draw", riichi_seats=(1, 1)), "duplicate_seat"),
        (HandOutcome(seats=4, dealer_seat=0, kind="ron"), "invalid_wins"),
        (HandOutcome(seats=4, dealer_seat=0, kind="ron", wins=(Win(1, 1, NON_DEALER_2_40),)), "invalid_wins"),
        (
            HandOutcome(seats=4, dealer_seat=0, kind="ron", wins=(Win(1, None, NON_DEALER_2_40),)),
            "invalid_wins",
        ),
        (
            HandOutcome(
                seats=4,
                dealer_seat=0,
                kind="ron",
                wins=(Win(1, 2, NON_DEALER_2_40), Win(3, 0, NON_DEALER_2_40)),
            ),
            "invalid_wins",
        ),
        (
            HandOutcome(seats=4, dealer_seat=0, kind="tsumo", wins=(Win(1, 2, NON_DEALER_2_40),)),
            "invalid_wins",
        ),
        (
            HandOutcome(seats=4, dealer_seat=0, kind="exhaustive_draw", wins=(Win(1, 2, NON_DEALER_2_40),)),
            "invalid_wins",
        ),
        (HandOutcome(seats=4, dealer_seat=0, kind="abortive_draw", tenpai_seats=(1,)), "invalid_tenpai"),
    ],
)
def test_impossible_outcomes_raise_with_a_code(outcome, code):
    with pytest.raises(ScoringError) as error:
        settle_hand(outcome)
    assert error.value.code == code


def test_unknown_options_raise():
    with pytest.raises(ScoringError):
        SettleOptions(multiple_ron="triple_abort")
    with pytest.raises(ScoringError):
        SettleOptions(honba_to="nobody")
    with pytest.raises(ScoringError):
        SettleOptions(point_unit=0)


def test_zero_sum_check_raises_an_invariant_violation():
    with pytest.raises(InvariantViolation):
        _check_zero_sum(Settlement(deltas=(100, 0, 0, 0), deposits_out=0), deposits_in=0)
    _check_zero_sum(Settlement(deltas=(1000, -2000, 0, 0), deposits_out=2000, winners=()), deposits_in=1000)


@pytest.mark.parametrize(
    ("points", "rule", "expected"),
    [
        ((25000, 31000, 20000, 24000), "to_top", (0, 2000, 0, 0)),
        ((30000, 20000, 30000, 20000), "to_top", (2000, 0, 0, 0)),  # tie: first in seat order
        ((10000, 20000, 30000), "to_top", (0, 0, 2000)),
        ((25000, 31000, 20000, 24000), "lost", (0, 0, 0, 0)),
    ],
)
def test_game_end_deposits(points, rule, expected):
    assert game_end_deposits(points, 2000, rule) == expected


def test_game_end_deposits_rejects_unknown_rule():
    with pytest.raises(ScoringError):
        game_end_deposits((1, 2), 1000, "split")


# --- the zero-sum invariant over random outcomes ----------------------------------------------------


@st.composite
def outcomes(draw):
    seats = draw(st.integers(2, 4))
    dealer = draw(st.integers(0, seats - 1))
    kind = draw(st.sampled_from(["ron", "tsumo", "exhaustive_draw", "abortive_draw"]))
    riichi = tuple(draw(st.sets(st.integers(0, seats - 1))))
    params = SchemeParams(
        scheme=draw(st.sampled_from(["inclusive", "same_word", "equal_split", "proportional_split"])),
        players=seats,
        kappa=draw(st.sampled_from([Fraction(1), Fraction(1, 3)])),
        phi=draw(st.sampled_from([Fraction(100), Fraction(25, 2)])),
    )
    honba = draw(st.integers(0, 4))

    def payment(winner: int) -> WinPayment:
        return win_payment(
            params,
            LimitOptions(),
            han=draw(st.integers(1, 13)),
            fu=draw(st.integers(20, 110)),
            fu_is_fixed=False,
            yakuman=draw(st.integers(0, 2)),
            dealer=winner == dealer,
            honba=honba,
        )

    wins: tuple[Win, ...] = ()
    tenpai: tuple[int, ...] = ()
    if kind == "ron":
        discarder = draw(st.integers(0, seats - 1))
        others = [seat for seat in range(seats) if seat != discarder]
        winners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=len(others), unique=True))
        wins = tuple(Win(winner, discarder, payment(winner)) for winner in winners)
    elif kind == "tsumo":
        winner = draw(st.integers(0, seats - 1))
        wins = (Win(winner, None, payment(winner)),)
    elif kind == "exhaustive_draw":
        tenpai = tuple(draw(st.sets(st.integers(0, seats - 1))))
    return HandOutcome(
        seats=seats,
        dealer_seat=dealer,
        kind=kind,
        deposits_in=draw(st.integers(0, 5)) * 1000,
        riichi_seats=riichi,
        wins=wins,
        tenpai_seats=tenpai,
    )


settle_options = st.builds(
    SettleOptions,
    multiple_ron=st.sampled_from(["all", "head_bump"]),
    honba_to=st.sampled_from(["every_winner", "first_winner"]),
    noten_payment_total=st.sampled_from([0, 1000, 2000, 3000, 3500]),
    riichi_stick=st.sampled_from([0, 500, 1000]),
)


@settings(max_examples=300, deadline=None)
@given(outcome=outcomes(), options=settle_options)
def test_settlement_sums_to_zero_counting_deposits(outcome, options):
    settlement = settle_hand(outcome, options)
    total = sum(Fraction(d) for d in settlement.deltas)
    assert total + settlement.deposits_out - outcome.deposits_in == 0
    if outcome.kind in ("ron", "tsumo"):
        assert settlement.deposits_out == 0
        collected = outcome.deposits_in + options.riichi_stick * len(outcome.riichi_seats)
        assert settlement.deposits_to == (settlement.winners[0] if collected else None)
    else:
        assert settlement.deposits_out == outcome.deposits_in + options.riichi_stick * len(outcome.riichi_seats)


@settings(max_examples=200, deadline=None)
@given(
    seats=st.integers(2, 4),
    data=st.data(),
    total=st.integers(0, 100).map(lambda n: n * 100),
)
def test_noten_payments_never_exceed_the_total_and_sum_to_zero(seats, data, total):
    tenpai = tuple(data.draw(st.sets(st.integers(0, seats - 1))))
    payments = noten_payments(seats, tenpai, total=total, unit=100)
    assert sum(payments) == 0
    received = sum(p for p in payments if p > 0)
    assert received <= total
    assert all(p % 100 == 0 for p in payments)
    if 0 < len(tenpai) < seats:
        assert total - received < 100 * seats * (seats - 1)  # less than one lcm step lost
