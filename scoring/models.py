"""Rulesets: every scoring option of seeds 000–002 plus placement points, as data an organizer edits."""

from __future__ import annotations

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.settle import PAO_YAKUMAN
from scoring.options import parse_fraction, parse_uma, ruleset_engine_rules, ruleset_uma

SCHEME_CHOICES = [
    ("inclusive", _("Inclusive 包含")),
    ("coefficient_exclusion", _("Coefficient-exclusion 係数除外")),
    ("simple_doubling", _("Simple doubling 単純倍加")),
    ("same_word", _("Same-word 同語 (reference)")),
    ("equal_split", _("Equal-split 等分 (reference)")),
    ("proportional_split", _("Proportional-split 按分 (reference)")),
]
REFERENCE_SCHEME_CHOICES = [c for c in SCHEME_CHOICES if c[0] in {"same_word", "equal_split", "proportional_split"}]


def positive_fraction_validator(value: str) -> None:
    try:
        number = parse_fraction(value)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValidationError(
            _("%(value)s is not a number (write 2, 12.5 or 4/3)"),
            code="invalid",
            params={"value": repr(value)},
        ) from exc
    if number <= 0:
        raise ValidationError(_("must be greater than 0"), code="min_value")


# A ruleset's rules as the event's rules page, the REST API's rules endpoint and the archive give them
# (every setting of the engine, with the slug and name that say which ruleset it is).
RULESET_RULES_FIELDS = (
    "slug",
    "name",
    "scheme",
    "reference_scheme",
    "standard_players",
    "dealers",
    "kappa",
    "epsilon",
    "theta",
    "phi",
    "honba_unit",
    "min_han",
    "bazoro",
    "aka_dora",
    "open_tanyao",
    "double_wind_pair_fu",
    "kiriage_mangan",
    "kazoe_yakuman",
    "yakuman_stack",
    "multiple_ron",
    "honba_to_every_winner",
    "noten_payment_total",
    "riichi_stick",
    "deposits_at_end",
    "start_points",
    "return_points",
    "tie_rule",
    "abortive_draws",
    "nagashi_mangan",
    "pao_yakuman",
    "time_up_ending",
    "chombo_points",
    "chombo_ends_game",
    "busting",
    "substitute_result",
    "substitute_fixed_points",
    "substitute_uma",
)


class Ruleset(models.Model):
    class MultipleRon(models.TextChoices):
        ALL = "all", _("Every winner is paid (double/triple ron)")
        HEAD_BUMP = "head_bump", _("Head-bump 頭ハネ: only the first winner from the discarder")

    class DepositsAtEnd(models.TextChoices):
        TO_TOP = "to_top", _("To the top player")
        LOST = "lost", _("Lost (left on the table)")

    class TimeUpEnding(models.TextChoices):
        END_AFTER_HAND = "end_after_hand", _("The game ends after the hand in play")
        ONE_MORE_HAND = "one_more_hand", _("One more hand is played after the hand in play")

    class TieRule(models.TextChoices):
        SPLIT = "split", _("Tied players split the placement points")
        SEAT_ORDER = "seat_order", _("Seat order decides (the earlier seat ranks higher)")

    name = models.CharField(verbose_name=_("name"), max_length=120, unique=True)
    slug = models.SlugField(verbose_name=_("slug"), max_length=60, unique=True)
    description = models.TextField(verbose_name=_("description"), blank=True)

    # Seed 000: payment scheme and its symbols
    scheme = models.CharField(verbose_name=_("scheme"), max_length=30, choices=SCHEME_CHOICES, default="inclusive")
    reference_scheme = models.CharField(
        verbose_name=_("reference scheme"),
        max_length=30,
        choices=REFERENCE_SCHEME_CHOICES,
        default="equal_split",
        help_text=_("Used when a table has fewer players than the standard count s (seed 000 §3)."),
    )
    standard_players = models.PositiveSmallIntegerField(
        verbose_name=_("standard players (s)"),
        default=4,
        help_text=_("Whose point values the game uses (4 = four-player values)."),
    )
    dealers = models.PositiveSmallIntegerField(verbose_name=_("dealers (ω)"), default=1)
    kappa = models.CharField(
        verbose_name=_("non-dealer coefficient (κ)"),
        max_length=20,
        default="1",
        validators=[positive_fraction_validator],
    )
    epsilon = models.CharField(
        verbose_name=_("dealer coefficient (ε)"),
        max_length=20,
        default="2",
        validators=[positive_fraction_validator],
    )
    theta = models.CharField(
        verbose_name=_("fu rounding base (θ)"),
        max_length=20,
        default="10",
        validators=[positive_fraction_validator],
    )
    phi = models.CharField(
        verbose_name=_("smallest unit (φ)"),
        max_length=20,
        default="100",
        validators=[positive_fraction_validator],
    )
    honba_unit = models.PositiveIntegerField(verbose_name=_("honba add-on per payer (a)"), default=100)
    min_han = models.PositiveSmallIntegerField(verbose_name=_("minimum total han (v0, simple doubling)"), default=0)
    bazoro = models.PositiveSmallIntegerField(verbose_name=_("bazoro han 場ゾロ"), default=2)

    # Seeds 001/002: yaku, fu and limits
    aka_dora = models.BooleanField(verbose_name=_("red fives 赤ドラ"), default=False)
    open_tanyao = models.BooleanField(verbose_name=_("open tanyao 喰いタン"), default=True)
    double_wind_pair_fu = models.PositiveSmallIntegerField(
        verbose_name=_("double-wind pair fu 連風牌"), default=4, choices=[(4, _("4 fu")), (2, _("2 fu"))]
    )
    kiriage_mangan = models.BooleanField(verbose_name=_("kiriage mangan 切り上げ満貫"), default=False)
    kazoe_yakuman = models.BooleanField(verbose_name=_("kazoe yakuman 数え役満"), default=True)
    yakuman_stack = models.BooleanField(verbose_name=_("yakuman stack"), default=False)
    yaku_han = models.JSONField(
        verbose_name=_("yaku han overrides"),
        default=dict,
        blank=True,
        help_text=_('e.g. {"chiitoitsu": [2, 0]} (closed, open)'),
    )

    # Settlement
    multiple_ron = models.CharField(
        verbose_name=_("multiple ron"), max_length=12, choices=MultipleRon.choices, default=MultipleRon.ALL
    )
    honba_to_every_winner = models.BooleanField(verbose_name=_("honba to every winner"), default=True)
    noten_payment_total = models.PositiveIntegerField(verbose_name=_("noten payments 不聴罰符 (total)"), default=3000)
    riichi_stick = models.PositiveIntegerField(verbose_name=_("riichi deposit 供託"), default=1000)
    deposits_at_end = models.CharField(
        verbose_name=_("deposits at end"),
        max_length=10,
        choices=DepositsAtEnd.choices,
        default=DepositsAtEnd.TO_TOP,
    )
    abortive_draws = models.BooleanField(
        verbose_name=_("abortive draws 途中流局"),
        default=True,
        help_text=_("Off: an abortive draw cannot be recorded (a hand replayed from the shuffle still can)."),
    )
    nagashi_mangan = models.BooleanField(
        verbose_name=_("nagashi mangan 流し満貫"),
        default=False,
        help_text=_("Each nagashi winner is paid as a mangan tsumo; the deposits stay on the table."),
    )
    pao_yakuman = models.JSONField(
        verbose_name=_("pao 責任払い for"),
        default=list,
        blank=True,
        help_text=_('The yakuman whose feeder pays: e.g. ["daisangen", "daisuushii"]; empty: no pao.'),
    )

    # The game's end
    time_up_ending = models.CharField(
        verbose_name=_("when the round's time runs out"),
        max_length=16,
        choices=TimeUpEnding.choices,
        default=TimeUpEnding.END_AFTER_HAND,
    )
    chombo_points = models.PositiveIntegerField(
        verbose_name=_("chombo penalty 錯和 (points)"),
        default=0,
        help_text=_("Raw points taken from the overall total (20000 counts −20); 0: none set."),
    )
    chombo_ends_game = models.BooleanField(verbose_name=_("a chombo ends the game"), default=False)
    busting = models.BooleanField(
        verbose_name=_("busting 飛び"), default=False, help_text=_("A player below zero ends the game.")
    )

    # Game result: placement points 順位点 (uma), oka
    start_points = models.PositiveIntegerField(
        verbose_name=_("start points"), default=25000, validators=[MinValueValidator(1)]
    )
    return_points = models.PositiveIntegerField(
        verbose_name=_("return points"),
        default=30000,
        help_text=_("Oka = (return − start) × players, to the top. Equal to start: no oka."),
    )
    uma_4 = models.JSONField(
        verbose_name=_("uma, 4 players"),
        default=list,
        help_text=_("Points ×1000, best place first: [15, 5, -5, -15]"),
    )
    uma_3 = models.JSONField(verbose_name=_("uma, 3 players"), default=list, help_text=_("e.g. [15, 0, -15]"))
    uma_2 = models.JSONField(verbose_name=_("uma, 2 players"), default=list, help_text=_("e.g. [10, -10]"))
    tie_rule = models.CharField(
        verbose_name=_("tie rule"), max_length=12, choices=TieRule.choices, default=TieRule.SPLIT
    )
    # Substitutes 代走: a player seated in an absent player's place
    substitute_result = models.CharField(
        verbose_name=_("a substitute's game counts"),
        max_length=8,
        default="own",
        choices=[
            ("own", _("Its own points, for the absent player")),
            ("fixed", _("Fixed points and last place, for the absent player")),
            ("none", _("For nobody")),
        ],
    )
    substitute_fixed_points = models.IntegerField(
        verbose_name=_("a substitute's fixed points"),
        default=-15000,
        help_text=_("Raw points (−15000 counts −15 game points) and last place, under the fixed rule."),
    )
    substitute_uma = models.IntegerField(
        verbose_name=_("a substitute's placement points"),
        default=0,
        help_text=_("In place of the uma under the fixed rule (×1000): −15 adds −15 game points; 0: none."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")

    def __str__(self) -> str:
        return self.translated_name

    @property
    def translated_name(self) -> str:
        """The name in the reader's language: a preset's name is in the catalog (``scoring.presets``); a
        name an organizer typed is shown as written."""
        return gettext(self.name) if self.name else self.name

    @property
    def translated_description(self) -> str:
        """The description in the reader's language, as ``translated_name``."""
        return gettext(self.description) if self.description else self.description

    def uma_for(self, table_size: int) -> tuple[Fraction, ...]:
        return ruleset_uma(self, table_size)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.standard_players not in (2, 3, 4):
            errors["standard_players"] = gettext("s must be 2, 3 or 4")
        if self.dealers < 0 or self.dealers >= 2:
            errors["dealers"] = gettext("ω is the number of dealers at a table: 0 or 1")
        if self.return_points < self.start_points:
            errors["return_points"] = gettext("return points cannot be below start points")
        for size in (4, 3, 2):
            field = f"uma_{size}"
            try:
                uma = parse_uma(getattr(self, field))
            except (ValueError, ZeroDivisionError, TypeError):
                errors[field] = gettext("a list of numbers, best place first, e.g. [15, 5, -5, -15]")
                continue
            if len(uma) != size:
                errors[field] = ngettext(
                    "needs exactly %(count)s value (one per place)",
                    "needs exactly %(count)s values (one per place)",
                    size,
                ) % {"count": size}
            elif sum(uma) != 0:
                errors[field] = gettext("must sum to 0 (sums to %(sum)s)") % {"sum": sum(uma)}
        if not isinstance(self.yaku_han, dict):
            errors["yaku_han"] = gettext('a mapping like {"chiitoitsu": [2, 0]}')
        if not isinstance(self.pao_yakuman, list) or not all(key in PAO_YAKUMAN for key in self.pao_yakuman):
            errors["pao_yakuman"] = gettext("a list of yakuman among %(keys)s") % {"keys": ", ".join(PAO_YAKUMAN)}
        if errors:
            raise ValidationError(errors)
        # The engine checks every remaining parameter (κ, ε, φ > 0; s ≥ m; known yaku keys).
        try:
            ruleset_engine_rules(self, players=self.standard_players)
        except ValueError as exc:  # ScoringError (a TaikaiError) is a ValueError
            field = getattr(exc, "field", None)
            raise ValidationError({field: str(exc)} if field and hasattr(self, field) else str(exc)) from exc
