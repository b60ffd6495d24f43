"""Seed 002 (limits and their options) and seed 001's limit rows."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import ScoringError
from scoring.engine.limits import basic_limit, classify_limit, han_limit, limit_named
from scoring.engine.params import SCHEME_PRESETS, LimitOptions, SchemeParams
from scoring.engine.schemes import win_payment

STANDARD = SchemeParams()


def pay(params=STANDARD, limits=None, *, han, fu=30, dealer=False, yakuman=0):
    return win_payment(
        params,
        limits or LimitOptions(),
        han=han,
        fu=fu,
        fu_is_fixed=False,
        yakuman=yakuman,
        dealer=dealer,
        honba=0,
    )


@pytest.mark.parametrize(
    ("han", "name", "basic"),
    [
        (5, "mangan", 2000),
        (6, "haneman", 3000),
        (7, "haneman", 3000),
        (8, "baiman", 4000),
        (10, "baiman", 4000),
        (11, "sanbaiman", 6000),
        (12, "sanbaiman", 6000),
        (13, "yakuman", 8000),
        (26, "yakuman", 8000),  # counted yakuman is one yakuman, never more
    ],
)
def test_seed002_limits_by_han(han, name, basic):
    limit = han_limit(LimitOptions(), han=han, yakuman=0)
    assert (limit.name, limit.basic) == (name, basic)
    assert pay(han=han).limit == name
    assert pay(han=han).basic == basic


def test_seed002_below_5_han_is_no_limit_by_han():
    assert han_limit(LimitOptions(), han=4, yakuman=0) is None


@pytest.mark.parametrize("han", [13, 14, 20])
def test_seed002_without_kazoe_yakuman_13_han_is_sanbaiman(han):
    limits = LimitOptions(kazoe_yakuman=False)
    assert pay(limits=limits, han=han).limit == "sanbaiman"
    assert pay(limits=limits, han=han).ron == 24000  # seed 001: 11-12 han value
    assert pay(limits=limits, han=han, dealer=True).ron == 36000


@pytest.mark.parametrize(
    ("han", "fu", "limit", "ron"),
    [
        (4, 40, "mangan", 8000),  # seed 002: 4 han from 40 fu (2560)
        (4, 30, None, 7700),  # 1920 · 4 = 7680 → 7700
        (3, 70, "mangan", 8000),  # seed 002: 3 han from 70 fu (2240)
        (3, 60, None, 7700),  # 1920
        (2, 110, None, 7100),  # 1760 · 4 = 7040 → 7100
        (1, 110, None, 3600),
    ],
)
def test_seed002_mangan_when_basic_points_reach_2000(han, fu, limit, ron):
    payment = pay(han=han, fu=fu)
    assert (payment.limit, payment.ron) == (limit, ron)


@pytest.mark.parametrize(("han", "fu"), [(4, 30), (3, 60), (4, 22), (3, 52)])
def test_seed002_kiriage_mangan_rounds_1920_up(han, fu):
    limits = LimitOptions(kiriage_mangan=True)
    payment = pay(limits=limits, han=han, fu=fu)
    assert (payment.limit, payment.basic, payment.ron) == ("mangan", 2000, 8000)
    assert pay(limits=limits, han=han, fu=fu, dealer=True).ron == 12000


@pytest.mark.parametrize(("han", "fu", "ron"), [(4, 20, 5200), (3, 50, 6400), (2, 60, 3900)])
def test_seed002_kiriage_leaves_other_hands_alone(han, fu, ron):
    payment = pay(limits=LimitOptions(kiriage_mangan=True), han=han, fu=fu)
    assert (payment.limit, payment.ron) == (None, ron)


def test_seed002_basic_limit_threshold_is_2000():
    limits = LimitOptions()
    assert basic_limit(limits, han=4, basic=Fraction(1999), table_fu=Fraction(30)) is None
    assert basic_limit(limits, han=4, basic=Fraction(2000), table_fu=Fraction(30)).name == "mangan"


@pytest.mark.parametrize(
    ("units", "stack", "ron", "dealer_ron"),
    [(1, False, 32000, 48000), (2, False, 32000, 48000), (2, True, 64000, 96000), (3, True, 96000, 144000)],
)
def test_seed001_yakuman_and_stacking_option(units, stack, ron, dealer_ron):
    limits = LimitOptions(yakuman_stack=stack)
    assert pay(limits=limits, han=0, fu=20, yakuman=units).ron == ron
    assert pay(limits=limits, han=0, fu=20, yakuman=units, dealer=True).ron == dealer_ron


def test_seed001_a_yakuman_needs_no_fu():
    # kokushi has no fu (seed 001: NA); any fu passed is ignored
    assert pay(han=0, fu=1, yakuman=1).ron == 32000


def test_seed001_real_yakuman_wins_over_counted_han():
    limits = LimitOptions(kazoe_yakuman=False)
    assert pay(limits=limits, han=15, yakuman=1).limit == "yakuman"


def test_limit_named_rejects_unknown_names():
    with pytest.raises(ScoringError) as error:
        limit_named("double_mangan")
    assert error.value.code == "unknown_limit"


@pytest.mark.parametrize(
    ("preset", "tsumo", "ron"),
    [
        ("standard", (2000, 4000), 8000),
        ("coefficient_exclusion", (2000, 4000), 8000),
        ("simple_doubling", (2000, 4000), 8000),
    ],
)
def test_seed002_limit_basic_points_plug_into_every_scheme(preset, tsumo, ron):
    payment = pay(SCHEME_PRESETS[preset], han=5)
    assert (payment.tsumo_non_dealer, payment.tsumo_dealer) == tsumo
    assert payment.ron == ron


def test_seed002_simple_doubling_caps_u_at_2000():
    # v0 = 3, 3 han raw 60 fu: U = 32 · ceil_12.5(60) = 32 · 62.5 = 2000 → mangan
    params = SCHEME_PRESETS["simple_doubling"]
    assert pay(params, han=3, fu=60).limit == "mangan"
    # 3 han raw 50 fu: U = 32 · 50 = 1600, below mangan: ron 4 · 1600 = 6400
    assert pay(params, han=3, fu=50).ron == 6400


@settings(max_examples=200, deadline=None)
@given(
    han=st.integers(0, 30),
    more=st.integers(0, 5),
    kazoe=st.booleans(),
    kiriage=st.booleans(),
    fu=st.sampled_from([20, 30, 40, 60, 110]),
)
def test_seed002_limit_basic_points_never_drop_as_han_rises(han, more, kazoe, kiriage, fu):
    limits = LimitOptions(kazoe_yakuman=kazoe, kiriage_mangan=kiriage)

    def basic(h):
        limit = classify_limit(limits, han=h, yakuman=0, basic=Fraction(fu * 2 ** (h + 2)), table_fu=Fraction(fu))
        return limit.basic if limit else fu * 2 ** (h + 2)

    assert basic(han + more) >= basic(han)
