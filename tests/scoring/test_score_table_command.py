"""``manage.py score_table``: the quick-reference table 早見表 of seed 002 for a ruleset or a seed-000 scheme.

Expected amounts are worked out by hand from seed 000's formulas (Γ = 2^(han+2) · ceil_θ(fu)) and
seed 001's limit values; the format tests check that JSON, CSV and HTML say the same thing.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Ruleset
from tests.scoring.html_tables import html_tables

pytestmark = [pytest.mark.django_db, pytest.mark.once]

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("score_table", *args, stdout=out)
    return out.getvalue()


def table(*args: str) -> dict:
    return json.loads(run(*args))


def entry(document: dict, *, dealer: bool, han: int, fu) -> dict:
    [row] = [r for r in document["rows"] if r["dealer"] is dealer and r["han"] == han and r.get("fu") == fu]
    return row


def limit_entry(document: dict, *, dealer: bool, limit: str) -> dict:
    [row] = [r for r in document["rows"] if r["dealer"] is dealer and "fu" not in r and r["limit"] == limit]
    return row


def expect(document, dealer, han, fu, ron, tsumo):
    row = entry(document, dealer=dealer, han=han, fu=fu)
    assert (row["ron"], row["tsumo"]) == (ron, tsumo), row


# --- the standard table (seeds 001/002) -------------------------------------------------------------

STANDARD_ENTRIES = [
    # dealer, han, fu, ron, tsumo  (Γ = fu · 2^(han+2); ron ceil_100(4Γ) / ceil_100(6Γ))
    (False, 1, 30, 1000, {"non_dealer": 300, "dealer": 500}),  # Γ=240
    (False, 2, 40, 2600, {"non_dealer": 700, "dealer": 1300}),  # seed 002's worked example, Γ=640
    (False, 3, 30, 3900, {"non_dealer": 1000, "dealer": 2000}),  # Γ=960
    (False, 4, 30, 7700, {"non_dealer": 2000, "dealer": 3900}),  # Γ=1920, below mangan
    (False, 2, 25, 1600, None),  # chiitoitsu 七対子 ron; its tsumo has 3 han
    (False, 3, 25, 3200, {"non_dealer": 800, "dealer": 1600}),  # Γ=800
    (False, 2, 20, None, {"non_dealer": 400, "dealer": 700}),  # pinfu tsumo 平和自摸 only: Γ=320
    (False, 1, 20, None, None),
    (True, 1, 30, 1500, {"each": 500}),
    (True, 2, 40, 3900, {"each": 1300}),  # ceil_100(3840), ceil_100(1280)
    (True, 4, 30, 11600, {"each": 3900}),  # ceil_100(11520)
    (True, 3, 110, 12000, {"each": 4000}),  # Γ=3520 → mangan
]


@pytest.mark.parametrize(("dealer", "han", "fu", "ron", "tsumo"), STANDARD_ENTRIES)
def test_seed002_standard_ruleset_table_entries(dealer, han, fu, ron, tsumo):
    expect(table("--ruleset", "standard"), dealer, han, fu, ron, tsumo)


def test_seed002_default_is_the_standard_ruleset():
    document = table()
    assert document["ruleset"] == "standard"
    expect(document, False, 2, 40, 2600, {"non_dealer": 700, "dealer": 1300})


def test_seed002_table_has_han_1_to_4_by_rounded_fu_and_the_limits():
    document = table("--ruleset", "standard")
    fu_rows = [r for r in document["rows"] if "fu" in r]
    assert {r["han"] for r in fu_rows} == {1, 2, 3, 4}
    assert sorted({r["fu"] for r in fu_rows}) == [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]
    assert len(fu_rows) == 2 * 4 * 11
    limit_rows = [r for r in document["rows"] if "fu" not in r]
    assert [(r["dealer"], r["limit"]) for r in limit_rows] == [
        (dealer, name) for dealer in (False, True) for name in ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
    ]


def test_json_row_keys():
    document = table("--ruleset", "standard")
    row = entry(document, dealer=False, han=1, fu=30)
    assert {"han", "fu", "dealer", "ron", "tsumo"} <= set(row)
    assert set(entry(document, dealer=True, han=1, fu=30)["tsumo"]) == {"each"}
    assert set(row["tsumo"]) == {"non_dealer", "dealer"}
    assert "fu" not in limit_entry(document, dealer=False, limit="mangan")


@pytest.mark.parametrize(
    ("limit", "non_dealer", "dealer"),
    [  # seed 001: non-dealer ron, tsumo K/E; dealer ron ×1.5, tsumo each
        ("mangan", (8000, 2000, 4000), (12000, 4000)),
        ("haneman", (12000, 3000, 6000), (18000, 6000)),
        ("baiman", (16000, 4000, 8000), (24000, 8000)),
        ("sanbaiman", (24000, 6000, 12000), (36000, 12000)),
        ("yakuman", (32000, 8000, 16000), (48000, 16000)),
    ],
)
def test_seed001_limit_rows(limit, non_dealer, dealer):
    document = table("--ruleset", "standard")
    child = limit_entry(document, dealer=False, limit=limit)
    assert (child["ron"], child["tsumo"]) == (
        non_dealer[0],
        {"non_dealer": non_dealer[1], "dealer": non_dealer[2]},
    )
    parent = limit_entry(document, dealer=True, limit=limit)
    assert (parent["ron"], parent["tsumo"]) == (dealer[0], {"each": dealer[1]})


def test_seed002_mangan_cap_marks_the_entry():
    document = table()
    assert entry(document, dealer=False, han=4, fu=40)["limit"] == "mangan"  # Γ = 2560 ≥ 2000
    expect(document, False, 4, 40, 8000, {"non_dealer": 2000, "dealer": 4000})
    assert entry(document, dealer=False, han=3, fu=70)["limit"] == "mangan"  # Γ = 2240
    assert entry(document, dealer=False, han=4, fu=30)["limit"] is None


def test_seed002_kiriage_mangan_option():
    document = table("--kiriage-mangan")
    expect(document, False, 4, 30, 8000, {"non_dealer": 2000, "dealer": 4000})
    expect(document, False, 3, 60, 8000, {"non_dealer": 2000, "dealer": 4000})
    expect(document, True, 4, 30, 12000, {"each": 4000})
    assert document["limits"]["kiriage_mangan"] is True


def test_seed002_without_kazoe_yakuman_13_han_is_sanbaiman():
    with_counted = limit_entry(table(), dealer=False, limit="yakuman")
    without = limit_entry(table("--no-kazoe-yakuman"), dealer=False, limit="yakuman")
    assert with_counted["han"] == 13
    assert without["han"] is None  # only a real yakuman reaches it
    assert without["ron"] == 32000


def test_yakuman_stack_option_is_reported():
    assert table("--yakuman-stack")["limits"]["yakuman_stack"] is True
    assert table()["limits"]["yakuman_stack"] is False


def test_seed000_honba_adds_a_t_per_payer():
    document = table("--honba", "2")  # a=100, t=2: 200 per payer, (m-1)·200 = 600 on a ron
    expect(document, False, 1, 30, 1600, {"non_dealer": 500, "dealer": 700})
    expect(document, True, 1, 30, 2100, {"each": 700})
    document = table("--honba", "1", "--honba-unit", "300")
    expect(document, False, 1, 30, 1900, {"non_dealer": 600, "dealer": 800})


# --- the other schemes of seed 000 -----------------------------------------------------------------------


def test_seed000_coefficient_exclusion_rounds_before_the_coefficients():
    document = table("--scheme", "coefficient_exclusion")  # Γ=240 → ceil_100 = 300
    expect(document, False, 1, 30, 1200, {"non_dealer": 300, "dealer": 600})
    expect(document, True, 1, 30, 1800, {"each": 600})
    expect(document, False, 2, 40, 2800, {"non_dealer": 700, "dealer": 1400})  # Γ=640 → 700
    assert table("--ruleset", "coefficient-exclusion")["rows"] == document["rows"]


def test_seed000_simple_doubling_lists_raw_fu_and_uses_v0_3():
    document = table("--scheme", "simple_doubling")  # U = 2^v · ceil_12.5(p)
    fus = sorted({r["fu"] for r in document["rows"] if "fu" in r})
    assert fus == sorted({*range(20, 111, 2), 25})
    expect(document, False, 1, 22, 800, {"non_dealer": 200, "dealer": 400})  # U = 8·25
    expect(document, False, 1, 30, 1200, {"non_dealer": 300, "dealer": 600})  # U = 8·37.5
    expect(document, False, 1, 32, 1200, {"non_dealer": 300, "dealer": 600})
    expect(document, False, 2, 40, 3200, {"non_dealer": 800, "dealer": 1600})  # U = 16·50
    expect(document, True, 1, 30, 1800, {"each": 600})
    assert document["parameters"]["min_han"] == 3
    assert table("--ruleset", "simple-doubling")["rows"] == document["rows"]


def test_seed000_simple_doubling_other_v0():
    document = table("--scheme", "simple_doubling", "--min-han", "2")  # U = 2·ceil_100(4·30) = 400
    expect(document, False, 1, 30, 1600, {"non_dealer": 400, "dealer": 800})
    document = table("--scheme", "simple_doubling", "--min-han", "4")  # 1 han: v = 3 < v0, no score
    expect(document, False, 1, 30, None, None)
    expect(document, False, 2, 30, 2000, {"non_dealer": 500, "dealer": 1000})  # ceil_100(16·30) = 500


@pytest.mark.parametrize(
    ("scheme", "non_dealer_tsumo", "dealer_each"),
    [  # three players on four-player values (s=4, m=3), Γ = 240; ron ceil_100(4Γ)=1000, ceil_100(6Γ)=1500
        ("same_word", {"non_dealer": 300, "dealer": 500}, 500),  # ceil_100(Γ), ceil_100(2Γ)
        ("equal_split", {"non_dealer": 400, "dealer": 600}, 800),  # ceil_100(3/2·Γ), ceil_100(5/2·Γ); 3/2·2Γ
        ("proportional_split", {"non_dealer": 400, "dealer": 700}, 800),  # r = 4/3: 320, 640
    ],
)
def test_seed000_section3_reference_schemes_for_three_players(scheme, non_dealer_tsumo, dealer_each):
    document = table("--scheme", scheme, "--players", "3", "--standard", "4")
    expect(document, False, 1, 30, 1000, non_dealer_tsumo)
    expect(document, True, 1, 30, 1500, {"each": dealer_each})


def test_seed000_equal_split_mangan_for_three_players():
    document = table("--scheme", "equal_split", "--players", "3")
    child = limit_entry(document, dealer=False, limit="mangan")  # 3/2·2000, (2 + 1/2)·2000
    assert (child["ron"], child["tsumo"]) == (8000, {"non_dealer": 3000, "dealer": 5000})
    assert limit_entry(document, dealer=True, limit="mangan")["tsumo"] == {"each": 6000}


def test_ruleset_players_default_to_its_standard_players_and_short_tables_use_the_reference_scheme():
    document = table("--ruleset", "three-player-proportional-split")
    assert document["parameters"]["players"] == 4  # s = 4: r = 1, the standard values
    expect(document, False, 1, 30, 1000, {"non_dealer": 300, "dealer": 500})
    document = table("--ruleset", "three-player-proportional-split", "--players", "3")
    expect(document, False, 1, 30, 1000, {"non_dealer": 400, "dealer": 700})
    document = table("--ruleset", "standard", "--players", "3")  # the standard ruleset's reference: 等分
    assert document["parameters"]["scheme"] == "equal_split"
    expect(document, False, 1, 30, 1000, {"non_dealer": 400, "dealer": 600})


def test_seed000_parameters_kappa_phi_and_bazoro():
    # κ = 4/3: K = ceil_100(320) = 400, E = ceil_100(480) = 500, ron ceil_100(14/3 · 240 = 1120) = 1200
    expect(table("--kappa", "4/3"), False, 1, 30, 1200, {"non_dealer": 400, "dealer": 500})
    # φ = 50: ceil_50(240) = 250, ceil_50(480) = 500, ceil_50(960) = 1000
    expect(table("--phi", "50"), False, 1, 30, 1000, {"non_dealer": 250, "dealer": 500})
    # ε = 1.5 read exactly as 3/2: E = ceil_100(360) = 400, ron ceil_100(3.5 · 240 = 840) = 900
    expect(table("--epsilon", "1.5"), False, 1, 30, 900, {"non_dealer": 300, "dealer": 400})
    # no bazoro: Γ = 30 · 2 = 60, ron ceil_100(240) = 300
    expect(table("--bazoro", "0"), False, 1, 30, 300, {"non_dealer": 100, "dealer": 200})


def test_seed000_theta_12_5_lists_fractional_fu_exactly():
    document = table("--scheme", "inclusive", "--theta", "12.5")
    fus = {r["fu"] for r in document["rows"] if "fu" in r}
    assert {25, "75/2", 50, "125/2", "225/2"} <= fus  # ceil_12.5 of 20..110
    expect(document, False, 1, "75/2", 1200, {"non_dealer": 300, "dealer": 600})  # Γ = 8 · 37.5 = 300


def test_seed000_non_integral_amounts_are_exact_fractions_never_floats():
    # κ = 1/7, φ = 1/3: K = ceil_{1/3}(240/7) = 103/3; ron ceil_{1/3}(16/7 · 240) = 1646/3
    document = table("--kappa", "1/7", "--phi", "1/3")
    expect(document, False, 1, 30, "1646/3", {"non_dealer": "103/3", "dealer": 480})
    assert document["parameters"]["kappa"] == "1/7"
    assert not any(isinstance(value, float) for row in document["rows"] for value in _leaves(row))


def test_seed000_no_dealer_table_has_only_non_dealer_rows():
    document = table("--scheme", "inclusive", "--dealers", "0")  # ω = 0: ron (m-1)κΓ = ceil_100(720)
    assert {r["dealer"] for r in document["rows"]} == {False}
    expect(document, False, 1, 30, 800, {"non_dealer": 300, "dealer": None})


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    else:
        yield value


# --- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "named"),
    [
        (("--kappa", "0"), "invalid_parameter", "kappa"),
        (("--epsilon", "-2"), "invalid_parameter", "epsilon"),
        (("--phi", "abc"), "invalid_parameter", "--phi"),
        (("--theta", "1/0"), "invalid_parameter", "--theta"),
        (("--kappa", ""), "invalid_parameter", "--kappa"),
        (("--players", "5"), "invalid_parameter", "players"),
        (("--players", "three"), "invalid_parameter", "--players"),
        (("--players", "4", "--standard", "3"), "invalid_parameter", "standard"),
        (("--dealers", "4"), "invalid_parameter", "dealers"),
        (("--honba", "-1"), "invalid_parameter", "--honba"),
        (("--honba-unit", "-100"), "invalid_parameter", "a, bazoro"),
        (("--format", "xml"), "invalid_parameter", "--format"),
        (("--scheme", "riichi"), "invalid_parameter", "scheme"),
        (("--scheme", "inclusive", "--ruleset", "standard"), "invalid_parameter", "--ruleset or --scheme"),
        (("--ruleset", "no-such-rules"), "unknown_ruleset", "no-such-rules"),
    ],
)
def test_bad_options_raise_command_error_with_a_code(args, code, named):
    with pytest.raises(CommandError) as raised:
        run(*args)
    message = str(raised.value)
    assert message.startswith(f"{code}: ")
    assert named in message


@pytest.mark.parametrize(
    ("kappa", "code"), [("abc", "invalid_ruleset"), ("1/0", "invalid_ruleset"), ("0", "invalid_parameter")]
)
def test_ruleset_row_saved_with_a_bad_coefficient_is_a_command_error(kappa, code):
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name, ruleset.kappa = None, "broken", "Broken", kappa
    ruleset.save()  # without full_clean, as a raw database edit would
    with pytest.raises(CommandError, match=rf"^{code}: "):
        run("--ruleset", "broken")


def test_bad_option_from_the_shell_is_one_line_without_traceback():
    completed = subprocess.run(
        [sys.executable, "manage.py", "score_table", "--scheme", "inclusive", "--kappa", "-1"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        timeout=60,
    )
    assert completed.returncode == 1
    assert "invalid_parameter: kappa must be greater than 0" in completed.stderr
    assert "Traceback" not in completed.stderr


# --- formats ----------------------------------------------------------------------------------------


def _tsumo_text(tsumo) -> str:
    if tsumo is None:
        return "—"
    if "each" in tsumo:
        return f"{tsumo['each']} each"
    return f"{tsumo['non_dealer']}/{tsumo['dealer']}"


def _text(value) -> str:
    return "" if value is None else str(value)


@pytest.mark.parametrize("args", [("--ruleset", "standard"), ("--scheme", "simple_doubling", "--kiriage-mangan")])
def test_json_csv_and_html_say_the_same(args):
    rows = table(*args)["rows"]

    # CSV: one line per JSON row, same values, empty cells for impossible entries
    records = list(csv.DictReader(io.StringIO(run(*args, "--format", "csv"))))
    assert len(records) == len(rows)
    for row, record in zip(rows, records, strict=True):
        assert record["dealer"] == ("dealer" if row["dealer"] else "non_dealer")
        assert record["han"] == _text(row["han"])
        assert record["fu"] == _text(row.get("fu"))
        assert record["limit"] == _text(row["limit"])
        assert record["ron"] == _text(row["ron"])
        tsumo = row["tsumo"] or {}
        assert record["tsumo_each"] == _text(tsumo.get("each"))
        assert record["tsumo_non_dealer"] == _text(tsumo.get("non_dealer"))
        assert record["tsumo_dealer"] == _text(tsumo.get("dealer"))

    # HTML: per winner a fu × han grid of "ron / tsumo" cells, then the limits
    grid_non_dealer, limits_non_dealer, grid_dealer, limits_dealer = html_tables(run(*args, "--format", "html"))
    for dealer, grid, limits in (
        (False, grid_non_dealer, limits_non_dealer),
        (True, grid_dealer, limits_dealer),
    ):
        header, *lines = grid.rows
        hans = [int(h) for h in header[1:]]
        assert hans == [1, 2, 3, 4]
        cells = {(han, line[0]): cell for line in lines for han, cell in zip(hans, line[1:], strict=True)}
        side = [r for r in rows if r["dealer"] is dealer]
        for row in (r for r in side if "fu" in r):
            ron = "—" if row["ron"] is None else str(row["ron"])
            assert cells[(row["han"], str(row["fu"]))] == f"{ron}\n{_tsumo_text(row['tsumo'])}"
        limit_cells = [line[2] for line in limits.rows[1:]]
        assert limit_cells == [f"{r['ron']}\n{_tsumo_text(r['tsumo'])}" for r in side if "fu" not in r]


def test_html_escapes_the_ruleset_name():
    standard = Ruleset.objects.get(slug="standard")
    standard.pk, standard.slug, standard.name = None, "club", 'Club <Tonpuu> & "Co"'
    standard.save()
    page = run("--ruleset", "club", "--format", "html")
    assert "<Tonpuu>" not in page
    assert "Club &lt;Tonpuu&gt; &amp; &quot;Co&quot;" in page
    assert html_tables(page)  # still well-formed tables


def test_json_output_is_one_document():
    text = run("--format", "json")
    document = json.loads(text)
    assert set(document) == {"ruleset", "parameters", "limits", "honba", "rows"}
    assert document["parameters"] == {
        "scheme": "inclusive",
        "players": 4,
        "dealers": 1,
        "kappa": 1,
        "epsilon": 2,
        "theta": 10,
        "phi": 100,
        "honba_unit": 100,
        "standard": 4,
        "min_han": 0,
        "bazoro": 2,
    }
