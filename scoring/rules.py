"""The one explicit mapping from a ``Ruleset`` row to the engine's declared options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.params import LimitOptions, SchemeParams
from scoring.engine.rules import Rules

if TYPE_CHECKING:
    from scoring.models import Ruleset


def ruleset_scheme_params(ruleset: Ruleset, *, players: int) -> SchemeParams:
    """Seed 000's parameters for a table of ``players``: a short table uses the reference scheme (§3)."""
    from scoring.models import parse_fraction

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


def ruleset_settle_options(ruleset: Ruleset):
    from scoring.engine.settle import SettleOptions

    return SettleOptions(
        multiple_ron=ruleset.multiple_ron,
        honba_to="every_winner" if ruleset.honba_to_every_winner else "first_winner",
        noten_payment_total=ruleset.noten_payment_total,
        riichi_stick=ruleset.riichi_stick,
    )
