"""A person scores a hand on the calculator page in a real browser: tiles clicked or typed, errors inline.

Expected figures are hand-format.md's example, worked by hand: riichi, menzen tsumo, round wind (South
triplet in a South round) = 3 han; 20 + 4 (888p) + 8 (222z) + 2 (tsumo) = 34 → 40 fu; dealer tsumo
ceil_100(2 · 40 · 2^5) = 2600 from each of three, 7800 in all.
"""

import pytest

from scoring.models import Ruleset
from scoring.presets import install_presets

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def presets():
    """The live server's database is emptied between tests: put the preset rulesets back."""
    install_presets(Ruleset)


EXAMPLE_TILES = ["3m", "4m", "5m", "8p", "8p", "8p", "1s", "1s", "5s", "6s", "7s", "2z", "2z", "2z"]


def table_rows(page, selector: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in row.inner_text().split("\t")] for row in page.locator(f"{selector} tbody tr").all()
    ]


def test_click_a_hand_pick_the_winning_tile_and_see_the_score(page):
    # given the calculator, reached from the site header
    page.goto("/scoring/rulesets/")
    page.click("header.site >> text=Hand calculator")
    page.wait_for_selector("#palette")
    # the tile buttons show the tiles' images, loaded
    page.wait_for_load_state("load")
    assert page.locator("#palette button.tile img.glyph").count() == 37
    assert page.get_attribute('#palette [data-tile="0p"] img', "src") == "/static/scoring/tiles/0p.svg"
    assert page.eval_on_selector_all(
        "#palette img.glyph", "images => images.every((image) => image.complete && image.naturalWidth > 0)"
    )
    # when the hand is built tile by tile from the palette
    for tile in EXAMPLE_TILES:
        page.click(f'#palette [data-tile="{tile}"]')
    assert page.input_value("#tiles") == "345m888p11567s222z"
    assert page.inner_text("#tile-count") == "14 tiles"
    hand_images = page.eval_on_selector_all("#hand button.tile img", "images => images.map((image) => image.src)")
    assert [src.rsplit("/", 1)[1] for src in hand_images] == [f"{tile}.svg" for tile in EXAMPLE_TILES]
    # and the 5s in the hand is picked as the winning tile
    page.click('#hand [data-tile="5s"]')
    assert page.input_value("#win-tile") == "5s"
    assert page.get_attribute('#hand [data-tile="5s"]', "aria-pressed") == "true"
    # with tsumo, riichi and a South round (the seat stays East: the dealer)
    page.check("#tsumo")
    page.check("#riichi")
    page.select_option("#round-wind", "S")
    page.click("#evaluate")
    # then the score is shown: yaku with han, total han, fu with its breakdown, payments and total
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#han") == "3"
    assert page.inner_text("#fu") == "40"
    assert page.inner_text("#limit") == "—"
    assert page.inner_text("#total") == "7800"
    yaku = {row[0].rsplit(" · ", 1)[-1]: row[1] for row in table_rows(page, "#yaku")}
    assert yaku == {"riichi": "1", "menzen_tsumo": "1", "round_wind": "1"}
    fu = sorted(row[1] for row in table_rows(page, "#fu-details"))
    assert fu == sorted(["20", "4", "8", "2"])
    assert table_rows(page, "#payments") == [["Each other player (dealer tsumo)", "2600"]]
    # and the 14 tiles' decomposition
    page.wait_for_selector("#shape:not([hidden])")
    assert page.inner_text("#decompositions") == "345m 888p 567s 222z 11s"
    assert page.locator("#calc-error").is_hidden()


def test_typed_hands_show_an_error_inline_the_waits_of_13_tiles_and_the_score_of_a_meld_and_of_three_players(page):
    """On one browser page, the calculator opened afresh for each: a typed invalid hand, a 13-tile hand, a meld
    and a three-player ruleset."""
    a_typed_invalid_hand_shows_the_error_inline(page)
    a_13_tile_hand_shows_its_waits(page)
    a_meld_from_the_form_and_a_three_player_ruleset(page)


def a_typed_invalid_hand_shows_the_error_inline(page) -> None:
    page.goto("/scoring/calculator/")
    page.fill("#tiles", "345m888p11567s22x")
    page.press("#tiles", "Enter")  # the keyboard alone submits
    error = page.wait_for_selector("#calc-error:not([hidden])")
    assert "unknown tile character 'x'" in error.inner_text()
    assert error.get_attribute("data-code") == "invalid_tiles"
    assert "invalid_tiles" not in error.inner_text()  # the code is the page's, not the person's
    assert page.locator("#result").is_hidden()
    # a readable hand without a yaku names that problem instead
    page.fill("#tiles", "123m456m789p234s99s")
    page.select_option("#seat-wind", "S")
    page.press("#tiles", "Enter")
    page.wait_for_selector("#calc-error[data-code=no_yaku]")
    assert "no yaku" in page.inner_text("#calc-error")


def a_13_tile_hand_shows_its_waits(page) -> None:
    page.goto("/scoring/calculator/")
    page.fill("#tiles", "123m456p789s1122z")
    page.press("#tiles", "Enter")
    page.wait_for_selector("#shape:not([hidden])")
    # two pairs: either one becomes the triplet (シャボ), East or South
    assert page.inner_text("#waits") == "Tenpai 聴牌 — waits: E (1z), S (2z)"
    assert "shanten 向聴 0" in page.inner_text("#shape-summary")
    assert page.locator("#result").is_hidden()
    assert page.locator("#calc-error").is_hidden()


def a_meld_from_the_form_and_a_three_player_ruleset(page) -> None:
    page.goto("/scoring/calculator/")
    # 123m 456p 78s + 9s ron, 11z pair, pon of Haku 555z typed into meld 1: the dealer's ron
    page.fill("#tiles", "123m456p789s11z")
    page.fill("#win-tile", "9s")
    page.select_option("#meld-1-type", "pon")
    page.fill("#meld-1-tiles", "555z")
    page.click("#evaluate")
    page.wait_for_selector("#result:not([hidden])")
    # yakuhai 1 han; 20 + 4 (open honor triplet) + 4 (East pair, 連風牌) + 2 (辺張 78s on 9s) = 30 fu;
    # dealer ron ceil_100(6 · 30 · 2^3) = 1500
    assert (page.inner_text("#han"), page.inner_text("#fu"), page.inner_text("#total")) == ("1", "30", "1500")
    assert table_rows(page, "#payments") == [["Discarder (ron)", "1500"]]
    # the example hand on four-player values at a three-player table, equal split (seed 000 §3.2):
    # the dealer's tsumo ceil_100(3/2 · 2 · 1280) = 3900 from each of the two others
    page.select_option("#meld-1-type", "")
    page.fill("#meld-1-tiles", "")
    page.fill("#tiles", "345m888p11567s222z")
    page.fill("#win-tile", "5s")
    page.check("#tsumo")
    page.check("#riichi")
    page.select_option("#round-wind", "S")
    page.select_option("#ruleset", "three-player-equal-split")
    page.select_option("#players", "3")
    page.click("#evaluate")
    page.wait_for_selector("#payments >> text=3900")
    assert page.inner_text("#total") == "7800"


@pytest.mark.parametrize(("language", "choice"), [("ja", "EMAの英語表記"), ("en", "Romaji (Riichi)")])
def test_a_person_chooses_how_yaku_are_named_and_the_result_follows(screen, task_worker, language, choice):
    from scoring.yaku_names import EMA, ROMAJI, yaku_name

    style = {"ja": EMA, "en": ROMAJI}[language]
    page = screen({"width": 390, "height": 844}, {"ja": "ja-JP", "en": "en-US"}[language])
    page.goto("/scoring/calculator/")
    # the reader picks a naming by its label, in the page's language, and keeps it
    page.select_option("#yaku-names-style", label=choice)
    page.click(".yaku-names-form button[type=submit]")
    page.wait_for_url("**/scoring/calculator/")
    assert page.input_value("#yaku-names-style") == style
    # the example hand: riichi, menzen tsumo, round wind, each named the chosen way
    page.fill("#tiles", "345m888p11567s222z")
    page.fill("#win-tile", "5s")
    page.check("#tsumo")
    page.check("#riichi")
    page.select_option("#round-wind", "S")
    page.click("#evaluate")
    page.wait_for_selector("#result:not([hidden])")
    rows = [row[0].rsplit(" · ", 1) for row in table_rows(page, "#yaku")]
    assert {key: label for label, key in rows} == {
        key: yaku_name(key, style) for key in ("riichi", "menzen_tsumo", "round_wind")
    }
