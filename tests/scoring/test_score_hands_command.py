"""``manage.py score_hands``: hand-format.md's JSON Lines in, one result per line out, in order.

The valid hand is hand-format.md's example, scored by hand: riichi, menzen tsumo and round wind
(South triplet in a South round) = 3 han; 20 base + 888p closed simple triplet 4 + South closed honor
triplet 8 + tsumo 2 = 34 → 40 fu; dealer tsumo ceil_100(2 · 40 · 2^5) = 2600 from each of three.
"""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Ruleset
from tests.scoring.hand_format_example import EXAMPLE, example

pytestmark = [pytest.mark.django_db, pytest.mark.once]

# Closed ron on 9s (single wait 単騎): no riichi, no tanyao (1m, 9p), no pinfu, no yakuhai.
NO_YAKU = {"id": "no-yaku", "hand": {"tiles": "123m456m789p234s99s", "win_tile": "9s", "seat_wind": "S"}}


def lines_of(*requests) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)


def score_file(tmp_path, text: str, *args: str) -> list[dict]:
    path = tmp_path / "hands.jsonl"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command("score_hands", str(path), *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def score_stdin(monkeypatch, text: str, *args: str) -> list[dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    out = io.StringIO()
    call_command("score_hands", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_hand_format_example_gives_exactly_the_documented_result(tmp_path):
    [line] = score_file(tmp_path, lines_of(EXAMPLE))
    assert set(line) == {"id", "result"}
    assert line["id"] == "any-string"
    result = line["result"]
    assert set(result) == {"yaku", "han", "fu", "limit", "payments", "total", "fu_details"}
    assert sorted(map(tuple, result["yaku"])) == [("menzen_tsumo", 1), ("riichi", 1), ("round_wind", 1)]
    assert (result["han"], result["fu"], result["limit"]) == (3, 40, None)
    assert result["payments"] == {"non_dealer": 2600}
    assert result["total"] == 7800
    assert sorted(map(tuple, result["fu_details"])) == sorted(
        [("base", 20), ("closed_triplet", 8), ("closed_triplet", 4), ("tsumo", 2)]
    )


def test_hand_format_example_from_stdin(monkeypatch):
    [line] = score_stdin(monkeypatch, lines_of(EXAMPLE))
    assert line["result"]["total"] == 7800


def test_stdin_dash_reads_stdin(monkeypatch):
    [line] = score_stdin(monkeypatch, lines_of(EXAMPLE), "-")
    assert line["result"]["payments"] == {"non_dealer": 2600}


def test_hand_format_total_adds_1000_per_riichi_stick_and_payments_include_honba(tmp_path):
    [sticks, honba] = score_file(tmp_path, lines_of(example(riichi_sticks=2), example(honba=1)))
    assert sticks["result"]["payments"] == {"non_dealer": 2600}
    assert sticks["result"]["total"] == 7800 + 2000
    assert honba["result"]["payments"] == {"non_dealer": 2700}  # a·t = 100 from each payer
    assert honba["result"]["total"] == 8100


def test_non_dealer_tsumo_pays_dealer_and_non_dealer(tmp_path):
    # seat South, round South: the South triplet is both seat and round wind → 4 han 40 fu = mangan
    [line] = score_file(tmp_path, lines_of(example(seat_wind="S", dealer=False)))
    result = line["result"]
    assert (result["han"], result["limit"]) == (4, "mangan")
    assert result["payments"] == {"dealer": 4000, "non_dealer": 2000}
    assert result["total"] == 8000


def test_malformed_json_line_reports_invalid_json_and_the_command_goes_on(tmp_path):
    lines = score_file(tmp_path, lines_of('{"id": "broken", "hand": ', EXAMPLE, "not json at all", EXAMPLE))
    assert len(lines) == 4
    for bad in (lines[0], lines[2]):
        assert bad["id"] is None
        assert bad["error"]["code"] == "invalid_json"
        assert bad["error"]["message"]
    assert lines[1]["result"]["total"] == lines[3]["result"]["total"] == 7800


def test_malformed_json_from_stdin(monkeypatch):
    lines = score_stdin(monkeypatch, lines_of("{", EXAMPLE))
    assert lines[0] == {
        "id": None,
        "error": {"code": "invalid_json", "message": lines[0]["error"]["message"]},
    }
    assert "result" in lines[1]


@pytest.mark.parametrize("text", ['{"id": NaN, "hand": {}}', '{"id": 1e400}', "[1, 2]", "42", "[" * 5000])
def test_lines_that_are_not_json_objects_are_invalid_json(tmp_path, text):
    [line] = score_file(tmp_path, lines_of(text))
    assert line["id"] is None
    assert line["error"]["code"] == "invalid_json"


def test_unknown_tile_is_invalid_tiles(tmp_path):
    request = example(tiles="345m888p11567s222x")
    request["id"] = 7
    [line] = score_file(tmp_path, lines_of(request))
    assert line["id"] == 7
    assert line["error"]["code"] == "invalid_tiles"


def test_no_yaku(tmp_path):
    [line] = score_file(tmp_path, lines_of(NO_YAKU))
    assert line == {"id": "no-yaku", "error": {"code": "no_yaku", "message": line["error"]["message"]}}


def test_dora_alone_is_not_a_yaku(tmp_path):
    request = copy.deepcopy(NO_YAKU)
    request["hand"]["dora_indicators"] = ["8s"]  # two dora 9s
    [line] = score_file(tmp_path, lines_of(request))
    assert line["error"]["code"] == "no_yaku"


def test_results_keep_the_input_order_and_ids(tmp_path):
    requests = [dict(example(), id=f"hand-{n}") for n in range(3)] + [dict(NO_YAKU, id="hand-3")]
    lines = score_file(tmp_path, lines_of(*requests))
    assert [line["id"] for line in lines] == ["hand-0", "hand-1", "hand-2", "hand-3"]


def test_unknown_ruleset_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match=r"^unknown_ruleset: "):
        score_file(tmp_path, lines_of(EXAMPLE), "--ruleset", "no-such-rules")


def test_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match=r"^file_not_found: "):
        call_command("score_hands", str(tmp_path / "absent.jsonl"), stdout=io.StringIO())


def test_ruleset_option_changes_the_payments(tmp_path):
    # coefficient-exclusion 係数除外: dealer tsumo each = ε · ceil_100(Γ) = 2 · ceil_100(1280) = 2600
    [line] = score_file(tmp_path, lines_of(EXAMPLE), "--ruleset", "coefficient-exclusion")
    assert line["result"]["payments"] == {"non_dealer": 2600}
    # seat South, round East: 3 han 40 fu, Γ = 1280 → 1300 each non-dealer, 2 · 1300 from the dealer
    [line] = score_file(
        tmp_path, lines_of(example(seat_wind="S", round_wind="E", dealer=False)), "--ruleset", "coefficient-exclusion"
    )
    assert line["result"]["payments"] == {"dealer": 2600, "non_dealer": 1300}


def test_non_integral_payments_are_written_as_exact_fractions(tmp_path):
    # κ = 1/9, φ = 1/3, non-dealer tsumo 3 han 40 fu (Γ = 1280):
    # K = ceil_{1/3}(1280/9) = 427/3 from each non-dealer, E = ceil_{1/3}(2560) = 2560 from the dealer.
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name, ruleset.kappa, ruleset.phi = None, "odd", "Odd", "1/9", "1/3"
    ruleset.save()
    [line] = score_file(tmp_path, lines_of(example(seat_wind="S", round_wind="E", dealer=False)), "--ruleset", "odd")
    assert line["result"]["payments"] == {"dealer": 2560, "non_dealer": "427/3"}
    assert line["result"]["total"] == "8534/3"  # 2 · 427/3 + 2560


@pytest.mark.parametrize("kappa", ["0", "abc", "1/0"])
def test_invalid_ruleset_row_is_a_command_error(tmp_path, kappa):
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name, ruleset.kappa = None, "broken", "Broken", kappa
    ruleset.save()  # saved without full_clean, as a raw database edit would
    with pytest.raises(CommandError, match=r"^invalid_ruleset: "):
        score_file(tmp_path, lines_of(EXAMPLE), "--ruleset", "broken")


def test_a_result_too_long_to_write_is_reported_and_the_command_goes_on(tmp_path):
    huge_honba = (
        '{"id": "huge", "hand": {"tiles": "345m888p11567s222z", "win_tile": "5s", "tsumo": true, "honba": 1'
        + "0" * 4298  # parses (≤ 4300 digits); the payments (×100 per honba) no longer print
        + "}}"
    )
    good = (
        '{"id": "ok", "hand": {"tiles": "345m888p11567s222z", "win_tile": "5s", '
        '"tsumo": true, "riichi": true, "round_wind": "S"}}'
    )
    results = score_file(tmp_path, huge_honba + "\n" + good + "\n")
    assert results[0]["error"]["code"] == "invalid_request"
    assert results[1]["id"] == "ok" and "result" in results[1]


# --- A line that is not text spoils that line only: the command goes on --------------------------------

NOT_TEXT = [
    b'{"id": "bad-byte", "hand": {"tiles": "\xff"}}',  # not UTF-8
    b'{"id": "\\ud800", "hand": {}}',  # a lone surrogate: valid JSON, not text
    b'{"id": "x", "hand": {"tiles": "\\udfff", "win_tile": "1m"}}',
]


def _bytes_of(*lines) -> bytes:
    return b"".join((line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n" for line in lines)


def _assert_each_bad_line_is_reported_and_the_rest_scored(lines: list[dict]) -> None:
    assert len(lines) == 5
    assert lines[0]["result"]["total"] == lines[4]["result"]["total"] == 7800
    for number, bad in zip((2, 3, 4), lines[1:4], strict=True):
        assert bad["id"] is None and bad["error"]["code"] == "invalid_json"
        assert bad["error"]["message"].startswith(f"line {number}: ")
    assert "not UTF-8" in lines[1]["error"]["message"]
    assert "id holds a lone UTF-16 surrogate" in lines[2]["error"]["message"]
    assert "hand.tiles holds a lone UTF-16 surrogate" in lines[3]["error"]["message"]


def test_a_non_utf8_byte_or_a_lone_surrogate_spoils_its_line_only(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(_bytes_of(EXAMPLE, *NOT_TEXT, EXAMPLE))
    out = io.StringIO()
    call_command("score_hands", str(path), stdout=out)
    _assert_each_bad_line_is_reported_and_the_rest_scored([json.loads(x) for x in out.getvalue().splitlines()])


def test_the_same_from_stdin_read_as_bytes(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(_bytes_of(EXAMPLE, *NOT_TEXT, EXAMPLE)), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    out = io.StringIO()
    call_command("score_hands", stdout=out)
    _assert_each_bad_line_is_reported_and_the_rest_scored([json.loads(x) for x in out.getvalue().splitlines()])
