"""The printable score-table page 点数早見表 of a ruleset, and the ruleset list that links to it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Ruleset
from tests.scoring.html_tables import html_tables

pytestmark = [pytest.mark.django_db, pytest.mark.once]

PRESET_SLUGS = {
    "standard",
    "three-player-equal-split",
    "three-player-proportional-split",
    "coefficient-exclusion",
    "simple-doubling",
}


def table_url(slug: str) -> str:
    return reverse("scoring:score_table", kwargs={"slug": slug})


def page_tables(client, slug: str, **params):
    response = client.get(table_url(slug), params)
    assert response.status_code == 200
    return {table.attrs["id"]: table for table in html_tables(response.content.decode())}


def grid(table) -> dict[tuple[str, int], tuple[str, str]]:
    """(fu, han) -> (ron, tsumo) from a side's table; limit rows under ("limit", name)."""
    header, subheader, *lines = table.rows
    assert header == ["符 fu", "1 翻 han", "2 翻 han", "3 翻 han", "4 翻 han"]
    assert subheader == ["ron", "tsumo"] * 4
    cells = {}
    for line in lines:
        if line[0] == "limit":  # the limits' own header row
            continue
        if len(line) == 4:  # limit row: label, han range, ron, tsumo
            cells[("limit", line[0])] = (line[2], line[3])
            continue
        for han in range(1, 5):
            cells[(line[0], han)] = (line[2 * han - 1], line[2 * han])
    return cells


def test_seed002_standard_page_has_a_non_dealer_and_a_dealer_table(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        tables = page_tables(client, "standard")
    assert set(tables) == {"non-dealer", "dealer"}
    child, parent = grid(tables["non-dealer"]), grid(tables["dealer"])
    assert child[("30", 1)] == ("1000", "300/500")
    assert child[("40", 2)] == ("2600", "700/1300")  # seed 002's worked example
    assert child[("20", 1)] == ("—", "—")  # pinfu tsumo has 2 han
    assert child[("20", 2)] == ("—", "400/700")
    assert child[("25", 2)] == ("1600", "—")  # chiitoitsu tsumo has 3 han
    assert parent[("30", 1)] == ("1500", "500 each")
    assert parent[("40", 2)] == ("3900", "1300 each")
    assert child[("limit", "満貫 mangan")] == ("8000", "2000/4000")
    assert child[("limit", "役満 yakuman")] == ("32000", "8000/16000")
    assert parent[("limit", "満貫 mangan")] == ("12000", "4000 each")
    assert parent[("limit", "倍満 baiman")] == ("24000", "8000 each")


def test_seed000_three_players_use_the_reference_scheme(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        tables = page_tables(client, "standard", players=3)  # standard's reference: equal split 等分
    child, parent = grid(tables["non-dealer"]), grid(tables["dealer"])
    assert child[("30", 1)] == ("1000", "400/600")  # ceil_100(3/2·240), ceil_100(5/2·240)
    assert parent[("30", 1)] == ("1500", "800 each")  # ceil_100(3/2·480)
    assert child[("limit", "満貫 mangan")] == ("8000", "3000/5000")

    proportional = grid(page_tables(client, "three-player-proportional-split", players=3)["non-dealer"])
    assert proportional[("30", 1)] == ("1000", "400/700")  # r = 4/3


def test_seed000_simple_doubling_page_lists_raw_fu(client):
    child = grid(page_tables(client, "simple-doubling")["non-dealer"])
    assert child[("22", 1)] == ("800", "200/400")  # U = 8 · ceil_12.5(22) = 200
    assert child[("32", 1)] == ("1200", "300/600")


def test_kiriage_mangan_ruleset_shows_mangan_at_30_fu_4_han(client):
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name, ruleset.kiriage_mangan = None, "kiriage", "Kiriage", True
    ruleset.save()
    assert grid(page_tables(client, "kiriage")["non-dealer"])[("30", 4)] == ("8000", "2000/4000")


def test_page_is_printable(client):
    body = client.get(table_url("standard")).content.decode()
    assert "@media print" in body
    assert "Standard four-player" in body


def test_page_escapes_the_ruleset_name(client):
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name = None, "club", "Club <script>alert(1)</script>"
    ruleset.save()
    body = client.get(table_url("club")).content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "Club &lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_unknown_ruleset_is_404(client):
    assert client.get(table_url("no-such-rules")).status_code == 404


@pytest.mark.parametrize("players", ["5", "1", "three"])
def test_impossible_player_count_is_400(client, players):
    response = client.get(table_url("standard"), {"players": players})
    assert response.status_code == 400
    assert b"invalid_parameter" in response.content


@pytest.mark.parametrize(("kappa", "code"), [("abc", b"invalid_ruleset"), ("0", b"invalid_parameter")])
def test_ruleset_row_saved_with_a_bad_coefficient_is_400(client, kappa, code):
    ruleset = Ruleset.objects.get(slug="standard")
    ruleset.pk, ruleset.slug, ruleset.name, ruleset.kappa = None, "broken", "Broken", kappa
    ruleset.save()  # without full_clean, as a raw database edit would
    response = client.get(table_url("broken"))
    assert response.status_code == 400
    assert response.content.startswith(code)


def test_three_player_ruleset_page_refuses_four_players(client):
    ruleset = Ruleset.objects.get(slug="three-player-equal-split")
    ruleset.standard_players = 3
    ruleset.save()
    assert client.get(table_url("three-player-equal-split"), {"players": 4}).status_code == 400
    assert client.get(table_url("three-player-equal-split"), {"players": 3}).status_code == 200


def test_ruleset_list_links_every_ruleset_table(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        response = client.get(reverse("scoring:ruleset_list"))
    assert response.status_code == 200
    body = response.content.decode()
    for slug in PRESET_SLUGS:
        assert f'href="{table_url(slug)}"' in body
        assert f'href="{table_url(slug)}?players=3"' in body
    assert Ruleset.objects.get(slug="standard").name in body


def test_ruleset_list_query_count_does_not_grow_with_rulesets(client, django_assert_max_num_queries):
    standard = Ruleset.objects.get(slug="standard")
    for number in range(20):
        standard.pk, standard.slug, standard.name = None, f"copy-{number}", f"Copy {number}"
        standard.save()
    with django_assert_max_num_queries(1):
        response = client.get(reverse("scoring:ruleset_list"))
    assert response.content.decode().count("/table/") >= 3 * 25
