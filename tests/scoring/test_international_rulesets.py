"""The EMA and WRC presets and the ruleset options they use, worked by hand from the rule texts.

Every amount below is counted by hand: basic points ``fu × 2^(han+2)``, a non-dealer ron pays 4 × basic
rounded up to 100, a mangan 8,000, a sanbaiman 24,000, a yakuman 32,000 (seeds 001/002).
"""

from __future__ import annotations

import json

import pytest

from scoring.engine.errors import ScoringError
from scoring.engine.schemes import win_payment
from scoring.engine.settle import HandOutcome, SettleOptions, Win, settle_hand
from scoring.models import Ruleset
from scoring.options import ruleset_engine_rules, ruleset_settle_options
from scoring.presets import PRESETS

BY_SLUG = {preset["slug"]: preset for preset in PRESETS}
INTERNATIONAL = ("ema-2025", "wrc-2025", "ema-2016")


def ruleset(slug: str) -> Ruleset:
    """The preset as an unsaved row: what the data migration installs."""
    return Ruleset(**BY_SLUG[slug])


def ron_value(slug: str, *, han: int, fu: int = 30, yakuman: int = 0, dealer: bool = False) -> int:
    rules = ruleset_engine_rules(ruleset(slug))
    payment = win_payment(
        rules.scheme, rules.limits, han=han, fu=fu, fu_is_fixed=False, yakuman=yakuman, dealer=dealer, honba=0
    )
    return payment.ron


# --- Limits: kiriage mangan, no kazoe yakuman, one yakuman at most ------------------------------------


@pytest.mark.parametrize(
    ("slug", "han", "fu", "yakuman", "ron"),
    [
        # 4 han 30 fu: 30 · 2^6 = 1920 basic, 4 × 1920 = 7680 → 7700; kiriage mangan rounds it to 8000
        ("ema-2025", 4, 30, 0, 8000),
        ("wrc-2025", 4, 30, 0, 8000),
        ("ema-2016", 4, 30, 0, 7700),  # the 2016 edition has no kiriage
        ("standard", 4, 30, 0, 7700),
        # 3 han 60 fu: 60 · 2^5 = 1920 as well
        ("ema-2025", 3, 60, 0, 8000),
        ("ema-2016", 3, 60, 0, 7700),
        # 13 han: sanbaiman 6000 basic → 24,000 (no kazoe yakuman); the standard counts it a yakuman
        ("ema-2025", 13, 30, 0, 24000),
        ("wrc-2025", 13, 30, 0, 24000),
        ("ema-2016", 15, 30, 0, 24000),
        ("standard", 13, 30, 0, 32000),
        # two yakuman units pay one yakuman: 32,000
        ("ema-2025", 0, 30, 2, 32000),
        ("wrc-2025", 0, 30, 2, 32000),
    ],
)
def test_limits_of_each_preset(slug, han, fu, yakuman, ron):
    assert ron_value(slug, han=han, fu=fu, yakuman=yakuman) == ron


# --- Several rons: all paid (EMA) or head bump (WRC); the deposits to the first -----------------------


def double_ron(slug: str):
    """Dealer seat 3, honba 1, 1,000 on the table; seat 2 declared riichi. Seat 0 discards, seats 1 and 2
    both call ron: seat 1 (the nearest after the discarder) 2 han 40 fu = 2600 + 300 honba = 2900, seat 2
    3 han 30 fu = 30 · 2^5 · 4 = 3840 → 3900 + 300 = 4200."""
    rules = ruleset_engine_rules(ruleset(slug))

    def priced(han, fu):
        return win_payment(
            rules.scheme, rules.limits, han=han, fu=fu, fu_is_fixed=False, yakuman=0, dealer=False, honba=1
        )

    outcome = HandOutcome(
        seats=4,
        dealer_seat=3,
        kind="ron",
        deposits_in=1000,
        riichi_seats=(2,),
        wins=(Win(2, 0, priced(3, 30)), Win(1, 0, priced(2, 40))),
    )
    return settle_hand(outcome, ruleset_settle_options(ruleset(slug)))


@pytest.mark.parametrize(
    ("slug", "deltas", "winners"),
    [
        # both paid: 0 pays 2900 + 4200; seat 1 takes 2900 and the 2,000 of sticks; seat 2 takes 4200 less
        # its own stick
        ("ema-2025", (-7100, 4900, 3200, 0), (1, 2)),
        ("ema-2016", (-7100, 4900, 3200, 0), (1, 2)),
        # head bump: only seat 1 is paid (2900 with the honba) and takes the sticks; seat 2 loses its stick
        ("wrc-2025", (-2900, 4900, -1000, 0), (1,)),
    ],
)
def test_a_double_ron_under_each_preset(slug, deltas, winners):
    settlement = double_ron(slug)
    assert settlement.deltas == deltas
    assert settlement.winners == winners
    assert settlement.deposits_to == 1 and settlement.deposits_out == 0


# --- Abortive draws, nagashi mangan, pao ----------------------------------------------------------------


def test_an_abortive_draw_is_refused_where_the_ruleset_plays_none():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="abortive_draw")
    assert settle_hand(outcome, ruleset_settle_options(ruleset("standard"))).deltas == (0, 0, 0, 0)
    for slug in INTERNATIONAL:
        with pytest.raises(ScoringError) as info:
            settle_hand(outcome, ruleset_settle_options(ruleset(slug)))
        assert (info.value.code, info.value.field) == ("abortive_draw_not_played", "outcome")


def test_a_replayed_hand_moves_nothing_whatever_the_abortive_draw_rule():
    outcome = HandOutcome(seats=4, dealer_seat=0, kind="replay", deposits_in=2000)
    for slug in ("standard", *INTERNATIONAL):
        settlement = settle_hand(outcome, ruleset_settle_options(ruleset(slug)))
        assert (settlement.deltas, settlement.deposits_out) == ((0, 0, 0, 0), 2000)


def standard_price(*, han: int = 0, yakuman: int = 0):
    """A non-dealer win under the standard values, no honba."""
    rules = ruleset_engine_rules(ruleset("standard"))
    return win_payment(
        rules.scheme, rules.limits, han=han, fu=30, fu_is_fixed=False, yakuman=yakuman, dealer=False, honba=0
    )


def mangan_tsumo():
    return standard_price(han=5)


def win_payment_yakuman():
    return standard_price(yakuman=1)


@pytest.mark.parametrize(
    ("options", "outcome", "deltas", "deposits_out"),
    [
        # nagashi mangan on: the non-dealer seat 1 is paid a mangan tsumo, 4000 by the dealer and 2000 by each
        # other; the 1,000 on the table stays there, as at a draw
        (
            SettleOptions(nagashi_mangan=True),
            HandOutcome(4, 0, "nagashi_mangan", deposits_in=1000, wins=(Win(1, None, mangan_tsumo()),)),
            (-4000, 8000, -2000, -2000),
            1000,
        ),
        # pao on daisangen, ron: the feeder (seat 3) and the discarder (seat 2) pay half each of 32,000
        (
            SettleOptions(pao_yakuman=("daisangen",)),
            HandOutcome(
                4,
                0,
                "ron",
                wins=(Win(1, 2, win_payment_yakuman(), responsible=3, pao_yakuman="daisangen"),),
            ),
            (0, 32000, -16000, -16000),
            0,
        ),
        # pao on daisangen, tsumo: the feeder pays it all (16,000 + 8,000 + 8,000)
        (
            SettleOptions(pao_yakuman=("daisangen",)),
            HandOutcome(
                4,
                0,
                "tsumo",
                wins=(Win(1, None, win_payment_yakuman(), responsible=3, pao_yakuman="daisangen"),),
            ),
            (0, 32000, 0, -32000),
            0,
        ),
    ],
)
def test_nagashi_mangan_and_pao_when_the_ruleset_plays_them(options, outcome, deltas, deposits_out):
    settlement = settle_hand(outcome, options)
    assert (settlement.deltas, settlement.deposits_out) == (deltas, deposits_out)


@pytest.mark.parametrize(
    ("options", "outcome", "code"),
    [
        (
            SettleOptions(),
            HandOutcome(4, 0, "nagashi_mangan", wins=(Win(1, None, mangan_tsumo()),)),
            "nagashi_mangan_not_played",
        ),
        (
            SettleOptions(pao_yakuman=("daisangen",)),
            HandOutcome(4, 0, "ron", wins=(Win(1, 2, mangan_tsumo(), responsible=3, pao_yakuman="suukantsu"),)),
            "pao_not_played",
        ),
    ],
)
def test_nagashi_and_pao_are_refused_where_the_ruleset_has_none(options, outcome, code):
    with pytest.raises(ScoringError) as info:
        settle_hand(outcome, options)
    assert info.value.code == code


def test_pao_names_only_the_yakuman_it_can_apply_to():
    with pytest.raises(ScoringError) as info:
        SettleOptions(pao_yakuman=("kokushi",))
    assert info.value.field == "pao_yakuman"


def test_the_presets_pao_covers_daisangen_and_daisuushii():
    for slug in INTERNATIONAL:
        assert ruleset_settle_options(ruleset(slug)).pao_yakuman == ("daisangen", "daisuushii")
    assert ruleset_settle_options(ruleset("standard")).pao_yakuman == ()


# --- The presets as rows ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("slug", INTERNATIONAL)
def test_each_preset_is_installed_and_valid(slug):
    stored = Ruleset.objects.get(slug=slug)
    stored.full_clean()
    assert (stored.start_points, stored.return_points, stored.uma_4) == (30000, 30000, [15, 5, -5, -15])
    assert stored.tie_rule == "split" and stored.honba_unit == 100
    assert (stored.abortive_draws, stored.nagashi_mangan, stored.busting, stored.kazoe_yakuman) == (
        False,
        False,
        False,
        False,
    )
    assert (stored.chombo_points, stored.substitute_result, stored.substitute_fixed_points) == (20000, "fixed", -15000)


@pytest.mark.django_db
def test_the_two_points_where_ema_and_wrc_differ():
    ema, wrc = Ruleset.objects.get(slug="ema-2025"), Ruleset.objects.get(slug="wrc-2025")
    assert (ema.multiple_ron, ema.time_up_ending) == ("all", "one_more_hand")
    assert (wrc.multiple_ron, wrc.time_up_ending) == ("head_bump", "end_after_hand")
    same = {"multiple_ron", "time_up_ending", "honba_to_every_winner", "id", "name", "slug", "description"}
    for field in Ruleset._meta.concrete_fields:
        if field.name not in same:
            assert getattr(ema, field.name) == getattr(wrc, field.name), field.name


@pytest.mark.django_db
def test_the_standard_keeps_todays_behaviour():
    standard = Ruleset.objects.get(slug="standard")
    assert (standard.abortive_draws, standard.nagashi_mangan, standard.pao_yakuman, standard.busting) == (
        True,
        False,
        [],
        False,
    )
    assert (standard.time_up_ending, standard.chombo_points, standard.chombo_ends_game, standard.substitute_uma) == (
        "end_after_hand",
        0,
        False,
        0,
    )


@pytest.mark.django_db
def test_a_pao_list_with_another_yakuman_is_refused_naming_the_field():
    candidate = Ruleset(**{**BY_SLUG["ema-2025"], "slug": "x", "name": "x", "pao_yakuman": ["kokushi"]})
    with pytest.raises(Exception) as info:
        candidate.full_clean()
    assert "pao_yakuman" in info.value.message_dict


# --- The calculator's API under the presets -----------------------------------------------------------

# A closed non-dealer ron, seat South in the East round, on 8s: 234m 567p 345s 678s and the pair 55m.
HAND_4_30 = {
    # riichi + pinfu + tanyao + 1 dora (indicator 1m → 2m): 4 han; pinfu ron 20 + 10 = 30 fu
    "tiles": "234m567p345678s55m",
    "melds": [],
    "win_tile": "8s",
    "tsumo": False,
    "riichi": True,
    "double_riichi": False,
    "ippatsu": False,
    "haitei": False,
    "houtei": False,
    "rinshan": False,
    "chankan": False,
    "tenhou": False,
    "chiihou": False,
    "seat_wind": "S",
    "round_wind": "E",
    "dealer": False,
    "dora_indicators": ["1m"],
    "ura_dora_indicators": [],
    "honba": 0,
    "riichi_sticks": 0,
}


def evaluate(client, slug: str) -> dict:
    body = json.dumps({"id": "h", "rules": {"aka_dora": False}, "hand": HAND_4_30})
    response = client.post(f"/scoring/api/evaluate?ruleset={slug}", body, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["result"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "limit", "total"),
    [("ema-2025", "mangan", 8000), ("wrc-2025", "mangan", 8000), ("ema-2016", None, 7700), ("standard", None, 7700)],
)
def test_the_calculator_answers_with_the_presets_values(client, slug, limit, total):
    result = evaluate(client, slug)
    assert (result["han"], result["fu"]) == (4, 30)
    assert (result["limit"], result["total"]) == (limit, total)
