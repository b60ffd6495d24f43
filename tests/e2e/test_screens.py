"""Every screen reads right to the person holding it (issue 30), in Chromium, on a 390 × 844 phone and a
desktop, in Japanese and English: the header on every page, the sheet's forms after Back and double taps,
seats by wind and name, tap targets, the player's running game, the venue screen, the organizer's path."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from tests.e2e.conftest import sign_in, tap
from tests.e2e.waiting import until_handled
from tournament.models import HandVersion, Penalty
from tournament.services.discipline import penalty_log
from tournament.services.hands import hand_record
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

# Pure pages and forms: the same on every database (the services pass runs the console's own tests).
pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SCREENS = [(PHONE, "en-US"), (PHONE, "ja-JP"), (DESKTOP, "en-US"), (DESKTOP, "ja-JP")]
SCREEN_IDS = ["phone-en", "phone-ja", "desktop-en", "desktop-ja"]
# Both screens and both languages at the cost of two runs: a Japanese phone and an English desktop.
CROSSED = [(PHONE, "ja-JP"), (DESKTOP, "en-US")]
CROSSED_IDS = ["phone-ja", "desktop-en"]

# Each header control: visible, inside the viewport, not covered, 44 px tall, and its text at a contrast of
# at least 4.5:1 against the background actually behind it (WCAG AA).
HEADER_PROBLEMS = """() => {
  const lum = (rgb) => {
    const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const c = rgba(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const problems = [];
  for (const el of document.querySelectorAll("header.site a, header.site button")) {
    const r = el.getBoundingClientRect();
    const name = (el.textContent || "").trim();
    if (r.width === 0 || r.height === 0) { problems.push(name + ": not shown"); continue; }
    if (r.left < 0 || r.right > innerWidth + 0.5 || r.top < 0) problems.push(name + ": outside the viewport");
    if (r.height < 44) problems.push(name + ": " + r.height + " px tall");
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) problems.push(name + ": covered");
    const fg = lum(rgba(getComputedStyle(el).color).slice(0, 3)), bg = lum(background(el));
    const contrast = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (contrast < 4.5) problems.push(name + ": contrast " + contrast.toFixed(2));
  }
  return problems;
}"""


@pytest.fixture
def referee():
    staff_groups_install()
    user = User.objects.create_user("kato", password="table-1-pw")
    user.groups.add(Group.objects.get(name=REFEREES_GROUP))
    return user


def referee_signs_in(page, user, event) -> None:
    role_grant(event=event, user=user, kind="referee")
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "kato",
        "table-1-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )


def open_sheet(page, table) -> None:
    page.goto(reverse("console:table", args=[table.pk]))
    page.wait_for_selector("#hand-form")


def ron(page, *, winner: int, discarder: int, han: int, fu: int) -> None:
    tap(page, "outcome", "ron")
    tap(page, "winner_1", winner)
    tap(page, "discarder", discarder)
    tap(page, "han_1", han)
    tap(page, "fu_1", fu)


def said(locale: str, message: str, **values) -> str:
    """What the page says for ``message`` in ``locale``'s language (from the catalog, as the page does)."""
    with translation.override(locale[:2]):
        return translation.gettext(message) % values


def current_hands(table) -> list[HandVersion]:
    return list(HandVersion.objects.filter(hand__table=table, is_current=True).order_by("hand__number"))


# --- 1. The header on every page --------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "locale"), SCREENS, ids=SCREEN_IDS)
def test_every_header_link_is_visible_inside_the_screen_and_readable(
    screen, referee, make_event, seated_round, viewport, locale
):
    table = seated_round(make_event(4, is_public=True)).tables.get()
    event, entry = table.round.event, table.seats.first().entry
    public = [
        reverse("tournament:event_list"),
        reverse("tournament:event", args=[event.slug]),
        reverse("tournament:standings", args=[event.slug]),
        reverse("tournament:round", args=[event.slug, 1]),
        reverse("tournament:player", args=[event.slug, entry.pk]),
        reverse("scoring:calculator"),
        reverse("login"),
    ]
    page = screen(viewport, locale)
    problems = {}
    for url in public:
        page.goto(url)
        problems[url] = page.evaluate(HEADER_PROBLEMS)
    referee_signs_in(page, referee, event)
    for url in (reverse("console:my_tables"), reverse("console:table", args=[table.pk])):
        page.goto(url)
        problems[url] = page.evaluate(HEADER_PROBLEMS)
        assert page.locator("header.site >> text=" + ("ログアウト" if locale == "ja-JP" else "Sign out")).count()
    assert {url: found for url, found in problems.items() if found} == {}
    # and the header's controls work from a phone: switch the language, then sign out
    other = "en" if locale == "ja-JP" else "ja"
    page.click(f"header.site form.languages button[value='{other}']")
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.lang") == ("en" if locale == "ja-JP" else "ja")
    page.click("header.site .who form:not(.languages) button")
    page.wait_for_selector("header.site a[href*='login']")


# --- 2-5. The referee's sheet: Back after saving, a double tap, seats by wind, tap targets, my tables ------


@pytest.mark.parametrize(("viewport", "locale"), CROSSED, ids=CROSSED_IDS)
def test_the_referees_sheet_on_a_phone_in_japanese_and_a_desktop_in_english(
    screen, referee, make_event, seated_round, viewport, locale
):
    """One referee, signed in once, checks in turn (each on its own table of one event, from a fresh page):
    * my tables lists the tables being played before the finished ones;
    * Back after saving brings an empty form, and a hand repeated in every field asks before it is saved;
    * a double tap on Save saves once and says saved, and so does the same form sent again;
    * seats read by wind and name, and a refusal's message carries no codes;
    * the sheet's taps are 44 px, cancelling a penalty asks first, and Void is only for recorded hands."""
    from tournament.services.results import table_finish

    round_ = seated_round(make_event(24))
    first, second, back, double, seats, taps = round_.tables.order_by("number")
    for table in (first, second):
        hand_record(
            table=table, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0}
        )
        table_finish(table=table, end_reason="time")
    hand_record(
        table=seats,
        number=1,
        expected_version=0,
        data={"outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [0, 1]},
    )
    penalty_log(
        event=round_.event,
        entry=taps.seats.get(position=0).entry,
        kind="art35_revealed_hand",
        reason="shown",
        table=taps,
        hand_number=1,
    )
    page = screen(viewport, locale)
    referee_signs_in(page, referee, round_.event)
    my_tables_lists_the_tables_being_played_first(page, back, locale)
    back_after_saving_brings_an_empty_form_and_a_repeated_hand_asks_first(page, back, locale)
    a_double_tap_on_save_saves_once_and_says_saved(page, double, locale)
    seats_read_by_wind_and_name_and_messages_carry_no_codes(page, seats, locale)
    sheet_taps_are_44_px_a_penalty_cancel_asks_and_void_is_for_recorded_hands(page, taps, locale)


def back_after_saving_brings_an_empty_form_and_a_repeated_hand_asks_first(page, table, locale) -> None:
    open_sheet(page, table)
    ron(page, winner=1, discarder=2, han=2, fu=30)
    page.click("#save-hand")
    page.wait_for_selector(f"#messages >> text={said(locale, 'Hand %(number)s saved.', number=1)}")
    ron(page, winner=2, discarder=3, han=3, fu=40)
    page.click("#save-hand")
    page.wait_for_selector(f"#messages >> text={said(locale, 'Hand %(number)s saved.', number=2)}")
    page.go_back()  # the sheet as it was before hand 2 was saved
    page.wait_for_selector("#hand-form")
    assert page.locator("#hand-form h2").inner_text().startswith(said(locale, "Hand %(number)s", number=3))
    chosen = page.evaluate(
        "[...document.querySelectorAll('#hand-form input:checked')].map(i => i.name)"
        ".filter(n => n.startsWith('winner') || n === 'discarder' || n.startsWith('han_') || n.startsWith('fu_'))"
    )
    assert chosen == [], f"the new hand's form came back filled in: {chosen}"
    # the same hand as hand 2 in every field asks first, and is saved on the second Save
    ron(page, winner=2, discarder=3, han=3, fu=40)
    page.click("#save-hand")
    asks = "Hand %(number)s is the same as hand %(previous)s in every field. If it really is, tap Save again."
    page.wait_for_selector(f"#hand-errors >> text={said(locale, asks, number=3, previous=2)}")
    assert len(current_hands(table)) == 2
    page.click("#save-hand")
    page.wait_for_selector(f"#messages >> text={said(locale, 'Hand %(number)s saved.', number=3)}")
    assert len(current_hands(table)) == 3


def a_double_tap_on_save_saves_once_and_says_saved(page, table, locale) -> None:
    open_sheet(page, table)
    ron(page, winner=1, discarder=0, han=1, fu=30)
    page.locator("#save-hand").dblclick()
    saved = said(locale, "Hand %(number)s saved.", number=1)
    page.wait_for_selector(f"#messages >> text={saved}")
    assert [h.version for h in current_hands(table)] == [1]
    assert page.locator(".messages li.error").count() == 0
    assert page.locator("#hand-form h2").inner_text().startswith(said(locale, "Hand %(number)s", number=2))
    # the same form sent again by the browser (a resend, Save disabled or not): "saved", nothing new
    resent = page.request.post(
        reverse("console:table", args=[table.pk]),
        form={
            "csrfmiddlewaretoken": page.input_value("input[name=csrfmiddlewaretoken]"),
            "action": "hand",
            "hand": "1",
            "expected_version": "0",
            "outcome": "ron",
            "dealer_position": "0",
            "honba": "0",
            "winner_1": "1",
            "discarder": "0",
            "han_1": "1",
            "fu_1": "30",
        },
        headers={"Accept-Language": locale},
    )
    assert resent.ok and saved in resent.text() and "version" not in resent.text().split(saved)[0][-200:]
    assert [h.version for h in current_hands(table)] == [1]


def seats_read_by_wind_and_name_and_messages_carry_no_codes(page, table, locale) -> None:
    """(``table`` has a draw recorded as hand 1.)"""
    seats = list(table.seats.order_by("position").select_related("entry__player"))
    open_sheet(page, table)
    east, south = ("東", "南") if locale == "ja-JP" else ("E", "S")
    sheet = page.inner_text("#hand-sheet")
    assert f"{east} {seats[0].entry.player}, {south} {seats[1].entry.player}" in sheet, sheet
    summary = page.inner_text("#deal summary")
    assert str(seats[0].entry.player) in summary and not re.search(r"(Dealer|親)\s*\d", summary), summary
    # a refusal reads as words: tsumo without a winner
    tap(page, "outcome", "tsumo")
    page.click("#save-hand")
    page.wait_for_selector(".errorlist, .messages li.error")
    shown = page.inner_text("main")
    assert not re.search(r"\((?:[a-z]+_)+[a-z]+\)", shown), shown


def sheet_taps_are_44_px_a_penalty_cancel_asks_and_void_is_for_recorded_hands(page, table, locale) -> None:
    """(``table``'s East seat has the event's one penalty.)"""
    seat = table.seats.get(position=0)
    open_sheet(page, table)
    assert page.locator("#void-form").count() == 0  # nothing recorded: nothing to void
    ron(page, winner=1, discarder=0, han=1, fu=30)
    page.click("#save-hand")
    page.wait_for_selector(f"#messages >> text={said(locale, 'Hand %(number)s saved.', number=1)}")
    assert page.locator("#void-form").count() == 0  # the form is for hand 2, not recorded yet
    small = page.evaluate(
        "[...document.querySelectorAll('main a, main button, main summary')].filter(e => e.offsetParent)"
        ".map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"
        ".filter(([_, h]) => h < 44)"
    )
    assert small == [], small
    page.click("#hand-sheet a.correct")
    page.wait_for_selector("#void-form")  # hand 1, recorded: it may be voided
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#penalties button")
    until_handled(page, lambda: asked, "the referee asked first")
    expect(page.locator("#penalties .muted")).to_have_count(0)  # dismissed: still in force on the page
    assert Penalty.objects.get().cancelled_at is None
    cancel = "Cancel this penalty of %(player)s? It stays in the history, marked cancelled."
    assert asked == [said(locale, cancel, player=seat.entry.player)]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#penalties button")
    page.wait_for_selector("#penalties .muted")
    assert Penalty.objects.get().cancelled_at is not None


def my_tables_lists_the_tables_being_played_first(page, third, locale) -> None:
    """(Tables 1 and 2 are finished, ``third`` and the tables after it are being played.)"""
    page.goto(reverse("console:my_tables"))
    listed = page.locator("#my-tables a.table-link").all_inner_texts()
    assert listed[0] == said(locale, "Table %(number)s", number=third.number), listed


# --- 9. An icon for every page ------------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "locale"), CROSSED, ids=CROSSED_IDS)
def test_pages_ask_for_no_missing_icon_and_the_site_has_a_manifest(screen, make_event, viewport, locale):
    event = make_event(4, is_public=True)
    page = screen(viewport, locale)
    missing = []
    page.on("response", lambda response: response.status == 404 and missing.append(response.url))
    for url in ("/", reverse("tournament:event", args=[event.slug]), reverse("scoring:calculator")):
        page.goto(url)
        page.wait_for_load_state("networkidle")
    assert missing == []
    icon = page.request.get("/favicon.ico")
    assert icon.ok and icon.headers["content-type"] == "image/svg+xml" and b"<svg" in icon.body()
    manifest = page.request.get(page.get_attribute("link[rel=manifest]", "href")).json()
    assert manifest["name"] == "Taikai" and page.request.get(manifest["icons"][0]["src"]).ok


# --- 11, 12, 13. The organizer's path ---------------------------------------------------------------------


def test_an_organizer_goes_from_a_completed_round_to_seating_the_next(admin_page, make_event, seated_round):
    from tournament.services.results import table_finish

    event = make_event(4)
    round_ = seated_round(event)
    table = round_.tables.get()
    hand_record(table=table, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0})
    table_finish(table=table, end_reason="time")
    admin_page.goto(f"/admin/tournament/round/?event__id__exact={event.pk}")
    admin_page.check(f"input[name=_selected_action][value='{round_.pk}']")
    admin_page.select_option("select[name=action]", "complete_rounds")
    admin_page.click("button[name=index]")
    admin_page.wait_for_selector("#round-completed")
    assert admin_page.locator("#back-to-event").count() == 1
    admin_page.click("#seat-next")  # one click: round 2 is seated
    admin_page.wait_for_selector("text=Round 2")
    assert event.rounds.filter(number=2).exists()


def test_the_events_csv_accepts_alpha_3_and_names_and_its_page_names_the_event(admin_page, make_event, tmp_path):
    event = make_event(0, name="Winter Cup", slug="winter-cup")
    csv_file = tmp_path / "entries.csv"
    csv_file.write_text("display_name,country\n山田 太郎,JPN\nAnna Kowalska,Poland\nJan de Vries,NLD\n", "utf-8")
    admin_page.goto(f"/admin/tournament/event/{event.pk}/register-csv/")
    assert admin_page.inner_text("#crumb-event") == "Winter Cup"
    admin_page.set_input_files("#id_csv_file", str(csv_file))
    admin_page.click("input[type=submit]")
    admin_page.wait_for_selector("text=3 players registered in Winter Cup.")
    assert sorted(event.entries.values_list("player__country", flat=True)) == ["JP", "NL", "PL"]


def test_a_new_event_starts_on_the_standard_rules_and_labels_read_as_labels(admin_page, standard_ruleset):
    admin_page.goto("/admin/tournament/event/add/")
    assert admin_page.eval_on_selector("#id_ruleset", "s => s.options[s.selectedIndex].value") == str(
        standard_ruleset.pk
    )
    label = admin_page.inner_text("label[for=id_standings_precedence]")
    assert label[0].isupper(), label


@pytest.mark.parametrize("locale", ["ja-JP"])
def test_the_event_home_says_its_time_with_one_period(screen, make_event, play_round, locale):
    event = make_event(4, is_public=True)
    play_round(event, {"outcome": "exhaustive_draw", "dealer_position": 0})
    page = screen(PHONE, locale)
    page.goto(reverse("tournament:event", args=[event.slug]))
    text = page.inner_text("main")
    assert ("As of" if locale == "en-US" else "時点") in text, text
    assert ".." not in text and "。。" not in text, text


# --- 10. Swapping two players of a draft ---------------------------------------------------------------


def _draft(admin_page, make_event):
    """An event of eight with Japanese names and readings, and its round 1 seated as a draft (a worker)."""
    from players.models import Player

    event = make_event(8)
    names = [
        ("山口 健太", "やまぐち けんた"),
        ("佐藤 花子", "さとう はなこ"),
        ("鈴木 一郎", "すずき いちろう"),
        ("高橋 美咲", "たかはし みさき"),
        ("田中 翔", "たなか しょう"),
        ("伊藤 蓮", "いとう れん"),
        ("渡辺 陽菜", "わたなべ ひな"),
        ("中村 大輝", "なかむら だいき"),
    ]
    for entry, (name, reading) in zip(event.entries.order_by("id"), names, strict=True):
        Player.objects.filter(pk=entry.player_id).update(display_name=name, reading=reading)
    admin_page.goto(f"/admin/tournament/event/{event.pk}/change/")
    admin_page.click("text=Seat the next round automatically")
    admin_page.wait_for_selector("#swap-form", timeout=30000)
    return event


def _seat_of(event, name: str) -> tuple[int, int]:
    from tournament.models import Seat

    seat = Seat.objects.select_related("table").get(table__round__event=event, entry__player__display_name=name)
    return seat.table.number, seat.position


def test_an_organizer_swaps_two_players_by_tapping_their_names(admin_page, make_event, task_worker):
    event = _draft(admin_page, make_event)
    yamaguchi, sato = _seat_of(event, "山口 健太"), _seat_of(event, "佐藤 花子")
    admin_page.click(".pick-seat:has-text('山口 健太')")
    admin_page.click(".pick-seat:has-text('佐藤 花子')")
    admin_page.click("#swap-form input[type=submit]")
    admin_page.wait_for_selector("text=swapped seats")
    assert (_seat_of(event, "山口 健太"), _seat_of(event, "佐藤 花子")) == (sato, yamaguchi)


def test_a_part_of_a_name_its_kana_or_romaji_finds_the_player_to_swap(admin_page, make_event, task_worker):
    # one draft, swapped once for each way of typing the name: each swap puts the two back where they were before
    event = _draft(admin_page, make_event)
    for typed in ["山口", "やまぐち", "yamaguchi"]:
        yamaguchi, suzuki = _seat_of(event, "山口 健太"), _seat_of(event, "鈴木 一郎")
        assert admin_page.locator("#seated-players option").count() == 8  # the choices a phone offers as one types
        admin_page.fill("#swap-form [name=first]", typed)
        admin_page.fill("#swap-form [name=second]", "すずき")
        with admin_page.expect_navigation():  # the draft's page again, with this swap's message
            admin_page.click("#swap-form input[type=submit]")
        admin_page.wait_for_selector("text=swapped seats")
        assert (_seat_of(event, "山口 健太"), _seat_of(event, "鈴木 一郎")) == (suzuki, yamaguchi), typed


# --- 7. The player's page, hand by hand, in both languages -----------------------------------------------


@pytest.mark.parametrize(("viewport", "locale"), SCREENS, ids=SCREEN_IDS)
def test_each_hand_of_a_players_page_is_one_row_with_its_points(screen, make_event, seated_round, viewport, locale):
    from players.models import Player

    table = seated_round(make_event(4, is_public=True)).tables.get()
    long_names = [
        "山口 健太郎左衛門之助",
        "佐藤 花子左衛門之助",
        "鈴木 一郎左衛門之助",
        "高橋 美咲左衛門之助",
    ]
    for seat, name in zip(table.seats.order_by("position"), long_names, strict=True):
        Player.objects.filter(pk=seat.entry.player_id).update(display_name=name)
    for number, (winner, discarder) in enumerate([(1, 0), (2, 3), (0, 1)], start=1):
        hand_record(
            table=table,
            number=number,
            expected_version=0,
            data={
                "outcome": "ron",
                "dealer_position": 0,
                "honba": 0,
                "wins": [{"winner": winner, "discarder": discarder, "han": 3, "fu": 40}],
            },
        )
    entry = table.seats.get(position=0).entry
    page = screen(viewport, locale)
    page.goto(reverse("tournament:player", args=[table.round.event.slug, entry.pk]))
    rows = page.evaluate(
        "[...document.querySelectorAll('#hands li')].map(li => { const d = li.querySelector('.delta');"
        " const r = li.getBoundingClientRect(), p = d.getBoundingClientRect();"
        " return [d.textContent, p.top - r.top, r.bottom - p.bottom]; })"
    )
    assert len(rows) == 3
    for delta, from_top, to_bottom in rows:
        assert from_top < 12 and to_bottom >= -0.5, f"{delta} sits off its hand's row: {rows}"


# --- 8. The venue screen on a projector ------------------------------------------------------------------

PROJECTOR = {"width": 1920, "height": 1080}
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
# Every piece of text on the page: its size, and whether it is inside the screen.
TEXT_SIZES = """() => {
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.offsetParent || el.closest("script")) continue;
    const r = el.getBoundingClientRect();
    found.push([node.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(el).fontSize),
                r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1]);
  }
  return found;
}"""


def test_the_venue_screen_is_a_projector_page_that_turns_its_pages(screen, make_event, play_round):
    from tournament.services.rounds import round_create, round_timer_start

    # one event of 60 (built once: the page only reads it), on a projector in English and in Japanese
    event = make_event(60, is_public=True)
    play_round(event, RON)
    ids = list(event.entries.order_by("-id").values_list("id", flat=True))
    round_2 = round_create(event=event, tables=[ids[i : i + 4] for i in range(0, 60, 4)])
    round_timer_start(round_=round_2)
    hand_record(table=round_2.tables.get(number=1), number=1, expected_version=0, data=RON)  # a game going on
    for locale in ("en-US", "ja-JP"):
        venue_screen_checked(screen(PROJECTOR, locale), event, locale)


def venue_screen_checked(page, event, locale: str) -> None:
    page.goto(reverse("tournament:venue", args=[event.slug]))
    # the whole width, text readable from 10 m, the timer large, nothing to type
    width = page.evaluate("document.querySelector('#seating').getBoundingClientRect().width")
    assert width >= 0.9 * PROJECTOR["width"], width
    small = [(text, size) for text, size, _inside in page.evaluate(TEXT_SIZES) if size < 40]
    assert small == [], small
    assert page.evaluate("parseFloat(getComputedStyle(document.getElementById('timer')).fontSize)") >= 96
    assert page.locator("main input, main select, main textarea").count() == 0
    clipped = page.evaluate(
        "[...document.querySelectorAll('#seating td:first-child, #seating td.num')]"
        ".filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.textContent.trim())"
    )
    assert clipped == [], f"winds and points cut off: {clipped}"
    names_cut = page.evaluate(
        "[...document.querySelectorAll('#seating td:nth-child(2)')]"
        ".filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.textContent.trim())"
    )
    assert names_cut == [], f"names cut off: {names_cut}"
    # every page fits the screen; the seating's pages, then the standings' with 勝ち進み, then round again
    seen = []
    for _ in range(8):
        view = page.get_attribute("#venue", "data-next")
        outside = [text for text, _size, inside in page.evaluate(TEXT_SIZES) if not inside]
        assert outside == [], f"{page.url}: {outside}"
        seen.append(page.url.split("/venue/")[1] or "?view=seating&page=1")
        if page.locator("#venue-standings").count():
            headings = page.inner_text("#venue-standings thead")
            assert ("勝ち進み" if locale == "ja-JP" else "Advances") in headings
        page.goto(reverse("tournament:venue", args=[event.slug]) + view)
    assert seen[:7] == [
        "?view=seating&page=1",
        "?view=seating&page=2",
        "?view=standings&page=1",
        "?view=standings&page=2",
        "?view=standings&page=3",
        "?view=standings&page=4",
        "?view=seating&page=1",
    ]
    # and the page turns by itself
    page.clock.install()
    page.goto(reverse("tournament:venue", args=[event.slug]))
    page.clock.fast_forward(21000)
    page.wait_for_url("**/venue/?view=seating&page=2")


# --- 6. A game in progress, provisional --------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "locale"), SCREENS, ids=SCREEN_IDS)
def test_a_game_in_progress_shows_its_running_score_marked_provisional(
    screen, make_event, seated_round, viewport, locale
):
    from tournament.selectors import table_hand_sheet

    table = seated_round(make_event(4, is_public=True)).tables.get()
    event = table.round.event
    hands = [RON, {"outcome": "tsumo", "dealer_position": 1, "wins": [{"winner": 3, "han": 2, "fu": 30}]}]
    for number, hand in enumerate(hands, start=1):
        hand_record(table=table, number=number, expected_version=0, data=hand)
    provisional = "暫定" if locale == "ja-JP" else "provisional"
    page = screen(viewport, locale)

    def shown_points() -> list[int]:
        page.goto(reverse("tournament:round", args=[event.slug, 1]))
        card = page.locator("#seating .card").first
        assert provisional in card.inner_text()
        return [int(text) for text in card.locator(".provisional").all_inner_texts() if text.strip().isdigit()]

    assert shown_points() == table_hand_sheet(table).running[-1]
    # a third hand is on the next request, not after the cache expires
    hand_record(table=table, number=3, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 1})
    assert shown_points() == table_hand_sheet(table).running[-1]
    # and on the player's page, in the list of games
    seat = table.seats.get(position=3)
    page.goto(reverse("tournament:player", args=[event.slug, seat.entry_id]))
    row = page.inner_text("#games tr.in-progress")
    assert str(table_hand_sheet(table).running[-1][3]) in row and provisional in row, row
