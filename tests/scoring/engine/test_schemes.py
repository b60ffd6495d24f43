"""Seed 000 (payment schemes below mangan), checked against the seed's own formulas.

Expected values come from the seeds' worked numbers, from the seed's ω=1, κ=1, ε=2, θ=10, φ=100
specialisations (written here independently with integer arithmetic), from hand arithmetic, and
from the ``mahjong`` package's ScoresCalculator (an independent implementation of the standard table).
"""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator

from scoring.engine.errors import ScoringError
from scoring.engine.params import SCHEME_PRESETS, SCHEMES, LimitOptions, SchemeParams
from scoring.engine.schemes import (
    WinPayment,
    basic_points,
    ceil_to,
    scheme_shares,
    win_payment,
)

STANDARD = SchemeParams()
LIMITS = LimitOptions()


def ceil100(numerator: int, denominator: int = 1) -> int:
    """ceil_100(numerator / denominator) in plain integers, independent of the engine."""
    return -(-numerator // (100 * denominator)) * 100


def pay(params=STANDARD, limits=LIMITS, *, han, fu, dealer=False, honba=0, fixed=False, yakuman=0):
    return win_payment(params, limits, han=han, fu=fu, fu_is_fixed=fixed, yakuman=yakuman, dealer=dealer, honba=honba)


# --- 1.1 ceil_α -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "alpha", "expected"),
    [
        (1320, 100, 1400),  # seed 001 定義 0.13: ceiling(1320, 100) = 1400
        (34, 10, 40),  # seed 002: 34 fu rounds up to 40
        (1280, 100, 1300),  # seed 002: 640 × 2 = 1280 → 1300
        (640, 100, 700),
        (2560, 100, 2600),
        (1400, 100, 1400),  # already a multiple
        (22, Fraction(25, 2), 25),  # seed 000 2.3: ceil_12.5
        (25, Fraction(25, 2), 25),
        (26, Fraction(25, 2), Fraction(75, 2)),
        (1, Fraction(4, 3), Fraction(4, 3)),
        (0, 100, 0),
        (-150, 100, -100),  # smallest multiple ≥ x also for negatives
    ],
)
def test_seed000_ceil_alpha_is_smallest_multiple_not_below_x(x, alpha, expected):
    assert ceil_to(x, alpha) == expected


def test_seed000_ceil_alpha_refuses_floats_and_non_positive_base():
    with pytest.raises(ScoringError):
        ceil_to(1.5, 100)
    with pytest.raises(ScoringError):
        ceil_to(10, 0.5)
    with pytest.raises(ScoringError):
        ceil_to(10, 0)


fractions = st.fractions(min_value=-10_000, max_value=10_000, max_denominator=50)
positive = st.fractions(min_value=Fraction(1, 50), max_value=500, max_denominator=50)


@settings(max_examples=300, deadline=None)
@given(a=positive, b=positive, c=fractions)
def test_seed000_ceil_identity_a_ceil_b_c_equals_ceil_ab_ac(a, b, c):
    assert a * ceil_to(c, b) == ceil_to(a * c, a * b)


@settings(max_examples=200, deadline=None)
@given(x=fractions, alpha=positive)
def test_seed000_ceil_alpha_is_the_least_multiple(x, alpha):
    result = ceil_to(x, alpha)
    assert (result / alpha).denominator == 1
    assert x <= result < x + alpha


# --- seed 002's worked numbers ----------------------------------------------------------------------


def test_seed002_40_fu_2_han_non_dealer_tsumo_700_1300_and_ron_2600():
    payment = pay(han=2, fu=40)
    assert payment == WinPayment(limit=None, basic=Fraction(640), ron=2600, tsumo_dealer=1300, tsumo_non_dealer=700)


def test_seed002_34_fu_counts_as_40_fu():
    assert pay(han=2, fu=34) == pay(han=2, fu=40)


def test_seed002_basic_points_are_fu_times_2_to_han_plus_2():
    assert basic_points(STANDARD, han=2, fu=40, fu_is_fixed=False) == 40 * 2 ** (2 + 2)


@pytest.mark.parametrize(("han", "fu"), [(1, 30), (2, 40), (3, 30), (1, 110), (4, 30), (2, 25)])
def test_seed002_dealer_ron_is_6_basic_and_tsumo_2_basic_each(han, fu):
    basic = fu * 2 ** (han + 2)
    payment = pay(han=han, fu=fu, dealer=True, fixed=fu == 25)
    assert payment.ron == ceil100(6 * basic)
    assert payment.tsumo_non_dealer == ceil100(2 * basic)
    assert payment.tsumo_dealer is None


@pytest.mark.parametrize(("han", "fu"), [(1, 30), (2, 40), (3, 30), (1, 110), (4, 30), (3, 25)])
def test_seed002_non_dealer_ron_is_4_basic_tsumo_2_from_dealer_1_from_others(han, fu):
    basic = fu * 2 ** (han + 2)
    payment = pay(han=han, fu=fu, fixed=fu == 25)
    assert payment.ron == ceil100(4 * basic)
    assert payment.tsumo_dealer == ceil100(2 * basic)
    assert payment.tsumo_non_dealer == ceil100(basic)


def test_seed001_chiitoitsu_25_fu_is_used_as_given():
    # 25 × 2^4 = 400: ron 1600, dealer ron 2400; 3 han (with tsumo) 800: tsumo 800/1600.
    assert pay(han=2, fu=25, fixed=True).ron == 1600
    assert pay(han=2, fu=25, fixed=True, dealer=True).ron == 2400
    three = pay(han=3, fu=25, fixed=True)
    assert (three.tsumo_non_dealer, three.tsumo_dealer, three.ron) == (800, 1600, 3200)
    # not fixed, 25 would round up to 30
    assert pay(han=2, fu=25).ron == 2000


# --- seed 001: the standard table equals the formula -----------------------------------------------

raw_fu = st.integers(min_value=10, max_value=55).map(lambda n: 2 * n)  # 20..110, even


@settings(max_examples=300, deadline=None)
@given(han=st.integers(1, 4), fu=raw_fu)
def test_seed001_standard_preset_equals_point_formula_for_han_1_to_4(han, fu):
    rounded = -(-fu // 10) * 10
    assert pay(han=han, fu=fu).ron == min(8000, ceil100(rounded * 2 ** (han + 2) * 4))
    assert pay(han=han, fu=fu, dealer=True).ron == min(12000, ceil100(rounded * 2 ** (han + 2) * 6))


@pytest.mark.parametrize(
    ("han", "non_dealer", "dealer"),
    [
        (5, 8000, 12000),
        (6, 12000, 18000),
        (7, 12000, 18000),
        (8, 16000, 24000),
        (9, 16000, 24000),
        (10, 16000, 24000),
        (11, 24000, 36000),
        (12, 24000, 36000),
        (13, 32000, 48000),
        (20, 32000, 48000),
    ],
)
def test_seed001_limit_points_by_han(han, non_dealer, dealer):
    assert pay(han=han, fu=30).ron == non_dealer
    assert pay(han=han, fu=30, dealer=True).ron == dealer


def _reference(han, fu, *, dealer, tsumo, honba=0, kiriage=False):
    config = HandConfig(
        is_tsumo=tsumo,
        player_wind=EAST if dealer else SOUTH,
        tsumi_number=honba,
        options=OptionalRules(kiriage=kiriage, kazoe_limit=HandConfig.KAZOE_LIMITED),
    )
    return ScoresCalculator.calculate_scores(han=han, fu=fu, config=config)


@settings(max_examples=300, deadline=None)
@given(
    han=st.integers(1, 14),
    fu=st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
    dealer=st.booleans(),
    honba=st.integers(0, 5),
    kiriage=st.booleans(),
)
def test_seed001_standard_preset_agrees_with_reference_calculator(han, fu, dealer, honba, kiriage):
    limits = LimitOptions(kiriage_mangan=kiriage)
    ours = pay(limits=limits, han=han, fu=fu, dealer=dealer, honba=honba, fixed=fu == 25)
    ron = _reference(han, fu, dealer=dealer, tsumo=False, honba=honba, kiriage=kiriage)
    tsumo = _reference(han, fu, dealer=dealer, tsumo=True, honba=honba, kiriage=kiriage)
    assert ours.ron == ron["main"] + ron["main_bonus"]
    if dealer:
        assert ours.tsumo_non_dealer == tsumo["main"] + tsumo["main_bonus"]
    else:
        assert ours.tsumo_dealer == tsumo["main"] + tsumo["main_bonus"]
        assert ours.tsumo_non_dealer == tsumo["additional"] + tsumo["additional_bonus"]


# --- the six schemes against the seed's ω=1, κ=1, ε=2, θ=10, φ=100 specialisations ----------------

parties = st.integers(2, 4)


@st.composite
def hands(draw):
    han = draw(st.integers(1, 4))
    fu = draw(st.sampled_from([20, 30, 40, 50, 60, 70, 80, 90, 100, 110]))
    return han, fu, fu * 2 ** (han + 2)  # G 常用基本点数


@settings(max_examples=200, deadline=None)
@given(m=parties, hand=hands())
def test_seed000_inclusive_2_1_formula(m, hand):
    _, _, g = hand
    shares = scheme_shares(SchemeParams(players=m), Fraction(g))
    assert shares.tsumo_each_non_dealer == ceil100(g)
    assert shares.tsumo_each_dealer == ceil100(2 * g)
    assert shares.dealer_tsumo_each == ceil100(2 * g)
    assert shares.non_dealer_ron == ceil100(m * g)
    assert shares.dealer_ron == ceil100(2 * (m - 1) * g)


@settings(max_examples=200, deadline=None)
@given(m=parties, hand=hands())
def test_seed000_coefficient_exclusion_2_2_formula(m, hand):
    _, _, g = hand
    shares = scheme_shares(SchemeParams(scheme="coefficient_exclusion", players=m), Fraction(g))
    assert shares.tsumo_each_non_dealer == ceil100(g)
    assert shares.tsumo_each_dealer == 2 * ceil100(g)
    assert shares.dealer_tsumo_each == 2 * ceil100(g)
    assert shares.non_dealer_ron == m * ceil100(g)
    assert shares.dealer_ron == 2 * (m - 1) * ceil100(g)


@settings(max_examples=200, deadline=None)
@given(m=parties, han=st.integers(1, 3), fu=st.integers(20, 110), honba=st.integers(0, 3))
def test_seed000_simple_doubling_2_3_formula_v0_3(m, han, fu, honba):
    # the seed's first form: U = 2^(v-v0) · ceil_φ(2^v0 · p), v = han + 2, v0 = 3, raw fu p
    v = han + 2
    u = 2 ** (v - 3) * ceil100(2**3 * fu)
    params = SchemeParams(scheme="simple_doubling", players=m, min_han=3)
    assert basic_points(params, han=han, fu=fu, fu_is_fixed=False) == u
    if u >= 2000:
        return  # mangan: checked in test_limits
    payment = pay(params, han=han, fu=fu, honba=honba)
    assert payment.tsumo_non_dealer == u + 100 * honba
    assert payment.tsumo_dealer == 2 * u + 100 * honba
    assert payment.ron == m * u + (m - 1) * 100 * honba
    dealer = pay(params, han=han, fu=fu, honba=honba, dealer=True)
    assert dealer.tsumo_non_dealer == 2 * u + 100 * honba
    assert dealer.ron == 2 * (m - 1) * u + (m - 1) * 100 * honba


def test_seed000_simple_doubling_worked_values():
    # v0 = 3, 1 han (v = 3), raw 22 fu: U = 8 · ceil_12.5(22) = 8 · 25 = 200
    params = SchemeParams(scheme="simple_doubling", min_han=3)
    payment = pay(params, han=1, fu=22)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer, payment.ron) == (200, 400, 800)
    # 2 han raw 30 fu: U = 16 · ceil_12.5(30) = 16 · 37.5 = 600 (no rounding of fu to 10)
    payment = pay(params, han=2, fu=30)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer, payment.ron) == (600, 1200, 2400)


def test_seed000_simple_doubling_below_minimum_han_is_not_a_scoring_hand():
    params = SchemeParams(scheme="simple_doubling", min_han=4)
    with pytest.raises(ScoringError) as error:
        pay(params, han=1, fu=30)
    assert error.value.code == "below_minimum_han"
    assert pay(params, han=5, fu=30).ron == 8000  # limits do not look at fu or v0


reference_sizes = st.integers(2, 4).flatmap(lambda m: st.tuples(st.just(m), st.integers(m, 6)))


@settings(max_examples=200, deadline=None)
@given(ms=reference_sizes, hand=hands())
def test_seed000_same_word_3_1_formula(ms, hand):
    m, s = ms
    _, _, g = hand
    shares = scheme_shares(SchemeParams(scheme="same_word", players=m, standard=s), Fraction(g))
    assert shares.tsumo_each_non_dealer == ceil100(g)
    assert shares.tsumo_each_dealer == ceil100(2 * g)
    assert shares.dealer_tsumo_each == ceil100(2 * g)
    assert shares.non_dealer_ron == ceil100(s * g)
    assert shares.dealer_ron == ceil100(2 * (s - 1) * g)


@settings(max_examples=200, deadline=None)
@given(ms=reference_sizes, hand=hands())
def test_seed000_equal_split_3_2_formula(ms, hand):
    m, s = ms
    _, _, g = hand
    shares = scheme_shares(SchemeParams(scheme="equal_split", players=m, standard=s), Fraction(g))
    assert shares.tsumo_each_non_dealer == ceil100((s - 1) * g, m - 1)
    assert shares.tsumo_each_dealer == ceil100((s + m - 2) * g, m - 1)
    assert shares.dealer_tsumo_each == ceil100(2 * (s - 1) * g, m - 1)
    assert shares.non_dealer_ron == ceil100(s * g)
    assert shares.dealer_ron == ceil100(2 * (s - 1) * g)


@settings(max_examples=200, deadline=None)
@given(ms=reference_sizes, hand=hands())
def test_seed000_proportional_split_3_3_formula(ms, hand):
    m, s = ms
    _, _, g = hand
    shares = scheme_shares(SchemeParams(scheme="proportional_split", players=m, standard=s), Fraction(g))
    assert shares.tsumo_each_non_dealer == ceil100(s * g, m)
    assert shares.tsumo_each_dealer == ceil100(2 * s * g, m)
    assert shares.dealer_tsumo_each == ceil100(2 * (s - 1) * g, m - 1)
    assert shares.non_dealer_ron == ceil100(s * g)
    assert shares.dealer_ron == ceil100(2 * (s - 1) * g)


@pytest.mark.parametrize(
    ("preset", "dealer", "expected"),
    [
        # three players on four-player values, 30 fu 1 han (G = 240), hand arithmetic:
        # same word: tsumo ceil(240)=300 / ceil(480)=500; ron ceil(4·240)=1000
        ("three_player_same_word", False, (300, 500, 1000)),
        # dealer: each ceil(480)=500; ron ceil(6·240)=1500
        ("three_player_same_word", True, (500, None, 1500)),
        # equal split: K = ceil(3/2·240=360)=400, E = ceil(5/2·240=600)=600; ron 1000
        ("three_player_equal_split", False, (400, 600, 1000)),
        # dealer: each ceil(3·240=720)=800; ron 1500
        ("three_player_equal_split", True, (800, None, 1500)),
        # proportional: K = ceil(4/3·240=320)=400, E = ceil(8/3·240=640)=700; ron 1000
        ("three_player_proportional_split", False, (400, 700, 1000)),
        ("three_player_proportional_split", True, (800, None, 1500)),
    ],
)
def test_seed000_three_player_reference_schemes_30_fu_1_han(preset, dealer, expected):
    payment = pay(SCHEME_PRESETS[preset], han=1, fu=30, dealer=dealer)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer, payment.ron) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # mangan, basic 2000; three players on four-player values:
        ("three_player_same_word", (2000, 4000, 8000)),  # tsumo loses the absent player's 2000
        ("three_player_equal_split", (3000, 5000, 8000)),  # 3/2·2000, (2+1/2)·2000
        ("three_player_proportional_split", (2700, 5400, 8000)),  # ceil(8000/3), ceil(16000/3)
    ],
)
def test_seed000_three_player_reference_schemes_mangan(preset, expected):
    payment = pay(SCHEME_PRESETS[preset], han=5, fu=30)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer, payment.ron) == expected
    dealer = pay(SCHEME_PRESETS[preset], han=5, fu=30, dealer=True)
    # same word: each 4000 of a 12000 ron; the splits: ceil(3/2·4000) = 6000 each
    assert dealer.tsumo_non_dealer == (4000 if preset.endswith("same_word") else 6000)
    assert dealer.ron == 12000


# --- the basic relation 基本関係式 under general parameters -----------------------------------------


@st.composite
def scheme_params(draw, schemes=SCHEMES):
    m = draw(st.integers(2, 4))
    return SchemeParams(
        scheme=draw(st.sampled_from(schemes)),
        players=m,
        dealers=draw(st.integers(0, m - 1)),
        kappa=draw(st.fractions(min_value=Fraction(1, 4), max_value=3, max_denominator=4)),
        epsilon=draw(st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4)),
        theta=draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(10), Fraction(25, 2)])),
        phi=draw(st.sampled_from([Fraction(1), Fraction(10), Fraction(100), Fraction(25, 2)])),
        honba_unit=draw(st.sampled_from([0, 100, 300])),
        standard=draw(st.integers(m, 6)),
        min_han=draw(st.integers(0, 3)),
        bazoro=draw(st.integers(0, 3)),
    )


def _totals(params, payment_nd, payment_d):
    """(non-dealer tsumo total, dealer tsumo total) collected, honba included."""
    m, w = params.players, params.dealers
    nd = (m - w - 1) * Fraction(payment_nd.tsumo_non_dealer)
    if w:
        nd += w * Fraction(payment_nd.tsumo_dealer)
    d = (m - 1) * Fraction(payment_d.tsumo_non_dealer) if w else None
    return nd, d


def _both(params, han, fu, honba):
    nd = pay(params, han=han + params.min_han, fu=fu, honba=honba)
    d = pay(params, han=han + params.min_han, fu=fu, honba=honba, dealer=True) if params.dealers else None
    return nd, d


@settings(max_examples=300, deadline=None)
@given(
    params=scheme_params(("coefficient_exclusion", "simple_doubling")),
    han=st.integers(0, 4),
    fu=st.integers(20, 110),
    honba=st.integers(0, 4),
)
def test_seed000_coefficient_exclusion_and_simple_doubling_totals_equal_ron(params, han, fu, honba):
    nd, d = _both(params, han, fu, honba)
    nd_total, d_total = _totals(params, nd, d)
    assert nd_total == nd.ron  # 2.2 / 2.3: "=" — the tsumo total is exactly the ron value
    if d is not None:
        assert d_total == d.ron


@settings(max_examples=300, deadline=None)
@given(
    params=scheme_params(("inclusive", "equal_split", "proportional_split")),
    han=st.integers(0, 4),
    fu=st.integers(20, 110),
    honba=st.integers(0, 4),
)
def test_seed000_inclusive_and_split_totals_approximate_ron_within_phi_per_payer(params, han, fu, honba):
    # "≃": each of the m-1 payments is rounded up by less than φ, the ron value once, so the
    # tsumo total exceeds the ron value by a multiple of φ of at most (m-2)·φ.
    nd, d = _both(params, han, fu, honba)
    nd_total, d_total = _totals(params, nd, d)
    bound = (params.players - 2) * params.phi
    for total, ron in ((nd_total, nd.ron), (d_total, d.ron if d else None)):
        if total is None:
            continue
        excess = total - ron
        assert 0 <= excess <= bound
        assert (excess / params.phi).denominator == 1


@settings(max_examples=200, deadline=None)
@given(params=scheme_params(("same_word",)), han=st.integers(0, 4), fu=st.integers(20, 110))
def test_seed000_same_word_tsumo_is_inclusive_among_m_players(params, han, fu):
    # 3.1: "∼" only — the tsumo side is 2.1's among m players, the ron side 2.1's among s players
    same_word = pay(params, han=han, fu=fu)
    inclusive_m = pay(replace(params, scheme="inclusive"), han=han, fu=fu)
    s, w, kappa, eps = params.standard, params.dealers, params.kappa, params.epsilon
    gamma = basic_points(params, han=han, fu=fu, fu_is_fixed=False)
    assert same_word.tsumo_non_dealer == inclusive_m.tsumo_non_dealer
    assert same_word.tsumo_dealer == inclusive_m.tsumo_dealer
    if same_word.limit is None:
        assert same_word.ron == ceil_to(((s - w - 1) * kappa + w * eps) * gamma, params.phi)


@settings(max_examples=300, deadline=None)
@given(params=scheme_params(), fu=st.integers(20, 110), dealer=st.booleans(), honba=st.integers(0, 3))
def test_seed000_payments_never_decrease_when_han_rises(params, fu, dealer, honba):
    if dealer and not params.dealers:
        dealer = False
    previous = None
    for han in range(params.min_han, params.min_han + 15):
        payment = pay(params, han=han, fu=fu, dealer=dealer, honba=honba)
        amounts = (payment.ron, payment.tsumo_non_dealer, payment.tsumo_dealer or 0)
        if previous is not None:
            assert all(now >= before for now, before in zip(amounts, previous, strict=True))
        previous = amounts


@pytest.mark.parametrize("preset", sorted(SCHEME_PRESETS))
def test_seed000_presets_pay_whole_points_in_multiples_of_phi(preset):
    params = SCHEME_PRESETS[preset]
    for han in range(1, 14):
        for fu in range(20, 111, 2):
            for dealer in (False, True):
                payment = pay(params, han=han, fu=fu, dealer=dealer)
                for amount in (payment.ron, payment.tsumo_non_dealer, payment.tsumo_dealer):
                    assert amount is None or (type(amount) is int and amount % 100 == 0)


def test_seed000_non_integral_parameters_keep_the_exact_fraction():
    # κ = 1/7 outside the rounding (2.2): 1/7 · ceil_100(240) = 300/7; ron (2/7 + 2) · 300 = 4800/7
    params = SchemeParams(scheme="coefficient_exclusion", kappa=Fraction(1, 7))
    payment = pay(params, han=1, fu=30)
    assert payment.tsumo_non_dealer == Fraction(300, 7)
    assert isinstance(payment.tsumo_non_dealer, Fraction)
    assert payment.ron == Fraction(4800, 7)
    # φ = 12.5: ceil_12.5(240) = 250, ceil_12.5(480) = 487.5, ceil_12.5(960) = 962.5
    params = SchemeParams(phi=Fraction(25, 2))
    payment = pay(params, han=1, fu=30)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer, payment.ron) == (
        250,
        Fraction(975, 2),
        Fraction(1925, 2),
    )


# --- honba, yakuman, errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "honba", "ron_extra", "tsumo_extra"),
    [(4, 1, 300, 100), (4, 3, 900, 300), (3, 2, 400, 200), (2, 2, 200, 200)],
)
def test_seed000_honba_adds_a_t_per_payer(players, honba, ron_extra, tsumo_extra):
    params = SchemeParams(scheme="same_word", players=players)
    base = pay(params, han=2, fu=40)
    with_honba = pay(params, han=2, fu=40, honba=honba)
    assert with_honba.ron - base.ron == ron_extra
    assert with_honba.tsumo_non_dealer - base.tsumo_non_dealer == tsumo_extra
    assert with_honba.tsumo_dealer - base.tsumo_dealer == tsumo_extra
    assert with_honba.honba_per_payer == tsumo_extra


def test_seed000_no_dealer_scheme_has_no_dealer_payment():
    params = SchemeParams(dealers=0)
    payment = pay(params, han=1, fu=30)
    assert payment.tsumo_dealer is None
    assert payment.ron == ceil100(3 * 240)  # (m-ω-1)κ = 3 non-dealer shares
    with pytest.raises(ScoringError) as error:
        pay(params, han=1, fu=30, dealer=True)
    assert error.value.code == "no_dealer"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"han": -1, "fu": 30}, "invalid_han"),
        ({"han": 1, "fu": 0}, "invalid_fu"),
        ({"han": 1, "fu": 30.0}, "invalid_fu"),
        ({"han": 1, "fu": 30, "honba": -1}, "invalid_honba"),
        ({"han": 1, "fu": 30, "yakuman": -1}, "invalid_yakuman"),
    ],
)
def test_win_payment_rejects_impossible_input_with_a_code(kwargs, code):
    with pytest.raises(ScoringError) as error:
        pay(**kwargs)
    assert error.value.code == code


@settings(max_examples=300, deadline=None)
@given(
    scheme=st.sampled_from(["inclusive", "coefficient_exclusion", "same_word"]),
    players=st.integers(2, 4),
    kappa=st.integers(1, 3),
    epsilon=st.integers(1, 4),
    theta=st.sampled_from([1, 2, 10]),
    phi=st.sampled_from([1, 10, 50, 100]),
    han=st.integers(0, 14),
    fu=st.integers(20, 130),
    fu_is_fixed=st.booleans(),
    yakuman=st.integers(0, 2),
    dealer=st.booleans(),
    honba=st.integers(0, 5),
    kiriage=st.booleans(),
    kazoe=st.booleans(),
    stack=st.booleans(),
)
def test_integer_fast_path_pays_exactly_what_the_seed_formulas_pay(
    scheme,
    players,
    kappa,
    epsilon,
    theta,
    phi,
    han,
    fu,
    fu_is_fixed,
    yakuman,
    dealer,
    honba,
    kiriage,
    kazoe,
    stack,
):
    from scoring.engine.schemes import _exact_win_payment, _integral_win_payment

    params = SchemeParams(
        scheme=scheme, players=players, standard=4, kappa=kappa, epsilon=epsilon, theta=theta, phi=phi
    )
    limits = LimitOptions(kiriage_mangan=kiriage, kazoe_yakuman=kazoe, yakuman_stack=stack)
    args = (params, limits, han, fu, fu_is_fixed, yakuman, dealer, honba)
    fast, exact = _integral_win_payment(*args), _exact_win_payment(*args)
    assert fast == exact
    assert [type(v) for v in (fast.ron, fast.tsumo_non_dealer)] == [
        type(v) for v in (exact.ron, exact.tsumo_non_dealer)
    ]
