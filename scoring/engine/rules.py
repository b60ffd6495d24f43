"""The options a hand is evaluated under: payment scheme, limits, and the hand-level choices of seed 001."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from taikai.i18n import _

from .errors import ScoringError
from .params import LimitOptions, SchemeParams
from .yaku import YAKU_BY_KEY


@dataclass(frozen=True)
class Rules:
    """Declared, validated evaluation options. ``Rules()`` is the standard ruleset of seeds 001/002."""

    scheme: SchemeParams = field(default_factory=SchemeParams)
    limits: LimitOptions = field(default_factory=LimitOptions)
    aka_dora: bool = False  # 赤ドラ: red fives count one han each
    open_tanyao: bool = True  # 喰いタン: tanyao also for an open hand
    double_wind_pair_fu: int = 4  # 連風牌 pair: 4 fu (some rules: 2)
    # Overrides of the yaku table: key -> (closed han, open han); open han 0 = closed only.
    yaku_han: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.scheme, SchemeParams):
            raise ScoringError("invalid_parameter", _("scheme must be a SchemeParams"), field="scheme")
        if not isinstance(self.limits, LimitOptions):
            raise ScoringError("invalid_parameter", _("limits must be a LimitOptions"), field="limits")
        for name in ("aka_dora", "open_tanyao"):
            if not isinstance(getattr(self, name), bool):
                raise ScoringError(
                    "invalid_parameter",
                    # Translators: name is a rule of the ruleset (aka_dora, open_tanyao).
                    _("%(name)s must be true or false") % {"name": name},
                    field=name,
                )
        if self.double_wind_pair_fu not in (2, 4) or isinstance(self.double_wind_pair_fu, bool):
            raise ScoringError(
                "invalid_parameter", _("double_wind_pair_fu must be 2 or 4"), field="double_wind_pair_fu"
            )
        overrides = {}
        for key, value in dict(self.yaku_han).items():
            definition = YAKU_BY_KEY.get(key)
            if definition is None:
                raise ScoringError(
                    "invalid_parameter", _("unknown yaku %(key)s") % {"key": repr(key)}, field="yaku_han"
                )
            if definition.yakuman:
                raise ScoringError(
                    "invalid_parameter",
                    # Translators: key is a yaku's key (daisangen, kokushi, ...).
                    _("%(key)s is a yakuman: its value comes from the limits, not from han") % {"key": key},
                    field="yaku_han",
                )
            if (
                not isinstance(value, tuple | list)
                or len(value) != 2
                or not all(isinstance(han, int) and not isinstance(han, bool) and han >= 0 for han in value)
            ):
                raise ScoringError(
                    "invalid_parameter",
                    _("yaku_han[%(key)s] must be (closed han, open han), non-negative integers") % {"key": repr(key)},
                    field="yaku_han",
                )
            overrides[key] = (value[0], value[1])
        object.__setattr__(self, "yaku_han", MappingProxyType(overrides))
        # han per key for a closed and an open hand, looked up once per yaku found
        closed_han = {}
        open_han = {}
        for definition in YAKU_BY_KEY.values():
            closed_han[definition.key], open_han[definition.key] = overrides.get(
                definition.key, (definition.closed_han, definition.open_han)
            )
        object.__setattr__(self, "_closed_han", MappingProxyType(closed_han))
        object.__setattr__(self, "_open_han", MappingProxyType(open_han))
        # the (key, han) line of each yaku as a result lists it, None where it scores no han
        object.__setattr__(self, "_closed_lines", _lines_of(closed_han))
        object.__setattr__(self, "_open_lines", _lines_of(open_han))

    def han_table(self, *, closed: bool) -> Mapping[str, int]:
        """Every yaku's han for a closed (門前) or an open hand."""
        return self._closed_han if closed else self._open_han

    def yaku_lines(self, *, closed: bool) -> Mapping[str, tuple[str, int] | None]:
        """Every yaku's (key, han) line for a closed (門前) or an open hand; None where it has no han."""
        return self._closed_lines if closed else self._open_lines

    def __hash__(self) -> int:
        return hash(
            (
                self.scheme,
                self.limits,
                self.aka_dora,
                self.open_tanyao,
                self.double_wind_pair_fu,
                tuple(sorted(self.yaku_han.items())),
            )
        )


def _lines_of(han_table: dict[str, int]) -> Mapping[str, tuple[str, int] | None]:
    return MappingProxyType({key: (key, han) if han else None for key, han in han_table.items()})


STANDARD_RULES = Rules()
