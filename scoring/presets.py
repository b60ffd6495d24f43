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

# What the EMA Riichi Competition Rules and the World Riichi Championship rules share (read from the rule
# texts kept by the riichi wiki, and the peer's presets): 30,000 start, no oka, uma +15/+5/−5/−15 split by
# tied players, honba 300 (100 a payer), deposits to the next winner (those left at the end to the top),
# kiriage mangan, 13 han is sanbaiman, one yakuman at most, no nagashi mangan, no abortive draws, no busting,
# pao for daisangen and daisuushii, chombo 20,000 ending the game, a substitute's game a fixed −15,000 that
# stands in place of the uma too (−15 in all), penalties against the overall total.
INTERNATIONAL_RULES = {
    "scheme": "inclusive",
    "reference_scheme": "equal_split",
    "standard_players": 4,
    "start_points": 30000,
    "return_points": 30000,
    "uma_4": [15, 5, -5, -15],
    "uma_3": [15, 0, -15],
    "uma_2": [10, -10],
    "tie_rule": "split",
    "honba_unit": 100,
    "riichi_stick": 1000,
    "deposits_at_end": "to_top",
    "aka_dora": False,
    "open_tanyao": True,
    "kiriage_mangan": True,
    "kazoe_yakuman": False,
    "yakuman_stack": False,
    "abortive_draws": False,
    "nagashi_mangan": False,
    "busting": False,
    "pao_yakuman": ["daisangen", "daisuushii"],
    "chombo_points": 20000,
    "chombo_ends_game": True,
    "substitute_result": "fixed",
    "substitute_fixed_points": -15000,
    "substitute_uma": 0,
}
INTERNATIONAL_PRESETS: list[dict] = [
    {
        "slug": "ema-2025",
        "name": gettext_noop("EMA 2025 (European Mahjong Association)"),
        "description": gettext_noop(
            "The EMA Riichi Competition Rules, 2025 edition, for events ranked by the EMA: 30,000 start, no "
            "oka, uma +15/+5/−5/−15 split by tied players; kiriage mangan, 13 han is sanbaiman, one yakuman at "
            "most; double and triple ron all paid (deposits to the winner nearest the discarder); no nagashi "
            "mangan, no abortive draws, no busting; pao for daisangen and daisuushii; chombo 20,000 against the "
            "overall total, ending the game; a substitute's game counts a fixed −15 (−15,000, no uma); when time "
            "runs out, one more hand is played."
        ),
        **INTERNATIONAL_RULES,
        "multiple_ron": "all",
        "honba_to_every_winner": True,
        "time_up_ending": "one_more_hand",
    },
    {
        "slug": "wrc-2025",
        "name": gettext_noop("WRC 2025 (World Riichi Championship)"),
        "description": gettext_noop(
            "The World Riichi Championship rules, 2025 edition: as the EMA rules (30,000 start, no oka, uma "
            "+15/+5/−5/−15 split by tied players, kiriage mangan, no kazoe yakuman, no nagashi mangan, abortive "
            "draws or busting, pao for daisangen and daisuushii, chombo 20,000 ending the game, penalties "
            "against the overall total, a substitute's fixed −15), except two points: head bump 頭ハネ "
            "(only the winner nearest the discarder is paid, and takes the deposits), and when time runs out "
            "the game ends after the hand in play."
        ),
        **INTERNATIONAL_RULES,
        "multiple_ron": "head_bump",
        "honba_to_every_winner": False,
        "time_up_ending": "end_after_hand",
    },
    {
        "slug": "ema-2016",
        "name": gettext_noop("EMA 2016 (European Mahjong Association, previous edition)"),
        "description": gettext_noop(
            "The EMA Riichi Competition Rules, 2016 edition: as EMA 2025 except no kiriage mangan (30 fu 4 han "
            "is 7,700) and a chombo does not end the game."
        ),
        **INTERNATIONAL_RULES,
        "multiple_ron": "all",
        "honba_to_every_winner": True,
        "time_up_ending": "one_more_hand",
        "kiriage_mangan": False,
        "chombo_ends_game": False,
    },
]
PRESETS += INTERNATIONAL_PRESETS


def install_presets(ruleset_model) -> None:
    """Create missing presets; existing rows (maybe edited by an organizer) are left as they are. A preset
    that sets a field the model does not have yet (an earlier migration's model) waits for the migration
    that adds it, which installs it."""
    fields = {field.name for field in ruleset_model._meta.get_fields()}
    for preset in PRESETS:
        if not set(preset) <= fields:
            continue
        values = dict(preset)
        slug = values.pop("slug")
        ruleset_model.objects.get_or_create(slug=slug, defaults=values)
