"""The one explicit mapping from a ``Ruleset`` row to the engine's declared options.

Ruleset numbers are stored as text (``"2"``, ``"12.5"``, ``"4/3"``) and read here as Fractions: floats
are never used. The row is read by attribute only, so this module needs neither Django nor the models.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING

from scoring.engine.params import LimitOptions, SchemeParams
from scoring.engine.rules import Rules
from scoring.engine.settle import SettleOptions

if TYPE_CHECKING:
    from scoring.models import Ruleset


@functools.lru_cache(maxsize=256)
def parse_fraction(value: str) -> Fraction:
    """'2', '12.5' or '4/3' -> Fraction; raises ValueError for anything else (floats are never used). Each text
    read once: an audit asks a ruleset's uma (順位点) of every table, and a Fraction is immutable."""
    text = (value or "").strip()
    if not text:
        raise ValueError("empty")
    try:
        return Fraction(text)
    except ZeroDivisionError as exc:
        raise ValueError(f"{text!r} divides by zero") from exc


def parse_uma(value) -> tuple[Fraction, ...]:
    """Placement points 順位点 (uma) as stored: a list of numbers, best place first."""
    if not isinstance(value, list | tuple):
        raise ValueError("a list of numbers, best place first")
    return tuple(parse_fraction(str(v)) for v in value)


def ruleset_uma(ruleset: Ruleset, table_size: int) -> tuple[Fraction, ...]:
    return parse_uma({4: ruleset.uma_4, 3: ruleset.uma_3, 2: ruleset.uma_2}[table_size])


def ruleset_scheme_params(ruleset: Ruleset, *, players: int) -> SchemeParams:
    """Seed 000's parameters for a table of ``players``: a short table uses the reference scheme (§3)."""
    scheme = ruleset.scheme if players >= ruleset.standard_players else ruleset.reference_scheme
    return SchemeParams(
        scheme=scheme,
        players=players,
        dealers=ruleset.dealers,
        kappa=parse_fraction(ruleset.kappa),
        epsilon=parse_fraction(ruleset.epsilon),
        theta=parse_fraction(ruleset.theta),
        phi=parse_fraction(ruleset.phi),
        honba_unit=ruleset.honba_unit,
        standard=ruleset.standard_players,
        min_han=ruleset.min_han,
        bazoro=ruleset.bazoro,
    )


def ruleset_engine_rules(ruleset: Ruleset, *, players: int | None = None) -> Rules:
    return Rules(
        scheme=ruleset_scheme_params(ruleset, players=players or ruleset.standard_players),
        limits=LimitOptions(
            kiriage_mangan=ruleset.kiriage_mangan,
            kazoe_yakuman=ruleset.kazoe_yakuman,
            yakuman_stack=ruleset.yakuman_stack,
        ),
        aka_dora=ruleset.aka_dora,
        open_tanyao=ruleset.open_tanyao,
        double_wind_pair_fu=ruleset.double_wind_pair_fu,
        yaku_han={key: tuple(value) for key, value in (ruleset.yaku_han or {}).items()},
    )


def ruleset_settle_options(ruleset: Ruleset) -> SettleOptions:
    return SettleOptions(
        multiple_ron=ruleset.multiple_ron,
        honba_to="every_winner" if ruleset.honba_to_every_winner else "first_winner",
        noten_payment_total=ruleset.noten_payment_total,
        riichi_stick=ruleset.riichi_stick,
        abortive_draws=ruleset.abortive_draws,
        nagashi_mangan=ruleset.nagashi_mangan,
        pao_yakuman=tuple(ruleset.pao_yakuman or ()),
    )


def ruleset_uses_raw_fu(ruleset: Ruleset) -> bool:
    """Simple doubling 単純倍加 pays on fu as counted (rounded to θ by the scheme, not to tens)."""
    return ruleset.scheme == "simple_doubling"
