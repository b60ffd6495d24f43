"""The quick-reference table 早見表 (seed 002), its impossible entries (seed 001) and renderers."""

import csv
import io
import json
from fractions import Fraction

import pytest
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.hand_calculating.scores import ScoresCalculator

from scoring.engine.params import SCHEME_PRESETS, LimitOptions, SchemeParams
from scoring.engine.score_table import (
    CSV_HEADER,
    impossible_reason,
    render_csv,
    render_html,
    score_table,
    table_fu_values,
    table_json,
)

STANDARD = SchemeParams()


def rows_by_key(params=STANDARD, limits=None):
    return {
        (row["dealer"], row["han"], row.get("fu"), row["limit"] if "fu" not in row else None): row
        for row in table_json(params, limits)
    }


def test_seed002_table_lists_rounded_fu_and_chiitoitsu():
    assert table_fu_values(STANDARD) == tuple(Fraction(f) for f in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110))


def test_seed000_simple_doubling_table_lists_raw_fu():
    values = table_fu_values(SCHEME_PRESETS["simple_doubling"])
    assert values == tuple(sorted({Fraction(f) for f in range(20, 111, 2)} | {Fraction(25)}))


@pytest.mark.parametrize(
    ("dealer", "han", "fu", "ron", "tsumo"),
    [
        (False, 2, 40, 2600, {"non_dealer": 700, "dealer": 1300}),  # seed 002's worked example
        (False, 1, 30, 1000, {"non_dealer": 300, "dealer": 500}),
        (False, 2, 20, None, {"non_dealer": 400, "dealer": 700}),  # pinfu tsumo only
        (False, 2, 25, 1600, None),  # chiitoitsu ron; its tsumo has 3 han
        (False, 3, 25, 3200, {"non_dealer": 800, "dealer": 1600}),
        (False, 1, 20, None, None),
        (False, 1, 25, None, None),
        (False, 4, 40, 8000, {"non_dealer": 2000, "dealer": 4000}),  # capped: mangan
        (True, 2, 40, 3900, {"each": 1300}),
        (True, 3, 30, 5800, {"each": 2000}),
        (True, 2, 20, None, {"each": 700}),
    ],
)
def test_seed002_standard_table_entries(dealer, han, fu, ron, tsumo):
    row = rows_by_key()[(dealer, han, fu, None)]
    assert row["ron"] == ron
    assert row["tsumo"] == tsumo


def test_seed002_capped_entries_say_mangan():
    assert rows_by_key()[(False, 4, 40, None)]["limit"] == "mangan"
    assert rows_by_key()[(False, 4, 30, None)]["limit"] is None
    assert rows_by_key(limits=LimitOptions(kiriage_mangan=True))[(False, 4, 30, None)]["limit"] == "mangan"


def _reference(han, fu, *, dealer, tsumo):
    config = HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH)
    return ScoresCalculator.calculate_scores(han=han, fu=fu, config=config)


def test_seed001_standard_table_agrees_with_reference_calculator():
    for row in score_table(STANDARD):
        if row.is_limit_row:
            continue
        han, fu = row.han, int(row.fu)
        if row.ron is not None:
            assert row.ron == _reference(han, fu, dealer=row.dealer, tsumo=False)["main"]
        if row.tsumo_non_dealer is not None:
            reference = _reference(han, fu, dealer=row.dealer, tsumo=True)
            assert row.tsumo_non_dealer == reference["additional"]
            if not row.dealer:
                assert row.tsumo_dealer == reference["main"]


@pytest.mark.parametrize(
    ("limit", "han", "ron", "tsumo", "dealer_ron", "dealer_tsumo"),
    [
        ("mangan", 5, 8000, {"non_dealer": 2000, "dealer": 4000}, 12000, {"each": 4000}),
        ("haneman", 6, 12000, {"non_dealer": 3000, "dealer": 6000}, 18000, {"each": 6000}),
        ("baiman", 8, 16000, {"non_dealer": 4000, "dealer": 8000}, 24000, {"each": 8000}),
        ("sanbaiman", 11, 24000, {"non_dealer": 6000, "dealer": 12000}, 36000, {"each": 12000}),
        ("yakuman", 13, 32000, {"non_dealer": 8000, "dealer": 16000}, 48000, {"each": 16000}),
    ],
)
def test_seed001_limit_rows(limit, han, ron, tsumo, dealer_ron, dealer_tsumo):
    rows = rows_by_key()
    row = rows[(False, han, None, limit)]
    assert "fu" not in row
    assert (row["ron"], row["tsumo"]) == (ron, tsumo)
    dealer = rows[(True, han, None, limit)]
    assert (dealer["ron"], dealer["tsumo"]) == (dealer_ron, dealer_tsumo)


def test_seed002_yakuman_row_without_counted_yakuman_has_no_han():
    rows = rows_by_key(limits=LimitOptions(kazoe_yakuman=False))
    assert rows[(False, None, None, "yakuman")]["ron"] == 32000


def test_seed001_impossible_entries_have_reasons():
    assert "never a ron" in impossible_reason(STANDARD, han=3, fu=Fraction(20), tsumo=False)
    assert "2 han" in impossible_reason(STANDARD, han=1, fu=Fraction(20), tsumo=True)
    assert impossible_reason(STANDARD, han=2, fu=Fraction(20), tsumo=True) is None
    assert "chiitoitsu" in impossible_reason(STANDARD, han=1, fu=Fraction(25), tsumo=False)
    assert "3 han" in impossible_reason(STANDARD, han=2, fu=Fraction(25), tsumo=True)
    assert impossible_reason(STANDARD, han=2, fu=Fraction(25), tsumo=False) is None
    assert impossible_reason(STANDARD, han=1, fu=Fraction(30), tsumo=False) is None


def test_seed000_three_player_equal_split_table():
    rows = rows_by_key(SCHEME_PRESETS["three_player_equal_split"])
    # 30 fu 1 han, G = 240: ceil(3/2·240)=400 / ceil(5/2·240)=600, ron ceil(4·240)=1000
    assert rows[(False, 1, 30, None)]["tsumo"] == {"non_dealer": 400, "dealer": 600}
    assert rows[(False, 5, None, "mangan")]["tsumo"] == {"non_dealer": 3000, "dealer": 5000}
    assert rows[(True, 5, None, "mangan")]["tsumo"] == {"each": 6000}


def test_table_json_is_serialisable_and_every_preset_gives_ints():
    for params in SCHEME_PRESETS.values():
        rows = table_json(params)
        json.dumps(rows)
        for row in rows:
            assert row["ron"] is None or isinstance(row["ron"], int)


def test_table_json_writes_non_integral_amounts_as_fraction_strings():
    rows = table_json(SchemeParams(phi=Fraction(25, 2)))
    row = next(r for r in rows if r["han"] == 1 and r.get("fu") == 30 and not r["dealer"])
    assert row["tsumo"] == {"non_dealer": 250, "dealer": "975/2"}  # ceil_12.5(480) = 487.5


def test_render_csv_has_a_row_per_entry():
    rows = score_table(STANDARD)
    lines = list(csv.reader(io.StringIO(render_csv(rows))))
    assert tuple(lines[0]) == CSV_HEADER
    assert len(lines) == len(rows) + 1
    assert ["non_dealer", "2", "40", "", "2600", "700", "1300", ""] in lines
    assert ["dealer", "2", "40", "", "3900", "", "", "1300"] in lines
    assert ["non_dealer", "1", "20", "", "", "", "", ""] in lines
    assert ["dealer", "5", "", "mangan", "12000", "", "", "4000"] in lines


def test_render_html_is_escaped_and_shows_the_entries():
    page = render_html(score_table(STANDARD), title="<script>alert(1)</script>")
    assert "<script>" not in page
    assert "&lt;script&gt;" in page
    assert "2600<br>700/1300" in page
    assert "3900<br>1300 each" in page
    assert "—<br>—" in page  # 1 han 20 fu
    assert page.count("<table>") == 4  # fu grid and limits, for non-dealer and dealer
