"""Named ruleset presets, installed by a data migration and restorable with ``install_presets``.

Their names and descriptions are stored in English and marked for the catalog (``gettext_noop``): the
pages show them in the reader's language (``Ruleset.translated_name``, ``translated_description``)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

FOUR_PLAYER_RESULT = {
    "start_points": 25000,
    "return_points": 30000,
    "uma_4": [20, 10, -10, -20],
    "uma_3": [15, 0, -15],
    "uma_2": [10, -10],
}
THREE_PLAYER_RESULT = {
    "start_points": 35000,
    "return_points": 40000,
    "uma_4": [20, 10, -10, -20],
    "uma_3": [15, 0, -15],
    "uma_2": [10, -10],
}

PRESETS: list[dict] = [
    {
        "slug": "standard",
        "name": gettext_noop("Standard four-player (seeds 001/002)"),
        "description": gettext_noop(
            "Inclusive scheme 包含 with the standard riichi values: κ=1, ε=2, θ=10, φ=100, "
            "a=100; open tanyao, kazoe yakuman, no kiriage mangan, yakuman do not stack. Short tables "
            "(after an absence) are paid on four-player values by equal split 等分."
        ),
        "scheme": "inclusive",
        "reference_scheme": "equal_split",
        "standard_players": 4,
        **FOUR_PLAYER_RESULT,
    },
    {
        "slug": "three-player-equal-split",
        "name": gettext_noop("Three-player on four-player values, equal split 等分"),
        "description": gettext_noop(
            "Seed 000 §3.2: three players pay what four would, the missing player's share "
            "split equally between the payers."
        ),
        "scheme": "equal_split",
        "reference_scheme": "equal_split",
        "standard_players": 4,
        **THREE_PLAYER_RESULT,
    },
    {
        "slug": "three-player-proportional-split",
        "name": gettext_noop("Three-player on four-player values, proportional split 按分"),
        "description": gettext_noop(
            "Seed 000 §3.3: the missing player's share split in proportion to the coefficients."
        ),
        "scheme": "proportional_split",
        "reference_scheme": "proportional_split",
        "standard_players": 4,
        **THREE_PLAYER_RESULT,
    },
    {
        "slug": "coefficient-exclusion",
        "name": gettext_noop("Coefficient-exclusion 係数除外 four-player"),
        "description": gettext_noop(
            "Seed 000 §2.2: the basic points are rounded before the coefficients apply, so "
            "the tsumo payments add up exactly to the ron value."
        ),
        "scheme": "coefficient_exclusion",
        "reference_scheme": "equal_split",
        "standard_players": 4,
        **FOUR_PLAYER_RESULT,
    },
    {
        "slug": "simple-doubling",
        "name": gettext_noop("Simple doubling 単純倍加 four-player"),
        "description": gettext_noop(
            "Seed 000 §2.3: raw fu (no rounding to 10), each han doubles the value rounded at "
            "the minimum total han v0=3 (1 han with two bazoro)."
        ),
        "scheme": "simple_doubling",
        "reference_scheme": "equal_split",
        "standard_players": 4,
        "min_han": 3,
        **FOUR_PLAYER_RESULT,
    },
]

# What the platforms' ranked games share: red fives, yakuman that add up, honba and deposits to the winner
# nearest the discarder (上家取り), ties by seat order, 30,000 returned from 25,000.
ONLINE_RANKED_RULES = {
    "scheme": "inclusive",
    "reference_scheme": "equal_split",
    "standard_players": 4,
    "aka_dora": True,
    "yakuman_stack": True,
    "honba_to_every_winner": False,
    "tie_rule": "seat_order",
    **FOUR_PLAYER_RESULT,
}
ONLINE_PRESETS: list[dict] = [
    {
        "slug": "tenhou",
        "name": gettext_noop("Tenhou 天鳳 (its ranked lobbies' rules)"),
        "description": gettext_noop(
            "For games imported from Tenhou's logs: red fives, open tanyao, no kiriage mangan, kazoe "
            "yakuman, yakuman add up; several rons all paid, honba and deposits to the winner nearest the "
            "discarder 上家取り, deposits left at the end to the top; uma +20/+10/−10/−20 with 30,000 returned; "
            "ties by seat order. Taikai has no pao 責任払い or nagashi mangan: such a hand shows as a disagreement."
        ),
        **ONLINE_RANKED_RULES,
        "uma_4": [20, 10, -10, -20],
    },
    {
        "slug": "mahjong-soul",
        "name": gettext_noop("Mahjong Soul 雀魂 (its ranked rules)"),
        "description": gettext_noop(
            "For games imported from Mahjong Soul's records: red fives, open tanyao, no kiriage mangan, kazoe "
            "yakuman, yakuman and double yakuman add up; several rons all paid, honba and deposits to the "
            "winner nearest the discarder, deposits left at the end to the top; uma +15/+5/−5/−15 with 30,000 "
            "returned; ties by seat order."
        ),
        **ONLINE_RANKED_RULES,
        "uma_4": [15, 5, -5, -15],
    },
]
PRESETS += ONLINE_PRESETS


def install_presets(ruleset_model) -> None:
    """Create missing presets; existing rows (maybe edited by an organizer) are left as they are."""
    for preset in PRESETS:
        values = dict(preset)
        slug = values.pop("slug")
        ruleset_model.objects.get_or_create(slug=slug, defaults=values)
