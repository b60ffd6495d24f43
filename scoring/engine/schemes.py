"""Payment schemes below mangan (seed 000, 満貫未満の和了得点方式) and one win's payments.

Seed 000 names the payments of one win:

* ``K``  散家支出: on a non-dealer's tsumo, what each non-dealer pays;
* ``E``  荘家支出: on a non-dealer's tsumo, what each dealer pays; on a dealer's tsumo, what each
  other player pays;
* ``F_K`` / ``F_E``  放銃支出: what the discarder pays on a non-dealer's / dealer's ron;
* ``S_K`` / ``S_E``  付随支出: what each player other than the discarder pays on a ron.

Each of the six schemes states ``(m-ω-1)·K + ω·E ∼ F_K + (m-2)·S_K`` (and the dealer's
``(m-1)·E ∼ F_E + (m-2)·S_E``) with a single ron term on the right, so ``S = 0`` in all of them:
on a ron only the discarder pays.

Every function here takes a *basic value*: ``Γ = 2^v · ceil_θ(p)`` (``U`` for simple doubling), or
a limit's basic points (2000, 3000, ...) in its place. Honba (本場) are added by :func:`win_payment`.

Payments are exact. They are returned as ``int`` when integral; a parameter choice that makes one
non-integral (a fractional φ, κ or ε) returns a ``Fraction`` instead (see :data:`Points`). Every
preset in :mod:`.params` gives ints.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import InvariantViolation, ScoringError
from .limits import basic_limit, han_limit
from .params import LimitOptions, SchemeParams

Points = int | Fraction
"""A payment: an ``int``, or an exact ``Fraction`` when the parameters make it non-integral."""


def ceil_to(x: Fraction | int, alpha: Fraction | int) -> Fraction:
    """``ceil_α(x)``: the smallest multiple of ``alpha`` that is at least ``x`` (seed 000, 1.1).

    ``alpha`` may be any positive rational (12.5, 4/3, ...); floats are refused because they are
    not exact.
    """
    if isinstance(x, float) or isinstance(alpha, float):
        raise ScoringError("invalid_parameter", _("ceil_to takes ints or Fractions, not floats"))
    alpha = Fraction(alpha)
    if alpha <= 0:
        raise ScoringError("invalid_parameter", _("the base of ceil_to must be greater than 0"))
    return alpha * math.ceil(Fraction(x) / alpha)


def as_points(value: Fraction | int) -> Points:
    """Return ``value`` as an ``int`` when it is integral, else as the exact ``Fraction``."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def total_han(params: SchemeParams, han: int) -> int:
    """``v`` 合翻数: yaku and dora han plus the bazoro (場揃) han."""
    return han + params.bazoro


def basic_points(params: SchemeParams, *, han: int, fu: int | Fraction, fu_is_fixed: bool) -> Fraction:
    """The scheme's basic value for a hand below the limits.

    * Simple doubling (2.3): ``U = 2^(v-v0) · ceil_φ(2^v0 · p) = 2^v · ceil_{φ/2^v0}(p)`` on the raw
      fu ``p``; a total han ``v`` below ``v0`` (最小合翻数) is not a scoring hand in that system.
    * Every other scheme: ``Γ = 2^v · ceil_θ(p)``; a fixed fu (chiitoitsu 25) is used as given.
    """
    _check_fu(fu)
    v = total_han(params, han)
    if params.scheme == "simple_doubling":
        if v < params.min_han:
            raise ScoringError(
                "below_minimum_han",
                _("total han %(han)s (with bazoro) is below the scheme's minimum v0=%(minimum)s")
                % {"han": v, "minimum": params.min_han},
                field="han",
            )
        return 2**v * ceil_to(fu, params.phi / 2**params.min_han)
    rounded_fu = Fraction(fu) if fu_is_fixed else ceil_to(fu, params.theta)
    return 2**v * rounded_fu


def table_fu(params: SchemeParams, *, fu: int | Fraction, fu_is_fixed: bool) -> Fraction:
    """The fu a quick-reference table lists a hand under: ``ceil_θ(p)``, or a fixed fu as given."""
    return Fraction(fu) if fu_is_fixed else ceil_to(fu, params.theta)


@dataclass(frozen=True)
class SchemeShares:
    """One scheme's payments for one basic value, before honba."""

    tsumo_each_non_dealer: Points  # K  散家支出
    tsumo_each_dealer: Points  # E  荘家支出 (non-dealer winner)
    dealer_tsumo_each: Points  # E  荘家支出 (dealer winner: each other player)
    non_dealer_ron: Points  # F_K 散家放銃支出
    dealer_ron: Points  # F_E 荘家放銃支出


def _shares(k: Fraction, e: Fraction, e_dealer: Fraction, f_k: Fraction, f_e: Fraction) -> SchemeShares:
    return SchemeShares(as_points(k), as_points(e), as_points(e_dealer), as_points(f_k), as_points(f_e))


def _ron_weight(params: SchemeParams, parties: int) -> Fraction:
    """``(n-ω-1)κ + ωε``: the coefficients a non-dealer's win collects from ``n`` parties."""
    return (parties - params.dealers - 1) * params.kappa + params.dealers * params.epsilon


def _inclusive_shares(params: SchemeParams, basic: Fraction, *, ron_parties: int) -> SchemeShares:
    """2.1 among m players for tsumo; the ron is priced as if ``ron_parties`` were at the table."""
    phi, kappa, eps = params.phi, params.kappa, params.epsilon
    return _shares(
        ceil_to(kappa * basic, phi),
        ceil_to(eps * basic, phi),
        ceil_to(eps * basic, phi),
        ceil_to(_ron_weight(params, ron_parties) * basic, phi),
        ceil_to((ron_parties - 1) * eps * basic, phi),
    )


def inclusive_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """2.1 包含方式: the coefficient goes inside the rounding, ``ceil_φ(κΓ)``."""
    return _inclusive_shares(params, basic, ron_parties=params.players)


def coefficient_exclusion_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """2.2 係数除外方式: round the basic value once, then multiply, ``κ·ceil_φ(Γ)``."""
    m, kappa, eps = params.players, params.kappa, params.epsilon
    rounded = ceil_to(basic, params.phi)
    return _shares(
        kappa * rounded,
        eps * rounded,
        eps * rounded,
        _ron_weight(params, m) * rounded,
        (m - 1) * eps * rounded,
    )


def simple_doubling_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """2.3 単純倍加方式: ``U`` is already a multiple of φ; payments are ``κU``, ``εU``, ...

    A limit's basic points replace ``U`` (rounded up to φ, a no-op when φ divides them).
    """
    m, kappa, eps = params.players, params.kappa, params.epsilon
    u = ceil_to(basic, params.phi)
    return _shares(kappa * u, eps * u, eps * u, _ron_weight(params, m) * u, (m - 1) * eps * u)


def same_word_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """3.1 同語方式: tsumo as in 2.1 among m players; ron as in 2.1 among s players."""
    return _inclusive_shares(params, basic, ron_parties=params.standard)


def equal_split_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """3.2 等分方式: the s-m absent non-dealers' shares (κ each) split equally among the m-1 payers.

    K = ceil_φ((s-1)/(m-1)·κΓ), E = ceil_φ((ε + (s-m)/(m-1)·κ)Γ); dealer tsumo
    ceil_φ((s-1)/(m-1)·εΓ); ron as in 3.1.
    """
    m, s, phi, kappa, eps = params.players, params.standard, params.phi, params.kappa, params.epsilon
    return _shares(
        ceil_to(Fraction(s - 1, m - 1) * kappa * basic, phi),
        ceil_to((eps + Fraction(s - m, m - 1) * kappa) * basic, phi),
        ceil_to(Fraction(s - 1, m - 1) * eps * basic, phi),
        ceil_to(_ron_weight(params, s) * basic, phi),
        ceil_to((s - 1) * eps * basic, phi),
    )


def proportional_split_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """3.3 按分方式: every tsumo payment scaled by ``r = ((s-ω-1)κ+ωε) / ((m-ω-1)κ+ωε)``.

    K = ceil_φ(r·κΓ), E = ceil_φ(r·εΓ); dealer tsumo ceil_φ((s-1)/(m-1)·εΓ); ron as in 3.1.
    """
    m, s, phi, kappa, eps = params.players, params.standard, params.phi, params.kappa, params.epsilon
    ratio = _ron_weight(params, s) / _ron_weight(params, m)
    return _shares(
        ceil_to(ratio * kappa * basic, phi),
        ceil_to(ratio * eps * basic, phi),
        ceil_to(Fraction(s - 1, m - 1) * eps * basic, phi),
        ceil_to(_ron_weight(params, s) * basic, phi),
        ceil_to((s - 1) * eps * basic, phi),
    )


SCHEME_SHARES: dict[str, Callable[[SchemeParams, Fraction], SchemeShares]] = {
    "inclusive": inclusive_shares,
    "coefficient_exclusion": coefficient_exclusion_shares,
    "simple_doubling": simple_doubling_shares,
    "same_word": same_word_shares,
    "equal_split": equal_split_shares,
    "proportional_split": proportional_split_shares,
}

# Schemes whose every payment is a ceil_φ(...) and so a multiple of φ by the seed's formulas.
_ROUNDED_PER_PAYMENT = ("inclusive", "same_word", "equal_split", "proportional_split")


def scheme_shares(params: SchemeParams, basic: Fraction) -> SchemeShares:
    """The payments of ``params.scheme`` for the basic value ``basic`` (honba not included)."""
    shares = SCHEME_SHARES[params.scheme](params, Fraction(basic))
    if params.scheme in _ROUNDED_PER_PAYMENT:
        for value in (
            shares.tsumo_each_non_dealer,
            shares.tsumo_each_dealer,
            shares.dealer_tsumo_each,
            shares.non_dealer_ron,
            shares.dealer_ron,
        ):
            if Fraction(value) % params.phi:
                raise InvariantViolation(f"{params.scheme}: payment {value} is not a multiple of φ")
    return shares


@dataclass(frozen=True)
class WinPayment:
    """What the other players pay for one win, honba (本場) included.

    Amounts are ``int`` for every preset; see :data:`Points` for other parameter choices.
    """

    limit: str | None  # None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman"
    basic: Fraction  # basic points used (Γ, U, or the limit's basic points)
    ron: Points  # what the discarder pays (honba included)
    tsumo_dealer: Points | None  # non-dealer winner's tsumo: each dealer pays (None: dealer winner, or ω=0)
    tsumo_non_dealer: Points  # tsumo: each non-dealer pays (dealer winner: each other player pays)
    honba_per_payer: int = 0  # a·t, included in every amount above (ron includes (m-1)·a·t)


def win_payment(
    params: SchemeParams,
    limits: LimitOptions,
    *,
    han: int,
    fu: int,
    fu_is_fixed: bool,
    yakuman: int,
    dealer: bool,
    honba: int,
) -> WinPayment:
    """Price one win under ``params`` (seed 000) and ``limits`` (seeds 001/002).

    ``han`` is yaku + dora han without bazoro; ``fu`` the raw fu ``p`` (``fu_is_fixed``: use it as
    given, e.g. chiitoitsu 25); ``yakuman`` the number of real yakuman units (0 = none). Counted
    yakuman (数え役満) and every other limit are decided here from ``han`` and ``limits``.
    Honba: ``a·t`` per payer, so a ron pays ``(m-1)·a·t`` on top.
    """
    if han < 0:
        raise ScoringError("invalid_han", _("han must not be negative"), field="han")
    if yakuman < 0:
        raise ScoringError("invalid_yakuman", _("the yakuman count must not be negative"), field="yakuman")
    if honba < 0:
        raise ScoringError("invalid_honba", _("honba must not be negative"), field="honba")
    if dealer and params.dealers == 0:
        raise ScoringError("no_dealer", _("a dealer cannot win when the scheme has no dealer (ω=0)"))

    if type(fu) is int and _integral_shares(params):
        return _integral_win_payment(params, limits, han, fu, fu_is_fixed, yakuman, dealer, honba)
    return _exact_win_payment(params, limits, han, fu, fu_is_fixed, yakuman, dealer, honba)


def _exact_win_payment(
    params: SchemeParams,
    limits: LimitOptions,
    han: int,
    fu: int | Fraction,
    fu_is_fixed: bool,
    yakuman: int,
    dealer: bool,
    honba: int,
) -> WinPayment:
    """``win_payment`` in Fractions, for every parameter choice: the formulas as the seed writes them."""
    limit = han_limit(limits, han=han, yakuman=yakuman)
    if limit is None:  # below 5 han: the fu count, and may still reach mangan
        basic = basic_points(params, han=han, fu=fu, fu_is_fixed=fu_is_fixed)
        limit = basic_limit(limits, han=han, basic=basic, table_fu=table_fu(params, fu=fu, fu_is_fixed=fu_is_fixed))
    if limit is not None:
        basic = Fraction(limit.basic)

    shares = scheme_shares(params, basic)
    per_payer = params.honba_unit * honba  # a·t
    ron_honba = (params.players - 1) * per_payer  # (m-1)·a·t
    if dealer:
        return WinPayment(
            limit=limit.name if limit else None,
            basic=basic,
            ron=as_points(shares.dealer_ron + ron_honba),
            tsumo_dealer=None,
            tsumo_non_dealer=as_points(shares.dealer_tsumo_each + per_payer),
            honba_per_payer=per_payer,
        )
    return WinPayment(
        limit=limit.name if limit else None,
        basic=basic,
        ron=as_points(shares.non_dealer_ron + ron_honba),
        tsumo_dealer=as_points(shares.tsumo_each_dealer + per_payer) if params.dealers else None,
        tsumo_non_dealer=as_points(shares.tsumo_each_non_dealer + per_payer),
        honba_per_payer=per_payer,
    )


# Schemes whose payments are sums, products and ceil_φ of κ, ε and Γ only: with integral parameters
# every payment is an int, and integer arithmetic gives exactly what the Fraction formulas give.
_INTEGRAL_SCHEMES = ("inclusive", "coefficient_exclusion", "same_word")


def _integral_shares(params: SchemeParams) -> bool:
    """θ, φ, κ and ε are whole numbers and the scheme is one of ``_INTEGRAL_SCHEMES``."""
    return (
        params.scheme in _INTEGRAL_SCHEMES
        and params.theta.denominator == 1
        and params.phi.denominator == 1
        and params.kappa.denominator == 1
        and params.epsilon.denominator == 1
    )


def _ceil_int(x: int, alpha: int) -> int:
    """``ceil_α(x)`` for a positive integer ``alpha``."""
    return -(-x // alpha) * alpha


def _integral_win_payment(
    params: SchemeParams,
    limits: LimitOptions,
    han: int,
    fu: int,
    fu_is_fixed: bool,
    yakuman: int,
    dealer: bool,
    honba: int,
) -> WinPayment:
    """``win_payment`` in integer arithmetic, for ``_integral_shares`` parameters and an int fu.

    The same formulas as :func:`basic_points`, :func:`inclusive_shares`,
    :func:`coefficient_exclusion_shares` and :func:`same_word_shares`; with whole θ, φ, κ, ε every
    intermediate value is an integer, so no ``Fraction`` is needed.
    """
    limit = han_limit(limits, han=han, yakuman=yakuman)
    if limit is None:  # below 5 han: the fu count, and may still reach mangan
        _check_fu(fu)
        listed_fu = fu if fu_is_fixed else _ceil_int(fu, params.theta.numerator)  # ceil_θ(p)
        basic = listed_fu * 2 ** total_han(params, han)  # Γ = 2^v · ceil_θ(p)
        limit = basic_limit(limits, han=han, basic=basic, table_fu=listed_fu)
    if limit is not None:
        basic = limit.basic
    phi = params.phi.numerator
    kappa = params.kappa.numerator
    eps = params.epsilon.numerator
    dealers = params.dealers
    # the ron is shared among m parties (2.1, 2.2) or s parties (3.1 同語方式)
    parties = params.standard if params.scheme == "same_word" else params.players
    ron_weight = (parties - dealers - 1) * kappa + dealers * eps  # (n-ω-1)κ + ωε
    if params.scheme == "coefficient_exclusion":
        rounded = _ceil_int(basic, phi)  # κ·ceil_φ(Γ)
        k, e, f_k, f_e = kappa * rounded, eps * rounded, ron_weight * rounded, (parties - 1) * eps * rounded
    else:  # ceil_φ(κΓ)
        k = _ceil_int(kappa * basic, phi)
        e = _ceil_int(eps * basic, phi)
        f_k = _ceil_int(ron_weight * basic, phi)
        f_e = _ceil_int((parties - 1) * eps * basic, phi)
    per_payer = params.honba_unit * honba  # a·t
    ron_honba = (params.players - 1) * per_payer  # (m-1)·a·t
    name = limit.name if limit else None
    if dealer:
        return WinPayment(name, Fraction(basic), f_e + ron_honba, None, e + per_payer, per_payer)
    return WinPayment(
        name, Fraction(basic), f_k + ron_honba, e + per_payer if dealers else None, k + per_payer, per_payer
    )


def _check_fu(fu: int | Fraction) -> None:
    if isinstance(fu, float | bool):
        raise ScoringError("invalid_fu", _("fu must be an integer"), field="fu")
    if fu <= 0:
        raise ScoringError("invalid_fu", _("fu must be greater than 0"), field="fu")
