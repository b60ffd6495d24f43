"""The calculator's JSON API: ``POST /scoring/api/evaluate`` and ``POST /scoring/api/shape``.

Expected amounts are worked by hand from seeds 000-002 (see each test); the documented example is
hand-format.md's own: riichi, menzen tsumo and round wind (South triplet in a South round) = 3 han;
20 base + 888p closed simple triplet 4 + South closed honor triplet 8 + tsumo 2 = 34 → 40 fu; dealer
tsumo ceil_100(2 · 40 · 2^5) = 2600 from each of three, 7800 in all.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.tiles import parse_tiles
from tests.scoring.hand_format_example import EXAMPLE, example

pytestmark = [pytest.mark.django_db, pytest.mark.once]

EVALUATE = "/scoring/api/evaluate"
SHAPE = "/scoring/api/shape"

EXAMPLE_RESULT = {
    "yaku": [["menzen_tsumo", 1], ["riichi", 1], ["round_wind", 1]],
    "han": 3,
    "fu": 40,
    "limit": None,
    "payments": {"non_dealer": 2600},
    "total": 7800,
    "fu_details": [["base", 20], ["closed_triplet", 8], ["closed_triplet", 4], ["tsumo", 2]],
}


def post(client, url: str, body, **query):
    """POST ``body`` (an object, sent as JSON, or raw text/bytes sent as they are)."""
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return client.post(url, data, content_type="application/json")


def unordered(result: dict) -> dict:
    """``yaku`` and ``fu_details`` are lists whose order hand-format.md leaves open."""
    return {**result, "yaku": sorted(result["yaku"]), "fu_details": sorted(result["fu_details"])}


# --- evaluate: the documented example ----------------------------------------------------------------


def test_urls_are_the_documented_ones():
    assert reverse("scoring:api_evaluate") == EVALUATE
    assert reverse("scoring:api_shape") == SHAPE
    assert reverse("scoring:calculator") == "/scoring/calculator/"


def test_hand_format_example_gives_exactly_the_documented_result(client):
    response = post(client, EVALUATE, EXAMPLE)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"id", "result"}
    assert body["id"] == "any-string"
    assert set(body["result"]) == set(EXAMPLE_RESULT)
    assert unordered(body["result"]) == unordered(EXAMPLE_RESULT)


def test_the_calculator_needs_no_login_and_no_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    response = post(strict, EVALUATE, EXAMPLE)
    assert response.status_code == 200
    assert response.json()["result"]["total"] == 7800
    assert post(strict, SHAPE, {"tiles": "123m456p789s1122z"}).status_code == 200


def test_a_logged_in_session_without_csrf_token_is_served_too(admin_user):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(admin_user)
    assert post(strict, EVALUATE, EXAMPLE).status_code == 200


def test_only_the_documented_keys_are_required(client):
    # hand-format.md: every key of hand may be omitted except tiles and win_tile (E seat, E round);
    # 123m456p789s + 555z (haku, 役牌 1 han) + 11z pair: 20 + 8 (closed honor triplet) + 4 (East pair is
    # seat and round wind, 連風牌) + 0 (4p completes 56p: 両面) + 10 (closed ron) = 42 → 50 fu;
    # dealer ron ceil_100(6 · 50 · 2^3) = 2400
    response = post(client, EVALUATE, {"hand": {"tiles": "123m456p789s11555z", "win_tile": "4p"}})
    assert response.status_code == 200
    body = response.json()
    assert body["id"] is None
    assert unordered(body["result"]) == unordered(
        {
            "yaku": [["yakuhai_haku", 1]],
            "han": 1,
            "fu": 50,
            "limit": None,
            "payments": {"ron": 2400},
            "total": 2400,
            "fu_details": [["base", 20], ["closed_triplet", 8], ["double_wind_pair", 4], ["closed_ron", 10]],
        }
    )


def test_shape_is_added_only_when_asked(client):
    plain = post(client, EVALUATE, EXAMPLE).json()
    assert "shape" not in plain
    assert "shape" not in post(client, EVALUATE, EXAMPLE, shape="0").json()
    body = post(client, EVALUATE, EXAMPLE, shape="1").json()
    assert set(body) == {"id", "result", "shape"}
    assert unordered(body["result"]) == unordered(EXAMPLE_RESULT)
    shape = body["shape"]
    assert shape["count"] == 14
    assert shape["complete"] is True
    assert shape["shanten"]["minimum"] == -1  # a complete hand is −1 shanten
    # the only reading: 345m 888p 567s 222z + 1s pair
    [reading] = shape["decompositions"]
    assert sorted(reading["melds"]) == ["222z", "345m", "567s", "888p"]
    assert parse_tiles(reading["pair"])[0] == [18, 18]


def test_an_error_gets_no_shape_even_when_asked(client):
    body = post(client, EVALUATE, example(win_tile="9m"), shape="1").json()
    assert set(body) == {"id", "error"}


# --- evaluate: rulesets and table size ----------------------------------------------------------------


def test_default_ruleset_is_standard(client):
    default = post(client, EVALUATE, EXAMPLE).json()
    assert post(client, EVALUATE, EXAMPLE, ruleset="standard").json() == default


@pytest.mark.parametrize(
    ("ruleset", "players", "payments", "total"),
    [
        # seed 000 §3.2 equal split, dealer tsumo, m=3 on s=4 values: ceil_100(3/2 · 2 · 1280) = 3900
        # from each of the two others
        ("three-player-equal-split", "3", {"non_dealer": 3900}, 7800),
        # §3.3 proportional split, dealer tsumo: the same formula as equal split
        ("three-player-proportional-split", "3", {"non_dealer": 3900}, 7800),
        # four at the table: the scheme pays like the inclusive one, 2600 from each of three
        ("three-player-equal-split", "", {"non_dealer": 2600}, 7800),
        # §2.2 coefficient exclusion: 2 · ceil_100(1280) = 2600 each
        ("coefficient-exclusion", "4", {"non_dealer": 2600}, 7800),
    ],
)
def test_seed000_ruleset_and_players_choose_the_payments(client, ruleset, players, payments, total):
    body = post(client, EVALUATE, EXAMPLE, ruleset=ruleset, players=players).json()
    assert body["result"]["payments"] == payments
    assert body["result"]["total"] == total
    assert body["result"]["han"] == 3


def test_seed000_simple_doubling_uses_the_raw_fu(client):
    # §2.3 with the preset's v0 = 3, φ = 100: v = 3 + 2 bazoro = 5, raw p = 34;
    # U = 2^(v−v0) · ceil_φ(2^v0 · p) = 4 · ceil_100(272) = 1200; dealer tsumo ε·U = 2400 from each of three
    body = post(client, EVALUATE, EXAMPLE, ruleset="simple-doubling").json()
    assert body["result"]["payments"] == {"non_dealer": 2400}
    assert body["result"]["total"] == 7200


def test_unknown_ruleset_is_a_400_naming_it(client):
    response = post(client, EVALUATE, EXAMPLE, ruleset="no-such-rules")
    assert response.status_code == 400
    body = response.json()
    assert body["id"] == "any-string"
    assert body["error"]["code"] == "unknown_ruleset"
    assert "no-such-rules" in body["error"]["message"]


@pytest.mark.parametrize("players", ["1", "5", "x", "-3", "3.0", "9" * 40, "9" * 5000, "²", "٣", "３"])
def test_a_table_size_outside_2_to_s_is_refused(client, players):
    response = post(client, EVALUATE, EXAMPLE, players=players)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_parameter"


@pytest.mark.parametrize(
    ("url", "body", "where"),
    [
        (EVALUATE, '{"id": "\\ud800", "hand": {"tiles": "123m", "win_tile": "1m"}}', "id"),
        (EVALUATE, '{"hand": {"tiles": "\\ud800", "win_tile": "1m"}}', "hand.tiles"),
        (EVALUATE, '{"hand": {"\\udfff": 1}}', "hand.'\\udfff'"),
        (SHAPE, '{"id": "\\udfff", "tiles": "123m"}', "id"),
        (SHAPE, '{"tiles": ["\\ud800"]}', "tiles[0]"),
    ],
)
def test_a_lone_surrogate_is_invalid_json_naming_where_not_a_500(client, url, body, where):
    # "\ud800" is valid JSON but not text: it could not be written back in the answer
    response = post(client, url, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_json" and f"{where} holds a lone UTF-16 surrogate" in error["message"]


def test_aka_dora_per_request_counts_a_red_five(client):
    # the example with its 5s written as a red five 0s: +1 han (赤ドラ) → 4 han 40 fu dealer tsumo;
    # Γ = 40 · 2^6 = 2560 is capped at mangan's 2000 (seed 002), 2 · 2000 = 4000 from each of three
    red = copy.deepcopy(EXAMPLE)
    red["rules"]["aka_dora"] = True
    red["hand"]["tiles"] = "345m888p11067s222z"
    result = post(client, EVALUATE, red).json()["result"]
    assert ["aka_dora", 1] in result["yaku"]
    assert (result["han"], result["limit"], result["payments"], result["total"]) == (
        4,
        "mangan",
        {"non_dealer": 4000},
        12000,
    )


# --- evaluate: errors ---------------------------------------------------------------------------------


def assert_error(response, code: str, request_id=None) -> dict:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"id", "error"}
    assert body["id"] == request_id
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str)
    assert body["error"]["message"]
    return body["error"]


@pytest.mark.parametrize(
    "body",
    [
        "{bad json",
        "",
        "   ",
        '{"id": "x", "hand": }',
        '{"hand": {"tiles": "123m", "win_tile": "1m", "honba": NaN}}',
        '{"hand": {"tiles": "123m", "win_tile": "1m", "honba": Infinity}}',
        '{"hand": {"tiles": "123m", "win_tile": "1m", "honba": 1e400}}',
        '{"hand": {"honba": ' + "9" * 5000 + "}}",  # more digits than Python reads as an integer
        "[" * 100_000 + "]" * 100_000,  # nesting deeper than the parser's recursion
        b"\xff\xfe{}",  # not UTF-8
        '{"a": 1} trailing',
        "[]",
        "[1, 2]",
        '"a string"',
        "42",
        "null",
        "true",
    ],
    ids=lambda body: repr(body)[:30],
)
def test_malformed_or_non_object_body_is_invalid_json(client, body):
    assert_error(post(client, EVALUATE, body), "invalid_json")


@pytest.mark.parametrize(
    ("hand_changes", "code"),
    [
        ({"tiles": "345m888p11567s22x"}, "invalid_tiles"),
        ({"tiles": 12345}, "invalid_tiles"),
        ({"dora_indicators": ["8x"]}, "invalid_tiles"),
        ({"tiles": "345m888p11567s22z"}, "wrong_tile_count"),
        ({"tiles": "11111m888p11567s2z", "win_tile": "1m"}, "too_many_copies"),
        ({"win_tile": "9m"}, "win_tile_missing"),
        ({"ippatsu": True, "riichi": False}, "inconsistent_flags"),
        ({"dealer": False}, "inconsistent_flags"),
        ({"tiles": "345m888p11567s123z", "win_tile": "5s"}, "not_a_winning_hand"),
        ({"melds": [{"type": "pung", "tiles": "222z"}]}, "invalid_meld"),
        ({"honba": -1}, "invalid_request"),
        ({"seat_wind": "X"}, "invalid_request"),
        ({"colour": "red"}, "invalid_request"),
    ],
)
def test_each_hand_error_code_is_a_400_with_the_request_id(client, hand_changes, code):
    assert_error(post(client, EVALUATE, example(**hand_changes)), code, "any-string")


def test_no_yaku_is_a_400(client):
    # closed ron on a 9s pair wait: no riichi, no tanyao (1m, 9p), no pinfu (tanki), no yakuhai
    request = {"id": 7, "hand": {"tiles": "123m456m789p234s99s", "win_tile": "9s", "seat_wind": "S"}}
    assert_error(post(client, EVALUATE, request), "no_yaku", 7)


@pytest.mark.parametrize(
    ("request_body", "code"),
    [
        ({"id": "r", "hand": {"tiles": "123m"}}, "invalid_request"),  # no win_tile
        ({"id": "r"}, "invalid_request"),  # no hand
        ({"id": "r", "hand": "123m"}, "invalid_request"),
        ({"id": "r", "hand": EXAMPLE["hand"], "extra": 1}, "invalid_request"),
        ({"id": "r", "hand": EXAMPLE["hand"], "rules": {"kiriage": True}}, "invalid_parameter"),
        ({"id": "r", "hand": EXAMPLE["hand"], "rules": {"aka_dora": "yes"}}, "invalid_parameter"),
    ],
)
def test_request_level_errors_are_400(client, request_body, code):
    assert_error(post(client, EVALUATE, request_body), code, "r")


def test_huge_but_readable_numbers_are_exact(client):
    # 10^30 honba: each of the three payers adds 100 · 10^30 (seed 000's a·t) to 2600
    honba = 10**30
    body = post(client, EVALUATE, example(honba=honba, riichi_sticks=10**20)).json()
    each = 2600 + 100 * honba
    assert body["result"]["payments"] == {"non_dealer": each}
    assert body["result"]["total"] == 3 * each + 1000 * 10**20


def test_an_amount_too_long_to_write_is_a_400_not_a_crash(client):
    # a 4300-digit honba can be read, but 100 · 3 times it has more digits than JSON text may carry
    hand = '"tiles": "345m888p11567s222z", "win_tile": "5s", "tsumo": true, "riichi": true, "round_wind": "S"'
    response = post(client, EVALUATE, '{"hand": {' + hand + ', "honba": ' + "9" * 4300 + "}}")
    assert_error(response, "invalid_request")


def test_a_body_over_the_upload_limit_is_a_400(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    assert_error(post(client, EVALUATE, {"id": "x" * 2000, "hand": {}}), "invalid_json")


def test_other_methods_are_not_allowed(client):
    assert client.get(EVALUATE).status_code == 405
    assert client.get(SHAPE).status_code == 405


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TILE_TEXT = st.text(alphabet="0123456789mpszx ", max_size=20)
HAND_VALUES = st.fixed_dictionaries(
    {"tiles": TILE_TEXT | JSON_VALUES, "win_tile": TILE_TEXT | JSON_VALUES},
    optional={
        key: JSON_VALUES | TILE_TEXT
        for key in ("melds", "tsumo", "riichi", "seat_wind", "dora_indicators", "honba", "riichi_sticks")
    },
)
REQUESTS = st.fixed_dictionaries({"hand": HAND_VALUES}, optional={"id": JSON_VALUES, "rules": JSON_VALUES})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=REQUESTS.map(json.dumps) | JSON_VALUES.map(json.dumps) | st.binary(max_size=60))
def test_any_body_gets_a_result_or_a_coded_400(client, body):
    response = post(client, EVALUATE, body)
    assert response.status_code in (200, 400)
    answer = response.json()
    if response.status_code == 200:
        assert set(answer) == {"id", "result"}
    else:
        assert set(answer) == {"id", "error"}
        assert set(answer["error"]) == {"code", "message"}


# --- shape --------------------------------------------------------------------------------------------


def shape_of(client, tiles) -> dict:
    response = post(client, SHAPE, {"tiles": tiles})
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(
    ("tiles", "waits"),
    [
        ("123m456p789s1122z", ["1z", "2z"]),  # シャボ: either pair becomes a triplet
        ("1112345678999m", [f"{rank}m" for rank in range(1, 10)]),  # 九蓮宝燈: all nine
        ("19m19p19s1234567z", ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]),
        ("1133557799m11p1s", ["1s"]),  # 七対子: six pairs and a single
        ("2345m", ["2m", "5m"]),  # three melds called: 234+5 or 2+345, a pair wait either way (延べ単)
    ],
)
def test_seed003_a_waiting_hand_shows_its_waits(client, tiles, waits):
    report = shape_of(client, tiles)
    assert report["tenpai"] is True
    assert report["shanten"]["minimum"] == 0
    assert sorted(report["waits"]) == sorted(waits)


def test_seed003_a_hand_that_is_not_waiting_says_so(client):
    report = shape_of(client, "1379m1379p1379s1z")
    assert report["tenpai"] is False
    assert report["waits"] == []
    assert report["shanten"]["minimum"] > 0


def test_seed003_seven_pairs_shanten_of_six_pairs_and_a_single(client):
    assert shape_of(client, "1133557799m11p1s")["shanten"]["seven_pairs"] == 0


def test_seed003_a_complete_hand_lists_its_decompositions(client):
    # 111222333m: three triplets or three identical sequences; + 456p + 77s pair
    report = shape_of(client, "111222333m456p77s")
    assert report["complete"] is True
    readings = sorted(sorted(d["melds"]) for d in report["decompositions"])
    assert readings == [["111m", "222m", "333m", "456p"], ["123m", "123m", "123m", "456p"]]
    assert all(parse_tiles(d["pair"])[0] == [24, 24] for d in report["decompositions"])


def test_the_shape_report_names_the_models(client):
    report = shape_of(client, "123m456p789s1122z")
    assert {"tiles": "11z", "model": "pair"} in report["models"]
    assert report["shanten"] == {"standard": 0, "seven_pairs": 4, "thirteen_orphans": 8, "minimum": 0}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"tiles": "123m456p789s11x"}, "invalid_tiles"),
        ({"tiles": ["1m"]}, "invalid_tiles"),
        ({"tiles": None}, "invalid_tiles"),
        ({"tiles": "123m456p789s112z"}, "wrong_tile_count"),  # 12
        ({"tiles": "123m456p789s11222z3z"}, "wrong_tile_count"),  # 15
        ({"tiles": ""}, "wrong_tile_count"),
        ({"tiles": "11111m456p789s12z"}, "too_many_copies"),
        ({}, "invalid_request"),
        ({"tiles": "123m", "hand": {}}, "invalid_request"),
        ("{not json", "invalid_json"),
        ("[]", "invalid_json"),
    ],
)
def test_shape_errors_are_400_with_a_code(client, body, code):
    assert_error(post(client, SHAPE, body), code)


def test_shape_error_echoes_the_request_id(client):
    assert_error(post(client, SHAPE, {"id": "s1", "tiles": "12x"}), "invalid_tiles", "s1")
