"""The player across events and the series, in Chromium on a 390 px phone, in English and Japanese: the search
``/players/?q=`` typed as a person types (kanji, kana, romaji, club, EMA number; a player who opted out is
not found), the public profile ``/players/<id>/`` (events, places, points, wins, deal-ins and yaku, as the
selectors count them), the player's own switch that hides it, and a series' standings, CSV and ratings
(``/series/<slug>/``, ``/series/<slug>/rating/``) as the recompute stored them.

The data is made by the services: one event simulated hand by hand (``tournament.simulation.play``), one
whose hands name their yaku, one private event; the expected figures are read from the database and the
selectors, never written here by hand."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone, translation

from players.models import Player
from profiles import selectors as profile_selectors
from profiles.models import ProfileSetting
from scoring.calculator import YAKU_LABELS
from seasons import selectors as series_selectors
from seasons.engine import elo, ema_ranking
from seasons.models import Series, SeriesRating, SeriesStanding
from seasons.services import series_events_set
from tests.e2e.conftest import sign_in
from tests.e2e.test_japanese_tour import ALLOWED, LATIN_WORD, proper_nouns
from tests.e2e.waiting import until
from tests.fixtures.tournament import standard_ruleset_installed
from tests.profiles.test_selectors import RON, TSUMO
from tournament.models import Entry, Event, StandingsRow
from tournament.services.events import event_finish
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete, round_create
from tournament.simulation.play import event_create, event_simulate
from tournament.templatetags.taikai import points

# ``once``: the pages only read rows their services stored; the services themselves (the search folded in
# Python, the series recompute on the worker) are tested in both passes by tests/profiles and tests/seasons
pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LOCALES = ["en-US", "ja-JP"]
LOCALE_IDS = ["en", "ja"]
# Each flow runs in one of the two languages (the tours check every page's words in each): the languages alternate.
IN_JAPANESE = {"argvalues": ["ja-JP"], "ids": ["ja"]}
IN_ENGLISH = {"argvalues": ["en-US"], "ids": ["en"]}
PASSWORD = "profile-pw-1"
# The data's Latin words are allowed on a Japanese page (test_japanese_tour's proper_nouns): they are chosen
# to be no word of the interface (no "Open", "Club", "Cup"), so that they hide none left untranslated.
KYOTO = "Rakuhoku Jansou"
# A club whose members' names sort one way by their kanji (code points: 佐 渡 鈴 高) and another by their
# readings (gojūon: さ す た わ): the search lists them in the reader's order.
NANIWA = "Naniwa Janso Kai"
# Proper nouns and terms the Japanese catalogue keeps in Latin letters on purpose on the rating page: the EMA's
# ranking system (MERS) and the names of its two parts (msgstr "Part A", "Part B"), and the sources cited (the
# UK Mahjong Association, the riichi wiki).
RATING_TERMS = ("MERS", "Part", "UK", "Mahjong", "Association", "riichi", "wiki")

# The rows of a table as the browser renders them: each cell's text (a hidden cell's too: innerText gives the
# text of an element not rendered), its lines and spaces as one space.
TABLE_CELLS = """(table) => [...table.tBodies[0].rows].map(
  (row) => [...row.cells].map((cell) => cell.innerText.replace(/\\s+/g, " ").trim()))"""


@dataclass(frozen=True)
class World:
    yamada: Player  # in the simulated event, the event with yaku and a private one
    hidden: Player  # 山田 花子: in the simulated event, opted out of the public profile and the search
    simulated: Event
    with_yaku: Event
    private: Event
    series: Series


def named(display_name: str, reading: str, **fields) -> Player:
    return Player.objects.create(display_name=display_name, reading=reading, **fields)


def series_computed(series: Series, events: list[Event], wait_s: float = 20.0) -> Series:
    """The series once its recompute (queued after the events were finished and set) counted ``events``:
    at once in-process, or when the worker of the services pass has run it."""
    wanted = sorted(event.pk for event in events)

    def counted() -> bool:
        series.refresh_from_db()
        return sorted(e[0] for e in series.events_counted) == wanted

    until(counted, f"series {series.slug} counting events {wanted}", timeout_s=wait_s)
    return series


@pytest.fixture
def world(task_worker) -> World:
    ruleset = standard_ruleset_installed()
    today = timezone.localdate()
    yamada = named("山田 太郎", "やまだ たろう", club=KYOTO, country="JP", external_id="04130042")
    hidden = named("山田 花子", "やまだ はなこ", club=KYOTO, country="JP", external_id="04130077")
    others = [
        named("佐藤 一郎", "さとう いちろう", club=NANIWA, country="JP"),
        named("鈴木 次郎", "すずき じろう", club=NANIWA, country="JP"),
        named("高橋 三郎", "たかはし さぶろう", club=NANIWA, country="JP"),
        named("田中 四郎", "たなか しろう", country="JP"),
        named("伊藤 五郎", "いとう ごろう", club="Yamato Kai", country="JP"),
        named("渡辺 六郎", "わたなべ ろくろう", club=NANIWA, country="JP"),
    ]
    ProfileSetting.objects.create(player=hidden, listed=False)
    # an event of two rounds played hand by hand by the simulation: wins, deal-ins, places and points
    simulated = event_create(
        slug="kyoto-2026-haru",
        name="京都春季大会",
        players=[yamada, hidden, *others],
        ruleset=ruleset,
        planned_rounds=2,
        is_public=True,
        venue="京都",
        starts_on=today - timedelta(days=41),
        ends_on=today - timedelta(days=40),
    )
    event_simulate(simulated, rounds=2, seed=20260411)
    # an event whose hands name their yaku: Yamada (East's right, seat 1) wins a ron from seat 2, then a tsumo
    table_players = [others[0], yamada, others[1], others[2]]
    with_yaku = event_create(
        slug="osaka-2026-natsu",
        name="大阪夏の陣",
        players=table_players,
        ruleset=ruleset,
        planned_rounds=2,
        is_public=True,
        venue="大阪",
        starts_on=today - timedelta(days=10),
    )
    entries = {e.player_id: e.pk for e in with_yaku.entries.all()}
    for hand in (RON, TSUMO):
        round_ = round_create(event=with_yaku, tables=[[entries[p.pk] for p in table_players]])
        table = round_.tables.get()
        hand_record(table=table, number=1, expected_version=0, data=hand)
        table_finish(table=table, end_reason="time")
        round_complete(round_=round_)
    with_yaku = event_finish(event=with_yaku)
    # a private event: never on the profile nor in the series
    private = event_create(
        slug="himitsu-2026",
        name="非公開リーグ戦",
        players=[yamada, *others[:3]],
        ruleset=ruleset,
        planned_rounds=1,
        starts_on=today - timedelta(days=5),
    )
    series = Series.objects.create(name="関西リーグ 2026", slug="kansai-2026", rule="best_n", best_n=1)
    series_events_set(series=series, event_ids=[simulated.pk, with_yaku.pk, private.pk])
    series = series_computed(series, [simulated, with_yaku])
    return World(yamada, hidden, Event.objects.get(pk=simulated.pk), with_yaku, private, series)


# --- What every page is checked for -----------------------------------------------------------------------


def said(locale: str, message: str, **values) -> str:
    """What the page says for ``message`` in ``locale``'s language (from the catalog, as the page does)."""
    with translation.override(locale[:2]):
        text = translation.gettext(message)
    return text % values if values else text


def english_left_outside(page, allowed: set[str], leaving_out: str = "") -> list[str]:
    """The Latin words of the page (its title too) not ``allowed``, the text of ``leaving_out`` aside."""
    text = page.inner_text("body")
    for part in page.locator(leaving_out).all_inner_texts() if leaving_out else ():
        assert part in text, part
        text = text.replace(part, " ", 1)
    text += " " + page.title()
    return sorted({word for word in LATIN_WORD.findall(text) if word.casefold() not in allowed})


def reads_right(page, locale: str, *, extra_names: tuple[str, ...] = (), leaving_out: str = "") -> None:
    """The page is in the browser's language, fits a 390 px phone (no sideways scrolling) and, in Japanese,
    shows no English word of the interface (data and codes aside, as in test_japanese_tour; ``extra_names``:
    more of them). ``leaving_out``: a selector whose text the English check skips (its defect has a test)."""
    assert page.locator("html").get_attribute("lang") == locale[:2], page.url
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url}: {width} px wide on a {PHONE['width']} px phone"
    if locale == "ja-JP":
        allowed = {w.casefold() for w in ALLOWED} | proper_nouns()
        allowed |= {w.casefold() for name in extra_names for w in LATIN_WORD.findall(name)}
        words = english_left_outside(page, allowed, leaving_out)
        assert words == [], f"{page.url}: English left: {' '.join(words)}"


def table_cells(page, selector: str) -> list[list[str]]:
    return page.locator(selector).evaluate(TABLE_CELLS)


def search(page, typed: str) -> list[str]:
    """Type ``typed`` in the search box and send it with Enter, as on a phone's keyboard; the names found."""
    page.fill("#q", typed)
    with page.expect_navigation():
        page.press("#q", "Enter")
    assert page.input_value("#q") == typed
    return page.locator("#found li a").all_inner_texts()


def found_by_selector(typed: str, locale: str) -> list[str]:
    """The names the search selector finds for ``typed``, in the order of ``locale``'s reader."""
    with translation.override(locale[:2]):
        return [p.display_name for p in profile_selectors.players_search(typed)]


def profile_url(player: Player) -> str:
    return reverse("profiles:player", args=[player.pk])


# --- 1. The search --------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", **IN_JAPANESE)
def test_the_search_finds_by_kanji_kana_romaji_club_and_ema_number_never_an_opted_out_player(screen, world, locale):
    yamada, hidden = world.yamada, world.hidden
    page = screen(PHONE, locale)
    page.goto(reverse("profiles:search"))
    reads_right(page, locale)
    assert page.locator("#found").count() == 0  # nothing typed: no list
    for typed in ("山田", "やまだ", "ヤマダ タロウ", "yamada taro", "rakuhoku", yamada.external_id):
        found = search(page, typed)
        # then the page lists exactly what the search selector finds, Yamada Tarō among them, never Hanako
        assert found == found_by_selector(typed, locale), typed
        assert yamada.display_name in found and hidden.display_name not in found, (typed, found)
        reads_right(page, locale)
    # a club finds every one of its members, in the reader's order: by reading in Japanese, by name in English
    found = search(page, "naniwa janso")
    members = Player.objects.filter(club=NANIWA)
    key = (lambda p: p.reading) if locale == "ja-JP" else (lambda p: p.display_name)
    assert found == found_by_selector("naniwa janso", locale) == [p.display_name for p in sorted(members, key=key)]
    reads_right(page, locale)
    # the player who opted out: neither by name nor by EMA number
    for typed in (hidden.display_name, hidden.reading, hidden.external_id):
        assert search(page, typed) == [], typed
        assert page.inner_text("#found") == said(locale, "Nobody found.")
    # a result leads to the player's profile
    search(page, yamada.external_id)
    page.locator("#found a", has_text=yamada.display_name).first.click()  # the name may sit in a span of its language
    page.wait_for_url(f"**{profile_url(yamada)}")
    assert page.inner_text("h1").startswith(yamada.display_name)
    reads_right(page, locale)


# --- 2. The profile -------------------------------------------------------------------------------------


def expected_event_rows(player: Player) -> tuple[list[list[str]], profile_selectors.HandCounts]:
    """The profile's rows of events and the sum of its hand counts, from the selectors and the stored
    standings; the cells written as the template writes them."""
    entries = list(profile_selectors.player_public_entries(player))
    counts = profile_selectors.entries_hand_counts(entries)
    total = profile_selectors.HandCounts()
    rows = []
    for entry in entries:
        event, standing = entry.event, StandingsRow.objects.get(entry=entry)
        assert (entry.standing_rank, entry.standing_total_points) == (standing.rank, standing.total_points)
        dates = event.starts_on.isoformat()
        if event.ends_on and event.ends_on != event.starts_on:
            dates += f" – {event.ends_on.isoformat()}"
        tally = counts[entry.pk]
        total.add(tally)
        rows.append(
            [
                f"{event.name} {event.venue}".strip(),
                dates,
                str(standing.rank),
                points(standing.total_points),
                str(tally.wins),
                str(tally.deal_ins),
            ]
        )
    return rows, total


@pytest.mark.parametrize("locale", **IN_ENGLISH)
def test_the_profile_shows_events_places_points_and_hands_as_the_selectors_count_them(screen, world, locale):
    yamada = world.yamada
    page = screen(PHONE, locale)
    # given a visitor who found Yamada Tarō by his EMA number
    page.goto(reverse("profiles:search"))
    search(page, yamada.external_id)
    page.locator("#found a", has_text=yamada.display_name).first.click()  # the name may sit in a span of its language
    page.wait_for_url(f"**{profile_url(yamada)}")
    reads_right(page, locale)
    # then the header names him, his reading, club and EMA number
    assert page.inner_text("h1") == f"{yamada.display_name} {yamada.reading}"
    assert yamada.club in page.inner_text("main") and yamada.external_id in page.inner_text("main")
    # and each public event, newest first, with its place, points, wins and deal-ins
    rows, total = expected_event_rows(yamada)
    assert table_cells(page, "#events") == rows
    assert [r[0] for r in rows] == [f"{e.name} {e.venue}" for e in (world.with_yaku, world.simulated)]
    assert world.private.name not in page.inner_text("main")
    # and the hands of both events, by tsumo, by ron, the deal-ins 放銃 and the yaku of his wins
    shown = [int(n) for n in page.locator("#hands strong").all_inner_texts()]
    assert shown == [total.wins, total.tsumo, total.ron, total.deal_ins]
    assert total.wins >= 2 and total.yaku  # the event with yaku: a ron and a tsumo
    with translation.override(locale[:2]):
        yaku = [[str(YAKU_LABELS.get(key, key)), str(count)] for key, count in total.yaku_rows]
    assert table_cells(page, "#yaku") == yaku
    assert page.locator("#yaku th").first.inner_text() == said(locale, "Yaku")
    # the hidden player's profile is no page for a visitor
    assert page.goto(profile_url(world.hidden)).status == 404
    # and an event's link leads to the player's page of that event
    page.goto(profile_url(yamada))
    page.click(f"#events a:text-is('{world.with_yaku.name}')")
    entry = Entry.objects.get(event=world.with_yaku, player=yamada)
    page.wait_for_url(f"**{reverse('tournament:player', args=[world.with_yaku.slug, entry.pk])}")
    assert yamada.display_name in page.inner_text("main")


@pytest.mark.parametrize("locale", **IN_ENGLISH)
def test_the_player_hides_their_profile_from_visitors_and_the_search_and_shows_it_again(screen, world, locale):
    yamada = world.yamada
    user = User.objects.create_user("taro", password=PASSWORD)
    Player.objects.filter(pk=yamada.pk).update(user=user)
    User.objects.create_user("kuroda", password=PASSWORD)
    visitor = screen(PHONE, locale)
    assert visitor.goto(profile_url(yamada)).status == 200
    assert visitor.locator("#listed").count() == 0  # no switch for a visitor
    # another account sees no switch, and a post from its browser is refused and changes nothing
    stranger = screen(PHONE, locale)
    sign_in(
        stranger,
        f"/accounts/login/?next={profile_url(yamada)}",
        "kuroda",
        PASSWORD,
        submit="#login-form button[type=submit]",
        then="#events",
    )
    assert stranger.locator("#listed").count() == 0
    token = next(c["value"] for c in stranger.context.cookies() if c["name"] == "csrftoken")
    refused = stranger.request.post(
        reverse("profiles:player_listed", args=[yamada.pk]),
        form={"csrfmiddlewaretoken": token, "listed": "0"},
        headers={"Referer": stranger.url},
    )
    assert refused.status == 403 and profile_selectors.player_is_listed(yamada.pk)
    # when Yamada signs in, opens his profile and hides it
    own = screen(PHONE, locale)
    sign_in(
        own,
        f"/accounts/login/?next={profile_url(yamada)}",
        "taro",
        PASSWORD,
        submit="#login-form button[type=submit]",
        then="#listed",
    )
    reads_right(own, locale)
    assert own.inner_text("#listed span") == said(locale, "Your profile is public.")
    with own.expect_navigation():
        own.click("#listed button")
    # then he still sees it, told it is hidden, and nobody else does: the page is gone, the search leaves him out
    assert own.inner_text(".messages li.success") == said(locale, "Your profile is hidden: only you see it.")
    assert own.locator("#listed button").inner_text() == said(locale, "Show my profile")
    assert not profile_selectors.player_is_listed(yamada.pk)
    reads_right(own, locale)
    assert visitor.goto(profile_url(yamada)).status == 404
    assert stranger.goto(profile_url(yamada)).status == 404
    visitor.goto(reverse("profiles:search"))
    for typed in ("山田", "yamada", yamada.external_id):
        assert search(visitor, typed) == [], typed
    # when he shows it again, it is public again
    with own.expect_navigation():
        own.click("#listed button")
    assert own.inner_text(".messages li.success") == said(locale, "Your profile is public.")
    assert profile_selectors.player_is_listed(yamada.pk)
    assert visitor.goto(profile_url(yamada)).status == 200
    visitor.goto(reverse("profiles:search"))
    assert yamada.display_name in search(visitor, yamada.external_id)


# --- 3. The series --------------------------------------------------------------------------------------


def menu(page, locale: str, label: str):
    """The link of the series' menu named ``label`` in the page's language."""
    return page.locator("nav.event").get_by_role("link", name=said(locale, label), exact=True)


def standings_rows(series: Series) -> list[list[str]]:
    """The stored series standings as the page writes them: rank, name, total, events, then each counted
    event's points (place)."""
    counted = [e[0] for e in series.events_counted]
    rows = []
    for row in series_selectors.series_standings_all(series):
        by_event = {cell[0]: cell for cell in row.results}
        cells = [f"{points(by_event[e][2])} ({by_event[e][1]})" if e in by_event else "—" for e in counted]
        rows.append([str(row.rank), row.name, points(row.total), str(row.events), *cells])
    return rows


@pytest.mark.parametrize("locale", **IN_JAPANESE)
def test_the_series_standings_csv_and_ratings_show_the_stored_rows_and_link_to_each_other(screen, world, locale):
    series = world.series
    page = screen(PHONE, locale)
    page.goto(reverse("seasons:standings", args=[series.slug]))
    reads_right(page, locale, extra_names=RATING_TERMS)
    assert page.inner_text("h1") == series.name
    # the standings: the stored rows, every player of the two public events and none of the private one only
    shown = table_cells(page, "#series")
    assert shown == standings_rows(series)
    players = set(
        Entry.objects.filter(event__in=[world.simulated, world.with_yaku]).values_list("player_id", flat=True)
    )
    assert {row.player_id for row in SeriesStanding.objects.filter(series=series)} == players
    assert len(shown) == len(players) == series.standings_count
    assert [e[1] for e in series.events_counted] == [world.simulated.name, world.with_yaku.name]
    for row in SeriesStanding.objects.filter(series=series):  # each event's points: the event's own standings
        for event_id, _place, event_points, _value, _counted in row.results:
            standing = StandingsRow.objects.get(event_id=event_id, entry__player_id=row.player_id)
            assert Fraction(event_points) == standing.total_points, (row.name, event_id)
    assert world.private.name not in page.content()
    with translation.override(locale[:2]):
        rule = translation.ngettext(
            "Rule: the points of each player's best event.",
            "Rule: the points of each player's best %(n)s events.",
            series.best_n,
        )
    assert page.inner_text("#rule") == rule % {"n": series.best_n}
    # the CSV, from its link: every stored row
    with page.expect_download() as download:
        menu(page, locale, "Standings (CSV)").click()
    assert download.value.suggested_filename == f"{series.slug}_series.csv"
    lines = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert lines[0][:4] == ["rank", "player", "total", "events"]
    assert [line[:4] for line in lines[1:]] == [
        [str(r.rank), r.name, str(r.total), str(r.events)] for r in series_selectors.series_standings_all(series)
    ]
    # the ratings, from the series' menu: the EMA projection, its rows and how it is computed
    with page.expect_navigation():
        menu(page, locale, "Ratings").click()
    assert page.url.endswith(reverse("seasons:rating", args=[series.slug]))
    reads_right(page, locale, extra_names=RATING_TERMS, leaving_out="#maths .formula")
    ema = series_selectors.series_ratings_all(series, SeriesRating.Kind.EMA)
    assert table_cells(page, "#ratings") == [
        [str(r.rank), r.name, r.shown, r.detail["part_a"], r.detail["part_b"], str(r.count)] for r in ema
    ]
    assert page.inner_text("#maths h3") == said(locale, "How the EMA ranking projection is computed")
    maths = page.inner_text("#maths")
    unranked = (
        "A player with fewer than %(min_to_rank)s results of weight above 0 is not ranked. Fewer than "
        "%(min_results)s results: results of 0 with weight 1 are added up to %(min_results)s."
    )
    assert said(locale, unranked, min_to_rank=ema_ranking.MIN_TO_RANK, min_results=ema_ranking.MIN_RESULTS) in maths
    assert f"{said(locale, 'over the best')} {ema_ranking.PART_B_RESULTS}" in maths
    assert page.locator("#maths .formula").count() == 4
    # the Elo by placement, from its tab: its rows and its formulas
    with page.expect_navigation():
        page.get_by_role("link", name=said(locale, "Elo by placement"), exact=True).click()
    reads_right(page, locale, extra_names=RATING_TERMS, leaving_out="#maths .formula")
    assert page.locator(".kinds a[aria-current='page']").get_attribute("href") == "?kind=elo"
    rated = series_selectors.series_ratings_all(series, SeriesRating.Kind.ELO)
    assert table_cells(page, "#ratings") == [[str(r.rank), r.name, r.shown, str(r.count)] for r in rated]
    assert page.inner_text("#maths h3") == said(locale, "How the Elo rating by placement is computed")
    maths = page.inner_text("#maths")
    change = (
        "A player's change in a game is the sum over the other players, all from the ratings before the game. "
        "Everyone starts at %(start)s; K = %(k)s. Dividing by n − 1 makes a whole game worth one two-player "
        "game: a first place among equals gains at most K."
    )
    assert said(locale, change, start=int(elo.START), k=int(elo.K)) in maths
    assert f"/ {int(elo.SCALE)}))" in maths
    # and back to the standings from the menu
    with page.expect_navigation():
        menu(page, locale, "Series standings").click()
    assert page.url.endswith(reverse("seasons:standings", args=[series.slug]))
    assert table_cells(page, "#series") == shown


def test_the_rating_formulas_read_in_japanese(screen, standard_ruleset):
    # given a public series (its maths are shown before anything is computed)
    series = Series.objects.create(name="関西リーグ 2026", slug="kansai-2026")
    page = screen(PHONE, "ja-JP")
    allowed = {w.casefold() for w in (*ALLOWED, *RATING_TERMS)}
    found = {}
    for kind in SeriesRating.Kind.values:
        # when a Japanese phone opens each rating's page
        page.goto(reverse("seasons:rating", args=[series.slug]) + f"?kind={kind}")
        assert page.locator("#maths .formula").count() >= 2
        # then its formulas name their terms in Japanese, as the sentences around them do
        words = LATIN_WORD.findall(" ".join(page.locator("#maths .formula").all_inner_texts()))
        found[kind] = [word for word in words if word.casefold() not in allowed]
    assert found == {kind: [] for kind in SeriesRating.Kind.values}


# --- 4. Namesakes in the search -------------------------------------------------------------------------


def public_history(player: Player) -> tuple[Event, int]:
    """The newest public event ``player`` entered and how many public events they entered, read here from the
    entries (not through the selector the page uses)."""
    events = sorted(
        (entry.event for entry in Entry.objects.filter(player=player, event__is_public=True).select_related("event")),
        key=lambda event: (event.starts_on, event.pk),
        reverse=True,
    )
    return events[0], len(events)


def events_counted(locale: str, count: int) -> str:
    with translation.override(locale[:2]):
        return translation.ngettext("%(count)s event", "%(count)s events", count) % {"count": count}


def test_namesakes_found_by_the_search_are_told_apart_by_club_country_latest_event_and_events(screen):
    """Three stored players 鈴木 一郎 read すずき いちろう, two of them with no club: each row of the search shows
    the club and country, the newest public event (name, date) and how many public events, never a private
    event, never a player who hid their profile."""
    ruleset = standard_ruleset_installed()
    today = timezone.localdate()
    ichiro = [
        named("鈴木 一郎", "すずき いちろう", club=NANIWA, country="JP"),
        named("鈴木 一郎", "すずき いちろう", country="JP"),
        named("鈴木 一郎", "すずき いちろう", country="JP"),
    ]
    hidden = named("鈴木 一郎", "すずき いちろう", country="JP")
    ProfileSetting.objects.create(player=hidden, listed=False)

    def event(slug: str, name: str, days_ago: int, players: list[Player], *, public: bool = True) -> Event:
        made = Event.objects.create(
            slug=slug, name=name, ruleset=ruleset, is_public=public, starts_on=today - timedelta(days=days_ago)
        )
        for player in players:
            Entry.objects.create(event=made, player=player)
        return made

    event("sapporo-2025", "札幌雪まつり杯", 400, [ichiro[1], hidden])
    event("nagoya-2026", "名古屋名人戦", 90, [ichiro[0], ichiro[1]])
    event("kobe-2026", "神戸港杯", 30, [ichiro[2], hidden])
    private = event("himitsu-2026", "非公開リーグ戦", 3, [ichiro[2]], public=False)
    errors: list[str] = []
    page = screen(PHONE, "ja-JP")
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(reverse("profiles:search"))
    # when a visitor on a Japanese phone looks for "suzuki"
    found = search(page, "suzuki")
    # then the three public namesakes are listed, the hidden one is not, and no two rows read alike
    assert found == ["鈴木 一郎"] * 3
    rows = page.locator("#found li").all_inner_texts()
    assert len(set(rows)) == 3, rows
    by_link = {page.locator("#found li").nth(i).locator("a").get_attribute("href"): rows[i] for i in range(3)}
    for player in ichiro:
        row = by_link[profile_url(player)]
        latest, count = public_history(player)
        assert latest.name in row and latest.starts_on.isoformat() in row, row
        assert events_counted("ja-JP", count) in row, row
        assert (player.club or "") in row and player.country in row, row
    assert private.name not in page.inner_text("#found")
    reads_right(page, "ja-JP")
    assert errors == []
