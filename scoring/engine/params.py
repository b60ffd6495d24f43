"""Declared, validated parameters of the scoring engine (seeds 000 and 002).

These frozen dataclasses are the only way options reach the engine; a ``Ruleset`` row is mapped to
them by one explicit function on the Django side.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from taikai.i18n import _

from .errors import ScoringError

SCHEMES = (
    "inclusive",  # 包含方式 (2.1)
    "coefficient_exclusion",  # 係数除外方式 (2.2)
    "simple_doubling",  # 単純倍加方式 (2.3)
    "same_word",  # 同語方式 (3.1)
    "equal_split",  # 等分方式 (3.2)
    "proportional_split",  # 按分方式 (3.3)
)


@dataclass(frozen=True)
class SchemeParams:
    """Seed 000's symbols. Defaults give the standard four-player riichi table."""

    scheme: str = "inclusive"
    players: int = 4  # m  当事人数
    dealers: int = 1  # ω  荘家人数
    kappa: Fraction = Fraction(1)  # κ  散家係数
    epsilon: Fraction = Fraction(2)  # ε  荘家係数
    theta: Fraction = Fraction(10)  # θ  内基準値 (fu rounding base)
    phi: Fraction = Fraction(100)  # φ  外基準値 (smallest unit exchanged)
    honba_unit: int = 100  # a  加算係数 (per payer per honba)
    standard: int = 4  # s  reference party count (section 3)
    min_han: int = 0  # v0 最小合翻数, total han including bazoro (2.3 only)
    bazoro: int = 2  # 場揃 han added to every hand

    def __post_init__(self) -> None:
        for name in ("kappa", "epsilon", "theta", "phi"):
            value = getattr(self, name)
            if isinstance(value, float):
                raise ScoringError(
                    "invalid_parameter",
                    # Translators: name is a parameter of the payment scheme (kappa, epsilon, theta, phi).
                    _("%(name)s must be an integer or a Fraction, not a float") % {"name": name},
                )
            object.__setattr__(self, name, Fraction(value))
            if getattr(self, name) <= 0:
                raise ScoringError(
                    "invalid_parameter", _("%(name)s must be greater than 0") % {"name": name}, field=name
                )
        if self.scheme not in SCHEMES:
            raise ScoringError(
                "invalid_parameter",
                _("unknown scheme %(scheme)s") % {"scheme": repr(self.scheme)},
                field="scheme",
            )
        if self.players not in (2, 3, 4):
            raise ScoringError("invalid_parameter", _("players (m) must be 2, 3 or 4"), field="players")
        if not 0 <= self.dealers < self.players:
            raise ScoringError("invalid_parameter", _("dealers (ω) must be between 0 and m-1"), field="dealers")
        if self.standard < self.players:
            raise ScoringError("invalid_parameter", _("standard (s) must be at least players (m)"), field="standard")
        if self.honba_unit < 0 or self.bazoro < 0 or self.min_han < 0:
            raise ScoringError("invalid_parameter", _("a, bazoro and v0 must not be negative"))


@dataclass(frozen=True)
class LimitOptions:
    """Seed 002's options for limit hands (満貫以上)."""

    kiriage_mangan: bool = False  # 切り上げ満貫: 30 fu 4 han / 60 fu 3 han count as mangan
    kazoe_yakuman: bool = True  # 数え役満: 13+ han is yakuman (off: sanbaiman)
    yakuman_stack: bool = False  # several yakuman (or a double yakuman) pay a multiple


# Named parameter sets; a Ruleset row picks one by name or spells out its own values.
SCHEME_PRESETS: dict[str, SchemeParams] = {
    "standard": SchemeParams(),  # 2.1 inclusive, four players: the standard riichi table
    "coefficient_exclusion": SchemeParams(scheme="coefficient_exclusion"),
    "simple_doubling": SchemeParams(scheme="simple_doubling", min_han=3),  # seed 000's v0=3 example
    "three_player_same_word": SchemeParams(scheme="same_word", players=3, standard=4),
    "three_player_equal_split": SchemeParams(scheme="equal_split", players=3, standard=4),
    "three_player_proportional_split": SchemeParams(scheme="proportional_split", players=3, standard=4),
    "two_player_same_word": SchemeParams(scheme="same_word", players=2, standard=4),
    "two_player_equal_split": SchemeParams(scheme="equal_split", players=2, standard=4),
    "two_player_proportional_split": SchemeParams(scheme="proportional_split", players=2, standard=4),
}
